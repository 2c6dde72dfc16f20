import { type Customer, customerNameOf } from "../Domain/Booking.js"
import type { BookingDataRow, RequestDataRow, RequestRecipientRow } from "../Domain/Retention.js"
import { eraseAfter, type PersonalDataResponse, type StoredValue } from "../Domain/Retention.js"
import { formatInZone, providerTimeZone } from "../Domain/Zone.js"

/** What an art. 15 answer says of a booking or a request, built from its row: the values, who had them, when they go. */

const customerValues = (customer: Customer | null): Array<StoredValue> =>
  customer === null
    ? []
    : [
        { field: "customer.name", value: customerNameOf(customer) },
        { field: "customer.phone", value: customer.phone },
        { field: "customer.email", value: customer.email }
      ]

const valueAt = (field: string, value: string | null | undefined): Array<StoredValue> =>
  value === null || value === undefined ? [] : [{ field, value }]

export const bookingValues = (row: BookingDataRow): Array<StoredValue> => [
  ...customerValues(row.customer),
  ...valueAt("service_location.address", row.serviceLocation.address),
  ...valueAt("destination_location.address", row.destinationLocation?.address),
  ...valueAt("user_consent_statement", row.consentStatement),
  ...valueAt("early_start_statement", row.earlyStartStatement),
  ...valueAt("cancellation.reason", row.cancelReason)
]

export const requestValues = (row: RequestDataRow): Array<StoredValue> => [
  ...customerValues(row.customer),
  ...valueAt("location.input", row.location?.input),
  ...valueAt("location.address", row.location?.address),
  ...valueAt("description", row.description),
  ...valueAt("details", row.details),
  ...valueAt("user_consent_statement", row.consentStatement),
  ...valueAt("withdrawal.reason", row.withdrawReason)
]

/** A booking's data is still needed while it is confirmed and its slot has not ended. */
export const bookingActive = (row: BookingDataRow, now: Date) =>
  row.status === "confirmed" && row.slotEnd.getTime() > now.getTime()

const kept = {
  booking: "the booking keeps only its provider, service, time, price and status",
  "follow-up request":
    "the follow-up request keeps only its job type, postcode, the providers it was sent to and its status"
} as const

const erasedStep = (erasedAt: Date, by: "request" | "retention", zone: string, what: keyof typeof kept) =>
  `The customer's personal data for this ${what} was erased at ${formatInZone(erasedAt, zone)} (${by === "retention" ? "at the end of its retention period" : what === "booking" ? "on request (GDPR art. 17); the provider was told" : "on request (GDPR art. 17); the providers who received it were told"}). Nothing personal about the customer is stored here any more: stored is empty, and ${kept[what]}. Tell the user exactly this.`

export const bookingReport = (
  row: BookingDataRow,
  retentionDays: number,
  now: Date,
  deletePath: string
): PersonalDataResponse => {
  const basis = row.cancelledAt ?? row.slotEnd
  const after = formatInZone(eraseAfter(basis, retentionDays), row.timeZone)
  const started = row.slotStart.getTime() <= now.getTime()
  const safe_next_step =
    row.erasedAt !== null && row.erasedBy !== null
      ? erasedStep(row.erasedAt, row.erasedBy, row.timeZone, "booking")
      : bookingActive(row, now)
        ? started
          ? `The booking's slot is under way (until ${formatInZone(row.slotEnd, row.timeZone)}): its personal data is kept while the job is done, and erased automatically after ${after}. To erase it sooner, send DELETE ${deletePath} once the slot has ended.`
          : `The booking is active, so the provider still needs the customer's contact: it is erased automatically after ${after} (${retentionDays} days after the slot ends). To erase it sooner, the user first cancels the booking (POST /api/public/bookings/${row.id}/cancel; a dry run shows the fee), then send DELETE ${deletePath}.`
        : `stored lists every value kept about the customer, and recipients who received it. It is erased automatically after ${after}; to erase it now (GDPR art. 17), send DELETE ${deletePath} with an idempotency_key: the provider is told.`
  return {
    ok: true,
    subject: "booking",
    id: row.id,
    request_id: row.requestId,
    status: row.erasedAt === null ? "stored" : "erased",
    stored: bookingValues(row),
    recipients: [
      {
        role: "provider",
        provider_id: row.providerId,
        provider_name: row.providerName,
        channel: row.sandbox ? "sandbox" : (row.providerChannel ?? "none"),
        delivery_status: row.providerDelivery ?? "none"
      }
    ],
    retention: {
      days: retentionDays,
      counted_from: row.cancelledAt === null ? "slot_end" : "cancellation",
      erase_after: row.erasedAt === null ? after : null
    },
    erased_at: row.erasedAt === null ? null : formatInZone(row.erasedAt, row.timeZone),
    erased_by: row.erasedBy,
    safe_next_step
  }
}

export const requestReport = (
  row: RequestDataRow,
  recipients: ReadonlyArray<RequestRecipientRow>,
  retentionDays: number,
  deletePath: string
): PersonalDataResponse => {
  const after = formatInZone(eraseAfter(row.updatedAt, retentionDays), providerTimeZone)
  const safe_next_step =
    row.erasedAt !== null && row.erasedBy !== null
      ? erasedStep(row.erasedAt, row.erasedBy, providerTimeZone, "follow-up request")
      : row.status !== "withdrawn"
        ? `The follow-up request is open, so providers may still contact the customer about it: its personal data is erased automatically after ${after} (${retentionDays} days after its last change). To erase it sooner, withdraw it first (POST /api/public/requests/${row.id}/withdraw), then send DELETE ${deletePath}.`
        : `stored lists every value kept about the customer, and recipients the providers it was sent to. It is erased automatically after ${after}; to erase it now (GDPR art. 17), send DELETE ${deletePath} with an idempotency_key: the providers who received it are told.`
  return {
    ok: true,
    subject: "request",
    id: row.id,
    request_id: row.sessionId,
    status: row.erasedAt === null ? "stored" : "erased",
    stored: requestValues(row),
    recipients: recipients.map((recipient) => ({
      role: "provider" as const,
      provider_id: recipient.providerId,
      provider_name: recipient.providerName,
      channel: recipient.channel,
      delivery_status: recipient.status
    })),
    retention: { days: retentionDays, counted_from: "last_change", erase_after: row.erasedAt === null ? after : null },
    erased_at: row.erasedAt === null ? null : formatInZone(row.erasedAt, providerTimeZone),
    erased_by: row.erasedBy,
    safe_next_step
  }
}
