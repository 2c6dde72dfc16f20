import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ServiceRequestStatusResponse } from "../../src/Domain/Request.js"
import { answer, apiClient } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { callTool, connect, requestArgs, searchArgs, stepOf } from "./McpClient.js"

describe("MCP in development without a configured token, as REST", () => {
  it.layer(TestServer({ env: { APP_ENV: "development" } }))((it) => {
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
          booking_terms_version: option.terms_version,
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

    it.effect("a lookup without a token says no token was sent, over REST and MCP", () =>
      Effect.gen(function* () {
        const anonymous = yield* apiClient()
        const booking = yield* anonymous.bookings.status({ params: { booking_id: "bkg_made-with-a-token" } })
        expect(booking).toMatchObject({ ok: true, found: false })
        expect(booking.safe_next_step).toMatch(/^No token was sent/)
        expect(booking.safe_next_step).not.toContain("for your token")
        const request = yield* answer(ServiceRequestStatusResponse)(
          anonymous.requests.status({
            params: { request_id: "req_made-with-a-token" },
            responseMode: "decoded-and-response"
          })
        )
        expect(request.status).toBe(404)
        expect(request.body.issues).toEqual([
          "request_id: no follow-up request req_made-with-a-token exists for requests made without a token"
        ])
        expect(request.body.safe_next_step).toMatch(/^No token was sent/)

        const { client } = yield* connect()
        const overMcp = yield* callTool(client, "get_booking_status", { booking_id: "bkg_made-with-a-token" })
        expect(stepOf(overMcp)).toMatch(/^No token was sent/)
        const requestOverMcp = yield* callTool(client, "get_follow_up_request", { request_id: "req_made-with-a-token" })
        expect(requestOverMcp).toMatchObject({ isError: true, structuredContent: { error: "request_not_found" } })
      })
    )
  })
})
