import { Schema } from "effect"
import { BookingConfirmationResponse, Delivery } from "./Booking.js"
import { Cancellation, CancellationPolicyTerms } from "./CancellationPolicy.js"
import { bookingsSpecVersion } from "./Capabilities.js"
import { ContractError } from "./Errors.js"
import { DateTimeString, optional, strictInput, text } from "./Input.js"
import { OptionPrice } from "./Search.js"

/** Who cancels a booking: the partner's caller for the customer or itself, or the provider. */
export type CancelledBy = "customer" | "partner" | "provider"

const ExpectedVersion = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)).annotate({
  description:
    "The booking.version the caller last read; when the booking has changed since, nothing is done and the answer is 409 booking_changed."
})

const DryRun = Schema.Boolean.annotate({
  description: "true: check everything and answer what would happen, changing nothing and telling no one."
})

export const cancelBookingFields = {
  /** Required unless the Idempotency-Key header carries it (the service checks one is present). */
  idempotency_key: optional(text(1, 200)),
  reason: optional(text(1, 500)),
  cancelled_by: optional(Schema.Literals(["customer", "partner"])),
  dry_run: optional(DryRun),
  expected_version: optional(ExpectedVersion)
}

export const CancelBookingRequest = strictInput(Schema.Struct(cancelBookingFields))
export type CancelBookingRequest = typeof CancelBookingRequest.Type

/** A cancel that was made (or is replayed): when, by whom and at what fee. */
export const CancelledBooking = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  booking_id: Schema.String,
  request_id: Schema.String,
  /** True only when this call (or the one it replays) cancelled the booking. */
  cancelled: Schema.Literal(true),
  booking_active: Schema.Literal(false),
  cancellation: Cancellation,
  confirmation_delivery: Schema.Struct({ customer: Delivery, provider: Delivery }),
  idempotent_replay: Schema.Boolean,
  sandbox: Schema.optional(Schema.Literal(true)),
  safe_next_step: Schema.String
}).annotate({ identifier: "CancelledBooking" })
export type CancelledBooking = typeof CancelledBooking.Type

/** What a cancel now would be: its fee and deadlines, without a cancelled_at, since nothing was cancelled. */
export const CancellationPreview = Schema.Struct({
  cancelled_by: Cancellation.fields.cancelled_by,
  reason: Cancellation.fields.reason,
  fee_sek: Cancellation.fields.fee_sek,
  within_free_period: Cancellation.fields.within_free_period,
  free_until: Cancellation.fields.free_until,
  legal_basis: Cancellation.fields.legal_basis,
  withdrawal_until: Cancellation.fields.withdrawal_until
}).annotate({
  identifier: "CancellationPreview",
  description:
    "What cancelling now would be: fee_sek is what the provider may charge for it (0 within the statutory withdrawal period before the start, legal_basis withdrawal_right, and 0 within the provider's free period, which runs until free_until). Nothing is cancelled."
})

/** A cancel's dry run: nothing changed and nobody told; the fee and the policy as they stand now. */
export const CancelPreview = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  booking_id: Schema.String,
  request_id: Schema.String,
  cancelled: Schema.Literal(false),
  booking_active: Schema.Literal(true),
  dry_run: Schema.Literal(true),
  cancellation: CancellationPreview,
  /** The booking's policy as it stands now: its deadlines, and whether each has passed. */
  cancellation_policy: CancellationPolicyTerms,
  confirmation_delivery: Schema.Struct({ customer: Delivery, provider: Delivery }),
  idempotent_replay: Schema.Literal(false),
  sandbox: Schema.optional(Schema.Literal(true)),
  safe_next_step: Schema.String
}).annotate({ identifier: "CancelPreview" })
export type CancelPreview = typeof CancelPreview.Type

export const CancelBookingResponse = Schema.Union([CancelledBooking, CancelPreview])
export type CancelBookingResponse = typeof CancelBookingResponse.Type

export const rescheduleBookingFields = {
  booking_option_id: text(20, 24000),
  idempotency_key: optional(text(1, 200)),
  booking_terms_accepted: Schema.Literal(true).annotate({
    message: "must be true: the user must accept the new option's booking terms"
  }),
  booking_terms_version: text(8, 240),
  booking_terms_accepted_at: DateTimeString,
  expected_version: optional(ExpectedVersion),
  dry_run: optional(DryRun),
  /** The partner's hold on the new option, as for a confirm. */
  hold_id: optional(text(1, 80))
}

