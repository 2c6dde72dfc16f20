import { Context, Schema } from "effect"
import { Delivery, EarlyStart } from "./Booking.js"
import { Cancellation, CancellationPolicyTerms } from "./CancellationPolicy.js"
import { ContractError } from "./Errors.js"
import { DateTimeString, matching, optional, strictInput, text } from "./Input.js"
import { WorkingHours } from "./Supply.js"

/** The provider a provider token belongs to: every provider endpoint reads and writes only its data. */
export class AuthenticatedProvider extends Context.Service<
  AuthenticatedProvider,
  {
    readonly id: string
    readonly name: string
    /** The public prefix of the token the request came with: what the offer's change trail names. */
    readonly tokenPrefix: string
  }
>()("Booking/AuthenticatedProvider") {}

export const providerSpecVersion = "provider_api_v1" as const

/** The longest window `GET /api/provider/bookings` answers for at once. */
export const maxBookingsWindowDays = 92
/** The window when the caller gives none: from now, this many days. */
export const defaultBookingsWindowDays = 30
/** How far ahead a block may lie, and the horizon imported busy times are expanded over. */
export const bookingHorizonDays = 400

const Location = Schema.Struct({
  /** Null once the customer's personal data is erased: only the postcode stays. */
  address: Schema.NullOr(Schema.String),
  postcode: Schema.String,
  country_code: Schema.String
})

/**
 * How a cancelled job was cancelled, as its provider reads it: when, by whom, and what the provider
 * may charge under its terms. The caller's free-text reason is not here: it is the partner's.
 */
export const ProviderCancellation = Schema.Struct({
  cancelled_at: Schema.String,
  cancelled_by: Schema.Literals(["customer", "partner", "provider"]),
  fee_sek: Schema.Number,
  within_free_period: Schema.Boolean,
  free_until: Schema.String,
  legal_basis: Cancellation.fields.legal_basis,
  withdrawal_until: Schema.String
}).annotate({
  identifier: "ProviderCancellation",
  description:
    "When and by whom the job was cancelled. fee_sek is what you may charge for this cancellation: 0 when the customer withdrew within the statutory withdrawal period before the start (legal_basis withdrawal_right, whatever your terms say) and when you cancelled it yourself; otherwise your term under konsumenttjänstlagen, which holds only if reasonable. This service collects nothing."
})

/** A job as its provider needs it: the one place besides the provider's confirmation that carries the customer's contact. */
export const ProviderBooking = Schema.Struct({
  id: Schema.String,
  request_id: Schema.String,
  status: Schema.Literals(["confirmed", "cancelled"]),
  /** 1 at confirm, one more for every move or cancellation: the calendar feed's SEQUENCE is this minus one. */
  version: Schema.Number,
  service_id: Schema.String,
  service_label_sv: Schema.String,
  vertical_id: Schema.String,
  job_type_id: Schema.String,
  slot_start_at: Schema.String,
  slot_end_at: Schema.String,
  slot_label: Schema.String,
  price_sek: Schema.Number,
  currency: Schema.Literal("SEK"),
  pricing_model: Schema.String,
  price_type: Schema.String,
  unit_price_sek: optional(Schema.Number),
  unit: optional(Schema.String),
  quantity: optional(Schema.Number),
  terms_version: Schema.String,
  terms_url: Schema.String,
  scope: Schema.Unknown,
  /** Null once the customer's personal data is erased (personal_data_erased_at says when). */
  customer: Schema.NullOr(Schema.Struct({ name: Schema.String, phone: Schema.String, email: Schema.String })),
  service_location: Location,
  destination_location: optional(Location),
  confirmed_at: Schema.String,
  /** Only once the customer's personal data is erased (on request or after the retention period). */
  personal_data_erased_at: optional(Schema.String),
  /** The policy the booking was confirmed (or last moved) under, with this slot's deadlines. */
  cancellation_policy: CancellationPolicyTerms,
  /**
   * True when a busy time imported from the provider's own calendar overlaps this confirmed job:
   * the booking stands, and only the provider can settle it (cancel the job, or free the time in
   * its calendar). The provider is also told once, by its notification channel.
   */
  conflicts_with_busy_time: Schema.Boolean.annotate({
    description:
      "True when a busy time imported from your own calendar overlaps this confirmed job. The booking still stands: cancel it if you cannot do it, or move the clashing event in your calendar."
  }),
  /** Whether the customer asked for the work to start within the withdrawal period, and what it means. */
  early_start: EarlyStart,
  /** Only on a cancelled job. */
  cancellation: optional(ProviderCancellation)
}).annotate({ identifier: "ProviderBooking" })
export type ProviderBooking = typeof ProviderBooking.Type

export const ProviderBookingsQuery = Schema.Struct({
  from: optional(DateTimeString),
  to: optional(DateTimeString)
})

export const ProviderBookingsResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  provider_id: Schema.String,
  from: Schema.String,
  to: Schema.String,
  bookings: Schema.Array(ProviderBooking)
}).annotate({ identifier: "ProviderBookingsResponse" })

export const BlockRequest = Schema.Struct({
  start_at: DateTimeString,
  end_at: DateTimeString,
  note: optional(text(1, 500))
}).annotate({ identifier: "ProviderBlockRequest" })
export type BlockRequest = typeof BlockRequest.Type

