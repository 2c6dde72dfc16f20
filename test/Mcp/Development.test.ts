import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { TestServerLive, testNow } from "../support/TestServer.js"
import { callTool, connect, requestArgs, searchArgs } from "./McpClient.js"

describe("MCP in development without a configured token, as REST", () => {
  it.layer(TestServerLive({ APP_ENV: "development" }))((it) => {
    it.effect("development: a caller without a token is the anonymous partner and may book", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* connect()
        const [option] = (yield* callTool(client, "search_booking_options", searchArgs)).structuredContent.options
        const booked = yield* callTool(client, "confirm_booking", {
          booking_option_id: option.booking_option_id,
          customer: requestArgs.customer,
          service_location: { country_code: "SE", address: "Götgatan 1", postcode: "111 22" },
          user_consent_confirmed: true,
          booking_terms_accepted: true,
          booking_terms_version: option.terms.version,
          booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
          idempotency_key: "anonymous-1"
        })
        expect(booked.structuredContent).toMatchObject({ booking_created: true })
        const status = yield* callTool(client, "get_booking_status", {
          booking_id: booked.structuredContent.booking.id
        })
        expect(status.structuredContent).toMatchObject({ found: true })
      })
    )
  })
})
