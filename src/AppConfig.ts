import { readFileSync } from "node:fs"
import { Config, ConfigProvider, Context, Effect, Layer, Option, Redacted, Result } from "effect"
import { parseSigningKeys, type SigningKey } from "./Domain/BookingOption.js"
import { parseTrustProxy, type TrustProxy } from "./Domain/TrustProxy.js"
import { tracingConfig } from "./Tracing/TracingConfig.js"

/** Beyond the statement timeout, how long a server that says nothing at all is waited for. */
export const databaseSilenceMarginMs = 500

/**
 * A variable's value refused with the message an operator reads ("Invalid configuration: …"),
 * naming the variable; Effect 4's ConfigError carries it as the source's message.
 */
const invalid = (message: string) => Effect.fail(new Config.ConfigError(new ConfigProvider.SourceError({ message })))

/** The value, or `message` (naming the variable) when `validation` refuses it. */
const validate =
  <A>(options: { readonly message: string; readonly validation: (a: A) => boolean }) =>
  (self: Config.Config<A>) =>
    Config.mapEffect(self, (a) => (options.validation(a) ? Effect.succeed(a) : invalid(options.message)))

const appEnv = Config.Literals(["development", "production"], "APP_ENV").pipe(
  Config.withDefault("development" as const)
)

const host = Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))

const httpUrl = (name: string) =>
  Config.String(name).pipe(
    Config.mapEffect((raw) => {
      try {
        const url = new URL(raw)
        if (url.protocol === "http:" || url.protocol === "https:") return Effect.succeed(raw.replace(/\/+$/, ""))
      } catch {}
      return invalid(`${name} must be an absolute http(s) URL, got "${raw}"`)
    })
  )

/**
 * A secret URL of one of `schemes` (and a host, where `needsHost`), or none when unset. The message
 * never repeats the value: such a URL may carry a password.
 */
const secretUrl = (name: string, schemes: ReadonlyArray<string>, message: string, needsHost = false) =>
  Config.Redacted(name).pipe(
    Config.mapEffect((secret) => {
      try {
        const url = new URL(Redacted.value(secret))
        if (schemes.includes(url.protocol) && (!needsHost || url.hostname !== "")) return Effect.succeed(secret)
      } catch {}
      return invalid(message)
    }),
    Config.option
  )

const postgresUrl = secretUrl(
  "DATABASE_URL",
  ["postgres:", "postgresql:"],
  "DATABASE_URL must be a postgres:// or postgresql:// URL"
)

const smtpUrl = secretUrl("SMTP_URL", ["smtp:", "smtps:"], "SMTP_URL must be an smtp:// or smtps:// URL")

const integerFrom = (name: string, min: number, max: number) =>
  Config.Int(name).pipe(
    validate({
      message: `${name} must be an integer from ${min} to ${max}`,
      validation: (n) => n >= min && n <= max
    })
  )

const boundedInteger = (name: string, min: number, max: number, fallback: number) =>
  integerFrom(name, min, max).pipe(Config.withDefault(fallback))

// 0 asks the system for a free port; the start log says which (tests).
const port = boundedInteger("PORT", 0, 65535, 8080)

const perMinute = (name: string, fallback: number) => boundedInteger(name, 1, 100_000, fallback)

const redisUrl = secretUrl(
  "REDIS_URL",
  ["redis:", "rediss:"],
  "REDIS_URL must be a redis:// or rediss:// (TLS) URL, e.g. rediss://user:password@host:6380/0",
  true
)

/** The certificates (PEM) that a rediss:// server's certificate is checked against, read at start. */
const redisTlsCa = Config.String("REDIS_TLS_CA_FILE").pipe(
  Config.mapEffect((path) => {
    try {
      const pem = readFileSync(path, "utf8")
      if (pem.includes("-----BEGIN CERTIFICATE-----")) return Effect.succeed(pem)
      return invalid(`REDIS_TLS_CA_FILE must be a PEM file of CA certificates; ${path} holds none`)
    } catch (error) {
      return invalid(
        `REDIS_TLS_CA_FILE could not be read (${(error as NodeJS.ErrnoException).code ?? "error"}): ${path}`
      )
    }
  }),
  Config.option
)

/** Comma-separated; blanks are ignored so a trailing comma is harmless. */
const tokenList = (name: string) =>
  Config.Redacted(name).pipe(
    Config.map((secret) =>
      Redacted.value(secret)
        .split(",")
        .map((token) => token.trim())
        .filter((token) => token.length > 0)
        .map((token) => Redacted.make(token))
    ),
    Config.withDefault([] as ReadonlyArray<Redacted.Redacted<string>>)
  )

