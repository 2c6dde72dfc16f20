import { Effect } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { rowsOf } from "../Database/Rows.js"
import { type ErasedBy, erasedMessageBody, RequestRecipientRow } from "../Domain/Retention.js"
import { RequestsRepo } from "../Requests/RequestsRepo.js"

/** The topics whose messages carry the customer's details; the others never did. */
const topicsWithPersonalData = ["booking_confirmed", "booking_cancelled", "booking_rescheduled", "request_created"]

/**
 * Erasure: a booking's or a request's personal data through its repo, then their outbox rows'.
 * Partner webhooks never carried any (Domain/WebhookEvents.ts), so they are not touched.
 */
export const makeErasureRepo = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const bookings = yield* BookingsRepo
  const requests = yield* RequestsRepo

  /** Every provider a request was handed to, with its name, and whether the copy reached it. */
  const requestRecipients = (requestId: string) =>
    sql`
      SELECT o.provider_id, p.name AS provider_name, o.channel, o.address, o.status
      FROM notification_outbox o JOIN providers p ON p.id = o.provider_id
      WHERE o.subject_id = ${requestId}::uuid AND o.topic = 'request_created' AND o.recipient_role = 'provider'
      ORDER BY o.created_at, o.id`.pipe(rowsOf(RequestRecipientRow))

  /**
   * The outbox rows of these subjects that carried personal data: the customer's address goes, the
   * text and payload are replaced, an error (which may quote an address) is dropped, and a row not
   * yet delivered is stopped: it would carry what is erased.
   */
  const redactOutbox = (subjects: ReadonlyArray<string>) =>
    subjects.length === 0
      ? Effect.void
      : sql`
      UPDATE notification_outbox SET
        address = CASE WHEN recipient_role = 'customer' THEN NULL ELSE address END,
        body = ${erasedMessageBody},
        payload = '{"personal_data_erased": true}'::jsonb,
        last_error = CASE WHEN status = 'pending' THEN 'stopped: personal data erased before delivery' END,
        status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END
      WHERE subject_id IN ${sql.in(subjects)} AND topic IN ${sql.in(topicsWithPersonalData)}`.pipe(Effect.asVoid)

  /** Erases these bookings' personal data and their messages'; answers the ids it erased. */
  const eraseBookings = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
    Effect.flatMap(bookings.erasePersonalData(ids, by, now, erasureId), ({ erased, subjects }) =>
      Effect.as(redactOutbox(subjects), erased)
    )

  /** Erases these requests' personal data and their hand-offs'; answers the ids it erased. */
  const eraseRequests = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
    Effect.flatMap(requests.erasePersonalData(ids, by, now, erasureId), (erased) =>
      Effect.as(
        redactOutbox(erased.flatMap((row) => (row.withdrawalId === null ? [row.id] : [row.id, row.withdrawalId]))),
        erased.map((row) => row.id)
      )
    )

  const batch = 200

  return {
    findBooking: bookings.personalData,
    lockBooking: bookings.lockPersonalData,
    findRequest: requests.personalData,
    lockRequest: requests.lockPersonalData,
    requestRecipients,
    eraseBookings,
    eraseRequests,
    dueBookings: (cutoff: Date) => bookings.dueForErasure(cutoff, batch),
    dueRequests: (cutoff: Date) => requests.dueForErasure(cutoff, batch),
    batch
  } as const
})
