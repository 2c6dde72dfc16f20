import { Effect, Schema } from "effect"
import { Cancellation, CancellationPolicyTerms } from "./CancellationPolicy.js"
import { bookingsSpecVersion } from "./Capabilities.js"
import { ContractError } from "./Errors.js"
import { DateTimeString, optional, sameText, strictInput, text } from "./Input.js"
import { Postcode } from "./Supply.js"
import { TaxDeductionAnswer } from "./TaxDeductionSchema.js"

const Email = text(1, 255).check(
  Schema.makeFilter((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) || "must be an e-mail address")
)

export const Customer = Schema.Struct({
  name: optional(text(2, 160)),
  first_name: optional(text(1, 80)),
  last_name: optional(text(1, 80)),
  phone: text(5, 80),
  email: Email
}).check(
  Schema.makeFilter((customer) =>
    customer.name !== undefined || (customer.first_name !== undefined && customer.last_name !== undefined)
      ? true
      : { path: ["name"], issue: "is required, or first_name and last_name" }
  )
)
export type Customer = typeof Customer.Type

/** The name to address the customer by: `name`, else first and last name. */
export const customerNameOf = (customer: Customer) =>
  customer.name ?? `${customer.first_name ?? ""} ${customer.last_name ?? ""}`.trim()

/** Who the customer is, as a retry would repeat it: the name however split, phone digits, e-mail in any case. */
export const customerIdentity = (customer: Customer) => ({
  name: sameText(customerNameOf(customer)),
  phone: customer.phone.replace(/[^\d+]/g, ""),
  email: customer.email.trim().toLowerCase()
})

export const BookingConfirmationLocation = Schema.Struct({
  country_code: Schema.Literal("SE").annotate({ message: "must be SE: the service covers Sweden only" }),
  address: text(4, 500),
  postcode: Postcode
})
export type BookingConfirmationLocation = typeof BookingConfirmationLocation.Type

const mustBeTrue = (what: string) => Schema.Literal(true).annotate({ message: `must be true: ${what}` })

export const BookingConfirmationRequest = strictInput(
  Schema.Struct({
    spec_version: optional(Schema.Literal(bookingsSpecVersion)),
    booking_option_id: text(20, 24000),
    customer: Customer,
    service_location: BookingConfirmationLocation,
    destination_location: optional(BookingConfirmationLocation),
    user_consent_confirmed: mustBeTrue("the user must consent to sharing these details and confirming the option"),
    user_consent_statement: optional(text(8, 500)),
    consent_collected_at: optional(DateTimeString),
    consent_source: optional(text(1, 120)),
    booking_terms_accepted: mustBeTrue("the user must accept the option's booking terms"),
    booking_terms_version: text(8, 240),
    booking_terms_accepted_at: DateTimeString,
    source: text(1, 80).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("external_model"))),
    external_reference: optional(text(1, 160)),
    /** Required unless the Idempotency-Key header carries it (the service checks one is present). */
    idempotency_key: optional(text(1, 200)),
    /**
     * The customer wants the option's RUT or ROT deduction made on the invoice; the provider is
     * told so and collects the identity details it needs. Absent or false: not asked for.
     */
    tax_deduction_requested: optional(Schema.Boolean),
    /**
     * The partner's hold on this option (POST /api/public/holds). Without it the partner's hold on
     * the option's slot is found anyway; naming it makes a hold of another partner a 404.
     */
    hold_id: optional(text(1, 80)),
    /**
     * The customer expressly asked for the work to start within the 14-day withdrawal period
     * (2005:59, 2 kap. 15 §). Ask for it explicitly, never pre-ticked; absent: not asked for.
     */
    early_start_requested: optional(
      Schema.Boolean.annotate({
        description:
          "Whether the user expressly asked for the work to start within the 14-day withdrawal period. Ask the user explicitly when the slot starts within 14 days; never assume or pre-tick it. Absent: not asked for, and a withdrawal within the period then owes nothing, even for work done."
      })
    ),
    early_start_statement: optional(
      text(8, 500).annotate({ description: "The words the user agreed to when asking for the early start." })
    )
  })
)
export type BookingConfirmationRequest = typeof BookingConfirmationRequest.Type

const Status = Schema.Literals(["sent", "skipped", "failed"])

/** What the early-start request means for this booking's withdrawal right, as stored and in words. */
export const EarlyStart = Schema.Struct({
  requested: Schema.Boolean.annotate({
    description:
      "True only when the user expressly asked at confirm for the work to start within the withdrawal period."
  }),
  statement: Schema.optional(Schema.String),
  slot_within_withdrawal_period: Schema.Boolean.annotate({
    description: "Whether the slot starts before the withdrawal period ends."
  }),
  summary_sv: Schema.String,
  summary_en: Schema.String
}).annotate({ identifier: "EarlyStart" })

export const ConfirmedBooking = Schema.Struct({
  id: Schema.String,
  status: Schema.Literal("confirmed"),
  provider_id: Schema.String,
  provider_name: Schema.String,
  service_id: Schema.String,
  slot_start_at: DateTimeString,
  slot_end_at: DateTimeString,
  slot_label: Schema.optional(Schema.String),
  price_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  currency: Schema.Literal("SEK"),
  /** Beside the spec's fields: what kind of price price_sek is (a starting price is not exact). */
  pricing_model: Schema.optional(Schema.String),
  price_type: Schema.optional(Schema.String),
  unit_price_sek: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  unit: Schema.optional(Schema.String),
  quantity: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  confirmed_at: DateTimeString,
  terms_version: Schema.String,
  /** 1 at confirm, one more for each change of its time; send it as expected_version to change it. */
  version: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  customer_confirmation_status: Schema.optional(Status),
  provider_confirmation_status: Schema.optional(Status),
  /** Only on a sandbox partner's bookings: nobody was told, and no real calendar was touched. */
  sandbox: Schema.optional(Schema.Literal(true))
})
export type ConfirmedBooking = typeof ConfirmedBooking.Type

