import { randomUUID } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Fiber, Layer, Logger, Schedule } from "effect"
import * as Limiter from "effect/persistence/RateLimiter"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import {
  boundedMemoryStore,
  memoryStoreCapacity,
  RateLimiter,
  RateLimitStoreLive,
  rateLimitStoreWith
} from "../../src/Http/RateLimiter.js"
import { postJson, searchBodyFor } from "../support/Http.js"
import {
  closingServer,
  fakeRedis,
  redisAnswers,
  removeSharedRedisKeys,
  sharedRedisKeys,
  silentServer
} from "../support/Receivers.js"
import { TestServer, testEnv } from "../support/Server.js"

const token = "partner-limited-token-0123456789"
const other = "partner-unlimited-token-9876543210"

const search = searchBodyFor("nästa vecka", "981 38")

const request = {
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  description: "Fuktfläck i taket under badrummet.",
  user_consent_confirmed: true,
  customer: { name: "Karin Berg", phone: "0701234567", email: "karin@example.se" },
  location: { postcode: "981 38" },
  timing: { urgency: "snarast" }
}

describe("rate limits", () => {
  it.layer(
    TestServer({
      env: {
        SERVICE_REQUESTS_API_TOKENS: `${token},${other}`,
        RATE_LIMIT_SEARCH_PER_MINUTE: "3",
        RATE_LIMIT_REQUESTS_PER_MINUTE: "2"
      }
    })
  )((it) => {
    it.effect("search is limited per client: RateLimit headers on every answer, then 429 with Retry-After", () =>
      Effect.gen(function* () {
        const answers = yield* Effect.forEach([1, 2, 3, 4], () => postJson("/api/public/booking-options", search))
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429])
        expect(answers.map((a) => a.headers["ratelimit-policy"])).toEqual(Array(4).fill('"search";q=3;w=60'))
        expect(answers.map((a) => a.headers.ratelimit?.match(/r=(\d+)/)?.[1])).toEqual(["2", "1", "0", "0"])
        const refused = answers[3]!
        expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
        expect(refused.body).toEqual({
          ok: false,
          error: "rate_limited",
          status: 429,
          issues: [expect.stringMatching(/^rate limit: at most 3 searches per minute; retry after \d+ s$/)],
          safe_next_step: expect.stringMatching(/^Wait \d+ seconds before retrying\.$/)
        })
      })
    )

    it.effect("request creation is limited per partner, and each partner has its own budget", () =>
      Effect.gen(function* () {
        const as = (t: string) => postJson("/api/public/requests", request, { authorization: `Bearer ${t}` })
        const answers = yield* Effect.forEach([token, token, token, other], as)
        expect(answers.map((a) => a.status)).toEqual([201, 201, 429, 201])
        expect(answers[2]!.body.issues).toEqual([
          expect.stringMatching(/^rate limit: at most 2 follow-up requests per minute; retry after \d+ s$/)
        ])
      })
    )
  })

  it.effect("the in-process store is bounded: at capacity it forgets the oldest keys", () =>
    Effect.gen(function* () {
      const store = yield* Effect.provide(Limiter.RateLimiterStore, boundedMemoryStore)
      const hit = (key: string) => store.fixedWindow({ key, tokens: 1, refillRate: Duration.minutes(1), limit: 1 })
      expect((yield* hit("first"))[0]).toBe(1)
      expect((yield* hit("first"))[0]).toBe(2)
      for (let i = 0; i < memoryStoreCapacity; i++) yield* hit(`flood-${i}`)
      expect((yield* hit("first"))[0]).toBe(1)
    })
  )

  it.live(
    "with REDIS_URL two instances share one count in Redis; with Redis down each counts alone at its share",
    () =>
      Effect.gen(function* () {
        // The machine's shared Redis under a key prefix of this run's own, removed afterwards; where
        // there is none (a fresh machine), a Redis of this test's own.
        const shared = yield* Effect.promise(redisAnswers)
        const prefix = `booking-api-test:${randomUUID()}:`
        const url = shared ? "redis://127.0.0.1:6379/0" : `redis://127.0.0.1:${(yield* fakeRedis).port}/0`
        if (shared) yield* Effect.addFinalizer(() => removeSharedRedisKeys(prefix))
        const env = { ...testEnv, REDIS_URL: url, RATE_LIMIT_CONFIRM_PER_MINUTE: "5" }
        const instance = () =>
          Layer.build(
            RateLimiter.DefaultWithoutDependencies.pipe(
              Layer.provide(rateLimitStoreWith(prefix)),
              Layer.provide(appConfigFrom(env))
            )
          ).pipe(Effect.map(Context.get(RateLimiter)))
        const [a, b] = [yield* instance(), yield* instance()]
        // Counted apart, each instance would admit all of its own three or four.
        const results = yield* Effect.forEach([a, b, a, b, a, b, a], (limiter) =>
          Effect.result(limiter.byPartner("confirm", "shared"))
        )
        expect(results.map((r) => r._tag)).toEqual([
          "Success",
          "Success",
          "Success",
          "Success",
          "Success",
          "Failure",
          "Failure"
        ])
        if (shared) expect(yield* sharedRedisKeys(prefix)).toEqual([`${prefix}confirm:partner:shared`])

        const down = yield* Layer.build(
          RateLimiter.Default.pipe(
            Layer.provide(
              appConfigFrom({ ...testEnv, REDIS_URL: "redis://127.0.0.1:1/0", RATE_LIMIT_CONFIRM_PER_MINUTE: "3" })
            )
          )
        ).pipe(Effect.map(Context.get(RateLimiter)))
        // Redis down: this instance counts alone, at half of 3 (RATE_LIMIT_INSTANCES defaults to 2), rounded up.
        const outcomes = yield* Effect.forEach([1, 2, 3], () => Effect.result(down.byPartner("confirm", "anyone")))
        expect(outcomes.map((o) => o._tag)).toEqual(["Success", "Success", "Failure"])
      }).pipe(Effect.scoped),
    20_000
  )
})