export const appConfig = Config.all({
  appEnv,
  port,
  host,
  dataDir: Config.String("DATA_DIR").pipe(Config.withDefault("./.data")),
  databaseUrl: postgresUrl,
  publicBaseUrl: httpUrl("PUBLIC_BASE_URL").pipe(Config.option),
  apiTokens: tokenList("SERVICE_REQUESTS_API_TOKENS"),
  sandboxApiTokens: tokenList("SANDBOX_API_TOKENS"),
  authMode: Config.Literals(["open", "tokens"], "AUTH_MODE").pipe(Config.option),
  demoSupply: Config.Boolean("DEMO_SUPPLY").pipe(Config.option),
  logFormat: Config.Literals(["json", "pretty"], "LOG_FORMAT").pipe(Config.option),
  rateLimitSearchPerMinute: perMinute("RATE_LIMIT_SEARCH_PER_MINUTE", 120),
  rateLimitConfirmPerMinute: perMinute("RATE_LIMIT_CONFIRM_PER_MINUTE", 30),
  rateLimitRequestsPerMinute: perMinute("RATE_LIMIT_REQUESTS_PER_MINUTE", 30),
  redisUrl,
  redisTlsCa,
  rateLimitStoreTimeoutMs: boundedInteger("RATE_LIMIT_STORE_TIMEOUT_MS", 10, 10_000, 250),
  rateLimitInstances: boundedInteger("RATE_LIMIT_INSTANCES", 1, 1000, 2),
  metricsToken: Config.Redacted("METRICS_TOKEN").pipe(Config.option),
  trustProxy: Config.String("TRUST_PROXY").pipe(
    Config.withDefault(""),
    Config.mapEffect((raw) => {
      const parsed = parseTrustProxy(raw)
      return parsed.ok ? Effect.succeed<TrustProxy>(parsed.trust) : invalid(parsed.message)
    })
  ),
  optionSigningKeys: Config.Redacted("BOOKING_OPTION_SIGNING_KEYS").pipe(
    Config.mapEffect((raw) =>
      Result.match(parseSigningKeys(Redacted.value(raw)), {
        onSuccess: Effect.succeed,
        onFailure: (problem) =>
          invalid(`BOOKING_OPTION_SIGNING_KEYS must be kid:secret,kid2:secret2 (the first key signs): ${problem}`)
      })
    ),
    Config.withDefault([] as ReadonlyArray<SigningKey>)
  ),
  optionTtlSeconds: boundedInteger("BOOKING_OPTION_TTL_SECONDS", 30, 86400, 900),
  holdTtlSeconds: boundedInteger("HOLD_TTL_SECONDS", 60, 1800, 600),
  holdMaxActivePerPartner: boundedInteger("HOLD_MAX_ACTIVE_PER_PARTNER", 1, 1000, 20),
  holdMaxActiveAnonymous: boundedInteger("HOLD_MAX_ACTIVE_ANONYMOUS", 1, 1000, 3),
  smtpUrl,
  notifyFrom: Config.String("NOTIFY_FROM").pipe(Config.withDefault("Bokning <bokning@localhost>")),
  notifyWaitMs: boundedInteger("NOTIFY_WAIT_MS", 0, 10_000, 2000),
  notifyGiveUpHours: boundedInteger("NOTIFY_GIVE_UP_HOURS", 1, 168, 24),
  notifyPollMs: boundedInteger("NOTIFY_POLL_MS", 10, 600_000, 5000),
  /** How long a customer's personal data is kept after the slot's end, the cancellation or a request's last change. */
  personalDataRetentionDays: boundedInteger("PERSONAL_DATA_RETENTION_DAYS", 1, 3650, 180),
  webhookPollMs: boundedInteger("WEBHOOK_POLL_MS", 10, 600_000, 1000),
  webhookTimeoutMs: boundedInteger("WEBHOOK_TIMEOUT_MS", 100, 30_000, 10_000),
  databasePoolSize: boundedInteger("DATABASE_POOL_SIZE", 1, 1000, 10),
  databaseConnectTimeoutMs: boundedInteger("DATABASE_CONNECT_TIMEOUT_MS", 100, 60_000, 2000),
  databaseStatementTimeoutMs: boundedInteger("DATABASE_STATEMENT_TIMEOUT_MS", 100, 600_000, 3000),
  databaseRequestBudgetMs: integerFrom("DATABASE_REQUEST_BUDGET_MS", 100, 600_000).pipe(Config.option),
  shutdownGraceMs: boundedInteger("SHUTDOWN_GRACE_MS", 0, 600_000, 10_000),
  httpHeadersTimeoutMs: boundedInteger("HTTP_HEADERS_TIMEOUT_MS", 100, 600_000, 10_000),
  httpRequestTimeoutMs: boundedInteger("HTTP_REQUEST_TIMEOUT_MS", 100, 3_600_000, 30_000),
  httpKeepAliveTimeoutMs: boundedInteger("HTTP_KEEP_ALIVE_TIMEOUT_MS", 100, 600_000, 5000),
  httpMaxConnections: boundedInteger("HTTP_MAX_CONNECTIONS", 1, 1_000_000, 1000),
  httpMaxConnectionsPerAddress: integerFrom("HTTP_MAX_CONNECTIONS_PER_ADDRESS", 1, 1_000_000).pipe(Config.option),
  calendarFeedKey: Config.Redacted("CALENDAR_FEED_KEY").pipe(Config.option),
  calendarImportIntervalMinutes: boundedInteger("CALENDAR_IMPORT_INTERVAL_MINUTES", 1, 1440, 10),
  calendarImportTimeoutMs: boundedInteger("CALENDAR_IMPORT_TIMEOUT_MS", 100, 120_000, 10_000),
  calendarImportMaxBytes: boundedInteger("CALENDAR_IMPORT_MAX_BYTES", 1024, 20_000_000, 5_000_000),
  // Traces over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set; the OpenTelemetry variables.
  tracing: tracingConfig
}).pipe(
  Config.mapEffect((config) =>
    config.appEnv === "production" && Option.getOrElse(config.demoSupply, () => false)
      ? invalid("DEMO_SUPPLY cannot be enabled when APP_ENV=production")
      : Effect.succeed(config)
  ),
  Config.map((config) => ({
    ...config,
    demoSupply: Option.getOrElse(config.demoSupply, () => config.appEnv === "development"),
    logFormat: Option.getOrElse(config.logFormat, () => (config.appEnv === "production" ? "json" : "pretty")),
    publicBaseUrl: Option.getOrElse(config.publicBaseUrl, () => `http://${hostForUrl(config.host)}:${config.port}`),
    publicBaseUrlConfigured: Option.isSome(config.publicBaseUrl),
    httpMaxConnectionsPerAddress: Option.getOrElse(config.httpMaxConnectionsPerAddress, () =>
      defaultConnectionsPerAddress(config.httpMaxConnections)
    ),
    // By default one statement's worst case: a connection waited for, then a silent server given up.
    databaseRequestBudgetMs: Option.getOrElse(
      config.databaseRequestBudgetMs,
      () => config.databaseConnectTimeoutMs + config.databaseStatementTimeoutMs + databaseSilenceMarginMs
    )
  })),
  Config.mapEffect((config) =>
    config.httpMaxConnectionsPerAddress > config.httpMaxConnections
      ? invalid(
          `HTTP_MAX_CONNECTIONS_PER_ADDRESS (${config.httpMaxConnectionsPerAddress}) must not exceed HTTP_MAX_CONNECTIONS (${config.httpMaxConnections}): it is one address's share of them`
        )
      : Effect.succeed(config)
  ),
  Config.mapEffect((config) =>
    Option.isSome(config.redisTlsCa) &&
    !Option.exists(config.redisUrl, (url) => Redacted.value(url).toLowerCase().startsWith("rediss:"))
      ? invalid("REDIS_TLS_CA_FILE is for a rediss:// REDIS_URL: with redis:// nothing would be encrypted")
      : Effect.succeed(config)
  ),
  Config.mapEffect((config) =>
    config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs
      ? invalid("HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS: the headers are part of the request")
      : Effect.succeed(config)
  ),
  Config.mapEffect((config) =>
    config.appEnv === "production" && Option.isNone(config.databaseUrl)
      ? invalid(
          "APP_ENV=production requires DATABASE_URL: the embedded PostgreSQL is for development only and is never started in production"
        )
      : Effect.succeed(config)
  ),
  Config.mapEffect((config) =>
    config.appEnv === "production" && Option.getOrUndefined(config.authMode) === "open"
      ? invalid("AUTH_MODE=open is for development only: production always needs tokens")
      : Effect.succeed(config)
  ),
  Config.mapEffect((config) => {
    const live = new Set(config.apiTokens.map(Redacted.value))
    return config.sandboxApiTokens.some((token) => live.has(Redacted.value(token)))
      ? invalid(
          "SANDBOX_API_TOKENS must not repeat a token of SERVICE_REQUESTS_API_TOKENS: a token is live or sandbox, never both"
        )
      : Effect.succeed(config)
  }),
  Config.mapEffect((config) =>
    config.appEnv === "production" && !config.publicBaseUrlConfigured
      ? invalid(
          "APP_ENV=production requires PUBLIC_BASE_URL: fallback links must be an address partners can reach, not the bind address"
        )
      : Effect.succeed(config)
  )
)

