import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { BookingAlreadyCancelled, CancelBookingRequest } from "../../src/Domain/BookingChange.js"
import {
  apiClient,
  cancelAnswer,
  confirmAnswer,
  customer,
  payloadOf,
  postJson,
  rescheduleAnswer,
  searchBodyFor,
  searchOptions,
  shortConfirmBody
} from "../support/Http.js"
import { type ReceivedMail, smtpServer } from "../support/Receivers.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "partner-a-token-0123456789"
const otherToken = "partner-b-token-9876543210"
const auth = { authorization: `Bearer ${token}` }

const searchBody = searchBodyFor("nästa vecka")

const search = () => searchOptions(searchBody, token)

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

const cancel = (bookingId: string, body: Record<string, unknown>, asToken: string = token) =>
  cancelAnswer(bookingId, body, asToken)

/** Bad input is raw HTTP: the typed client cannot send a body its schema refuses. */
const rawCancel = (bookingId: string, body: Record<string, unknown>) =>
  postJson(`/api/public/bookings/${bookingId}/cancel`, body, auth)

const rescheduleBody = (option: any, overrides: Record<string, unknown> = {}) => ({
  booking_option_id: option.booking_option_id,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
  idempotency_key: `move-${++keys}`,
  ...overrides
})

const reschedule = (bookingId: string, body: Record<string, unknown>, asToken: string = token) =>
  rescheduleAnswer(bookingId, body, asToken)

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
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` }, loops: "none" }))((it) => {
    it.effect("every option, confirm and status carry the policy; deadlines at or before the start", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const client = yield* apiClient(token)
        const options = yield* search()
        expect(options.length).toBeGreaterThan(0)
        for (const option of options) {
          const policy = option.cancellation_policy
          expect(Object.keys(policy).sort()).toEqual(
            [
              "change_available",
              "change_until",
              "free_cancellation_available",
              "free_until",
              "late_fee_sek",
              "summary_en",
              "summary_sv",
              "withdrawal_until"
            ].sort()
          )
          expect(Date.parse(policy.free_until)).toBeLessThanOrEqual(Date.parse(option.slot.start_at))
          expect(Date.parse(policy.change_until)).toBeLessThanOrEqual(Date.parse(option.slot.start_at))
          expect(policy.summary_en).not.toMatch(/you owe|must pay/i)
          // Booked now for next week, the withdrawal period covers the start: no fee is offered (2 kap. 10 §).
          if (Date.parse(policy.withdrawal_until) > Date.parse(option.slot.start_at))
            expect(policy.summary_en).toContain("so cancelling before the start is free")
          else if (policy.late_fee_sek > 0) expect(policy.summary_en).toContain("may charge")
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
        const freeNow = testNow < Date.parse(option.cancellation_policy.free_until)
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
          const other = yield* cancel(id, { idempotency_key: "x-1" }, otherToken)
          expect(other.status).toBe(404)
          expect(other.body).toEqual(unknown.body)
          const noKey = yield* cancel(id, {})
          expect(noKey.status).toBe(400)
          expect(noKey.body.issues.join()).toContain("idempotency_key")
          const extra = yield* rawCancel(id, { idempotency_key: "x-2", refund: true })
          expect(extra.status).toBe(400)
          const badBy = yield* rawCancel(id, { idempotency_key: "x-2", cancelled_by: "provider" })
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

    it.effect(
      "a late cancel within the withdrawal period is free by law (2005:59 2 kap. 10 and 15 §§), whatever the late fee",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const client = yield* apiClient(token)
          const options = yield* search()
          const option = options.find((o) => o.cancellation_policy.late_fee_sek > 0)!
          const created = yield* confirm(option)
          expect(Date.parse(option.cancellation_policy.withdrawal_until)).toBeGreaterThan(
            Date.parse(option.slot.start_at)
          )
          yield* TestClock.setTime(Date.parse(option.cancellation_policy.free_until) + 1000)
          const done = yield* client.bookings.cancel({
            params: { booking_id: created.booking.id },
            payload: payloadOf(CancelBookingRequest)({ idempotency_key: "late-1", cancelled_by: "partner" }),
            headers: {}
          })
          expect(done.cancellation).toMatchObject({
            cancelled_by: "partner",
            fee_sek: 0,
            within_free_period: false,
            legal_basis: "withdrawal_right"
          })
          expect(done.safe_next_step).toContain("no fee may be charged, whatever the provider's terms say")
          expect(done.safe_next_step).not.toMatch(/may charge a fee/)
        })
    )

    it.effect(
      "a late cancel after the withdrawal period carries the provider's fee as its term (konsumenttjänstlagen 42–43 §§)",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const client = yield* apiClient(token)
          const options = yield* searchOptions(searchBodyFor("om 3 veckor"), token)
          const option = options.find(
            (o: any) =>
              o.cancellation_policy.late_fee_sek > 0 &&
              Date.parse(o.cancellation_policy.free_until) > Date.parse(o.cancellation_policy.withdrawal_until)
          )
          expect(option).toBeDefined()
          const created = yield* confirm(option)
          yield* TestClock.setTime(Date.parse(option.cancellation_policy.free_until) + 1000)
          const done = yield* client.bookings.cancel({
            params: { booking_id: created.booking.id },
            payload: payloadOf(CancelBookingRequest)({ idempotency_key: "late-2", cancelled_by: "partner" }),
            headers: {}
          })
          expect(done.cancellation).toMatchObject({
            cancelled_by: "partner",
            fee_sek: option.cancellation_policy.late_fee_sek,
            within_free_period: false,
            legal_basis: "provider_terms"
          })
          expect(done.safe_next_step).toContain(`may charge a fee of SEK ${option.cancellation_policy.late_fee_sek}`)
          expect(done.safe_next_step).toContain("applies only if it is reasonable")
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
        const { idempotency_key: _noKey, ...withoutKey } = rescheduleBody(target)
        const noKey = yield* reschedule(id, withoutKey)
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

/**
 * The e-mails of a booking's life, through a real SMTP server. In this file rather than one of its
 * own: run in a second vitest process beside the suite above, both stalled until one timed out
 * (cause not found; each passes alone and in one process).
 */
const emailsOfABookingsLife = () => {
  const token = "partner-mail-token-0123456789"
  const sandboxToken = "sandbox-mail-token-0123456789"

  const searchBody = {
    vertical_id: "vvs",
    job_type_id: "install_faucet",
    description: "Byta köksblandaren, den nya finns på plats",
    location: { country_code: "SE", postcode: "111 22" },
    timing: { preferred_time_text: "nästa vecka" }
  }

  const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }
  const providerEmail = "order@provider.example"

  let keys = 0

  /** The Swedish part of a message and the English part below its heading. */
  const halves = (mail: ReceivedMail) => {
    const at = mail.text.indexOf("In English")
    expect(at).toBeGreaterThan(0)
    return { sv: mail.text.slice(0, at), en: mail.text.slice(at) }
  }

  describe("the customer's and the provider's e-mails of a booking's life, through a real SMTP server", () => {
    it.effect(
      "confirm states the terms and the policy in words; a cancel and a move are told in Swedish and English; a sandbox change tells nobody",
      () =>
        Effect.gen(function* () {
          const smtp = yield* smtpServer()
          const context = yield* Layer.build(
            TestServer({
              env: {
                SERVICE_REQUESTS_API_TOKENS: token,
                SANDBOX_API_TOKENS: sandboxToken,
                SMTP_URL: `smtp://127.0.0.1:${smtp.port}`
              },
              loops: "none"
            })
          )
          const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
          yield* TestClock.setTime(testNow)
          const search = (t: string) => run(searchOptions(searchBody, t))
          const confirm = (option: any, t: string) =>
            run(confirmAnswer(shortConfirmBody(option, `mail-${++keys}`, customer), t)).pipe(
              Effect.map((response) => {
                expect(response.status, JSON.stringify(response.body)).toBe(201)
                return response.body
              })
            )
          const otherTime = (options: Array<any>, booking: any) =>
            options.find(
              (o) =>
                o.provider.id === booking.provider_id &&
                o.service.service_id === booking.service_id &&
                Date.parse(o.slot.start_at) >= Date.parse(booking.slot_end_at)
            )

          // A provider with a late fee, told by e-mail, so both sides' messages pass the SMTP server.
          const options = yield* search(token)
          const option = options.find((o) => o.cancellation_policy.late_fee_sek > 0)
          expect(option).toBeDefined()
          const sql = yield* run(SqlClient.SqlClient)
          yield* run(
            sql`UPDATE providers SET notify_email = ${providerEmail}, notify_webhook_url = NULL WHERE id = ${option.provider.id}`
          )

          const created = yield* confirm(option, token)
          const policy = option.cancellation_policy
          const confirmation = smtp.messages.find((mail) => mail.to.includes(customer.email))!
          expect(confirmation).toBeDefined()
          const confirmed = halves(confirmation)
          // The terms in a durable form: the version, and the policy in the words the option gave.
          expect(confirmed.sv).toContain(option.terms.version)
          expect(confirmed.sv).toContain(policy.summary_sv)
          expect(confirmed.en).toContain(option.terms.version)
          expect(confirmed.en).toContain(policy.summary_en)
          for (const text of [confirmed.sv, confirmed.en]) expect(text).not.toMatch(/du är skyldig|you owe|must pay/i)
          // On a durable medium (2005:59 2 kap. 4 §): the information before the commitment, the price, the early-start record.
          const information = option.terms.sections.find((section: any) => section.id === "consumer_information")
          expect(confirmed.sv).toContain(information.text_sv)
          expect(confirmed.en).toContain(information.text_en)
          expect(confirmed.sv).toContain(`${information.withdrawal_form_url}`)
          expect(confirmed.sv).toContain(created.early_start.summary_sv)
          expect(confirmed.en).toContain(created.early_start.summary_en)
          expect(confirmed.en).toContain(`Price: `)

          // A move: the customer's new confirmation names both times and the new policy; the provider is told.
          const target = otherTime(yield* search(token), created.booking)
          const before = smtp.messages.length
          const moved = yield* run(
            reschedule(
              created.booking.id,
              {
                booking_option_id: target.booking_option_id,
                booking_terms_accepted: true,
                booking_terms_version: target.terms.version,
                booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
                idempotency_key: `mail-move-${++keys}`
              },
              token
            )
          )
          expect(moved.status, JSON.stringify(moved.body)).toBe(200)
          expect(moved.body.confirmation_delivery).toMatchObject({
            customer: { status: "sent", channel: "email" },
            provider: { status: "sent", channel: "email" }
          })
          const moveMails = smtp.messages.slice(before)
          const toCustomer = moveMails.find((mail) => mail.to.includes(customer.email))!
          const toProvider = moveMails.find((mail) => mail.to.includes(providerEmail))!
          expect(toCustomer.subject).toMatch(/^Din bokning är flyttad: .*\(Booking moved\)$/)
          const movedText = halves(toCustomer)
          expect(movedText.sv).toContain("är flyttad till en ny tid och bekräftad")
          expect(movedText.sv).toContain(created.request_id)
          expect(movedText.sv).toContain(`Avbokning och ändring: ${target.cancellation_policy.summary_sv}`)
          expect(movedText.en).toContain("has been moved to a new time and is confirmed")
          expect(movedText.en).toContain(`Cancelling and changing: ${target.cancellation_policy.summary_en}`)
          expect(movedText.en).toMatch(/New time: .*\nEarlier time: /)
          expect(toProvider.subject).toMatch(/^Flyttad bokning: /)
          expect(halves(toProvider).sv).toContain("den tidigare är frigjord")
          expect(halves(toProvider).en).toContain("the earlier one released")

          // A late cancel within the withdrawal period: free by law whatever the late fee (2005:59 2 kap. 10 and 15 §§).
          yield* TestClock.setTime(Date.parse(moved.body.cancellation_policy.free_until) + 60_000)
          const beforeCancel = smtp.messages.length
          const cancelled = yield* run(
            cancel(
              created.booking.id,
              {
                idempotency_key: `mail-cancel-${++keys}`,
                reason: "Kunden är bortrest hela veckan"
              },
              token
            )
          )
          expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
          const fee = cancelled.body.cancellation.fee_sek
          expect(policy.late_fee_sek).toBeGreaterThan(0)
          expect(fee).toBe(0)
          expect(cancelled.body.cancellation.legal_basis).toBe("withdrawal_right")
          const cancelMails = smtp.messages.slice(beforeCancel)
          const cancelToCustomer = cancelMails.find((mail) => mail.to.includes(customer.email))!
          const cancelToProvider = cancelMails.find((mail) => mail.to.includes(providerEmail))!
          expect(cancelToCustomer.subject).toMatch(/^Din bokning är avbokad: .*\(Booking cancelled\)$/)
          const cancelText = halves(cancelToCustomer)
          expect(cancelText.sv).toContain("är avbokad av kunden. Ingenting är längre bokat under den.")
          expect(cancelText.sv).toContain("ingen avgift får tas ut, vad utförarens villkor än säger")
          expect(cancelText.en).toContain("was cancelled by the customer. Nothing is booked under it any more.")
          expect(cancelText.en).toContain("no fee may be charged, whatever the provider's terms say")
          expect(cancelToProvider.subject).toMatch(/^Avbokad: /)
          expect(halves(cancelToProvider).en).toContain("no fee may be charged, whatever the provider's terms say")
          // The reason is the partner's free text: told to no one.
          for (const mail of [cancelToCustomer, cancelToProvider]) {
            expect(mail.text).not.toContain("bortrest")
            expect(mail.text).not.toMatch(/du är skyldig|you owe|must pay/i)
          }

          // Sandbox: the same changes, and not one message leaves.
          yield* TestClock.setTime(testNow)
          const sandboxOptions = yield* search(sandboxToken)
          const sandboxBooked = yield* confirm(sandboxOptions[0], sandboxToken)
          const sandboxTarget = otherTime(yield* search(sandboxToken), sandboxBooked.booking)
          const beforeSandbox = smtp.messages.length
          const sandboxMoved = yield* run(
            reschedule(
              sandboxBooked.booking.id,
              {
                booking_option_id: sandboxTarget.booking_option_id,
                booking_terms_accepted: true,
                booking_terms_version: sandboxTarget.terms.version,
                booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
                idempotency_key: `mail-sandbox-move-${++keys}`
              },
              sandboxToken
            )
          )
          expect(sandboxMoved.status, JSON.stringify(sandboxMoved.body)).toBe(200)
          expect(sandboxMoved.body.safe_next_step).toMatch(/^Sandbox: .*no provider or customer was told/)
          const sandboxCancelled = yield* run(
            cancel(sandboxBooked.booking.id, { idempotency_key: `mail-sandbox-cancel-${++keys}` }, sandboxToken)
          )
          expect(sandboxCancelled.status, JSON.stringify(sandboxCancelled.body)).toBe(200)
          expect(sandboxCancelled.body).toMatchObject({ cancelled: true, sandbox: true })
          expect(sandboxCancelled.body.safe_next_step).toMatch(/^Sandbox: .*no provider or customer was told/)
          for (const body of [sandboxMoved.body, sandboxCancelled.body]) {
            expect(body.confirmation_delivery.customer.channel).not.toBe("email")
            expect(body.confirmation_delivery.provider.channel).not.toMatch(/email|webhook/)
          }
          // Whatever a background delivery would do, it has no real recipient to do it to.
          const [counted] = yield* run(
            sql<{ real: number }>`SELECT count(*)::int AS real FROM notification_outbox n
              JOIN bookings b ON n.subject_id = b.id OR n.subject_id IN (SELECT id FROM booking_changes WHERE booking_id = b.id)
              WHERE b.sandbox AND n.channel IN ('email', 'webhook')`
          )
          expect(counted?.real).toBe(0)
          expect(smtp.messages.slice(beforeSandbox)).toEqual([])
        }).pipe(Effect.scoped),
      30_000
    )
  })
}

emailsOfABookingsLife()
