import { Clock, Effect, Option } from "effect"
import type { BookingStatusResponse } from "../Domain/Booking.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { anonymousPartnerId, type Partner } from "../Domain/Partner.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import type { DeliveryState } from "../Notifications/DeliveryState.js"
import { persistenceUnavailable } from "../Shared/Idempotency.js"
import { confirmedFacts, confirmedStep, outageSteps } from "./Answers.js"
import type { BookingsRepo } from "./BookingsRepo.js"
import { cancellationOf, cancelledStep } from "./Cancellations.js"

/** A booking of this partner by its `booking.id` or `request_id`, redacted; another's is not found. */
export const bookingStatus = (
  bookings: BookingsRepo["Service"],
  deliveryStates: (subjectIds: ReadonlyArray<string>) => Effect.Effect<Option.Option<ReadonlyArray<DeliveryState>>>
) =>
  Effect.fnUntraced(function* (bookingId: string, partner: Partner["Service"]) {
    const found = yield* bookings
      .findByRef(partner.id, bookingId)
      .pipe(Effect.catch(persistenceUnavailable("booking", outageSteps.statusUnreadable)))
    if (Option.isNone(found)) {
      const response: BookingStatusResponse = {
        ok: true,
        spec_version: bookingsSpecVersion,
        found: false,
        booking_id: bookingId,
        safe_next_step:
          partner.id === anonymousPartnerId
            ? "No token was sent, so only bookings made without a token were looked up, and none has this id. A booking made with a partner token is found only with that token: send it (Authorization: Bearer <token>). Until then, do not tell the user whether this booking exists."
            : "No booking with this id exists for your token. Do not tell the user anything is booked; search again or check the id."
      }
      return response
    }
    const states =
      found.value.status === "cancelled" ? Option.none() : yield* deliveryStates([found.value.noticeSubjectId])
    return statusAnswer(found.value, bookingId, states, yield* CurrentSurface, new Date(yield* Clock.currentTimeMillis))
  })

/** What the status lookup answers for a stored booking asked for as `bookingId`. */
export const statusAnswer = (
  stored: StoredBooking,
  bookingId: string,
  states: Option.Option<ReadonlyArray<DeliveryState>>,
  surface: Surface,
  now: Date
): BookingStatusResponse =>
  stored.status === "cancelled"
    ? {
        ok: true,
        spec_version: bookingsSpecVersion,
        found: false,
        booking_id: bookingId,
        cancellation: cancellationOf(stored, stored.timeZone),
        safe_next_step: cancelledStep(stored, surface)
      }
    : { ...confirmedFacts(stored, states, now), found: true, safe_next_step: confirmedStep(stored) }
