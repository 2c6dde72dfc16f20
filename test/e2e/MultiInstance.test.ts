import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeDatabase } from "../support/Database.js"
import { searchBodyFor } from "../support/Http.js"
import { fakeRedis } from "../support/Receivers.js"
import { serverInstance as instance } from "../support/Server.js"

const token = "multi-instance-token-0123456789"
const searchLimit = 20

const post = (base: string, path: string, body: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as any }
  })

describe("several instances on one PostgreSQL", () => {
  it.live(
    "conflicting confirms at two instances give one booking per slot, and a burst at both stays within the shared limit",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        // A store of this test's own, so the count is exact here and shares no keys with other runs.
        const redis = yield* fakeRedis
        const env = {
          APP_ENV: "development",
          DATABASE_URL: url,
          SERVICE_REQUESTS_API_TOKENS: token,
          BOOKING_OPTION_SIGNING_KEYS: "shared:shared-secret-0123456789abcdef0123456789",
          RATE_LIMIT_SEARCH_PER_MINUTE: String(searchLimit),
          LOG_FORMAT: "json",
          REDIS_URL: `redis://127.0.0.1:${redis.port}/0`,
          // A loaded machine must not turn a slow count into a request let through: the store waits its longest.
          RATE_LIMIT_STORE_TIMEOUT_MS: "10000"
        }
        const [a, b] = yield* Effect.all([instance(env), instance(env)], { concurrency: 2 })

        const found = yield* post(a.base, "/api/public/booking-options", searchBodyFor("nästa vecka"))
        const option = found.body.options[0]
        const confirms = yield* Effect.forEach(
          Array.from({ length: 10 }, (_, i) => i),
          (i) =>
            post(i % 2 === 0 ? a.base : b.base, "/api/public/bookings", {
              booking_option_id: option.booking_option_id,
              // A customer each: every loser lost the slot to someone else.
              customer: { name: `Karin Berg ${i}`, phone: `070123456${i}`, email: `karin${i}@example.se` },
              service_location: { country_code: "SE", address: "Sveavägen 44", postcode: "111 22" },
              user_consent_confirmed: true,
              booking_terms_accepted: true,
              booking_terms_version: option.terms.version,
              booking_terms_accepted_at: new Date().toISOString(),
              idempotency_key: `multi-${i}`
            }),
          { concurrency: "unbounded" }
        )
        expect(confirms.filter((c) => c.status === 201)).toHaveLength(1)
        for (const c of confirms.filter((c) => c.status !== 201)) expect(c.body.error).toBe("slot_taken")

        // One search is already spent; the burst shares the rest of the window.
        const burst = yield* Effect.forEach(
          Array.from({ length: 2 * searchLimit }, (_, i) => i),
          (i) =>
            post(i % 2 === 0 ? a.base : b.base, "/api/public/booking-options", {
              ...searchBodyFor("", "981 38"),
              timing: { urgency: "snarast" }
            }),
          { concurrency: 8 }
        )
        const admitted = burst.filter((r) => r.status === 200).length
        expect(burst.filter((r) => r.status !== 200).every((r) => r.status === 429)).toBe(true)
        expect(admitted).toBeLessThanOrEqual(searchLimit - 1)
        expect(redis.received).toContain("EVALSHA")
        expect(admitted).toBeGreaterThan(0)
      }).pipe(Effect.scoped),
    120_000
  )
})
