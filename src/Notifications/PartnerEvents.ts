import { Context, Effect, type Schema } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import {
  type BookingFacts,
  bookingConfirmationFailed,
  type Handoff,
  requestHandoffChanged
} from "../Domain/WebhookEvents.js"
import type { DeliveryStatus } from "./DeliveryState.js"
import type { ClaimedRow, OutboxRepo } from "./OutboxRepo.js"

/**
 * What a partner's event about a notification's final outcome reads of its subject. The subjects'
 * tables belong to the features above this layer, so their owners answer (Bookings/NotifierLive.ts).
 */
export class NotificationSubjects extends Context.Service<
  NotificationSubjects,
  {
    /** The booking as booking.confirmation_failed tells it, with its partner; none for an unknown id. */
    readonly booking: (
      id: string
    ) => Effect.Effect<(BookingFacts & { readonly partnerId: string }) | undefined, SqlError | Schema.SchemaError>
    /**
     * The request's partner and kind, its row locked until the transaction ends, so two provider
     * rows of one request finishing at once tell the hand-off in order; none for an unknown id.
     */
    readonly lockRequest: (
      id: string
    ) => Effect.Effect<
      { readonly partnerId: string; readonly sandbox: boolean } | undefined,
      SqlError | Schema.SchemaError
    >
  }
>()("Booking/NotificationSubjects") {}

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
 * given up changes the request's hand-off.
 */
export const makeAnnounce = (outbox: OutboxRepo) =>
  Effect.gen(function* () {
    const subjects = yield* NotificationSubjects
    const webhookOutbox = yield* WebhookOutbox

    return (row: ClaimedRow, outcome: "sent" | "failed", now: Date) =>
      Effect.gen(function* () {
        if (row.topic === "booking_confirmed" && outcome === "failed") {
          const booking = yield* subjects.booking(row.subjectId)
          if (booking === undefined) return
          yield* webhookOutbox.emit(
            { partnerId: booking.partnerId, sandbox: booking.sandbox },
            bookingConfirmationFailed(booking, row.recipientRole, now),
            now
          )
        }
        if (row.topic === "request_created") {
          const request = yield* subjects.lockRequest(row.subjectId)
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
