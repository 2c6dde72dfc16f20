import { Schema } from "effect"
import { Customer, Delivery } from "./Booking.js"
import { ContractError } from "./Errors.js"
import { optional, strictInput, text } from "./Input.js"
import { englishHeading, lines, type ProviderMessage } from "./Messages.js"

/**
 * A customer's personal data is kept only as long as the booking or request needs it (GDPR art.
 * 5(1)(e)): until `PERSONAL_DATA_RETENTION_DAYS` after a booking's slot ended or it was cancelled,
 * or after a follow-up request last changed. Then it is erased in place; sooner on request (art. 17).
 */
const DAY_MS = 86_400_000

/** When the data of something counted from `basisAt` may no longer be kept. */
export const eraseAfter = (basisAt: Date, retentionDays: number) => new Date(basisAt.getTime() + retentionDays * DAY_MS)

/** Who erased it: the partner asking for the customer (art. 17), or the retention pass (art. 5(1)(e)). */
export const ErasedBy = Schema.Literals(["request", "retention"])
export type ErasedBy = typeof ErasedBy.Type

/** What an erased outbox message keeps in place of its text: nothing of what it said. */
export const erasedMessageBody = "[personal data erased]"

export const ErasePersonalDataRequest = strictInput(
  Schema.Struct({
    /** Required unless the Idempotency-Key header carries it. */
    idempotency_key: optional(text(1, 200))
  })
).annotate({ identifier: "ErasePersonalDataRequest" })
export type ErasePersonalDataRequest = typeof ErasePersonalDataRequest.Type

export const StoredValue = Schema.Struct({
  /** Where it is stored, as the confirm or create body named it: `customer.email`, `service_location.address`. */
  field: Schema.String,
  value: Schema.String
})
export type StoredValue = typeof StoredValue.Type

export const PersonalDataRecipient = Schema.Struct({
  role: Schema.Literal("provider"),
  provider_id: Schema.String,
  provider_name: Schema.String,
  /** How it was sent: by e-mail or webhook; `none`: it reads it in its provider API only; `sandbox`: nobody. */
  channel: Schema.Literals(["email", "webhook", "none", "sandbox"]),
  /** Whether the message that carried the data reached it (the provider API shows it regardless while stored). */
  delivery_status: Schema.Literals(["sent", "pending", "failed", "skipped", "none"])
})
export type PersonalDataRecipient = typeof PersonalDataRecipient.Type

export const PersonalDataResponse = Schema.Struct({
  ok: Schema.Literal(true),
  /** The booking's `booking.id`, or the follow-up request's `request.id`. */
  subject: Schema.Literals(["booking", "request"]),
  id: Schema.String,
  request_id: Schema.String,
  status: Schema.Literals(["stored", "erased"]).annotate({
    description:
      "stored: the values in `stored` are kept; erased: none is kept any more (`stored` is empty): the booking or request keeps only what is not personal (provider, service, slot, price, status)."
  }),
  stored: Schema.Array(StoredValue),
  recipients: Schema.Array(PersonalDataRecipient),
  retention: Schema.Struct({
    days: Schema.Int,
    counted_from: Schema.Literals(["slot_end", "cancellation", "last_change"]),
    /**
     * When it is erased at the latest: the retention pass runs hourly and erases it at its first
     * pass at or after this time. Null once erased.
     */
    erase_after: Schema.NullOr(Schema.String)
  }),
  erased_at: Schema.NullOr(Schema.String),
  erased_by: Schema.NullOr(ErasedBy),
  /** Only on an erasure's answer: the art. 19 notice to each provider that had the data. */
  provider_notices: optional(Schema.Array(Delivery)),
  idempotent_replay: optional(Schema.Boolean),
  safe_next_step: Schema.String
}).annotate({ identifier: "PersonalDataResponse" })
export type PersonalDataResponse = typeof PersonalDataResponse.Type

/** An active booking still needs its customer's contact: cancel it first. */
export class BookingActive extends ContractError<BookingActive>()(
  "booking_active",
  409,
  "The booking is confirmed and its slot has not ended: its personal data is still needed",
  {
    carries: ["issues", "booking_id", "request_id"],
    retrySafe: false,
    recovery:
      "Cancel the booking first (POST /api/public/bookings/{booking_id}/cancel), or wait until its slot has ended, then ask for the erasure again."
  }
) {}

/** A follow-up request not withdrawn may still be answered by providers: withdraw it first. */
export class RequestActive extends ContractError<RequestActive>()(
  "request_active",
  409,
  "The follow-up request is not withdrawn: providers may still contact the customer about it",
  {
    carries: ["issues", "request_id"],
    retrySafe: false,
    recovery:
      "Withdraw the request first (POST /api/public/requests/{request_id}/withdraw), then ask for the erasure again."
  }
) {}

/**
 * The provider's notice of an erasure (art. 19): which booking or request, that the customer's
 * data is erased here, and what the provider should do with its own copy. None of the erased values.
 */
