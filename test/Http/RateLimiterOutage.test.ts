import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Logger, Result, Schedule } from "effect"
import { TestClock } from "effect/testing"
import { Redis } from "ioredis"
import { appConfigFrom } from "../../src/AppConfig.js"
import { type LimitedEndpoint, RateLimiter, rateLimitStoreWith } from "../../src/Http/RateLimiter.js"
import { redisServer } from "../support/Receivers.js"
import { testEnv } from "../support/Server.js"

const prefix = "booking-api-outage:"

/** The limits the issue measured against: 60 searches and 30 confirms a minute, two instances. */
const env = (port: number) => ({
  ...testEnv,
  REDIS_URL: `redis://127.0.0.1:${port}/0`,
  RATE_LIMIT_SEARCH_PER_MINUTE: "60",
  RATE_LIMIT_CONFIRM_PER_MINUTE: "30"
})

const instance = (port: number) =>
  Layer.build(
    RateLimiter.DefaultWithoutDependencies.pipe(
      Layer.provide(rateLimitStoreWith(prefix)),
      Layer.provide(appConfigFrom(env(port)))
    )
  ).pipe(Effect.map(Context.get(RateLimiter)))

type Limiter = RateLimiter["Service"]

/** `count` calls alternating between the instances, as a load balancer spreads them: how many were let through. */
const allowed = (instances: ReadonlyArray<Limiter>, endpoint: LimitedEndpoint, key: string, count: number) =>
  Effect.map(
    Effect.forEach(
      Array.from({ length: count }, (_, i) => instances[i % instances.length]!),
      (limiter) => Effect.result(limiter.byPartner(endpoint, key))
    ),
    (results) => results.filter(Result.isSuccess).length
  )

const refusal = (limiter: Limiter, endpoint: LimitedEndpoint, key: string) =>
  Effect.flip(limiter.byPartner(endpoint, key)).pipe(Effect.map((error) => error.issues?.[0]))

/** The keys the store wrote in this Redis. */
const keysIn = (port: number) =>
  Effect.promise(async () => {
    const redis = new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 0 })
    try {
      await redis.connect()
      return (await redis.keys(`${prefix}*`)).sort()
    } finally {
      redis.disconnect()
    }
  })

describe("rate limits while Redis is down", () => {
  const lines: Array<string> = []
  const collector = Logger.layer([
    Logger.map(Logger.formatLogFmt, (line) => {
      lines.push(line)
    })
  ])
  const modeChanges = () => lines.filter((line) => /does not answer|answers again/.test(line))

  it.live(
    "a Redis that is stopped: each of two instances counts alone at half of each limit (60 of 100 searches, 30 of 40 confirms), one log line per change, shared again once it is back",
    () =>
      Effect.gen(function* () {
        lines.length = 0
        const redis = yield* redisServer()
        const [a, b] = [yield* instance(redis.port), yield* instance(redis.port)]
        expect(yield* allowed([a, b], "confirm", "before", 40)).toBe(30)
        expect(yield* keysIn(redis.port)).toEqual([`${prefix}confirm:partner:before`])

        yield* Effect.promise(redis.stop)
        // Measured before: 100 of 100 searches against 60, 40 of 40 confirms against 30.
        expect(yield* allowed([a, b], "search", "outage", 100)).toBe(60)
        expect(yield* allowed([a, b], "confirm", "outage", 40)).toBe(30)
        expect(yield* refusal(a, "confirm", "outage")).toMatch(
          /^rate limit: at most 15 confirmations per minute \(reduced from 30 while the shared rate-limit store is down\); retry after \d+ s$/
        )
        // One warning per instance for the whole outage, however many requests it saw.
        expect(modeChanges()).toEqual([
          expect.stringContaining("at 1/2 of each limit (RATE_LIMIT_INSTANCES)"),
          expect.stringContaining("at 1/2 of each limit (RATE_LIMIT_INSTANCES)")
        ])

        yield* Effect.promise(redis.restart)
        // Back to the shared count once each instance has reconnected (the client retries on its own).
        yield* Effect.forEach(["a", "b"] as const, (name) =>
          (name === "a" ? a : b).byPartner("confirm", `back-${name}`).pipe(
            Effect.andThen(keysIn(redis.port)),
            Effect.filterOrFail((keys) => keys.includes(`${prefix}confirm:partner:back-${name}`)),
            Effect.retry(Schedule.spaced("100 millis"))
          )
        )
        expect(yield* allowed([a, b], "confirm", "after", 40)).toBe(30)
        expect(yield* refusal(b, "confirm", "after")).toMatch(/^rate limit: at most 30 confirmations per minute; retry/)
        const changes = modeChanges()
        expect(changes.filter((line) => line.includes("level=WARN"))).toHaveLength(2)
        expect(changes.filter((line) => line.includes("answers again"))).toHaveLength(2)
      }).pipe(Effect.scoped, Effect.provide(collector)),
    30_000
  )

  it.effect(
    "a Redis that freezes (SIGSTOP): a request waits RATE_LIMIT_STORE_TIMEOUT_MS at most, then this instance counts alone at its share until Redis answers again",
    () =>
      Effect.gen(function* () {
        lines.length = 0
        const redis = yield* redisServer()
        const limiter = yield* instance(redis.port)
        expect(yield* allowed([limiter], "confirm", "frozen", 1)).toBe(1)

        redis.freeze()
        const waiting = yield* Effect.forkChild(Effect.result(limiter.byPartner("confirm", "frozen")))
        // Effect 4's TestClock does not list its sleepers: a little real time lets the fiber reach its sleep.
        for (let i = 0; i < 10; i++) yield* TestClock.withLive(Effect.sleep("10 millis"))
        yield* TestClock.adjust("249 millis")
        expect(waiting.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        // Let through, by this instance's own count.
        expect((yield* Fiber.join(waiting))._tag).toBe("Success")
        // Then no wait at all: the silent connection was dropped. 15 of 30 for this instance, one counted already.
        expect(yield* allowed([limiter], "confirm", "frozen", 20)).toBe(14)
        expect(modeChanges()).toEqual([expect.stringContaining("does not answer (no answer within 250ms)")])

        redis.thaw()
        yield* limiter.byPartner("confirm", "thawed").pipe(
          Effect.andThen(keysIn(redis.port)),
          Effect.filterOrFail((keys) => keys.includes(`${prefix}confirm:partner:thawed`)),
          Effect.retry(Schedule.spaced("100 millis")),
          TestClock.withLive
        )
        expect(modeChanges()).toHaveLength(2)
        expect(modeChanges()[1]).toContain("answers again; rate limits are shared again")
      }).pipe(Effect.scoped, Effect.provide(collector)),
    30_000
  )
})
