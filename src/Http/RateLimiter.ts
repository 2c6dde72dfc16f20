import { Clock, Context, Duration, Effect, Layer, Metric, Option, Redacted } from "effect"
import * as HttpApp from "effect/http/HttpEffect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as Limiter from "effect/persistence/RateLimiter"
import type { Redis } from "ioredis"
import { AppConfig } from "../AppConfig.js"
import { RateLimited } from "../Domain/Errors.js"
import { Partner } from "../Domain/Partner.js"
import { requestClientAddressOf } from "./ClientAddress.js"
import { rateLimited, rateLimitStoreFailures } from "./Metrics.js"

import { type LimitedEndpoint, limitedEndpoints } from "./RateLimitClass.js"

export { type LimitedEndpoint, limitedEndpoints }

/** What a refusal counts, in words: "at most 2 follow-up requests per minute". */
const countedAs: Record<LimitedEndpoint, string> = {
  search: "searches",
  confirm: "confirmations",
  requests: "follow-up requests"
}

/** Keys kept by the in-process store; beyond this the oldest are dropped. */
export const memoryStoreCapacity = 10_000

/** A store failure, as the limiter reports it. */
const storeError = (message: string, cause?: unknown) =>
  new Limiter.RateLimiterError({
    reason: new Limiter.RateLimitStoreError(cause === undefined ? { message } : { message, cause })
  })

/** The limiter counts in fixed windows only; the store's other algorithms are refused. */
const onlyFixedWindows = Effect.fail(storeError("only fixed windows are kept"))
const otherAlgorithms = {
  tokenBucket: () => onlyFixedWindows,
  adaptiveConsume: () => onlyFixedWindows,
  adaptiveFeedback: () => onlyFixedWindows
}

/**
 * The library's memory store never forgets a key; this one drops expired keys and, at capacity,
 * the oldest, so a flood of client addresses cannot grow it without bound.
 */
export const boundedMemoryStore = Layer.sync(Limiter.RateLimiterStore, () => {
  const counters = new Map<string, { count: number; expiresAt: number }>()
  const makeRoom = () => {
    if (counters.size < memoryStoreCapacity) return
    const now = Date.now()
    for (const [key, value] of counters) if (value.expiresAt <= now) counters.delete(key)
    for (const key of counters.keys()) {
      if (counters.size < memoryStoreCapacity) break
      counters.delete(key)
    }
  }
  return Limiter.RateLimiterStore.of({
    fixedWindow: (options) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const now = clock.currentTimeMillisUnsafe()
          let counter = counters.get(options.key)
          if (!counter || counter.expiresAt <= now) {
            makeRoom()
            counter = { count: 0, expiresAt: now }
            counters.delete(options.key)
            counters.set(options.key, counter)
          }
          if (options.limit && counter.count + options.tokens > options.limit) {
            return [counter.count + options.tokens, counter.expiresAt - now] as const
          }
          counter.count += options.tokens
          counter.expiresAt += Duration.toMillis(options.refillRate) * options.tokens
          return [counter.count, counter.expiresAt - now] as const
        })
      ),
    ...otherAlgorithms
  })
})

/** The library's fixed-window script: a count per key that expires with its window. */
const fixedWindowScript = `
local key = KEYS[1]
local tokens = tonumber(ARGV[1])
local refillms = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local current = tonumber(redis.call("GET", key))

if not current then
  local nextpttl = refillms * tokens
  redis.call("SET", key, tokens, "PX", nextpttl)
  return { tokens, nextpttl }
end

local currentpttl = tonumber(redis.call("PTTL", key) or "0")
local next = current + tokens
if limit and next > limit then
  return { next, currentpttl }
end

local nextpttl = currentpttl + (refillms * tokens)
redis.call("SET", key, next, "PX", nextpttl)
return { next, nextpttl }
`

interface RedisWithFixedWindow extends Redis {
  fixedWindow(key: string, tokens: number, refillMillis: number, limit?: number): Promise<[number, number]>
}

/** One log line when the shared store stops answering, one when it answers again. */
const outageLog = (where: string, whileDown: string) => {
  let down = false
  return {
    failed: (reason: string) =>
      Effect.suspend(() => {
        if (down) return Effect.void
        down = true
        return Effect.logWarning(`Redis at ${where} does not answer (${reason}); ${whileDown} until it does`)
      }),
    answered: Effect.suspend(() => {
      if (!down) return Effect.void
      down = false
      return Effect.logInfo(`Redis at ${where} answers again; rate limits are shared again`)
    })
  }
}

interface RedisStoreOptions {
  readonly url: Redacted.Redacted
  /** CA certificates (PEM) a rediss:// server's certificate must chain to; else the system's. */
  readonly tlsCa: Option.Option<string>
  readonly timeout: Duration.Duration
  readonly keyPrefix: string
  readonly whileDown: string
}

/**
 * REDIS_URL shares the counts between instances. The library's Redis store is not used: it
 * queues commands while Redis is down, leaves the client's errors unheard (a stack trace per
 * attempt) and closes with QUIT, which a dead Redis never answers. Here a command is refused at
 * once while Redis is not connected, given up after the store timeout (the connection is then
 * made again), and an outage is logged once with host and port only.
 */