/**
 * One address's share of the connections when HTTP_MAX_CONNECTIONS_PER_ADDRESS is not set: a
 * tenth, so an address holding all it may still leaves nine tenths to everyone else.
 */
export const defaultConnectionsPerAddress = (maxConnections: number) => Math.max(1, Math.ceil(maxConnections / 10))

/** How HOST appears in a URL: a wildcard bind is reached on loopback, IPv6 goes in brackets. */
export const hostForUrl = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

/** `NAME=` (as `.env` files write it) means unset, for every variable alike. */
const providerOf = (env: Readonly<Record<string, string | undefined>>) =>
  ConfigProvider.fromEnvRecord(
    Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => (entry[1] ?? "").trim() !== ""))
  )

const readFrom = (env: Readonly<Record<string, string | undefined>>) => appConfig.parse(providerOf(env))

type AppConfigValues = typeof appConfig extends Config.Config<infer A> ? A : never

export class AppConfig extends Context.Service<AppConfig, AppConfigValues>()("Booking/AppConfig") {
  static readonly Default = Layer.effect(
    AppConfig,
    Effect.suspend(() => readFrom(process.env))
  )
}

/** AppConfig read from an explicit environment instead of the process's (tests, tools). */
export const appConfigFrom = (env: Readonly<Record<string, string>>) => Layer.effect(AppConfig, readFrom(env))