/**
 * `unknown` when the delivery state could not be read (the booking itself was); channel `sandbox`
 * when the message was kept for a sandbox partner and sent to no one (always `skipped`).
 */
export const Delivery = Schema.Struct({
  status: Schema.Literals(["pending", "sent", "skipped", "failed", "unknown"]),
  channel: Schema.Literals(["email", "webhook", "none", "sandbox", "unknown"]),
  attempts: Schema.optional(Schema.Int),
  will_retry: Schema.optional(Schema.Boolean),
  next_attempt_at: Schema.optional(DateTimeString),
  reason: Schema.optional(
    Schema.Literals(["sandbox", "dry_run"]).annotate({
      description:
        "Why a message was skipped when it was not for want of a channel: sandbox (a sandbox partner's message, kept and sent to no one), dry_run (nothing was done, so nobody was told)."
    })
  )
})
export type Delivery = typeof Delivery.Type

/** What confirm and the status lookup both say of a confirmed booking. */
const bookingFacts = {
  request_id: Schema.String,
  booking: ConfirmedBooking,
  provider_selected: Schema.Literal(true),
  availability_checked: Schema.Literal(true),
  booking_created: Schema.Literal(true),
  confirmation_delivery: Schema.Struct({ customer: Delivery, provider: Delivery }),
  /** The deduction the confirmation stated, with the figures of the option; booking.price_sek stays the price before it. */
  tax_deduction: TaxDeductionAnswer,
  /** Whether the customer asked for the deduction at confirm (tax_deduction_requested). */
  tax_deduction_requested: Schema.Boolean,
  cancellation_policy: CancellationPolicyTerms,
  /** The customer's early-start request as recorded at confirm (early_start_requested). */
  early_start: EarlyStart
}

export const BookingConfirmationResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  ...bookingFacts,
  idempotent_replay: Schema.Boolean,
  safe_next_step: Schema.String
})
export type BookingConfirmationResponse = typeof BookingConfirmationResponse.Type

export const BookingStatusResponse = Schema.Union([
  Schema.Struct({
    ok: Schema.Literal(true),
    spec_version: Schema.Literal(bookingsSpecVersion),
    found: Schema.Literal(false),
    booking_id: Schema.String,
    /** Only for a booking that existed and was cancelled: nothing is booked. */
    cancellation: Schema.optional(Cancellation),
    safe_next_step: Schema.String
  }),
  Schema.Struct({
    ok: Schema.Literal(true),
    spec_version: Schema.Literal(bookingsSpecVersion),
    found: Schema.Literal(true),
    ...bookingFacts,
    safe_next_step: Schema.String
  })
]).annotate({ identifier: "BookingStatusResponse" })
export type BookingStatusResponse = typeof BookingStatusResponse.Type

export class PriceChanged extends ContractError<PriceChanged>()(
  "price_changed",
  409,
  "The provider's price changed since the search",
  {
    carries: ["issues", "option_refresh_required"],
    retrySafe: false,
    recovery: "Search again and show the user the new price; confirm a new option only with their agreement."
  }
) {}

export class TermsChanged extends ContractError<TermsChanged>()(
  "terms_changed",
  409,
  "The provider's terms version changed since the search",
  {
    carries: ["issues", "option_refresh_required"],
    retrySafe: false,
    recovery: "Search again and show the user the new terms; confirm a new option only after they accept them."
  }
) {}

export class ProviderUnavailable extends ContractError<ProviderUnavailable>()(
  "provider_unavailable",
  409,
  "The provider no longer offers this service at this postcode",
  {
    carries: ["issues", "option_refresh_required"],
    retrySafe: false,
    recovery:
      "Search again: this provider no longer offers the service at the postcode; show the user the options that remain."
  }
) {}

export class SlotTaken extends ContractError<SlotTaken>()(
  "slot_taken",
  409,
  "The slot is no longer free in the provider's calendar",
  {
    carries: ["issues", "option_refresh_required"],
    retrySafe: false,
    recovery:
      "Search again and offer the user another time; nothing was booked (on a reschedule the booking at its old time still stands)."
  }
) {}

/**
 * This partner already booked the option for this customer, under another idempotency key: the
 * body names that booking, and nothing new was booked. Not a refresh: the booking stands.
 */
export class OptionAlreadyBooked extends ContractError<OptionAlreadyBooked>()(
  "option_already_booked",
  409,
  "The option is already booked for this customer by this partner; the body names the booking",
  {
    carries: ["issues", "booking_id", "request_id", "existing_booking"],
    retrySafe: false,
    recovery: "Nothing new was booked: tell the user about the booking named in the body, and look it up by its id."
  }
) {}

export class BookingUnavailable extends ContractError<BookingUnavailable>()(
  "booking_unavailable",
  503,
  "Booking persistence is unavailable",
  {
    retrySafe: true,
    recovery:
      "Send the same request again with the same idempotency key after a moment: it either returns the booking if it was made or makes it once. Never tell the user it is booked before an answer says so."
  }
) {}
