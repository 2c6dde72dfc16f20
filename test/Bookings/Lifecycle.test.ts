import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { BookingAlreadyCancelled, CancelBookingRequest } from "../../src/Domain/BookingChange.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { apiClient, payloadOf } from "../support/ApiClient.js"
import { customer, searchBodyFor } from "../support/Bodies.js"
import { postJson, TestServer, testNow } from "../support/TestServer.js"

const token = "partner-a-token-0123456789"
const otherToken = "partner-b-token-9876543210"
const auth = { authorization: `Bearer ${token}` }

const searchBody = searchBodyFor("nästa vecka")

const search = () =>
  Effect.flatMap(apiClient(token), (client) =>
    client.search.search({ payload: payloadOf(BookingSearchRequest)(searchBody) })
  ).pipe(Effect.map((response) => response.options as Array<any>))

let keys = 0
const confirmBody = (option: any) => ({
  booking_option_id: option.booking_option_id,
  customer,
  service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "11122" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: `confirm-${++keys}`
})

/** A new booking, typed: 201 and the decoded answer. */
const confirm = (option: any, asToken: string = token) =>
  Effect.flatMap(apiClient(asToken), (client) =>
    client.bookings.confirm({
      payload: payloadOf(BookingConfirmationRequest)(confirmBody(option)),
      headers: {},
      responseMode: "decoded-and-response"
    })
  ).pipe(
    Effect.map(([booked, response]) => {
      expect(response.status).toBe(201)
      return booked as any
    })
  )

const cancel = (bookingId: string, body: Record<string, unknown>, headers: Record<string, string> = auth) =>
  postJson(`/api/public/bookings/${bookingId}/cancel`, body, headers)

const rescheduleBody = (option: any, overrides: Record<string, unknown> = {}) => ({
  booking_option_id: option.booking_option_id,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
  idempotency_key: `move-${++keys}`,
  ...overrides
})

const reschedule = (bookingId: string, body: Record<string, unknown>, headers: Record<string, string> = auth) =>
  postJson(`/api/public/bookings/${bookingId}/reschedule`, body, headers)

/** Another option of the booking's provider and service that does not overlap it. */
const otherTimeOf = (options: Array<any>, booked: any) =>
  options.find(
    (o) =>
      o.provider.id === booked.provider_id &&
      o.service.service_id === booked.service_id &&
      (Date.parse(o.slot.start_at) >= Date.parse(booked.slot_end_at) ||
        Date.parse(o.slot.end_at) <= Date.parse(booked.slot_start_at))
  )

const slotKey = (o: any) => `${o.provider.id}/${o.service.service_id}/${Date.parse(o.slot.start_at)}`

const heldSlots = (bookingId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ held: number; released: number }>`
      SELECT count(*) FILTER (WHERE released_at IS NULL)::int AS held, count(*) FILTER (WHERE released_at IS NOT NULL)::int AS released
      FROM calendar_bookings WHERE booking_id = ${bookingId}::uuid`.pipe(Effect.map((rows) => rows[0]!))
  )

