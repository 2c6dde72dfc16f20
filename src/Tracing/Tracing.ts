import { Context, Duration, Effect, Fiber, Layer, Option, Redacted, Tracer } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as OtlpExporter from "effect/observability/OtlpExporter"
import * as OtlpSerialization from "effect/observability/OtlpSerialization"
import * as OtlpTracer from "effect/observability/OtlpTracer"
import { summaryOf } from "./SqlSummary.js"
import type { Sampler, TracingSettings } from "./TracingConfig.js"

/**
 * Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT is set). Read once, where a layer is
 * built: the code that only tracing needs (the request span, SQL spans on DirectQuery, the
 * partner on the request span) is put in place then, so with tracing off none of it runs.
 */
export const TracingOn = Context.Reference<boolean>("Tracing/On", { defaultValue: () => false })

/** The span of the request being served, for what is learnt about it on the way (its partner). */
export const RequestSpan = Context.Reference<Tracer.Span | undefined>("Tracing/RequestSpan", {
  defaultValue: () => undefined
})

/**
 * The spans a trace may start with: a request, and the work the background loops do for one
 * (a webhook delivery, an e-mail, a calendar fetch). Anything else with no parent (a loop's poll
 * for due work, a token refresh) is not kept: a trace per poll would bury the ones that matter.
 */
export const traceRoots: ReadonlySet<string> = new Set(["Webhooks.attempt", "Email.send", "Calendar.fetch"])

/** The last 14 hex digits of a trace id as a fraction: OpenTelemetry's TraceIdRatioBased sampler. */
const traceIdFraction = (traceId: string) => Number.parseInt(traceId.slice(-14), 16) / 2 ** 56

const keeps = (sampler: Sampler, traceId: string) =>
  sampler.ratio >= 1 ? true : sampler.ratio <= 0 ? false : traceIdFraction(traceId) < sampler.ratio

const draws = (sampler: Sampler) => sampler.ratio >= 1 || Math.random() < sampler.ratio

/**
 * The exporting tracer, with the sampler's decision made for each trace where it starts: a span
 * of a local parent follows it, a `traceparent` from the caller is followed by `parentbased_*`
 * and decided by its trace id otherwise, and a new trace is decided by a random draw (the trace
 * id is drawn later, from Effect's own generator).
 */
export const sampling = (exporting: Tracer.Tracer, sampler: Sampler): Tracer.Tracer =>
  Tracer.make({
    span(options) {
      const parent = Option.getOrUndefined(options.parent)
      const sampled =
        parent === undefined
          ? (options.kind === "server" || traceRoots.has(options.name)) && draws(sampler)
          : parent._tag === "Span" || sampler.parentBased
            ? parent.sampled
            : keeps(sampler, parent.traceId)
      const span = exporting.span({ ...options, sampled })
      return sampled && options.kind === "client" ? withSqlSummary(span) : span
    },
    ...(exporting.context === undefined ? {} : { context: exporting.context })
  })

/**
 * Effect's own statement spans carry the statement's text (placeholders, never the values); the
 * operation and the table it names are added beside it, as the OpenTelemetry database
 * conventions name them, and name the span, so a trace reads "SELECT bookings".
 */
const withSqlSummary = (span: Tracer.Span): Tracer.Span => {
  const attribute = span.attribute.bind(span)
  span.attribute = (key, value) => {
    attribute(key, value)
    if (key === "db.query.text" && typeof value === "string") {
      const summary = summaryOf(value)
      attribute("db.operation.name", summary.operation)
      attribute("db.query.summary", summary.summary)
      // Effect names the span after the database (`db.namespace`, "postgres" for a URL); it is
      // named by its summary, as DirectQuery's statements are and OpenTelemetry prefers. The
      // exporter reads the name when the span ends.
      ;(span as { name: string }).name = summary.summary
    }
  }
  return span
}

/** Spans exported over OTLP/HTTP as JSON, batched every OTEL_BSP_SCHEDULE_DELAY, flushed at stop. */
export const tracingLayer = (settings: TracingSettings) => {
  const exporting = OtlpTracer.make({
    url: settings.tracesUrl,
    resource: { serviceName: settings.serviceName, attributes: settings.resourceAttributes },
    headers: Redacted.value(settings.headers),
    exportInterval: Duration.millis(settings.exportIntervalMs)
  })
  return Layer.effect(
    Tracer.Tracer,
    Effect.map(exporting, (tracer) => sampling(tracer, settings.sampler))
  ).pipe(
    Layer.provide([OtlpExporter.layerFlusher, OtlpSerialization.layerJson, FetchHttpClient.layer]),
    Layer.merge(Layer.succeed(TracingOn, true))
  )
}

const traceparentOf = (span: Tracer.AnySpan | undefined) =>
  span === undefined || span._tag !== "Span"
    ? undefined
    : `00-${span.traceId.padStart(32, "0")}-${span.spanId}-${span.sampled ? "01" : "00"}`

/**
 * The W3C `traceparent` of the current span, for a request this server sends (a webhook
 * delivery), so the receiver's spans join the trace; none when nothing is traced.
 */
export const currentTraceparent: Effect.Effect<string | undefined> = Effect.withFiber((fiber) =>
  Effect.succeed(
    fiber.getRef(TracingOn) ? traceparentOf(Context.getOrUndefined(fiber.context, Tracer.ParentSpan)) : undefined
  )
)

/** The same, for code that builds a statement outside an effect (inside `Effect.sync`). */
export const runningTraceparent = (): string | undefined => {
  const fiber = Fiber.getCurrent()
  return fiber === undefined || !fiber.getRef(TracingOn)
    ? undefined
    : traceparentOf(Context.getOrUndefined(fiber.context, Tracer.ParentSpan))
}

const traceparentFormat = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0([01])$/

/** A stored `traceparent` as the parent of a span made later, by this process or another one. */
export const parentOf = (traceparent: string | null): Tracer.ExternalSpan | undefined => {
  const parts = traceparent === null ? null : traceparentFormat.exec(traceparent)
  return parts === null
    ? undefined
    : Tracer.externalSpan({ traceId: parts[1]!, spanId: parts[2]!, sampled: parts[3] === "1" })
}
