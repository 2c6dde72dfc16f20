import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option, Redacted, Result } from "effect"
import { AppConfig, appConfig, appConfigFrom } from "../src/AppConfig.js"

const load = (env: Record<string, string>) => Effect.result(appConfig.parse(ConfigProvider.fromEnvRecord(env)))

const failure = (env: Record<string, string>) =>
  Effect.map(load(env), (result) => (Result.isFailure(result) ? String(result.failure) : "loaded"))

describe("AppConfig", () => {
  it.effect("defaults: development, 127.0.0.1:8080, ./.data, embedded database, no tokens, demo supply", () =>
    Effect.gen(function* () {
      const config = yield* Effect.flatMap(load({}), Result.match({ onFailure: Effect.die, onSuccess: Effect.succeed }))
      expect(config).toMatchObject({
        appEnv: "development",
        host: "127.0.0.1",
        port: 8080,
        dataDir: "./.data",
        publicBaseUrl: "http://127.0.0.1:8080",
        apiTokens: [],
        demoSupply: true
      })
      expect(Option.isNone(config.databaseUrl)).toBe(true)
    })
  )

  it.effect("tokens are split on commas, trimmed, and kept Redacted", () =>
    Effect.gen(function* () {
      const result = yield* load({ SERVICE_REQUESTS_API_TOKENS: " one-token , two-token,," })
      const config = Result.getOrThrow(result)
      expect(config.apiTokens.map(Redacted.value)).toEqual(["one-token", "two-token"])
      expect(String(config.apiTokens[0])).toBe("<redacted>")
    })
  )

  it.effect("PUBLIC_BASE_URL defaults from HOST and PORT, and loses a trailing slash when given", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* load({ HOST: "0.0.0.0", PORT: "9090" })).publicBaseUrl).toBe(
        "http://127.0.0.1:9090"
      )
      expect(Result.getOrThrow(yield* load({ PUBLIC_BASE_URL: "https://api.example.se/" })).publicBaseUrl).toBe(
        "https://api.example.se"
      )
    })
  )

  it.effect("an invalid value fails with a message naming the variable", () =>
    Effect.gen(function* () {
      expect(yield* failure({ PORT: "eighty" })).toContain("PORT")
      expect(yield* failure({ PORT: "70000" })).toContain("PORT")
      expect(yield* failure({ APP_ENV: "staging" })).toContain("APP_ENV")
      expect(yield* failure({ PUBLIC_BASE_URL: "not a url" })).toContain("PUBLIC_BASE_URL")
      expect(yield* failure({ DATABASE_URL: "mysql://x@y/z" })).toContain("DATABASE_URL")
      expect(yield* failure({ DEMO_SUPPLY: "maybe" })).toContain("DEMO_SUPPLY")
    })
  )

  it.effect("the operating limits have documented defaults, and a bad one names its variable", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* load({}))).toMatchObject({
        shutdownGraceMs: 10_000,
        httpHeadersTimeoutMs: 10_000,
        httpRequestTimeoutMs: 30_000,
        httpKeepAliveTimeoutMs: 5000,
        httpMaxConnections: 1000,
        databasePoolSize: 10,
        databaseConnectTimeoutMs: 2000,
        databaseStatementTimeoutMs: 3000,
        databaseRequestBudgetMs: 5500,
        rateLimitStoreTimeoutMs: 250,
        rateLimitInstances: 2
      })
      // The database budget follows the two timeouts unless it is set.
      expect(
        Result.getOrThrow(yield* load({ DATABASE_CONNECT_TIMEOUT_MS: "1000", DATABASE_STATEMENT_TIMEOUT_MS: "1000" }))
          .databaseRequestBudgetMs
      ).toBe(2500)
      expect(Result.getOrThrow(yield* load({ DATABASE_REQUEST_BUDGET_MS: "4000" })).databaseRequestBudgetMs).toBe(4000)
      expect(Result.getOrThrow(yield* load({ PORT: "0" })).port).toBe(0)
      for (const variable of [
        "SHUTDOWN_GRACE_MS",
        "HTTP_MAX_CONNECTIONS",
        "DATABASE_STATEMENT_TIMEOUT_MS",
        "DATABASE_REQUEST_BUDGET_MS",
        "RATE_LIMIT_STORE_TIMEOUT_MS",
        "RATE_LIMIT_INSTANCES"
      ]) {
        expect(yield* failure({ [variable]: "-1" })).toContain(variable)
      }
      expect(yield* failure({ HTTP_HEADERS_TIMEOUT_MS: "60000", HTTP_REQUEST_TIMEOUT_MS: "30000" })).toContain(
        "HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS"
      )
    })
  )

  it.effect(
    "REDIS_URL is redis:// or rediss://, with a user and password; a refusal never repeats the URL; a CA file needs rediss://",
    () =>
      Effect.gen(function* () {
        for (const url of ["redis://127.0.0.1:6379/0", "rediss://app:s3cr%40t@redis.internal:6380/2"]) {
          const config = Result.getOrThrow(yield* load({ REDIS_URL: url }))
          expect(Option.map(config.redisUrl, Redacted.value)).toEqual(Option.some(url))
        }
        const refused = yield* failure({ REDIS_URL: "http://app:hunter2-password@redis.internal" })
        expect(refused).toContain("REDIS_URL must be a redis:// or rediss:// (TLS) URL")
        expect(refused).not.toContain("hunter2-password")

        const dir = mkdtempSync(join(tmpdir(), "booking-config-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const ca = join(dir, "ca.pem")
        writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")
        const secure = Result.getOrThrow(
          yield* load({ REDIS_URL: "rediss://redis.internal:6380", REDIS_TLS_CA_FILE: ca })
        )
        expect(Option.isSome(secure.redisTlsCa)).toBe(true)
        expect(yield* failure({ REDIS_URL: "redis://redis.internal:6379", REDIS_TLS_CA_FILE: ca })).toContain(
          "REDIS_TLS_CA_FILE is for a rediss:// REDIS_URL"
        )
        expect(
          yield* failure({ REDIS_URL: "rediss://redis.internal", REDIS_TLS_CA_FILE: join(dir, "none.pem") })
        ).toContain("REDIS_TLS_CA_FILE could not be read (ENOENT)")
      }).pipe(Effect.scoped)
  )

  it.effect("personal data is kept 180 days unless PERSONAL_DATA_RETENTION_DAYS says otherwise (1 to 3650)", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* load({})).personalDataRetentionDays).toBe(180)
      expect(Result.getOrThrow(yield* load({ PERSONAL_DATA_RETENTION_DAYS: "30" })).personalDataRetentionDays).toBe(30)
      for (const bad of ["0", "3651", "half a year"]) {
        expect(yield* failure({ PERSONAL_DATA_RETENTION_DAYS: bad })).toContain("PERSONAL_DATA_RETENTION_DAYS")
      }
    })
  )

  it.effect("production without DATABASE_URL refuses, saying why", () =>
    Effect.gen(function* () {
      const message = yield* failure({ APP_ENV: "production" })
      expect(message).toContain("DATABASE_URL")
      expect(message).toContain("embedded PostgreSQL is for development only")
    })
  )

  it.effect("production without PUBLIC_BASE_URL refuses: a fallback link must be one partners can follow", () =>
    Effect.gen(function* () {
      const message = yield* failure({ APP_ENV: "production", DATABASE_URL: "postgres://u@db.internal/booking" })
      expect(message).toContain("APP_ENV=production requires PUBLIC_BASE_URL")
    })
  )

  it.effect("production never loads the demo supply and refuses to be told to", () =>
    Effect.gen(function* () {
      const env = {
        APP_ENV: "production",
        PUBLIC_BASE_URL: "https://api.example.se",
        DATABASE_URL: "postgres://u@db.internal/booking"
      }
      expect(Result.getOrThrow(yield* load(env)).demoSupply).toBe(false)
      expect(yield* failure({ ...env, DEMO_SUPPLY: "true" })).toContain("DEMO_SUPPLY")
    })
  )

  it.effect("a variable set to the empty string counts as unset, as .env files write NAME=", () =>
    Effect.gen(function* () {
      const config = yield* Effect.provide(
        AppConfig,
        appConfigFrom({ DATABASE_URL: "", PORT: " ", PUBLIC_BASE_URL: "", DEMO_SUPPLY: "", APP_ENV: "" })
      )
      expect(Option.isNone(config.databaseUrl)).toBe(true)
      expect(config).toMatchObject({ port: 8080, appEnv: "development", demoSupply: true })
    })
  )

  it.effect("holds: HOLD_TTL_SECONDS 60 to 1800 (600), HOLD_MAX_ACTIVE_PER_PARTNER (20), the anonymous cap (3)", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* load({}))).toMatchObject({
        holdTtlSeconds: 600,
        holdMaxActivePerPartner: 20,
        holdMaxActiveAnonymous: 3
      })
      expect(
        Result.getOrThrow(
          yield* load({ HOLD_TTL_SECONDS: "60", HOLD_MAX_ACTIVE_PER_PARTNER: "5", HOLD_MAX_ACTIVE_ANONYMOUS: "1" })
        )
      ).toMatchObject({ holdTtlSeconds: 60, holdMaxActivePerPartner: 5, holdMaxActiveAnonymous: 1 })
      expect(Result.getOrThrow(yield* load({ HOLD_TTL_SECONDS: "1800" })).holdTtlSeconds).toBe(1800)
      for (const [variable, value] of [
        ["HOLD_TTL_SECONDS", "59"],
        ["HOLD_TTL_SECONDS", "1801"],
        ["HOLD_TTL_SECONDS", "ten"],
        ["HOLD_MAX_ACTIVE_PER_PARTNER", "0"],
        ["HOLD_MAX_ACTIVE_ANONYMOUS", "0"]
      ] as const) {
        expect(yield* failure({ [variable]: value }), `${variable}=${value}`).toContain(variable)
      }
    })
  )

  it.effect("AUTH_MODE is open or tokens, and open is refused in production", () =>
    Effect.gen(function* () {
      const production = {
        APP_ENV: "production",
        PUBLIC_BASE_URL: "https://api.example.se",
        DATABASE_URL: "postgres://u@db.internal/booking"
      }
      expect(Result.getOrThrow(yield* load({})).authMode).toEqual(Option.none())
      expect(Result.getOrThrow(yield* load({ AUTH_MODE: "tokens" })).authMode).toEqual(Option.some("tokens"))
      expect(Result.getOrThrow(yield* load({ ...production, AUTH_MODE: "tokens" })).authMode).toEqual(
        Option.some("tokens")
      )
      expect(yield* failure({ AUTH_MODE: "closed" })).toContain("AUTH_MODE")
      expect(yield* failure({ ...production, AUTH_MODE: "open" })).toContain("AUTH_MODE=open is for development only")
    })
  )

  it.effect("SANDBOX_API_TOKENS are read like the live tokens and may not repeat one of them", () =>
    Effect.gen(function* () {
      const config = Result.getOrThrow(yield* load({ SANDBOX_API_TOKENS: "sandbox-one, sandbox-two," }))
      expect(config.sandboxApiTokens.map(Redacted.value)).toEqual(["sandbox-one", "sandbox-two"])
      expect(String(config.sandboxApiTokens[0])).toBe("<redacted>")
      expect(
        yield* failure({ SERVICE_REQUESTS_API_TOKENS: "shared-token", SANDBOX_API_TOKENS: "other, shared-token" })
      ).toContain("SANDBOX_API_TOKENS must not repeat a token of SERVICE_REQUESTS_API_TOKENS")
    })
  )

  it.effect("TRUST_PROXY names proxies or a hop count; the old true is refused with what to write instead", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* load({})).trustProxy).toEqual({ _tag: "None" })
      expect(Result.getOrThrow(yield* load({ TRUST_PROXY: "loopback,10.0.0.0/8" })).trustProxy).toEqual({
        _tag: "Addresses",
        addresses: ["loopback", "10.0.0.0/8"]
      })
      expect(Result.getOrThrow(yield* load({ TRUST_PROXY: "2" })).trustProxy).toEqual({ _tag: "Hops", hops: 2 })
      const refused = yield* failure({ TRUST_PROXY: "true" })
      expect(refused).toContain("TRUST_PROXY=true is no longer accepted")
      expect(refused).toContain("TRUST_PROXY=loopback")
      expect(yield* failure({ TRUST_PROXY: "proxy.internal" })).toContain("TRUST_PROXY")
    })
  )

  it.effect("HTTP_MAX_CONNECTIONS_PER_ADDRESS is a tenth of HTTP_MAX_CONNECTIONS unless set, and never more", () =>
    Effect.gen(function* () {
      expect(Result.getOrThrow(yield* load({})).httpMaxConnectionsPerAddress).toBe(100)
      expect(Result.getOrThrow(yield* load({ HTTP_MAX_CONNECTIONS: "5" })).httpMaxConnectionsPerAddress).toBe(1)
      expect(
        Result.getOrThrow(yield* load({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "250" })).httpMaxConnectionsPerAddress
      ).toBe(250)
      expect(yield* failure({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0" })).toContain("HTTP_MAX_CONNECTIONS_PER_ADDRESS")
      expect(yield* failure({ HTTP_MAX_CONNECTIONS: "50", HTTP_MAX_CONNECTIONS_PER_ADDRESS: "51" })).toContain(
        "HTTP_MAX_CONNECTIONS_PER_ADDRESS (51) must not exceed HTTP_MAX_CONNECTIONS (50)"
      )
    })
  )

  it.effect(
    "tracing is off unless an OTLP endpoint is set; OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none keep it off",
    () =>
      Effect.gen(function* () {
        const tracing = (env: Record<string, string>) => Effect.map(load(env), (r) => Result.getOrThrow(r).tracing)
        expect(Option.isNone(yield* tracing({}))).toBe(true)
        expect(Option.isNone(yield* tracing({ OTEL_SERVICE_NAME: "booking", OTEL_TRACES_SAMPLER: "always_off" }))).toBe(
          true
        )
        const on = yield* tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })
        expect(Option.getOrThrow(on)).toMatchObject({
          tracesUrl: "http://collector:4318/v1/traces",
          serviceName: "home-service-booking-api",
          resourceAttributes: {},
          sampler: { parentBased: true, ratio: 1 },
          exportIntervalMs: 5000
        })
        expect(Redacted.value(Option.getOrThrow(on).headers)).toEqual({})
        const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/otlp/" }
        expect(Option.getOrThrow(yield* tracing(base)).tracesUrl).toBe("http://collector:4318/otlp/v1/traces")
        expect(
          Option.getOrThrow(yield* tracing({ ...base, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/x" }))
            .tracesUrl
        ).toBe("https://traces.example/x")
        expect(Option.isNone(yield* tracing({ ...base, OTEL_SDK_DISABLED: "true" }))).toBe(true)
        expect(Option.isNone(yield* tracing({ ...base, OTEL_TRACES_EXPORTER: "none" }))).toBe(true)
      })
  )

  it.effect("tracing follows the OpenTelemetry variables: service, resource, headers, sampler and its ratio", () =>
    Effect.gen(function* () {
      const base = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }
      const settings = Option.getOrThrow(
        Result.getOrThrow(
          yield* load({
            ...base,
            OTEL_SERVICE_NAME: "booking-api",
            OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod, service.namespace=booking%20se",
            OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20secret-1",
            OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
            OTEL_TRACES_SAMPLER_ARG: "0.25",
            OTEL_BSP_SCHEDULE_DELAY: "200"
          })
        ).tracing
      )
      expect(settings).toMatchObject({
        serviceName: "booking-api",
        resourceAttributes: { "deployment.environment": "prod", "service.namespace": "booking se" },
        sampler: { parentBased: true, ratio: 0.25 },
        exportIntervalMs: 200
      })
      expect(Redacted.value(settings.headers)).toEqual({ authorization: "Bearer secret-1" })
      expect(String(settings.headers)).toBe("<redacted>")
      const sampler = (name: string, arg?: string) =>
        Effect.map(
          load({ ...base, OTEL_TRACES_SAMPLER: name, ...(arg === undefined ? {} : { OTEL_TRACES_SAMPLER_ARG: arg }) }),
          (r) => Option.getOrThrow(Result.getOrThrow(r).tracing).sampler
        )
      expect(yield* sampler("always_off")).toEqual({ parentBased: false, ratio: 0 })
      expect(yield* sampler("traceidratio", "0.1")).toEqual({ parentBased: false, ratio: 0.1 })
      expect(yield* sampler("parentbased_always_on", "0.1")).toEqual({ parentBased: true, ratio: 1 })
      expect(yield* failure({ ...base, OTEL_TRACES_SAMPLER: "sometimes" })).toContain("OTEL_TRACES_SAMPLER")
      expect(yield* failure({ ...base, OTEL_TRACES_SAMPLER_ARG: "1.5" })).toContain("OTEL_TRACES_SAMPLER_ARG")
      expect(yield* failure({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toContain("OTEL_EXPORTER_OTLP_ENDPOINT")
      expect(yield* failure({ ...base, OTEL_RESOURCE_ATTRIBUTES: "no-equals-sign" })).toContain(
        "OTEL_RESOURCE_ATTRIBUTES"
      )
      const badHeaders = yield* failure({ ...base, OTEL_EXPORTER_OTLP_HEADERS: "secret-value-without-key" })
      expect(badHeaders).toContain("OTEL_EXPORTER_OTLP_HEADERS")
      expect(badHeaders).not.toContain("secret-value-without-key")
    })
  )
})
