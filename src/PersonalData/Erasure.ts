import { Effect } from "effect"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import type { ErasedBy } from "../Domain/Retention.js"
import { Notifier } from "../Notifications/Notifier.js"
import { RequestsRepo } from "../Requests/RequestsRepo.js"

/**
 * Erasure: a booking's or a request's personal data through its repo, then their outbox rows'.
 * Partner webhooks never carried any (Domain/WebhookEvents.ts), so they are not touched.
 */
export const makeErasureRepo = Effect.gen(function* () {
  const notifier = yield* Notifier
  const bookings = yield* BookingsRepo
  const requests = yield* RequestsRepo

  /** Erases these bookings' personal data and their messages'; answers the ids it erased. */
  const eraseBookings = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
    Effect.flatMap(bookings.erasePersonalData(ids, by, now, erasureId), ({ erased, subjects }) =>
      Effect.as(notifier.redactPersonalData(subjects), erased)
    )

  /** Erases these requests' personal data and their hand-offs'; answers the ids it erased. */
  const eraseRequests = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
    Effect.flatMap(requests.erasePersonalData(ids, by, now, erasureId), (erased) =>
      Effect.as(
        notifier.redactPersonalData(
          erased.flatMap((row) => (row.withdrawalId === null ? [row.id] : [row.id, row.withdrawalId]))
        ),
        erased.map((row) => row.id)
      )
    )

  const batch = 200

  return {
    findBooking: bookings.personalData,
    lockBooking: bookings.lockPersonalData,
    findRequest: requests.personalData,
    lockRequest: requests.lockPersonalData,
    requestRecipients: notifier.requestRecipients,
    eraseBookings,
    eraseRequests,
    dueBookings: (cutoff: Date) => bookings.dueForErasure(cutoff, batch),
    dueRequests: (cutoff: Date) => requests.dueForErasure(cutoff, batch),
    batch
  } as const
})
