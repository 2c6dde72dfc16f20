import { Config, ConfigProvider, Effect, Option, Redacted } from "effect"

/**
 * Which traces are kept, as OpenTelemetry's samplers decide: `parentbased_*` follows a sampled
 * or unsampled `traceparent` from the caller and decides itself only for a trace that starts
 * here; the others decide every trace alike. `ratio` is the share of traces kept (0 to 1).
 */
export type Sampler = {
  readonly parentBased: boolean
  readonly ratio: number
}

export interface TracingSettings {
  /** Where spans are POSTed (OTLP/HTTP JSON): the traces endpoint itself. */
  readonly tracesUrl: string
  readonly serviceName: string
  /** OTEL_RESOURCE_ATTRIBUTES, decoded: `deployment.environment=prod,service.namespace=booking`. */
  readonly resourceAttributes: Readonly<Record<string, string>>
  /** OTEL_EXPORTER_OTLP_(TRACES_)HEADERS: a collector's or vendor's credentials. */
  readonly headers: Redacted.Redacted<Readonly<Record<string, string>>>
  readonly sampler: Sampler
  /** OTEL_BSP_SCHEDULE_DELAY: how long spans wait to be sent in one batch. */
  readonly exportIntervalMs: number
}

const invalid = (message: string) => Effect.fail(new Config.ConfigError(new ConfigProvider.SourceError({ message })))

const otlpUrl = (name: string) =>
  Config.String(name).pipe(
    Config.mapEffect((raw) => {
      try {
        const url = new URL(raw)
        if (url.protocol === "http:" || url.protocol === "https:") return Effect.succeed(url)
      } catch {}
      return invalid(`${name} must be an absolute http(s) URL (the OTLP/HTTP receiver)`)
    }),
    Config.option
  )

/** `key=value,key2=value2`, each part percent-decoded, as the OpenTelemetry variables write lists. */
export const parseKeyValueList = (raw: string): Option.Option<Record<string, string>> => {
  const entries: Record<string, string> = {}
  for (const part of raw.split(",")) {
    if (part.trim() === "") continue
    const at = part.indexOf("=")
    if (at <= 0) return Option.none()
    try {
      entries[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim())
    } catch {
      return Option.none()
    }
  }
  return Option.some(entries)
}

const keyValueList = (name: string, secret: boolean) =>
  Config.Redacted(name).pipe(
    Config.mapEffect((raw) =>
      Option.match(parseKeyValueList(Redacted.value(raw)), {
        onSome: Effect.succeed,
        onNone: () =>
          invalid(
            `${name} must be key=value pairs separated by commas (percent-encoded)${secret ? "" : `, got "${Redacted.value(raw)}"`}`
          )
      })
    ),
    Config.option
  )

const samplerNames = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio"
] as const

const samplerArg = Config.Finite("OTEL_TRACES_SAMPLER_ARG").pipe(
  Config.mapEffect((ratio) =>
    ratio >= 0 && ratio <= 1 ? Effect.succeed(ratio) : invalid("OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1")
  ),
  Config.withDefault(1)
)

const sampler = Config.all({
  name: Config.Literals(samplerNames, "OTEL_TRACES_SAMPLER").pipe(Config.withDefault("parentbased_always_on" as const)),
  ratio: samplerArg
}).pipe(
  Config.map(
    ({ name, ratio }): Sampler => ({
      parentBased: name.startsWith("parentbased_"),
      ratio: name.endsWith("always_on") ? 1 : name.endsWith("always_off") ? 0 : ratio
    })
  )
)

/**
 * Tracing is on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or
 * OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces` added), unless OTEL_SDK_DISABLED=true or
 * OTEL_TRACES_EXPORTER=none say otherwise; off, nothing else here is read.
 */
export const tracingConfig: Config.Config<Option.Option<TracingSettings>> = Config.all({
  tracesEndpoint: otlpUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  endpoint: otlpUrl("OTEL_EXPORTER_OTLP_ENDPOINT"),
  disabled: Config.Boolean("OTEL_SDK_DISABLED").pipe(Config.withDefault(false)),
  exporter: Config.Literals(["otlp", "none"], "OTEL_TRACES_EXPORTER").pipe(Config.withDefault("otlp" as const))
}).pipe(
  Config.flatMap(({ tracesEndpoint, endpoint, disabled, exporter }) => {
    const url = Option.orElse(tracesEndpoint, () =>
      Option.map(endpoint, (base) => new URL(`${base.pathname.replace(/\/+$/, "")}/v1/traces`, base))
    )
    if (Option.isNone(url) || disabled || exporter === "none") return Config.succeed(Option.none<TracingSettings>())
    return Config.all({
      serviceName: Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault("home-service-booking-api")),
      resourceAttributes: keyValueList("OTEL_RESOURCE_ATTRIBUTES", false),
      tracesHeaders: keyValueList("OTEL_EXPORTER_OTLP_TRACES_HEADERS", true),
      headers: keyValueList("OTEL_EXPORTER_OTLP_HEADERS", true),
      sampler,
      exportIntervalMs: Config.Int("OTEL_BSP_SCHEDULE_DELAY").pipe(
        Config.mapEffect((ms) =>
          ms >= 1 && ms <= 600_000
            ? Effect.succeed(ms)
            : invalid("OTEL_BSP_SCHEDULE_DELAY must be an integer from 1 to 600000 (milliseconds)")
        ),
        Config.withDefault(5000)
      )
    }).pipe(
      Config.map(({ tracesHeaders, headers, resourceAttributes, ...settings }) =>
        Option.some<TracingSettings>({
          ...settings,
          tracesUrl: url.value.href,
          resourceAttributes: Option.getOrElse(resourceAttributes, () => ({})),
          headers: Redacted.make(
            Option.getOrElse(
              Option.orElse(tracesHeaders, () => headers),
              () => ({})
            )
          )
        })
      )
    )
  })
)
