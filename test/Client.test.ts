import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { makeBookingClient } from "../src/Client.js"
import { searchBodyFor } from "./support/Http.js"
import { TestServer, testNow } from "./support/Server.js"

const token = "partner-client-token-0123456789"

/** The client over the test server's own HttpClient, which already prefixes the server's address. */
const client = makeBookingClient({ baseUrl: "", token })

describe("BookingClient", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }), { timeout: 60_000 })((it) => {
    it.effect("searches, confirms and looks up a booking without sending locale, timezone or source", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const booking = yield* client
        const capabilities = yield* booking.capabilities()
        expect(capabilities.ok).toBe(true)
        const found = yield* booking.search(searchBodyFor("nästa vecka förmiddag"))
        const option = found.options[0]
        expect(option).toBeDefined()
        const confirmed = yield* booking.confirm(
          {
            booking_option_id: option!.booking_option_id,
            customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" },
            service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
            user_consent_confirmed: true,
            booking_terms_accepted: true,
            booking_terms_version: option!.terms.version,
            booking_terms_accepted_at: "2026-11-23T08:59:00+01:00"
          },
          { idempotencyKey: "chat-4711-confirm" }
        )
        expect(confirmed.booking_created).toBe(true)
        const status = yield* booking.status(confirmed.request_id)
        expect(status.ok).toBe(true)
        const request = yield* booking.createRequest(
          {
            vertical_id: "vvs",
            job_type_id: "leak_hidden",
            description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
            user_consent_confirmed: true,
            customer: { name: "Karin Berg", phone: "+46 70 765 43 21", email: "karin.berg@example.se" },
            location: { address: "Sveavägen 44", postcode: "111 34" },
            timing: { preferred_time_text: "så snart som möjligt" }
          },
          { idempotencyKey: "chat-4711-request" }
        )
        expect(request.ok).toBe(true)
        expect(request.booking_created).toBe(false)
        const looked = yield* booking.requestStatus(request.request.id)
        expect(looked.request).toEqual(request.request)
        expect(looked.booking_created).toBe(false)
      })
    )

    it.effect(
      "holds an option, books through the hold after the option's own expiry, and sees the hold confirmed",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const booking = yield* client
          const found = yield* booking.search(searchBodyFor("nästa vecka eftermiddag"))
          const option = found.options[0]!
          const held = yield* booking.hold(
            { booking_option_id: option.booking_option_id, hold_seconds: 1800 },
            { idempotencyKey: "chat-4712-hold" }
          )
          expect(held).toMatchObject({ booking_created: false, idempotent_replay: false, hold: { status: "active" } })
          yield* TestClock.setTime(testNow + 20 * 60_000)
          const confirmed = yield* booking.confirm(
            {
              booking_option_id: option.booking_option_id,
              hold_id: held.hold.hold_id,
              customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" },
              service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
              user_consent_confirmed: true,
              booking_terms_accepted: true,
              booking_terms_version: option.terms.version,
              booking_terms_accepted_at: "2026-11-23T09:19:00+01:00"
            },
            { idempotencyKey: "chat-4712-confirm" }
          )
          expect(confirmed.booking_created).toBe(true)
          const status = yield* booking.holdStatus(held.hold.hold_id)
          expect(status.hold).toMatchObject({ status: "confirmed", booking_id: confirmed.booking.id })
          const released = yield* booking.releaseHold(held.hold.hold_id)
          expect(released.released).toBe(false)
        })
    )
  })
})
