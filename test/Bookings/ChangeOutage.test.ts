import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { DatabaseProxy, FaultyDatabaseLive } from "../support/Database.js"
import { apiClient, confirmAnswer, postJson, searchOptions, shortConfirmBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "change-outage-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

const searchBody = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE", postcode: "111 22" },
  timing: { preferred_time_text: "nästa vecka" }
}

let keys = 0
const options = Effect.andThen(TestClock.setTime(testNow), searchOptions(searchBody, token))

/** A fresh booking of the first free option, and another time of its provider and service to move it to. */
const aBooking = Effect.gen(function* () {
  const [option] = yield* options
  const created = yield* confirmAnswer(shortConfirmBody(option, `outage-confirm-${++keys}`), token)
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const booking = created.body.booking
  const target = (yield* options).find(
    (o) =>
      o.provider.id === booking.provider_id &&
      o.service.service_id === booking.service_id &&
      Date.parse(o.slot.start_at) >= Date.parse(booking.slot_end_at)
  )
  expect(target).toBeDefined()
  return { booking, target }
})

/** Raw: a 503's Retry-After header is part of what these tests read. */
const cancel = (id: string, body: Record<string, unknown>) => postJson(`/api/public/bookings/${id}/cancel`, body, auth)

const moveBody = (target: any, key: string, extra: Record<string, unknown> = {}) => ({
  booking_option_id: target.booking_option_id,
  booking_terms_accepted: true,
  booking_terms_version: target.terms.version,
  booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
  idempotency_key: key,
  ...extra
})

const reschedule = (id: string, body: Record<string, unknown>) =>
  postJson(`/api/public/bookings/${id}/reschedule`, body, auth)

const bookingStatus = (id: string) =>
  Effect.flatMap(apiClient(token), (client) => client.bookings.status({ params: { booking_id: id } }))

/** The booking as stored: status, version, slot, and the slots it holds and has released. */
const stored = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ status: string; version: number; slotStart: Date; held: number; released: number; changes: number }>`
      SELECT b.status, b.version, b.slot_start,
        (SELECT count(*)::int FROM calendar_bookings c WHERE c.booking_id = b.id AND c.released_at IS NULL) AS held,
        (SELECT count(*)::int FROM calendar_bookings c WHERE c.booking_id = b.id AND c.released_at IS NOT NULL) AS released,
        (SELECT count(*)::int FROM booking_changes c WHERE c.booking_id = b.id) AS changes
      FROM bookings b WHERE b.id = ${id}::uuid`.pipe(
      Effect.map(([row]) => ({ ...row!, slotStart: row!.slotStart.toISOString() }))
    )
  )

const unchanged = (booking: any) => ({
  status: "confirmed",
  version: 1,
  slotStart: new Date(booking.slot_start_at).toISOString(),
  held: 1,
  released: 0,
  changes: 0
})

/** What a 503 of a change may never say: that the change happened, or that it surely did not when unknown. */
const expectUnavailable = (response: { readonly status: number; readonly headers: any; readonly body: any }) => {
  expect(response.status, JSON.stringify(response.body)).toBe(503)
  expect(response.headers["retry-after"]).toMatch(/^\d+$/)
  expect(response.body).toMatchObject({ ok: false, error: "booking_unavailable", status: 503 })
  expect(response.body.safe_next_step).toMatch(/same idempotency_key/)
  expect(response.body.safe_next_step).not.toMatch(/^The booking is cancelled|has been moved/)
}

const lines: Array<string> = []
const collector = Logger.layer([
  Logger.map(Logger.formatJson, (line) => {
    lines.push(line)
  })
])

/** No customer data, and not the cancel's free-text reason, in any log line. */
const expectNoPersonalDataLogged = () =>
  expect(lines.join("\n")).not.toMatch(/Astrid|Lindqvist|123 45 67|astrid@|Drottninggatan|bortrest/)

