import { Clock, Effect, Option } from "effect"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import type { BookingListQuery, BookingListResponse } from "../Domain/ListPage.js"
import type { Partner } from "../Domain/Partner.js"
import { CurrentSurface } from "../Domain/Surface.js"
import type { SubjectDeliveryState } from "../Notifications/DeliveryState.js"
import { persistenceUnavailable } from "../Shared/Idempotency.js"
import type { ListCursor } from "../Shared/ListCursor.js"
import type { BookingsRepo } from "./BookingsRepo.js"
import { statusAnswer } from "./Status.js"

const listUnreadable =
  "The bookings cannot be listed right now because the database does not answer. This says nothing about any booking: do not tell the user one exists or does not. Retry this page (the same cursor) in a moment."

/** The partner's bookings, last changed first, each as its status lookup answers it. */
export const bookingList = (
  bookings: BookingsRepo["Service"],
  cursors: ListCursor["Service"],
  deliveryStates: (
    subjectIds: ReadonlyArray<string>
  ) => Effect.Effect<Option.Option<ReadonlyArray<SubjectDeliveryState>>>
) =>
  Effect.fn("Bookings.list")(function* (query: BookingListQuery, partner: Partner["Service"]) {
    const surface = yield* CurrentSurface
    const now = new Date(yield* Clock.currentTimeMillis)
    const { rows, nextCursor } = yield* cursors.page(
      "bookings",
      partner.id,
      { status: query.status, updatedSince: query.updated_since, cursor: query.cursor, limit: query.limit },
      (from) =>
        bookings.listPage(partner.id, from).pipe(Effect.catch(persistenceUnavailable("booking", listUnreadable)))
    )
    const confirmed = rows.filter((row) => row.status === "confirmed").map((row) => row.noticeSubjectId)
    const states = yield* deliveryStates(confirmed)
    const response: BookingListResponse = {
      ok: true,
      spec_version: bookingsSpecVersion,
      bookings: rows.map((row) =>
        statusAnswer(
          row,
          row.id,
          Option.map(states, (all) => all.filter((state) => state.subjectId === row.noticeSubjectId)),
          surface,
          now
        )
      ),
      next_cursor: nextCursor
    }
    return response
  })