const redisStore = ({ url, tlsCa, timeout, keyPrefix, whileDown }: RedisStoreOptions) =>
  Layer.effect(
    Limiter.RateLimiterStore,
    Effect.gen(function* () {
      const parsed = new URL(Redacted.value(url))
      const where = `${parsed.hostname}:${parsed.port || 6379}`
      // Loaded only when REDIS_URL is set (a few MB); bundled, only the CommonJS default is sure.
      const ioredis = yield* Effect.promise(() => import("ioredis"))
      const Redis = ioredis.Redis ?? ioredis.default
      const redis = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const client = new Redis(Redacted.value(url), {
            ...(Option.isSome(tlsCa) ? { tls: { ca: tlsCa.value } } : {}),
            connectTimeout: 1000,
            enableOfflineQueue: false,
            maxRetriesPerRequest: 0,
            // While Redis is down the client reconnects at most every 10 s.
            retryStrategy: (attempt: number) => Math.min(attempt * 500, 10_000)
          }) as RedisWithFixedWindow
          // Heard from the first moment: an unheard error is printed by the client with its stack.
          client.on("error", () => {})
          return client
        }),
        (redis) => Effect.sync(() => redis.disconnect())
      )
      redis.defineCommand("fixedWindow", { lua: fixedWindowScript, numberOfKeys: 1 })
      const outage = outageLog(where, whileDown)
      // The first requests should find the connection made: the start waits for it, up to a second.
      const firstAttempt = yield* Effect.callback<string>((resume) => {
        const settle = (outcome: string) => {
          clearTimeout(timer)
          redis.off("ready", onReady)
          redis.off("error", onError)
          resume(Effect.succeed(outcome))
        }
        const onReady = () => settle("ready")
        const onError = (error: NodeJS.ErrnoException) => settle(error.code ?? error.message)
        const timer = setTimeout(() => settle("no answer within 1 s"), 1000)
        redis.once("ready", onReady)
        redis.once("error", onError)
      })
      if (firstAttempt !== "ready") yield* outage.failed(firstAttempt)
      const runFork = Effect.runForkWith(yield* Effect.context<never>())
      redis.on("error", (error: NodeJS.ErrnoException) => runFork(outage.failed(error.code ?? error.message)))
      redis.on("ready", () => runFork(outage.answered))

      return Limiter.RateLimiterStore.of({
        fixedWindow: (options) =>
          Effect.tryPromise({
            try: () =>
              redis.fixedWindow(
                `${keyPrefix}${options.key}`,
                options.tokens,
                Duration.toMillis(options.refillRate),
                options.limit
              ),
            catch: (cause) =>
              storeError(redis.status === "ready" ? String(cause) : `not connected (${redis.status})`, cause)
          }).pipe(
            Effect.timeout(timeout),
            Effect.catchTag("TimeoutError", () =>
              // Commands given up would otherwise pile up on a connection that never answers.
              Effect.sync(() => redis.disconnect(true)).pipe(
                Effect.andThen(Effect.fail(storeError(`no answer within ${Duration.format(timeout)}`)))
              )
            ),
            Effect.tapError((error) => outage.failed(error.message)),
            Effect.tap(() => outage.answered)
          ),
        ...otherAlgorithms
      })
    })
  )

/**
 * The store: Redis when REDIS_URL is set (shared by all instances), else bounded memory. Keys in
 * Redis start with `keyPrefix`, so tests sharing one Redis keep their counts apart.
 */
export const rateLimitStoreWith = (keyPrefix: string) =>
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      Option.match(config.redisUrl, {
        onNone: () => boundedMemoryStore,
        onSome: (url) =>
          redisStore({
            url,
            tlsCa: config.redisTlsCa,
            timeout: Duration.millis(config.rateLimitStoreTimeoutMs),
            keyPrefix,
            whileDown:
              config.rateLimitInstances === 1
                ? "each instance counts on its own, at the full limits,"
                : `each instance counts on its own, at 1/${config.rateLimitInstances} of each limit (RATE_LIMIT_INSTANCES),`
          })
      })
    )
  )

export const RateLimitStoreLive = rateLimitStoreWith("booking-api:ratelimit:")

/** RateLimit and RateLimit-Policy of the IETF httpapi draft, on every limited response. */
const headersOf = (policy: string, limit: number, remaining: number, resetSeconds: number) => ({
  "ratelimit-policy": `"${policy}";q=${limit};w=60`,
  ratelimit: `"${policy}";r=${remaining};t=${resetSeconds}`
})

/**
 * Per-minute limits on search, confirm and request creation, keyed by partner (or by client
 * address for unauthenticated search). If the store fails or does not answer within
 * RATE_LIMIT_STORE_TIMEOUT_MS (counted in rate_limit_store_failures_total), the request is
 * counted by this instance alone, in memory, against the limit divided by RATE_LIMIT_INSTANCES
 * (at least 1): an outage of Redis neither takes bookings down nor lifts the limits, and across
 * the instances the limits stay about what they are when shared.
 */
