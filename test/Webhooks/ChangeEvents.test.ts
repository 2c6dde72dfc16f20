import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { AppConfig } from "../../src/AppConfig.js"
import { Webhooks } from "../../src/Webhooks/Webhooks.js"
import {
  cancelAnswer,
  confirmAnswer,
  deliveriesOf,
  registerWebhook,
  rescheduleAnswer,
  searchOptions
} from "../support/Http.js"
import { verifyAt, webhookReceiver } from "../support/Receivers.js"
import { TestServer, testNow } from "../support/Server.js"
import { expectSwedishStamps, waitFor } from "../support/Time.js"

const token = "partner-change-events-0123456789"
const sandboxToken = "partner-change-events-sandbox-0123"
const env = { SERVICE_REQUESTS_API_TOKENS: token, SANDBOX_API_TOKENS: sandboxToken, WEBHOOK_TIMEOUT_MS: "300" }

const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }
const street = "Drottninggatan 12"
const reason = "Astrid ringde och vill avboka xyzzy"
const personalData = [customer.name, customer.phone, customer.email, street, "Lindqvist", "astrid", "xyzzy"]

const search = (asToken: string) =>
  searchOptions(
    {
      vertical_id: "vvs",
      job_type_id: "install_faucet",
      description: "Byta köksblandaren, den nya finns på plats",
      location: { country_code: "SE", postcode: "111 22" },
      timing: { preferred_time_text: "nästa vecka" }
    },
    asToken
  )

let key = 0
const confirm = (option: any, asToken: string) =>
  confirmAnswer(
    {
      booking_option_id: option.booking_option_id,
      customer,
      service_location: { country_code: "SE", address: street, postcode: "111 22" },
      user_consent_confirmed: true,
      booking_terms_accepted: true,
      booking_terms_version: option.terms.version,
      booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
      idempotency_key: `change-events-${++key}`
    },
    asToken
  )

const cancel = (bookingId: string, body: Record<string, unknown>, asToken: string) =>
  cancelAnswer(bookingId, { idempotency_key: `cancel-${++key}`, ...body }, asToken)

const reschedule = (bookingId: string, option: any, asToken: string) =>
  rescheduleAnswer(
    bookingId,
    {
      booking_option_id: option.booking_option_id,
      booking_terms_accepted: true,
      booking_terms_version: option.terms.version,
      booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
      idempotency_key: `move-${++key}`
    },
    asToken
  )

/** Another time of the booking's provider and service that does not overlap it. */
const otherTimeOf = (options: Array<any>, booked: any) =>
  options.find(
    (o) =>
      o.provider.id === booked.provider_id &&
      o.service.service_id === booked.service_id &&
      (Date.parse(o.slot.start_at) >= Date.parse(booked.slot_end_at) ||
        Date.parse(o.slot.end_at) <= Date.parse(booked.slot_start_at))
  )

const sameInstant = (a: string, b: string) => expect(Date.parse(a)).toBe(Date.parse(b))

/** The app, and a pass of another instance's dispatcher that the test runs itself. */
const withApp = Effect.gen(function* () {
  const context = yield* Layer.build(TestServer({ env: env }))
  const dispatcher = yield* Layer.build(
    Webhooks.Default.pipe(Layer.provide(Layer.succeedContext(Context.pick(SqlClient.SqlClient, AppConfig)(context))))
  ).pipe(Effect.map(Context.get(Webhooks)))
  return {
    run: <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>,
    dispatch: (later = 0) => Effect.andThen(TestClock.adjust(later), dispatcher.deliverDue())
  }
})

const register = (url: string, asToken: string) =>
  registerWebhook(asToken, url, ["booking.cancelled", "booking.rescheduled"])