describe("a booking's life after confirm", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` } }))((it) => {
    it.effect("every option, confirm and status carry the policy; deadlines at or before the start", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const client = yield* apiClient(token)
        const options = yield* search()
        expect(options.length).toBeGreaterThan(0)
        for (const option of options) {
          const policy = option.cancellation_policy
          expect(Object.keys(policy).sort()).toEqual(
            ["change_until", "free_until", "late_fee_sek", "summary_en", "summary_sv"].sort()
          )
          expect(Date.parse(policy.free_until)).toBeLessThanOrEqual(Date.parse(option.slot.start_at))
          expect(Date.parse(policy.change_until)).toBeLessThanOrEqual(Date.parse(option.slot.start_at))
          expect(policy.summary_en).not.toMatch(/you owe|must pay/i)
          if (policy.late_fee_sek > 0) expect(policy.summary_en).toContain("may charge")
        }
        const created = yield* confirm(options[0])
        expect(created.booking.version).toBe(1)
        expect(created.cancellation_policy).toEqual(options[0].cancellation_policy)
        const status: any = yield* client.bookings.status({ params: { booking_id: created.request_id } })
        expect(status.found).toBe(true)
        expect(status.cancellation_policy).toEqual(options[0].cancellation_policy)
        expect(status.booking).toEqual(created.booking)
      })
    )

    it.effect("cancel: a dry run changes nothing; the cancel frees the slot, replays, and refuses a second key", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const client = yield* apiClient(token)
        const options = yield* search()
        const option = options[0]
        const created = yield* confirm(option)
        const confirmKey = `confirm-${keys}`
        const id: string = created.booking.id
        expect(options.map(slotKey)).toContain(slotKey(option))
        expect((yield* search()).map(slotKey)).not.toContain(slotKey(option))

        const preview = yield* cancel(id, { idempotency_key: "c-1", dry_run: true })
        expect(preview.status, JSON.stringify(preview.body)).toBe(200)
        const freeNow = testNow <= Date.parse(option.cancellation_policy.free_until)
        expect(preview.body).toMatchObject({
          ok: true,
          booking_id: id,
          request_id: created.request_id,
          cancelled: false,
          booking_active: true,
          idempotent_replay: false,
          cancellation: {
            cancelled_by: "customer",
            fee_sek: freeNow ? 0 : option.cancellation_policy.late_fee_sek,
            within_free_period: freeNow,
            free_until: option.cancellation_policy.free_until
          }
        })
        expect(preview.body.safe_next_step).toContain("nothing was cancelled")
        expect(((yield* client.bookings.status({ params: { booking_id: id } })) as any).found).toBe(true)
        expect(yield* heldSlots(id)).toEqual({ held: 1, released: 0 })

        const done = yield* cancel(id, { idempotency_key: "c-1", reason: "Kunden är bortrest" })
        expect(done.status, JSON.stringify(done.body)).toBe(200)
        expect(Object.keys(done.body).sort()).toEqual(
          [
            "ok",
            "spec_version",
            "booking_id",
            "request_id",
            "cancelled",
            "booking_active",
            "cancellation",
            "confirmation_delivery",
            "idempotent_replay",
            "safe_next_step"
          ].sort()
        )
        expect(done.body).toMatchObject({
          cancelled: true,
          booking_active: false,
          idempotent_replay: false,
          cancellation: { cancelled_by: "customer", reason: "Kunden är bortrest" }
        })
        expect(done.body.safe_next_step).toContain("The booking is cancelled")
        expect(yield* heldSlots(id)).toEqual({ held: 0, released: 1 })
        // The freed slot is offered by the very next search.
        expect((yield* search()).map(slotKey)).toContain(slotKey(option))

        const replay = yield* cancel(id, { idempotency_key: "c-1", reason: "other words" })
        expect(replay.status).toBe(200)
        expect(replay.body).toEqual({ ...done.body, idempotent_replay: true })

        const again = yield* cancel(created.request_id, { idempotency_key: "c-2" })
        expect(again.status).toBe(409)
        expect(again.body).toMatchObject({
          ok: false,
          error: "booking_already_cancelled",
          cancellation: done.body.cancellation
        })

        const status: any = yield* client.bookings.status({ params: { booking_id: id } })
        expect(status).toEqual({
          ok: true,
          spec_version: "public_bookings_api_v1",
          found: false,
          booking_id: id,
          cancellation: done.body.cancellation,
          safe_next_step: expect.stringContaining("was cancelled at")
        })
        expect(status.safe_next_step).toContain("by the customer")
        expect(status.safe_next_step).toContain("Nothing is booked")

        // A confirm replay of a cancelled booking never says it is confirmed.
        const confirmAgain = yield* Effect.flip(
          client.bookings.confirm({
            payload: payloadOf(BookingConfirmationRequest)({ ...confirmBody(option), idempotency_key: confirmKey }),
            headers: {}
          })
        )
        expect(confirmAgain).toBeInstanceOf(BookingAlreadyCancelled)
        expect(confirmAgain).toMatchObject({ _tag: "booking_already_cancelled", booking_id: id })
      })
    )

    it.effect(
      "cancel refusals: 404 for unknown or another partner's booking, 400 without a key, 409 stale version and after the start",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const client = yield* apiClient(token)
          const [option] = yield* search()
          const created = yield* confirm(option)
          const id: string = created.booking.id
          const unknown = yield* cancel("bkg_doesnotexist", { idempotency_key: "x-1" })
          expect(unknown.status).toBe(404)
          expect(unknown.body).toMatchObject({ ok: false, error: "booking_not_found" })
          const other = yield* cancel(id, { idempotency_key: "x-1" }, { authorization: `Bearer ${otherToken}` })
          expect(other.status).toBe(404)
          expect(other.body).toEqual(unknown.body)
          const noKey = yield* cancel(id, {})
          expect(noKey.status).toBe(400)
          expect(noKey.body.issues.join()).toContain("idempotency_key")
          const extra = yield* cancel(id, { idempotency_key: "x-2", refund: true })
          expect(extra.status).toBe(400)
          const badBy = yield* cancel(id, { idempotency_key: "x-2", cancelled_by: "provider" })
          expect(badBy.status).toBe(400)
          const stale = yield* cancel(id, { idempotency_key: "x-3", expected_version: 2 })
          expect(stale.status).toBe(409)
          expect(stale.body).toMatchObject({ error: "booking_changed", booking_id: id })
          yield* TestClock.setTime(Date.parse(option.slot.start_at))
          const started = yield* cancel(id, { idempotency_key: "x-4", expected_version: 1 })
          expect(started.status).toBe(409)
          expect(started.body).toMatchObject({ error: "booking_started" })
          expect(((yield* client.bookings.status({ params: { booking_id: id } })) as any).found).toBe(true)
        })
    )

    it.effect("a late cancel carries the provider's fee as what it may charge", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const client = yield* apiClient(token)
        const options = yield* search()
        const option = options.find((o) => o.cancellation_policy.late_fee_sek > 0)!
        const created = yield* confirm(option)
        yield* TestClock.setTime(Date.parse(option.cancellation_policy.free_until) + 1000)
        const done = yield* client.bookings.cancel({
          params: { booking_id: created.booking.id },
          payload: payloadOf(CancelBookingRequest)({ idempotency_key: "late-1", cancelled_by: "partner" }),
          headers: {}
        })
        expect(done.cancellation).toMatchObject({
          cancelled_by: "partner",
          fee_sek: option.cancellation_policy.late_fee_sek,
          within_free_period: false
        })
        expect(done.safe_next_step).toContain(`may charge a fee of SEK ${option.cancellation_policy.late_fee_sek}`)
      })
    )

    it.effect("reschedule: same id, version up, old slot freed, history kept; replay; 422, 409s", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const client = yield* apiClient(token)
        const options = yield* search()
        const created = yield* confirm(options[0])
        const id: string = created.booking.id
        const fresh = yield* search()
        const target = otherTimeOf(fresh, created.booking)
        expect(target).toBeDefined()

        const preview = yield* reschedule(id, rescheduleBody(target, { dry_run: true }))
        expect(preview.status, JSON.stringify(preview.body)).toBe(200)
        expect(preview.body).toMatchObject({ dry_run: true, rescheduled: false, booking_version: 1 })
        expect(((yield* client.bookings.status({ params: { booking_id: id } })) as any).booking.slot_start_at).toBe(
          created.booking.slot_start_at
        )

        const body = rescheduleBody(target)
        const moved = yield* reschedule(created.request_id, body)
        expect(moved.status, JSON.stringify(moved.body)).toBe(200)
        expect(moved.body).toMatchObject({
          ok: true,
          request_id: created.request_id,
          provider_selected: true,
          availability_checked: true,
          booking_created: true,
          idempotent_replay: false,
          previous_slot: { start_at: created.booking.slot_start_at, end_at: created.booking.slot_end_at }
        })
        expect(moved.body.booking).toMatchObject({
          id,
          status: "confirmed",
          version: 2,
          slot_start_at: target.slot.start_at,
          slot_end_at: target.slot.end_at
        })
        expect(moved.body.cancellation_policy).toEqual(target.cancellation_policy)
        expect(yield* heldSlots(id)).toEqual({ held: 1, released: 1 })
        const after = yield* search()
        expect(after.map(slotKey)).toContain(slotKey(options[0]))
        expect(after.map(slotKey)).not.toContain(slotKey(target))
        const status: any = yield* client.bookings.status({ params: { booking_id: id } })
        expect(status.booking).toEqual(moved.body.booking)

        const replay = yield* reschedule(id, { ...body, booking_terms_accepted_at: "2026-11-23T09:00:30+01:00" })
        expect(replay.status).toBe(200)
        expect(replay.body).toEqual({ ...moved.body, idempotent_replay: true })

        const stale = yield* reschedule(
          id,
          rescheduleBody(otherTimeOf(after, moved.body.booking), { expected_version: 1 })
        )
        expect(stale.status).toBe(409)
        expect(stale.body.error).toBe("booking_changed")

        const elsewhere = after.find(
          (o) => o.provider.id !== created.booking.provider_id || o.service.service_id !== created.booking.service_id
        )
        if (elsewhere !== undefined) {
          const wrong = yield* reschedule(id, rescheduleBody(elsewhere))
          expect(wrong.status).toBe(422)
          expect(wrong.body.error).toBe("option_not_for_this_booking")
        }
        const noKey = yield* reschedule(id, { ...rescheduleBody(target), idempotency_key: undefined })
        expect(noKey.status).toBe(400)

        const unknown = yield* reschedule("bkg_doesnotexist", rescheduleBody(target))
        expect(unknown.status).toBe(404)

        // Past the change deadline.
        yield* TestClock.setTime(Date.parse(moved.body.cancellation_policy.change_until) + 1000)
        const late = yield* reschedule(id, rescheduleBody(target))
        expect(late.status).toBe(409)
        expect(late.body.error).toBe("outside_change_window")
        yield* TestClock.setTime(testNow)

        const done = yield* cancel(id, { idempotency_key: `c-${++keys}` })
        expect(done.status).toBe(200)
        const cancelled = yield* reschedule(id, rescheduleBody(target))
        expect(cancelled.status).toBe(409)
        expect(cancelled.body.error).toBe("booking_already_cancelled")
        const replayAfterCancel = yield* reschedule(id, body)
        expect(replayAfterCancel.status).toBe(409)
      })
    )

    it.effect(
      "reschedule to a slot taken meanwhile: 409 slot_taken, and the booking at its old time still stands",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const client = yield* apiClient(token)
          const options = yield* search()
          const created = yield* confirm(options[0])
          const target = otherTimeOf(yield* search(), created.booking)
          // Someone else books the target time first.
          yield* confirm(target, otherToken)
          const refused = yield* reschedule(created.booking.id, rescheduleBody(target))
          expect(refused.status, JSON.stringify(refused.body)).toBe(409)
          expect(refused.body).toMatchObject({ error: "slot_taken", option_refresh_required: true })
          expect(refused.body.safe_next_step).toContain("still stands")
          const status: any = yield* client.bookings.status({ params: { booking_id: created.booking.id } })
          expect(status.found).toBe(true)
          expect(status.booking).toEqual(created.booking)
          expect(yield* heldSlots(created.booking.id)).toEqual({ held: 1, released: 0 })
        })
    )

    it.effect("a racing cancel and reschedule: exactly one wins, the other gets 409, the status agrees", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const client = yield* apiClient(token)
        for (let round = 0; round < 4; round++) {
          const options = yield* search()
          const created = yield* confirm(options[round % options.length])
          const target = otherTimeOf(yield* search(), created.booking)
          const [cancelled, moved] = yield* Effect.all(
            [
              cancel(created.booking.id, { idempotency_key: `race-c-${round}`, expected_version: 1 }),
              reschedule(created.booking.id, rescheduleBody(target, { expected_version: 1 }))
            ],
            { concurrency: "unbounded" }
          )
          expect([cancelled.status, moved.status].sort()).toEqual([200, 409])
          const status: any = yield* client.bookings.status({ params: { booking_id: created.booking.id } })
          if (cancelled.status === 200) {
            expect(status.found).toBe(false)
            expect(yield* heldSlots(created.booking.id)).toMatchObject({ held: 0 })
          } else {
            expect(status.booking.version).toBe(2)
            expect(yield* heldSlots(created.booking.id)).toMatchObject({ held: 1 })
            yield* cancel(created.booking.id, { idempotency_key: `race-end-${round}` })
          }
        }
      })
    )
  })
})