describe("a Redis store that fails", () => {
  const lines: Array<string> = []
  const collector = Logger.layer([
    Logger.map(Logger.formatLogFmt, (line) => {
      lines.push(line)
    })
  ])
  const storeAt = (url: string) =>
    Layer.build(RateLimitStoreLive.pipe(Layer.provide(appConfigFrom({ ...testEnv, REDIS_URL: url })))).pipe(
      Effect.map(Context.get(Limiter.RateLimiterStore))
    )
  const hit = (store: Limiter.RateLimiterStore["Service"]) =>
    store.fixedWindow({ key: "confirm:partner:p", tokens: 1, refillRate: Duration.seconds(2), limit: 30 })
  const warnings = () => lines.filter((line) => line.includes("level=WARN"))
  /** The store's timeout is waiting on the test clock. */
  const untilWaiting = Effect.gen(function* () {
    // Effect 4's TestClock does not list its sleepers: a little real time lets the fiber reach its sleep.
    for (let i = 0; i < 10; i++) yield* TestClock.withLive(Effect.sleep("10 millis"))
  })

  it.effect(
    "a Redis that closes every connection, or one that accepts and never answers, costs a request no time, and the outage is one log line",
    () =>
      Effect.gen(function* () {
        for (const port of [(yield* closingServer).port, (yield* silentServer).port]) {
          lines.length = 0
          const store = yield* storeAt(`redis://127.0.0.1:${port}/0`)
          const results = yield* Effect.forEach([1, 2, 3], () => Effect.result(hit(store)))
          expect(results.map((result) => result._tag)).toEqual(["Failure", "Failure", "Failure"])
          expect(warnings()).toEqual([expect.stringContaining(`Redis at 127.0.0.1:${port} does not answer`)])
          expect(lines.join("\n")).not.toMatch(/\n\s+at /)
        }
      }).pipe(Effect.scoped, Effect.provide(collector))
  )

  it.effect(
    "a Redis that goes silent mid-service costs a request RATE_LIMIT_STORE_TIMEOUT_MS at most, then nothing until it answers again, and limits are shared again after",
    () =>
      Effect.gen(function* () {
        lines.length = 0
        const redis = yield* fakeRedis
        const store = yield* storeAt(`redis://127.0.0.1:${redis.port}/0`)
        const answered = hit(store).pipe(Effect.retry(Schedule.spaced("20 millis")), TestClock.withLive)
        expect((yield* answered)[0]).toBe(1)

        redis.freeze()
        const waiting = yield* Effect.forkChild(Effect.result(hit(store)))
        yield* untilWaiting
        yield* TestClock.adjust("249 millis")
        expect(waiting.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("1 millis")
        expect((yield* Fiber.join(waiting))._tag).toBe("Failure")
        // The silent connection was dropped; until Redis answers on a new one, a request fails at once.
        expect((yield* Effect.result(hit(store)))._tag).toBe("Failure")

        redis.thaw()
        // The command given up while Redis was frozen still counted when it woke.
        expect((yield* answered)[0]).toBe(3)
        expect(warnings()).toEqual([expect.stringContaining("does not answer (no answer within 250ms)")])
        expect(lines.filter((line) => line.includes("answers again"))).toHaveLength(1)
      }).pipe(Effect.scoped, Effect.provide(collector))
  )
})