export const personalDataErasedForProvider = (input: {
  readonly reference: string
  readonly what: "booking" | "request"
  readonly serviceLabelSv: string
}): ProviderMessage => {
  const sv = input.what === "booking" ? "bokningen" : "förfrågan"
  const en = input.what === "booking" ? "booking" : "request"
  return {
    subject: `Kunduppgifter raderade: ${input.serviceLabelSv}, ${input.reference} (Customer data erased)`,
    body: lines(
      "Hej!",
      "",
      `Kunden har begärt att personuppgifterna för ${sv} ${input.reference} (${input.serviceLabelSv}) raderas, och vi har raderat dem hos oss (GDPR art. 17 och 19).`,
      "Radera namn, telefon, e-post och adress som ni fått om den här kunden för detta ärende, om ni inte måste spara dem enligt lag (till exempel bokföringslagen för en utförd tjänst).",
      "",
      englishHeading,
      "",
      "Hello,",
      "",
      `The customer asked for their personal data for ${en} ${input.reference} (${input.serviceLabelSv}) to be erased, and we have erased it (GDPR art. 17 and 19).`,
      "Erase the name, phone, e-mail and address you received about this customer for it, unless a law requires you to keep them (such as the accounting act for work you performed)."
    ),
    payload: { event: "personal_data.erased", reference: input.reference, subject: en }
  }
}

const Location = Schema.Struct({
  address: Schema.optional(Schema.String),
  postcode: Schema.optional(Schema.String),
  input: Schema.optional(Schema.String)
})

const Channel = Schema.Literals(["email", "webhook", "none", "sandbox"])
const OutboxStatus = Schema.Literals(["pending", "sent", "failed", "skipped"])

/** A booking as its personal data is reported and erased: the values, who had them, and when they go. */
export const BookingDataRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  providerId: Schema.String,
  providerName: Schema.String,
  serviceLabelSv: Schema.String,
  status: Schema.Literals(["confirmed", "cancelled"]),
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  timeZone: Schema.String,
  cancelledAt: Schema.NullOr(Schema.Date),
  sandbox: Schema.Boolean,
  customer: Schema.NullOr(Customer),
  serviceLocation: Location,
  destinationLocation: Schema.NullOr(Location),
  consentStatement: Schema.NullOr(Schema.String),
  earlyStartStatement: Schema.NullOr(Schema.String),
  cancelReason: Schema.NullOr(Schema.String),
  erasedAt: Schema.NullOr(Schema.Date),
  erasedBy: Schema.NullOr(ErasedBy),
  erasureId: Schema.NullOr(Schema.String),
  notifyEmail: Schema.NullOr(Schema.String),
  notifyWebhookUrl: Schema.NullOr(Schema.String),
  providerChannel: Schema.NullOr(Channel),
  providerDelivery: Schema.NullOr(OutboxStatus)
})
export type BookingDataRow = typeof BookingDataRow.Type

export const RequestDataRow = Schema.Struct({
  id: Schema.String,
  sessionId: Schema.String,
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  status: Schema.Literals(["ready_to_send", "withdrawn"]),
  updatedAt: Schema.Date,
  sandbox: Schema.Boolean,
  customer: Schema.NullOr(Customer),
  location: Schema.NullOr(Location),
  description: Schema.NullOr(Schema.String),
  details: Schema.NullOr(Schema.String),
  consentStatement: Schema.NullOr(Schema.String),
  withdrawReason: Schema.NullOr(Schema.String),
  erasedAt: Schema.NullOr(Schema.Date),
  erasedBy: Schema.NullOr(ErasedBy),
  erasureId: Schema.NullOr(Schema.String)
})
export type RequestDataRow = typeof RequestDataRow.Type

/** A provider a request was handed to, and how far that got. */
export const RequestRecipientRow = Schema.Struct({
  providerId: Schema.String,
  providerName: Schema.String,
  channel: Channel,
  address: Schema.NullOr(Schema.String),
  status: OutboxStatus
})
export type RequestRecipientRow = typeof RequestRecipientRow.Type

// What erasure keeps, as SQL over a row's columns: read by the bookings' and the requests' repos.

/** The consent record without its free text: that it was given, when, and under which terms. */
export const consentKept = `jsonb_strip_nulls(jsonb_build_object(
  'user_consent_confirmed', consent->'user_consent_confirmed', 'collected_at', consent->'collected_at',
  'source', consent->'source', 'booking_terms_accepted', consent->'booking_terms_accepted',
  'booking_terms_version', consent->'booking_terms_version',
  'booking_terms_accepted_at', consent->'booking_terms_accepted_at', 'recorded_at', consent->'recorded_at',
  'statement_erased', true))`

/** An address reduced to its area: the postcode (the calendar feed's) and the country. */
export const areaOf = (column: string) =>
  `jsonb_strip_nulls(jsonb_build_object('postcode', ${column}->'postcode', 'country_code', ${column}->'country_code'))`