export class RateLimiter extends Context.Service<RateLimiter>()("Booking/RateLimiter", {
  make: Effect.gen(function* () {
    const config = yield* AppConfig
    const limiter = yield* Limiter.make
    const local = yield* Effect.provide(Limiter.make, boundedMemoryStore)
    const window = Duration.minutes(1)
    const limits: Record<LimitedEndpoint, number> = {
      search: config.rateLimitSearchPerMinute,
      confirm: config.rateLimitConfirmPerMinute,
      requests: config.rateLimitRequestsPerMinute
    }
    const outageLimit = (limit: number) => Math.max(1, Math.ceil(limit / config.rateLimitInstances))

    const clientAddressOf = requestClientAddressOf(config.trustProxy)
    const clientKey = Effect.map(HttpServerRequest.HttpServerRequest, (request) => `ip:${clientAddressOf(request)}`)

    /**
     * The quota's headers on the answer (`remaining` undefined past the limit, answered 429). While
     * the shared store is down, `shared` is the limit it would have counted against.
     */
    const answer = (
      endpoint: LimitedEndpoint,
      limit: number,
      remaining: number | undefined,
      resetSeconds: number,
      shared?: number
    ): Effect.Effect<void, RateLimited> => {
      const headers =
        remaining !== undefined
          ? headersOf(endpoint, limit, Math.max(0, remaining), resetSeconds)
          : { ...headersOf(endpoint, limit, 0, resetSeconds), "retry-after": String(resetSeconds) }
      // On the HTTP response of the request being served (a tool call's is its /mcp POST's).
      const withHeaders = Effect.withFiber((fiber) => {
        if (Option.isSome(Context.getOption(fiber.context, HttpServerRequest.HttpServerRequest))) {
          HttpApp.appendPreResponseHandlerUnsafe(fiber.context, (_, response) =>
            Effect.succeed(HttpServerResponse.setHeaders(response, headers))
          )
        }
        return Effect.void
      })
      if (remaining !== undefined) return withHeaders
      const reduced = shared === undefined ? "" : ` (reduced from ${shared} while the shared rate-limit store is down)`
      return withHeaders.pipe(
        Effect.andThen(Metric.update(Metric.withAttributes(rateLimited, { endpoint }), 1)),
        Effect.andThen(
          new RateLimited({
            issues: [
              `rate limit: at most ${limit} ${countedAs[endpoint]} per minute${reduced}; retry after ${resetSeconds} s`
            ],
            safe_next_step: `Wait ${resetSeconds} seconds before retrying.`
          })
        )
      )
    }

    const countWith = (
      counter: Limiter.RateLimiter,
      endpoint: LimitedEndpoint,
      key: string,
      limit: number,
      onStoreFailure: Effect.Effect<void, RateLimited>,
      shared?: number
    ): Effect.Effect<void, RateLimited> =>
      counter.consume({ algorithm: "fixed-window", onExceeded: "fail", window, limit, key: `${endpoint}:${key}` }).pipe(
        Effect.matchEffect({
          onSuccess: (result) =>
            answer(endpoint, limit, result.remaining, Math.ceil(Duration.toSeconds(result.resetAfter)), shared),
          onFailure: (error) =>
            error.reason._tag === "RateLimitExceeded"
              ? answer(
                  endpoint,
                  limit,
                  undefined,
                  Math.max(1, Math.ceil(Duration.toSeconds(error.reason.retryAfter))),
                  shared
                )
              : onStoreFailure
        })
      )

    // Plain combinators and no span: this runs on every search, confirm and request creation, where
    // a generator's steps and a no-op span (nothing exports traces) cost more than the count itself.
    const consume = (endpoint: LimitedEndpoint, key: string): Effect.Effect<void, RateLimited> => {
      const limit = limits[endpoint]
      // The store failed or did not answer: this instance counts on its own, at its share of the limit.
      const alone = Metric.update(rateLimitStoreFailures, 1).pipe(
        Effect.andThen(countWith(local, endpoint, key, outageLimit(limit), Effect.void, limit))
      )
      return countWith(limiter, endpoint, key, limit, alone)
    }

    return {
      /** For the unauthenticated search. */
      byClient: (endpoint: LimitedEndpoint) => Effect.flatMap(clientKey, (key) => consume(endpoint, key)),
      byPartner: (endpoint: LimitedEndpoint, partnerId: string) => consume(endpoint, `partner:${partnerId}`),
      /** A partner's call to a limited endpoint: counted against the partner, then run at the service's time. */
      forPartner: <A, E, R>(
        endpoint: LimitedEndpoint,
        call: (partner: Partner["Service"], now: Date) => Effect.Effect<A, E, R>
      ) =>
        Effect.gen(function* () {
          const partner = yield* Partner
          yield* consume(endpoint, `partner:${partner.id}`)
          const now = new Date(yield* Clock.currentTimeMillis)
          return yield* call(partner, now)
        })
    } as const
  })
}) {
  /** Without the services it needs, for tests that provide their own. */
  static readonly DefaultWithoutDependencies = Layer.effect(this, this.make)
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide([RateLimitStoreLive]))
}
