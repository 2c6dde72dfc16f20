import { createHmac } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Unauthorized } from "../../src/Domain/Errors.js"
import { ServiceRequestStatusResponse } from "../../src/Domain/Request.js"
import { BookingSearchRequest, BookingSearchResponse } from "../../src/Domain/Search.js"
import {
  answer,
  apiClient,
  confirmAnswer,
  confirmBody,
  get,
  paths,
  payloadOf,
  postJson,
  requestAnswer,
  requestBody,
  searchBody
} from "../support/Http.js"
import { TestServer, testEnv, testNow } from "../support/Server.js"

const token = "partner-recovery-a-0123456789"
const otherToken = "partner-recovery-b-9876543210"
const auth = { authorization: `Bearer ${token}` }

/** A search through the typed client, read by `answer`: 200, or a refusal with its hints. */
const search = (body: unknown = searchBody) =>
  Effect.andThen(
    TestClock.setTime(testNow),
    Effect.flatMap(apiClient(), (client) =>
      answer(BookingSearchResponse)(
        client.search.search({ payload: payloadOf(BookingSearchRequest)(body), responseMode: "decoded-and-response" })
      )
    )
  )

const options = (body: unknown = searchBody) =>
  Effect.map(search(body), (response) => {
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    return response.body.options as Array<any>
  })

let keys = 0
const freshKey = () => `recovery-${++keys}`

const confirm = (body: unknown, headers: { readonly "idempotency-key"?: string } = {}) =>
  confirmAnswer(body, token, headers)

/** Raw where the test reads the body as sent: a field's absence, or what must not leak into it. */
const rawConfirm = (body: unknown) => postJson(paths.confirm, body, auth)

const counts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ bookings: number; requests: number; keys: number }>`
    SELECT (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM service_requests) AS requests,
      (SELECT count(*)::int FROM idempotency_keys) AS keys`
  return row!
})

/** What a retry changes without changing what it asks for: when and how it was asked. */
const restamped = {
  booking_terms_accepted_at: "2026-11-23T09:00:00.123+01:00",
  consent_collected_at: "2026-11-23T07:59:59Z",
  user_consent_statement: "The user said yes again, in other words.",
  consent_source: "voice",
  source: "assistant-retry",
  external_reference: "conversation-42/attempt-2",
  spec_version: "public_bookings_api_v1"
}

/** No step may send the caller to book again for something that exists, or say nothing exists. */
const expectNoFalseStep = (step: string) => {
  expect(step).not.toMatch(/^Use a new idempotency[_ ]key/i)
  expect(step).not.toMatch(/search again/i)
  expect(step).not.toMatch(/nothing (was|is) booked/i)
}

