import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { postJson, searchBodyFor } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { callTool, connect, initializeMessage, postMcp } from "./McpClient.js"

const token = "partner-rate-limited-0123456789"
const auth = { authorization: `Bearer ${token}` }

const searchArgs = searchBodyFor("nästa vecka", "118 25")

/** Well-formed, so it reaches the limiter, and signed by nobody, so nothing is booked. */
const unverifiable = (idempotencyKey: string) => ({
  booking_option_id: "o1.not-a-signed-option-id",
  customer: { name: "Test Person", phone: "+46 70 000 00 00", email: "test@example.se" },
  service_location: { country_code: "SE", address: "Testgatan 1", postcode: "118 25" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: "terms-v1",
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: idempotencyKey
})

describe("MCP shares REST's rate limits", () => {
  it.layer(
    TestServer({
      env: {
        SERVICE_REQUESTS_API_TOKENS: token,
        RATE_LIMIT_SEARCH_PER_MINUTE: "3",
        RATE_LIMIT_CONFIRM_PER_MINUTE: "2"
      }
    })
  )((it) => {
    it.effect("searches by client and confirms by partner count the same over REST and MCP", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* connect(auth)
        expect((yield* postJson("/api/public/booking-options", searchArgs)).status).toBe(200)
        expect((yield* postJson("/api/public/booking-options", searchArgs)).status).toBe(200)
        const third = yield* callTool(client, "search_booking_options", searchArgs)
        expect(third.isError).toBeFalsy()
        const fourth = yield* callTool(client, "search_booking_options", searchArgs)
        expect(fourth).toMatchObject({
          isError: true,
          structuredContent: { ok: false, error: "rate_limited", status: 429, safe_next_step: expect.any(String) }
        })
        expect((yield* postJson("/api/public/booking-options", searchArgs)).status).toBe(429)

        for (const key of ["limit-1", "limit-2"]) {
          const attempt = yield* callTool(client, "confirm_booking", unverifiable(key))
          expect(attempt.structuredContent).toMatchObject({ error: "option_invalid" })
        }
        const limited = yield* callTool(client, "confirm_booking", unverifiable("limit-3"))
        expect(limited.structuredContent).toMatchObject({ error: "rate_limited", status: 429 })
        expect((yield* postJson("/api/public/bookings", unverifiable("limit-4"), auth)).status).toBe(429)
        yield* TestClock.adjust("1 minute")
        expect((yield* callTool(client, "search_booking_options", searchArgs)).isError).toBeFalsy()
      })
    )
  })
})

describe("a tool call's quota on its HTTP response", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token, RATE_LIMIT_SEARCH_PER_MINUTE: "2" } }))((it) => {
    it.effect("a tool call's /mcp answer carries REST's RateLimit headers, and Retry-After past the limit", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const opened = yield* postMcp(initializeMessage, auth)
        const session = { ...auth, "mcp-session-id": opened.headers["mcp-session-id"]! }
        const search = (id: number) =>
          postMcp(
            {
              jsonrpc: "2.0",
              id,
              method: "tools/call",
              params: { name: "search_booking_options", arguments: searchArgs }
            },
            session
          )
        const first = yield* search(2)
        expect(first.status).toBe(200)
        expect(first.headers["ratelimit-policy"]).toBe('"search";q=2;w=60')
        expect(first.headers.ratelimit).toMatch(/^"search";r=1;t=\d+$/)
        expect(first.headers["retry-after"]).toBeUndefined()

        const rest = yield* postJson("/api/public/booking-options", searchArgs)
        expect(rest.status).toBe(200)
        const past = yield* search(3)
        expect(past.body.result).toMatchObject({
          isError: true,
          structuredContent: { error: "rate_limited", status: 429 }
        })
        expect(past.headers["retry-after"]).toMatch(/^\d+$/)
        expect(past.headers.ratelimit).toMatch(/^"search";r=0;t=\d+$/)
      })
    )
  })
})
