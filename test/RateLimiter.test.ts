import { RateLimiter as Limiter } from "@effect/experimental"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer } from "effect"
import { appConfigFrom } from "../src/AppConfig.js"
import { boundedMemoryStore, memoryStoreCapacity, RateLimiter, RateLimiterLive } from "../src/RateLimiter.js"
import { redisAnswers } from "./support/Redis.js"
import { postJson, TestServerLive, testEnv } from "./support/TestServer.js"

const token = "partner-limited-token-0123456789"
const other = "partner-unlimited-token-9876543210"

const search = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE", postcode: "981 38" },
  timing: { preferred_time_text: "nästa vecka" }
}

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
    TestServerLive({
      SERVICE_REQUESTS_API_TOKENS: `${token},${other}`,
      RATE_LIMIT_SEARCH_PER_MINUTE: "3",
      RATE_LIMIT_REQUESTS_PER_MINUTE: "2"
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
          issues: [expect.stringMatching(/^rate limit: at most 3 search requests per minute; retry after \d+ s$/)],
          safe_next_step: expect.stringMatching(/^Wait \d+ seconds before retrying\.$/)
        })
      })
    )

    it.effect("request creation is limited per partner, and each partner has its own budget", () =>
      Effect.gen(function* () {
        const as = (t: string) => postJson("/api/public/requests", request, { authorization: `Bearer ${t}` })
        const statuses = yield* Effect.forEach([token, token, token, other], as).pipe(
          Effect.map((answers) => answers.map((a) => a.status))
        )
        expect(statuses).toEqual([201, 201, 429, 201])
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
    "with REDIS_URL two instances share one count; with Redis down requests are let through",
    () =>
      Effect.gen(function* () {
        // A fresh machine has no Redis: there only the fail-open half below can be shown.
        if (yield* Effect.promise(redisAnswers)) {
          const env = { ...testEnv, REDIS_URL: "redis://127.0.0.1:6379/0", RATE_LIMIT_CONFIRM_PER_MINUTE: "5" }
          const instance = () =>
            Layer.build(RateLimiterLive.pipe(Layer.provide(appConfigFrom(env)))).pipe(
              Effect.map(Context.get(RateLimiter))
            )
          const [a, b] = [yield* instance(), yield* instance()]
          const partner = `shared-${Date.now()}`
          const results = yield* Effect.forEach([a, b, a, b, a, b, a], (limiter) =>
            Effect.either(limiter.byPartner("confirm", partner))
          )
          expect(results.map((r) => r._tag)).toEqual(["Right", "Right", "Right", "Right", "Right", "Left", "Left"])
        }
        const down = yield* Layer.build(
          RateLimiterLive.pipe(
            Layer.provide(
              appConfigFrom({ ...testEnv, REDIS_URL: "redis://127.0.0.1:1/0", RATE_LIMIT_CONFIRM_PER_MINUTE: "1" })
            )
          )
        ).pipe(Effect.map(Context.get(RateLimiter)))
        const outcomes = yield* Effect.forEach([1, 2, 3], () => Effect.either(down.byPartner("confirm", "anyone")))
        expect(outcomes.map((o) => o._tag)).toEqual(["Right", "Right", "Right"])
      }).pipe(Effect.scoped),
    20_000
  )
})