describe("partner webhooks for cancel and reschedule", () => {
  it.effect(
    "each move and cancel reaches the partner once, signed, with the old slot and who cancelled; a refused change sends nothing",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const hooks = yield* webhookReceiver()
        const { run, dispatch } = yield* withApp
        const created = yield* run(register(hooks.url, token))
        expect(created.status, JSON.stringify(created.body)).toBe(201)
        const secret = created.body.secret as string

        const [option] = yield* run(search(token))
        const booked = yield* run(confirm(option, token))
        expect(booked.status, JSON.stringify(booked.body)).toBe(201)
        const booking = booked.body.booking
        const later = otherTimeOf(yield* run(search(token)), booking)
        expect(later).toBeDefined()
        const moved = yield* run(reschedule(booking.id, later, token))
        expect(moved.status, JSON.stringify(moved.body)).toBe(200)

        // Refused or previewed changes write no event: a dry run, a stale version.
        expect((yield* run(cancel(booking.id, { dry_run: true }, token))).status).toBe(200)
        expect((yield* run(cancel(booking.id, { expected_version: 1 }, token))).status).toBe(409)

        const cancelled = yield* run(cancel(booking.id, { reason, cancelled_by: "partner" }, token))
        expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
        // After the cancel: a second cancel and a move are refused, and announce nothing.
        expect((yield* run(cancel(booking.id, {}, token))).body.error).toBe("booking_already_cancelled")
        expect((yield* run(reschedule(booking.id, option, token))).body.error).toBe("booking_already_cancelled")

        yield* dispatch()
        yield* waitFor(
          Effect.sync(() => hooks.received.length),
          (n) => expect(n).toBe(2)
        )
        yield* dispatch(60_000)
        expect(hooks.received).toHaveLength(2)

        const now = yield* Clock.currentTimeMillis
        const events = hooks.received.map((delivery) => verifyAt(secret, delivery, now) as any)
        const [rescheduled, cancelledEvent] = [
          events.find((event) => event.type === "booking.rescheduled"),
          events.find((event) => event.type === "booking.cancelled")
        ]
        expect(rescheduled.data).toMatchObject({
          booking_id: booking.id,
          request_id: booked.body.request_id,
          provider_id: booking.provider_id,
          service_id: booking.service_id,
          status: "confirmed",
          sandbox: false
        })
        sameInstant(rescheduled.data.slot.start_at, later.slot.start_at)
        sameInstant(rescheduled.data.previous_slot.start_at, booking.slot_start_at)
        sameInstant(rescheduled.data.previous_slot.end_at, booking.slot_end_at)
        expect(cancelledEvent.data).toMatchObject({
          booking_id: booking.id,
          status: "cancelled",
          cancelled_by: "partner",
          sandbox: false,
          fee_sek: cancelled.body.cancellation.fee_sek,
          legal_basis: cancelled.body.cancellation.legal_basis
        })
        sameInstant(cancelledEvent.data.slot.start_at, later.slot.start_at)
        for (const delivery of hooks.received) {
          for (const text of personalData) expect(delivery.body).not.toContain(text)
        }
        for (const event of events)
          expect(expectSwedishStamps(event), event.type).toBe(5 - (event.type === "booking.cancelled" ? 2 : 0))
        // The event's slot is the very text the booking's own answers give.
        expect(rescheduled.data.slot.start_at).toBe(moved.body.booking.slot_start_at)
        expect(rescheduled.data.previous_slot.start_at).toBe(booking.slot_start_at)
        // One delivery per change, each with its own webhook-id, as the partner's list shows them.
        const list = yield* run(deliveriesOf(token, created.body.webhook.id))
        expect(expectSwedishStamps([list, created.body, booked.body, moved.body, cancelled.body])).toBeGreaterThan(0)
        expect(list.map((d: any) => d.id).sort()).toEqual(
          hooks.received.map((delivery) => delivery.headers["webhook-id"]).sort()
        )
      }).pipe(Effect.scoped)
  )

  it.effect("a sandbox partner's cancel reaches only its sandbox webhook, marked sandbox, as the customer's", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(testNow)
      const live = yield* webhookReceiver()
      const sandbox = yield* webhookReceiver()
      const { run, dispatch } = yield* withApp
      const liveHook = yield* run(register(live.url, token))
      const sandboxHook = yield* run(register(sandbox.url, sandboxToken))
      expect(sandboxHook.body.webhook.sandbox).toBe(true)

      const [option] = yield* run(search(sandboxToken))
      const booked = yield* run(confirm(option, sandboxToken))
      expect(booked.status, JSON.stringify(booked.body)).toBe(201)
      const cancelled = yield* run(cancel(booked.body.booking.id, {}, sandboxToken))
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)

      yield* dispatch()
      yield* waitFor(
        Effect.sync(() => sandbox.received.length),
        (n) => expect(n).toBe(1)
      )
      const event = verifyAt(sandboxHook.body.secret, sandbox.received[0]!, yield* Clock.currentTimeMillis) as any
      expect(event).toMatchObject({
        type: "booking.cancelled",
        data: { booking_id: booked.body.booking.id, cancelled_by: "customer", sandbox: true }
      })
      expect(live.received).toHaveLength(0)
      expect(yield* run(deliveriesOf(token, liveHook.body.webhook.id))).toEqual([])
    }).pipe(Effect.scoped)
  )
})
