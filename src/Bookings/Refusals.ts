import { Effect, Result } from "effect"
import type * as SqlError from "effect/sql/SqlError"
import {
  type BookingConfirmationRequest,
  type BookingUnavailable,
  type Customer,
  customerIdentity,
  OptionAlreadyBooked,
  SlotTaken
} from "../Domain/Booking.js"
import type { OptionExpired, OptionInvalid, SignedOption } from "../Domain/BookingOption.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import { type ExistingBooking, IdempotencyKeyReused } from "../Domain/Errors.js"
import type { Partner } from "../Domain/Partner.js"
import { sandboxPrefix } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import { persistenceUnavailable, sqlStateOf } from "../Shared/Idempotency.js"
import { bookedSlot, priceOf } from "./Answers.js"
import type { BookingsRepo } from "./BookingsRepo.js"

/** A 409 that searching again fixes; it comes after the check that the option is not already this customer's. */
export const refreshWith = (surface: Surface) => ({
  option_refresh_required: true,
  safe_next_step: `This call booked nothing. Search again (${surface.search}) and offer the user the new options.`
})

export const conflictTags = new Set([
  "option_already_booked",
  "slot_taken",
  "price_changed",
  "terms_changed",
  "provider_unavailable",
  "option_expired",
  "option_invalid",
  "idempotency_key_reused"
])

/** Races between confirms end in one of these, never in a 500. */
const conflictCodes = new Set(["23P01", "40P01", "40001"])
export const lostSlotRace = (error: SqlError.SqlError) => conflictCodes.has(sqlStateOf(error) ?? "")

/** A confirm that lost a race for the slot rolled back: the client's conflict, not an outage. */
export const slotJustTaken = (surface: Surface) => (error: SqlError.SqlError) =>
  lostSlotRace(error)
    ? new SlotTaken({ ...refreshWith(surface), issues: ["booking_option_id: the slot was just taken"] })
    : undefined

/** Refusals of an option that can no longer be booked, after which the option may still be this customer's booking. */
const refusedOption = new Set([
  "slot_taken",
  "price_changed",
  "terms_changed",
  "provider_unavailable",
  "option_expired"
])

export const commitUnknownStep = (surface: Surface, requestId: string) =>
  `The outcome is unknown: the database stopped answering while the booking was being saved, so it may or may not exist. Do not tell the user it is booked, and do not tell them it is not. Retry the same request with the same idempotency_key (safe: it returns the booking if it was saved), or look it up with ${surface.bookingStatus(requestId)} once the service answers.`

const alreadyBookedUnreadable =
  "This option cannot be booked now, and whether it is already booked for this customer could not be read because the database does not answer. This call booked nothing. Do not tell the user it is booked or that it is not, and do not search for another option yet: retry the same request (same idempotency_key) in a moment."

/** A booking a refusal names: enough to say which booking it is, never the customer's details. */
const existingBooking = (stored: StoredBooking): ExistingBooking => ({
  id: stored.id,
  request_id: stored.requestId,
  status: "confirmed",
  ...bookedSlot(stored)
})

const bookingNamed = (stored: StoredBooking) =>
  `${stored.providerName}, ${stored.slotLabel}, ${priceOf(stored).en} (request_id ${stored.requestId})`

/** The key holds another booking request's booking: name it, and never send the caller to book again for it. */
export const keyHolds = (surface: Surface) => (stored: StoredBooking) =>
  new IdempotencyKeyReused({
    issues: [
      "idempotency_key: already holds a confirmed booking made with other details (option, customer, address or terms version)"
    ],
    booking_id: stored.id,
    request_id: stored.requestId,
    existing_booking: existingBooking(stored),
    safe_next_step: `${stored.sandbox ? sandboxPrefix : ""}This idempotency_key already holds a confirmed booking: ${bookingNamed(stored)}. This call booked nothing new. Look that booking up with ${surface.bookingStatus(stored.requestId)} and tell the user about it. Only if the user wants a second, separate booking, confirm it with a new idempotency_key.`
  })

/** The option is already this customer's booking, made by this partner under another key. */
const alreadyBooked = (surface: Surface, stored: StoredBooking) =>
  new OptionAlreadyBooked({
    issues: ["booking_option_id: this option is already booked for this customer"],
    booking_id: stored.id,
    request_id: stored.requestId,
    existing_booking: existingBooking(stored),
    safe_next_step: `${stored.sandbox ? sandboxPrefix : ""}This option is already booked for this customer: ${bookingNamed(stored)} is confirmed. This call booked nothing new. Tell the user it is already booked, and look it up with ${surface.bookingStatus(stored.requestId)} when they ask about it. Do not book it again.`
  })

/**
 * The same person, as a retry under a new key would name them: the same name, and the same e-mail
 * or phone (a household sharing an e-mail is not one customer, nor a namesake).
 */
const sameCustomer = (a: Customer, b: Customer) => {
  const [left, right] = [customerIdentity(a), customerIdentity(b)]
  return left.name === right.name && (left.email === right.email || left.phone === right.phone)
}

/**
 * An option that can no longer be booked may be so because this partner already booked it for
 * this customer (a retry under a new key, after its own success): then that is the answer, and
 * "search again" (this call booked nothing, the slot went to someone else) is not.
 */
export const orAlreadyBooked =
  (
    bookings: BookingsRepo["Service"],
    request: BookingConfirmationRequest,
    opened: Result.Result<SignedOption, OptionInvalid | OptionExpired>,
    partner: Partner["Service"],
    surface: Surface
  ) =>
  <E extends { readonly _tag: string }>(
    error: E
  ): Effect.Effect<never, E | OptionAlreadyBooked | BookingUnavailable> => {
    if (!refusedOption.has(error._tag) || Result.isFailure(opened)) return Effect.fail(error)
    const option = opened.success
    return bookings
      .findSameOption({
        partnerId: partner.id,
        providerId: option.providerId,
        serviceId: option.serviceId,
        slotStart: new Date(option.slotStart),
        slotEnd: new Date(option.slotEnd)
      })
      .pipe(
        Effect.catch(persistenceUnavailable("booking", alreadyBookedUnreadable)),
        Effect.flatMap((found) => {
          const mine = found.find(({ customer }) => sameCustomer(customer, request.customer))
          return Effect.fail<E | OptionAlreadyBooked>(mine === undefined ? error : alreadyBooked(surface, mine))
        })
      )
  }