describe("cancel and reschedule while the database fails: the step says what is known, and it is true", () => {
  it.layer(
    TestServer({
      database: FaultyDatabaseLive,
      env: { SERVICE_REQUESTS_API_TOKENS: token, WEBHOOK_POLL_MS: "600000" }
    }).pipe(Layer.provide(collector))
  )((it) => {
    it.effect("an outage: cancel, reschedule and their dry runs answer 503, and the booking is untouched", () =>
      Effect.gen(function* () {
        const faults = yield* DatabaseProxy
        const { booking, target } = yield* aBooking
        yield* faults.outage
        const attempts = [
          yield* cancel(booking.id, { idempotency_key: "down-c-1" }),
          yield* cancel(booking.id, { idempotency_key: "down-c-2", dry_run: true }),
          yield* reschedule(booking.id, moveBody(target, "down-m-1")),
          yield* reschedule(booking.id, moveBody(target, "down-m-2", { dry_run: true }))
        ]
        for (const answer of attempts) {
          expectUnavailable(answer)
          expect(answer.body.safe_next_step).toMatch(/changed nothing|cancelled nothing/)
          expect(answer.body.safe_next_step).toMatch(/nor that it/)
        }
        yield* faults.restore
        expect(yield* stored(booking.id)).toEqual(unchanged(booking))
        const status = yield* bookingStatus(booking.id)
        expect(status).toMatchObject({ found: true, booking: { id: booking.id, version: 1 } })
        // The same keys, once the database answers: each change happens once.
        const cancelled = yield* cancel(booking.id, { idempotency_key: "down-c-1" })
        expect(cancelled.status).toBe(200)
        expect(cancelled.body).toMatchObject({ cancelled: true, idempotent_replay: false })
        expectNoPersonalDataLogged()
      })
    )

    for (const when of ["before_write", "after_write"] as const) {
      it.effect(
        `the connection lost ${when === "before_write" ? "before" : "after"} the key's claim inside the transaction: nothing was written, and the step says so`,
        () =>
          Effect.gen(function* () {
            const faults = yield* DatabaseProxy
            const { booking, target } = yield* aBooking

            yield* faults.loseNextWrite(when)
            const cancelLost = yield* cancel(booking.id, { idempotency_key: `lost-c-${when}` })
            expectUnavailable(cancelLost)
            expect(cancelLost.body.safe_next_step).toMatch(/^Nothing was cancelled by this attempt/)
            expect(yield* stored(booking.id)).toEqual(unchanged(booking))

            yield* faults.loseNextWrite(when)
            const moveLost = yield* reschedule(booking.id, moveBody(target, `lost-m-${when}`))
            expectUnavailable(moveLost)
            expect(moveLost.body.safe_next_step).toMatch(/^Nothing was changed by this attempt/)
            expect(moveLost.body.safe_next_step).toContain("old time still stands")
            expect(yield* stored(booking.id)).toEqual(unchanged(booking))

            // The retry under the same key makes the move, once.
            const moved = yield* reschedule(booking.id, moveBody(target, `lost-m-${when}`))
            expect(moved.status, JSON.stringify(moved.body)).toBe(200)
            expect(moved.body).toMatchObject({ idempotent_replay: false, booking: { version: 2 } })
            const again = yield* reschedule(booking.id, moveBody(target, `lost-m-${when}`))
            expect(again.body).toEqual({ ...moved.body, idempotent_replay: true })
            expect(yield* stored(booking.id)).toMatchObject({ version: 2, held: 1, released: 1, changes: 1 })
            expect(lines.some((line) => line.includes("persistence failed"))).toBe(true)
            expectNoPersonalDataLogged()
          })
      )
    }

    it.effect(
      "a cancel's commit whose answer was lost is unknown; the same key then returns the one cancellation",
      () =>
        Effect.gen(function* () {
          const faults = yield* DatabaseProxy
          const { booking } = yield* aBooking
          yield* faults.loseNextWrite("after_write", "COMMIT")
          const lost = yield* cancel(booking.id, { idempotency_key: "commit-c-1", reason: "Kunden är bortrest" })
          expectUnavailable(lost)
          expect(lost.body.safe_next_step).toMatch(/^The outcome is unknown/)
          expect(lost.body.safe_next_step).toMatch(/Do not tell the user either/)
          // PostgreSQL did commit it.
          expect(yield* stored(booking.id)).toMatchObject({ status: "cancelled", version: 2, held: 0, changes: 1 })
          const retried = yield* cancel(booking.id, { idempotency_key: "commit-c-1", reason: "Kunden är bortrest" })
          expect(retried.status, JSON.stringify(retried.body)).toBe(200)
          expect(retried.body).toMatchObject({ cancelled: true, booking_active: false, idempotent_replay: true })
          expect(yield* stored(booking.id)).toMatchObject({ status: "cancelled", version: 2, changes: 1 })
          const status = yield* bookingStatus(booking.id)
          expect(status).toMatchObject({ found: false, cancellation: retried.body.cancellation })
          expectNoPersonalDataLogged()
        })
    )

    it.effect(
      "a commit that never reached PostgreSQL is unknown to the service too; the same key then changes once",
      () =>
        Effect.gen(function* () {
          const faults = yield* DatabaseProxy
          const { booking, target } = yield* aBooking
          yield* faults.loseNextWrite("before_write", "COMMIT")
          const lost = yield* reschedule(booking.id, moveBody(target, "commit-m-1"))
          expectUnavailable(lost)
          expect(lost.body.safe_next_step).toMatch(/^The outcome is unknown/)
          expect(lost.body.safe_next_step).toContain(`GET /api/public/bookings/${booking.id}`)
          expect(yield* stored(booking.id)).toEqual(unchanged(booking))
          const retried = yield* reschedule(booking.id, moveBody(target, "commit-m-1"))
          expect(retried.status, JSON.stringify(retried.body)).toBe(200)
          expect(retried.body).toMatchObject({ idempotent_replay: false, booking: { version: 2 } })
          expect(yield* stored(booking.id)).toMatchObject({ version: 2, held: 1, released: 1, changes: 1 })
          const replayed = yield* reschedule(booking.id, moveBody(target, "commit-m-1"))
          expect(replayed.body).toEqual({ ...retried.body, idempotent_replay: true })
        })
    )
  })
})