export const RescheduleBookingRequest = strictInput(Schema.Struct(rescheduleBookingFields))
export type RescheduleBookingRequest = typeof RescheduleBookingRequest.Type

export const Slot = Schema.Struct({ start_at: DateTimeString, end_at: DateTimeString })

/** The confirm body of the booking at its new time, and the time it had. */
export const RescheduleBookingResponse = Schema.Struct({
  ...BookingConfirmationResponse.fields,
  /** The time the booking had before: it holds it no longer. */
  previous_slot: Slot
}).annotate({ identifier: "RescheduleBookingResponse" })
export type RescheduleBookingResponse = typeof RescheduleBookingResponse.Type

/**
 * A reschedule's dry run: the booking as it stands (unchanged) and what the move would make of it:
 * the new time, its price (which the booking would take) and the difference, and its policy.
 */
export const ReschedulePreview = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  dry_run: Schema.Literal(true),
  rescheduled: Schema.Literal(false),
  booking_id: Schema.String,
  request_id: Schema.String,
  booking_version: Schema.Int,
  current_slot: Slot,
  new_slot: Schema.Struct({ ...Slot.fields, label: Schema.String }),
  /** The booking's price now (booking.price_sek), before any deduction. */
  current_price_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  /** The new time's price as its option states it, with its tax_deduction: the booking would take it. */
  new_price: OptionPrice,
  /** new_price.amount_sek less current_price_sek, both before any deduction: positive costs more. */
  price_difference_sek: Schema.Int,
  new_cancellation_policy: CancellationPolicyTerms,
  safe_next_step: Schema.String
}).annotate({ identifier: "ReschedulePreview" })
export type ReschedulePreview = typeof ReschedulePreview.Type

export class BookingNotFound extends ContractError<BookingNotFound>()(
  "booking_not_found",
  404,
  "No booking with this id exists for your token",
  {
    retrySafe: false,
    recovery:
      "Check the booking id (request_id or booking.id of the confirm answer) and that the same partner token is used."
  }
) {}

export class BookingAlreadyCancelled extends ContractError<BookingAlreadyCancelled>()(
  "booking_already_cancelled",
  409,
  "The booking is already cancelled; the body says when and by whom",
  {
    carries: ["issues", "booking_id", "request_id", "cancellation"],
    retrySafe: false,
    recovery: "Nothing to do: the booking is already cancelled; tell the user when and by whom, as the body says."
  }
) {}

export class BookingStarted extends ContractError<BookingStarted>()(
  "booking_started",
  409,
  "The booked slot has started: the booking can no longer be cancelled here",
  {
    carries: ["issues", "booking_id", "request_id"],
    retrySafe: false,
    recovery: "The booked time has started: it can no longer be changed here; the user contacts the provider directly."
  }
) {}

export class BookingChanged extends ContractError<BookingChanged>()(
  "booking_changed",
  409,
  "The booking changed since the caller read it (expected_version is stale)",
  {
    carries: ["issues", "booking_id", "request_id"],
    retrySafe: false,
    recovery:
      "Look the booking up again (GET its status), show the user what changed, and send the change with the new expected_version if they still want it."
  }
) {}

export class OutsideChangeWindow extends ContractError<OutsideChangeWindow>()(
  "outside_change_window",
  409,
  "The provider's policy no longer allows changing this booking's time",
  {
    carries: ["issues", "booking_id", "request_id"],
    retrySafe: false,
    recovery:
      "The provider's policy no longer allows a time change: offer to cancel (preview the fee with dry_run first) or have the user contact the provider."
  }
) {}

export class OptionNotForThisBooking extends ContractError<OptionNotForThisBooking>()(
  "option_not_for_this_booking",
  422,
  "The option is not of the booking's provider and service",
  {
    carries: ["issues", "booking_id", "request_id"],
    retrySafe: false,
    recovery: "Search again and pick an option of the booking's provider and service to move it to."
  }
) {}

const BookingRef = text(1, 200).annotate({ description: "The booking's booking.id or request_id" })

/** The MCP tools' arguments: the REST path's booking_id beside the body's fields. */
export const CancelBookingArguments = strictInput(Schema.Struct({ booking_id: BookingRef, ...cancelBookingFields }))
export const RescheduleBookingArguments = strictInput(
  Schema.Struct({ booking_id: BookingRef, ...rescheduleBookingFields })
)