describe("retries and recovery hints", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` } }))((it) => {
    it.effect(
      "a retry that re-stamps its times, consent wording and source replays the booking, with the key in the body or the header",
      () =>
        Effect.gen(function* () {
          const [option] = yield* options()
          const key = freshKey()
          const first = yield* confirm(confirmBody(option.booking_option_id, option.terms.version, key))
          expect(first.status, JSON.stringify(first.body)).toBe(201)
          const before = yield* counts
          const again = yield* confirm({
            ...confirmBody(option.booking_option_id, option.terms.version, key),
            ...restamped
          })
          expect(again.status, JSON.stringify(again.body)).toBe(200)
          expect(again.body).toMatchObject({
            idempotent_replay: true,
            booking_created: true,
            request_id: first.body.request_id,
            booking: { id: first.body.booking.id, status: "confirmed" }
          })
          // The same key as a header, the body without it, and the customer retyped as a person would.
          const { idempotency_key: _, ...withoutKey } = confirmBody(option.booking_option_id, option.terms.version, key)
          const byHeader = yield* confirm(
            {
              ...withoutKey,
              ...restamped,
              customer: { ...withoutKey.customer, name: "  Astrid   Lindqvist ", phone: "+46701234567" }
            },
            { "idempotency-key": key }
          )
          expect(byHeader.status, JSON.stringify(byHeader.body)).toBe(200)
          expect(byHeader.body.booking.id).toBe(first.body.booking.id)
          expect(yield* counts).toEqual(before)
        })
    )

    it.effect(
      "a key that holds a booking, sent with another booking request, is 409 naming that booking; the step leads to it",
      () =>
        Effect.gen(function* () {
          const [option, other] = yield* options()
          const key = freshKey()
          const first = yield* confirm(confirmBody(option.booking_option_id, option.terms.version, key))
          expect(first.status).toBe(201)
          const before = yield* counts
          for (const different of [
            confirmBody(other.booking_option_id, other.terms.version, key),
            {
              ...confirmBody(option.booking_option_id, option.terms.version, key),
              customer: { name: "Bertil Holm", phone: "+46 70 555 12 12", email: "bertil@example.se" }
            },
            {
              ...confirmBody(option.booking_option_id, option.terms.version, key),
              service_location: { country_code: "SE", address: "Hornsgatan 1", postcode: "111 22" }
            }
          ]) {
            const reused = yield* rawConfirm(different)
            expect(reused.status, JSON.stringify(reused.body)).toBe(409)
            expect(reused.body).toMatchObject({
              ok: false,
              error: "idempotency_key_reused",
              status: 409,
              booking_id: first.body.booking.id,
              request_id: first.body.request_id,
              existing_booking: {
                id: first.body.booking.id,
                request_id: first.body.request_id,
                status: "confirmed",
                provider_id: option.provider.id,
                provider_name: option.provider.name,
                service_id: option.service.service_id,
                slot_start_at: first.body.booking.slot_start_at,
                slot_end_at: first.body.booking.slot_end_at,
                slot_label: first.body.booking.slot_label
              }
            })
            expect(reused.body.option_refresh_required).toBeUndefined()
            const step: string = reused.body.safe_next_step
            expectNoFalseStep(step)
            expect(step).toContain("already holds a confirmed booking")
            expect(step).toContain(`GET /api/public/bookings/${first.body.request_id}`)
            expect(step).toMatch(/Only if the user wants a second, separate booking/)
            // No personal data of either booking comes back.
            expect(JSON.stringify(reused.body)).not.toMatch(/Astrid|Bertil|Drottninggatan|Hornsgatan|example\.se/)
          }
          expect(yield* counts).toEqual(before)
          // Following the step finds the booking.
          const client = yield* apiClient(token)
          const looked = yield* client.bookings.status({ params: { booking_id: first.body.request_id } })
          expect(looked).toMatchObject({ found: true, booking: { id: first.body.booking.id } })
          // The issue's path: a new key for the very same option says it is booked, never "nothing was booked".
          const newKey = yield* confirm({
            ...confirmBody(option.booking_option_id, option.terms.version, freshKey()),
            ...restamped
          })
          expect(newKey.body).toMatchObject({ error: "option_already_booked", request_id: first.body.request_id })
          expectNoFalseStep(newKey.body.safe_next_step)
        })
    )

    it.effect(
      "racing confirms of one option for one customer under different keys: one booking, the rest name it",
      () =>
        Effect.gen(function* () {
          const [option] = yield* options({ ...searchBody, job_type_id: "install_toilet" })
          const answers = yield* Effect.forEach(
            Array.from({ length: 6 }, () => freshKey()),
            (key) => confirm(confirmBody(option.booking_option_id, option.terms.version, key)),
            { concurrency: "unbounded" }
          )
          const created = answers.filter((a) => a.status === 201)
          expect(created).toHaveLength(1)
          for (const answer of answers.filter((a) => a.status !== 201)) {
            expect(answer.body, JSON.stringify(answer.body)).toMatchObject({
              error: "option_already_booked",
              booking_id: created[0]!.body.booking.id
            })
          }
        })
    )

    it.effect("option_invalid says why: not an option id, another server's key, or altered or mistyped", () =>
      Effect.gen(function* () {
        const [option] = yield* options()
        const id: string = option.booking_option_id
        const secret = testEnv.BOOKING_OPTION_SIGNING_KEYS!.split(":")[1]!
        const kid = testEnv.BOOKING_OPTION_SIGNING_KEYS!.split(":")[0]!
        // A long o1 id names the key it was signed with, so one of another server's key says so.
        const otherServer = (() => {
          const payload = Buffer.from(JSON.stringify({ providerId: "p" }), "utf8").toString("base64url")
          const signed = `o1.elsewhere-1.${payload}`
          return `${signed}.${createHmac("sha256", "another-servers-secret-0123456789abcdef").update(signed).digest("base64url")}`
        })()
        const altered = `${id.slice(0, 20)}${id[20] === "A" ? "B" : "A"}${id.slice(21)}`
        const cases = [
          [id.slice(0, -5), /is not a booking option id: it is malformed, mistyped or cut short/],
          ["this-is-not-an-option-id-at-all", /is not a booking option id: it is malformed, mistyped or cut short/],
          [otherServer, /was signed with a key this service does not hold/],
          [altered, /does not match its signature: it was altered or mistyped/]
        ] as const
        for (const [bookingOptionId, why] of cases) {
          const refused = yield* rawConfirm(confirmBody(bookingOptionId, option.terms.version, freshKey()))
          expect(refused.status).toBe(409)
          expect(refused.body).toMatchObject({ error: "option_invalid", option_refresh_required: true })
          expect(refused.body.issues).toHaveLength(1)
          expect(refused.body.issues[0]).toMatch(why)
          expect(JSON.stringify(refused.body)).not.toContain(secret)
          expect(JSON.stringify(refused.body)).not.toContain(kid)
        }
      })
    )

    it.effect(
      "a missing quantity or detail: the step asks the user for it and searches again before any fallback",
      () =>
        Effect.gen(function* () {
          const deep = {
            ...searchBody,
            vertical_id: "cleaning",
            job_type_id: "cleaning_home_deep",
            location: { country_code: "SE", postcode: "411 22" }
          }
          const without = (yield* search(deep)).body
          expect(without.direct_booking_available).toBe(false)
          expect(without.fallback.reason).toContain("details.area_sqm")
          const step: string = without.safe_next_step
          expect(step).toContain("the area in square metres (details.area_sqm)")
          expect(step).toContain("ask the user and search again (POST /api/public/booking-options)")
          expect(step.indexOf("search again")).toBeLessThan(step.indexOf("follow-up request"))
          expect((yield* search({ ...deep, details: { area_sqm: 70 } })).body.direct_booking_available).toBe(true)

          const tooSmall = yield* search({ ...deep, details: { area_sqm: 2 } })
          expect(tooSmall.status).toBe(400)
          expect(tooSmall.body.issues).toEqual(["details.area_sqm: must be from 5 to 1000 m² for one visit"])
          expect(tooSmall.body.safe_next_step).toMatch(
            /Ask the user for the details named in issues \(details\.area_sqm\)/
          )

          const move = {
            ...searchBody,
            vertical_id: "moving",
            job_type_id: "moving_home",
            destination_location: { country_code: "SE", postcode: "113 51" }
          }
          const noDetails = yield* search(move)
          expect(noDetails.status).toBe(400)
          expect(noDetails.body.safe_next_step).toMatch(
            /^Nothing is booked\. Ask the user for the details named in issues/
          )
          expect(noDetails.body.safe_next_step).toContain("details")
        })
    )

    it.effect("an unsupported vertical or job type that has a close supported one names it, in both languages", () =>
      Effect.gen(function* () {
        const cases = [
          [{ vertical_id: "plumbing" }, "vvs"],
          [{ vertical_id: "Plumber" }, "vvs"],
          [{ vertical_id: "rörmokare" }, "vvs"],
          [{ vertical_id: "electrical", job_type_id: "electrical_install_dimmer" }, "electrician"],
          [{ vertical_id: "el", job_type_id: "electrical_install_dimmer" }, "electrician"],
          [{ vertical_id: "städning", job_type_id: "cleaning_window" }, "cleaning"],
          [{ vertical_id: "stadning", job_type_id: "cleaning_window" }, "cleaning"],
          [{ vertical_id: "cleaners", job_type_id: "cleaning_window" }, "cleaning"],
          [{ vertical_id: "flytt", job_type_id: "moving_packing" }, "moving"],
          [{ vertical_id: "movers", job_type_id: "moving_packing" }, "moving"]
        ] as const
        for (const [change, vertical] of cases) {
          const refused = yield* search({ ...searchBody, ...change })
          expect(refused.status, JSON.stringify(change)).toBe(422)
          expect(refused.body, JSON.stringify(change)).toMatchObject({
            error: "unsupported_vertical",
            suggested_vertical_id: vertical
          })
          expect(refused.body.safe_next_step).toContain(`vertical_id ${vertical}`)
          expect(refused.body.safe_next_step).not.toMatch(/not bookable/)
        }
        // A job type of another vertical, and one misspelt.
        const elsewhere = yield* search({ ...searchBody, job_type_id: "moving_home" })
        expect(elsewhere.body).toMatchObject({
          error: "unsupported_job_type",
          suggested_vertical_id: "moving",
          suggested_job_type_id: "moving_home"
        })
        const misspelt = yield* search({ ...searchBody, job_type_id: "install_fauset" })
        expect(misspelt.body).toMatchObject({ suggested_vertical_id: "vvs", suggested_job_type_id: "install_faucet" })
        expect(misspelt.body.safe_next_step).toContain("job_type_id install_faucet")
        // Nothing close: no guess, and the step does not call the job unbookable outright.
        const nothing = yield* search({ ...searchBody, vertical_id: "quantum-physics", job_type_id: "tunnelling" })
        expect(nothing.body.suggested_vertical_id).toBeUndefined()
        expect(nothing.body.safe_next_step).toMatch(/^If the job is plumbing \(vvs\)/)
        // A vertical listed as not bookable yet is said so, even by another word for it.
        const painter = yield* search({ ...searchBody, vertical_id: "målare" })
        expect(painter.body.suggested_vertical_id).toBeUndefined()
        expect(painter.body.safe_next_step).toMatch(/^Painting is not bookable yet/)
        // Request creation answers its 400 the same way.
        const request = yield* postJson(paths.requests, { ...requestBody, vertical_id: "plumbing" }, auth)
        expect(request.status).toBe(400)
        expect(request.body).toMatchObject({ error: "invalid_request", suggested_vertical_id: "vvs" })
        expect(request.body.safe_next_step).toContain("send the request again (POST /api/public/requests)")
      })
    )

    it.effect(
      "a follow-up request: a re-stamped retry replays, another request under its key is 409 naming it, and it can be looked up",
      () =>
        Effect.gen(function* () {
          const key = freshKey()
          const created = yield* requestAnswer({ ...requestBody, idempotency_key: key }, token)
          expect(created.status, JSON.stringify(created.body)).toBe(201)
          const id: string = created.body.request.id
          expect(created.body.safe_next_step).toContain(`Keep request.id (${id})`)
          const before = yield* counts
          const retried = yield* requestAnswer(
            {
              ...requestBody,
              idempotency_key: key,
              consent_collected_at: "2026-11-23T07:58:30Z",
              user_consent_statement: "Samtycke lämnat igen.",
              consent_source: "voice",
              source: "assistant-retry",
              external_reference: "conv-42",
              locale: "en-GB"
            },
            token
          )
          expect(retried.status, JSON.stringify(retried.body)).toBe(200)
          expect(retried.body).toMatchObject({ idempotent_replay: true, request: { id } })
          const reused = yield* requestAnswer(
            { ...requestBody, idempotency_key: key, description: "Något helt annat: en droppande kran i köket." },
            token
          )
          expect(reused.status).toBe(409)
          expect(reused.body).toMatchObject({
            error: "idempotency_key_reused",
            request_id: id,
            existing_request: {
              id,
              session_id: created.body.request.session_id,
              status: "ready_to_send",
              vertical_id: "vvs",
              job_type_id: "leak_hidden"
            }
          })
          expect(reused.body.safe_next_step).toContain(`GET /api/public/requests/${id}`)
          expect(reused.body.safe_next_step).not.toMatch(/^Use a new idempotency key/)
          expect(yield* counts).toEqual(before)

          for (const lookup of [id, created.body.request.session_id]) {
            // Raw: the leak check reads the body as sent.
            const found = yield* get(`/api/public/requests/${lookup}`, auth)
            expect(found.status, JSON.stringify(found.body)).toBe(200)
            expect(found.body).toEqual({
              ok: true,
              spec_version: "public_requests_api_v1",
              request: created.body.request,
              booking_created: false,
              availability_checked: false,
              provider_selected: false,
              safe_next_step: expect.stringContaining("nothing is booked")
            })
            expect(JSON.stringify(found.body)).not.toMatch(/Karin|Berg|765 43 21|karin\.berg|Sveavägen/)
          }
          for (const [lookup, asToken] of [
            [id, otherToken],
            ["00000000-0000-4000-8000-000000000000", token],
            ["req_doesnotexist", token]
          ] as const) {
            const client = yield* apiClient(asToken)
            const missing = yield* answer(ServiceRequestStatusResponse)(
              client.requests.status({ params: { request_id: lookup }, responseMode: "decoded-and-response" })
            )
            expect(missing.status).toBe(404)
            expect(missing.body).toMatchObject({ ok: false, error: "request_not_found", status: 404 })
            expect(missing.body.safe_next_step).toContain("Do not tell the user anything")
          }
          const anonymous = yield* apiClient()
          expect(yield* Effect.flip(anonymous.requests.status({ params: { request_id: id } }))).toBeInstanceOf(
            Unauthorized
          )
        })
    )
  })
})