export const Block = Schema.Struct({
  id: Schema.String,
  start_at: Schema.String,
  end_at: Schema.String,
  note: optional(Schema.String),
  created_at: Schema.String
}).annotate({ identifier: "ProviderBlock" })
export type Block = typeof Block.Type

export const BlockResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  block: Block,
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderBlockResponse" })

export const BlocksResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  blocks: Schema.Array(Block)
}).annotate({ identifier: "ProviderBlocksResponse" })

export const BlockPath = Schema.Struct({ block_id: Schema.String })

export const DeletedResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  deleted: Schema.Literal(true),
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderDeletedResponse" })

const LocalDate = Schema.String.check(
  matching(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: "must be a local date YYYY-MM-DD" }),
  Schema.makeFilter((s) => new Date(`${s}T00:00:00Z`).toISOString().startsWith(s) || "must be a real date")
)

export const WorkingHoursRequest = Schema.Struct({
  weekly_hours: Schema.Array(WorkingHours).check(Schema.isMaxLength(50)),
  dates_off: Schema.Array(LocalDate).check(Schema.isMaxLength(1000))
}).annotate({ identifier: "ProviderWorkingHoursRequest" })
export type WorkingHoursRequest = typeof WorkingHoursRequest.Type

export const WorkingHoursResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  time_zone: Schema.Literal("Europe/Stockholm"),
  weekly_hours: Schema.Array(WorkingHours),
  dates_off: Schema.Array(Schema.String),
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderWorkingHoursResponse" })

export const CalendarFeedResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  feed_url: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  last_fetched_at: Schema.NullOr(Schema.String),
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderCalendarFeedResponse" })

export const CalendarImportRequest = Schema.Struct({
  url: text(8, 2000)
}).annotate({ identifier: "ProviderCalendarImportRequest" })

export const CalendarImportResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  url: Schema.NullOr(Schema.String),
  last_synced_at: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String),
  busy_intervals: Schema.Number,
  next_fetch_at: Schema.NullOr(Schema.String),
  /**
   * `pending` until the registered address has been fetched once (registration answers at once and
   * fetches in the background), then `synced` or `failed` by the latest fetch; null with no import.
   */
  fetch_status: Schema.NullOr(Schema.Literals(["pending", "synced", "failed"])).annotate({
    description:
      "pending: the address is registered and its first fetch has not finished (GET this again to see it); synced or failed: how the latest fetch went; null: no calendar is imported."
  }),
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderCalendarImportResponse" })

/** A block asked for over an active booking: the body names the booking (never its customer). */
export class BlockOverlapsBooking extends ContractError<BlockOverlapsBooking>()(
  "block_overlaps_booking",
  409,
  "The time holds an active booking; the body names it",
  {
    carries: ["issues", "booking_id", "request_id", "existing_booking"],
    retrySafe: false,
    recovery:
      "The time holds the booking named in the body: choose another time, or cancel that booking first through /api/provider/bookings/{id}/cancel."
  }
) {}

/** A block asked for over another block of the same provider. */
export class BlockOverlapsBlock extends ContractError<BlockOverlapsBlock>()(
  "block_overlaps_block",
  409,
  "The time is already blocked; the issues name the block",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "The time is already blocked by the block in issues: nothing to do, or delete that block first."
  }
) {}

/** A block asked for over a partner's hold: the time is held for a customer who is deciding. */
export class BlockOverlapsHold extends ContractError<BlockOverlapsHold>()(
  "block_overlaps_hold",
  409,
  "A partner holds the time for a customer who is deciding; the issues name the hold and when it runs out",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "Block only the time around the hold, or block again once it has run out (the issues say when); it may become a booking before then."
  }
) {}

export class BlockNotFound extends ContractError<BlockNotFound>()(
  "block_not_found",
  404,
  "The provider has no block with this id",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "List the provider's blocks (GET /api/provider/blocks) and use an id from there."
  }
) {}

/** The calendar address cannot be used: not https, credentials in it, or a host that is not public. */
export class CalendarUrlRefused extends ContractError<CalendarUrlRefused>()(
  "calendar_url_refused",
  422,
  "The calendar address cannot be fetched under the service's rules",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "Send the calendar's private iCalendar address (https://…) as the calendar app shares it; issues says what was refused."
  }
) {}

export const ProviderBookingPath = Schema.Struct({ booking_id: Schema.String })

export const ProviderCancelRequest = strictInput(
  Schema.Struct({
    /** Why the provider cannot do the job: shown to the partner who booked it, never to the customer, a log or a webhook. */
    reason: text(1, 500),
    /** Optional (or the Idempotency-Key header): a retry with the same key answers the first cancel again. */
    idempotency_key: optional(text(1, 200))
  })
).annotate({ identifier: "ProviderCancelRequest" })
export type ProviderCancelRequest = typeof ProviderCancelRequest.Type

export const ProviderCancelResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  booking_id: Schema.String,
  request_id: Schema.String,
  cancelled: Schema.Literal(true),
  cancellation: ProviderCancellation,
  /** The customer's notice (and your own copy), as far as it got: delivered, pending with retries, or failed. */
  confirmation_delivery: Schema.Struct({ customer: Delivery, provider: Delivery }),
  idempotent_replay: Schema.Boolean,
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderCancelResponse" })
export type ProviderCancelResponse = typeof ProviderCancelResponse.Type
