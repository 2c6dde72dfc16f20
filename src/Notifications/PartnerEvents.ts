import { Effect, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { rowsOf } from "../Database/Rows.js"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import { bookingConfirmationFailed, type Handoff, requestHandoffChanged } from "../Domain/WebhookEvents.js"
import type { DeliveryStatus } from "./DeliveryState.js"
import type { ClaimedRow, OutboxRepo } from "./OutboxRepo.js"

const BookingFactsRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  partnerId: Schema.String,
  providerId: Schema.String,
  serviceId: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  priceSek: Schema.Int,
  sandbox: Schema.Boolean,
  timeZone: Schema.String
})

const RequestFactsRow = Schema.Struct({ partnerId: Schema.String, sandbox: Schema.Boolean })

/** The hand-off as a request's status tells it, from its provider rows' states (Requests.handoffOf for a queued plan). */
const handoffFrom = (statuses: ReadonlyArray<DeliveryStatus>): Handoff => {
  const reached = statuses.filter((status) => status === "sent").length
  const pending = statuses.filter((status) => status === "pending").length
  return {
    status: reached > 0 ? "sent" : pending > 0 ? "queued" : "not_sent",
    providers_reached: reached,
    providers_pending: pending
  }
}

/**
 * The partner's event for a row that reached a final state, in the transaction that records it:
 * a booking confirmation given up is booking.confirmation_failed; a provider's hand-off sent or
 * given up changes the request's hand-off. The request row is locked so two rows of one request
 * finishing at once tell the hand-off in order.
 */
export const makeAnnounce = (outbox: OutboxRepo) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const webhookOutbox = yield* WebhookOutbox

    return (row: ClaimedRow, outcome: "sent" | "failed", now: Date) =>
      Effect.gen(function* () {
        if (row.topic === "booking_confirmed" && outcome === "failed") {
          const [booking] = yield* sql`
          SELECT id, request_id, partner_id, provider_id, service_id, slot_start, slot_end, price_sek, sandbox, time_zone
          FROM bookings WHERE id = ${row.subjectId}`.pipe(rowsOf(BookingFactsRow))
          if (booking === undefined) return
          yield* webhookOutbox.emit(
            { partnerId: booking.partnerId, sandbox: booking.sandbox },
            bookingConfirmationFailed(booking, row.recipientRole, now),
            now
          )
        }
        if (row.topic === "request_created") {
          const [request] = yield* sql`
          SELECT partner_id, sandbox FROM service_requests WHERE id = ${row.subjectId} FOR UPDATE`.pipe(
            rowsOf(RequestFactsRow)
          )
          if (request === undefined) return
          const states = yield* outbox.statusesOfSubject(row.subjectId)
          const before = handoffFrom(states.map((state) => (state.id === row.id ? "pending" : state.status)))
          const after = handoffFrom(states.map((state) => state.status))
          yield* webhookOutbox.emit(
            { partnerId: request.partnerId, sandbox: request.sandbox },
            requestHandoffChanged({ id: row.subjectId, sandbox: request.sandbox }, after, before.status, now),
            now
          )
        }
      })
  })
