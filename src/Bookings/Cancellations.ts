import { randomUUID } from "node:crypto"
import { customerNameOf } from "../Domain/Booking.js"
import { BookingAlreadyCancelled, BookingChanged, BookingNotFound } from "../Domain/BookingChange.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import type { Cancellation } from "../Domain/CancellationPolicy.js"
import { cancellationWords } from "../Domain/CancellationWords.js"
import type { ChangedBooking } from "../Domain/ChangeMessages.js"
import { IdempotencyKeyReused } from "../Domain/Errors.js"
import type { BookingConfirmation } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import { sandboxPrefix } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import { withdrawalUntil } from "../Domain/Withdrawal.js"
import { formatInZone } from "../Domain/Zone.js"
import type { ChannelChoice, Contact, RecipientRole } from "../Notifications/DeliveryState.js"
import { requiredKeyOf } from "../Shared/Idempotency.js"
import type { BookingContact } from "./BookingsRepo.js"

type CancelledFacts = Pick<
  StoredBooking,
  | "cancelledAt"
  | "confirmedAt"
  | "cancelledBy"
  | "cancelFeeSek"
  | "cancelWithinFreePeriod"
  | "cancelFreeUntil"
  | "slotStart"
  | "cancelLegalBasis"
> & { readonly cancelReason?: string | null }

/** A cancelled booking's cancellation record, as its partner reads it (the provider's read has no reason). */
export const cancellationOf = (stored: CancelledFacts, timeZone: string): Cancellation => ({
  cancelled_at: formatInZone(stored.cancelledAt ?? stored.confirmedAt, timeZone),
  cancelled_by: stored.cancelledBy ?? "partner",
  ...(stored.cancelReason == null ? {} : { reason: stored.cancelReason }),
  fee_sek: stored.cancelFeeSek ?? 0,
  within_free_period: stored.cancelWithinFreePeriod ?? true,
  free_until: formatInZone(stored.cancelFreeUntil ?? stored.slotStart, timeZone),
  legal_basis: legalBasisOf(stored),
  withdrawal_until: formatInZone(withdrawalUntil(stored.confirmedAt.getTime()), timeZone)
})

const legalBasisOf = (stored: CancelledFacts) =>
  stored.cancelLegalBasis ?? (stored.cancelledBy === "provider" ? "provider_cancelled" : "provider_terms")

/** Why the cancellation cost what it did, in English, for a safe_next_step. */
export const feeStep = (stored: StoredBooking) =>
  cancellationWords(
    {
      cancelledBy: stored.cancelledBy ?? "partner",
      feeSek: stored.cancelFeeSek ?? 0,
      freeUntil: stored.cancelFreeUntil ?? stored.slotStart,
      withdrawalUntil: new Date(withdrawalUntil(stored.confirmedAt.getTime())),
      legalBasis: legalBasisOf(stored)
    },
    stored.timeZone,
    true
  ).en

const byWhom = { customer: "the customer", partner: "the partner", provider: "the provider" } as const

/** What an assistant may say of a cancelled booking: when, by whom, what it may cost, and that nothing is booked. */
export const cancelledStep = (stored: StoredBooking, surface: Surface) => {
  const cancellation = cancellationOf(stored, stored.timeZone)
  const head = `${stored.sandbox ? sandboxPrefix : ""}This booking (${stored.providerName}, ${stored.slotLabel}, request_id ${stored.requestId}) was cancelled at ${cancellation.cancelled_at} by ${byWhom[cancellation.cancelled_by]}. Nothing is booked under it now.`
  // The provider cancelling charges the customer nothing, whenever it cancelled.
  if (cancellation.cancelled_by === "provider")
    return `${head} The provider cannot do the job at that time; no cancellation fee applies to the user. Tell the user the provider cancelled it and offer to search again (${surface.search}) for another time or provider.`
  return `${head} ${feeStep(stored)} Tell the user it is cancelled; to book the job again, search again (${surface.search}).`
}

/** A change of a cancelled booking: refused, naming the cancellation. */
export const alreadyCancelled = (surface: Surface, stored: StoredBooking) =>
  new BookingAlreadyCancelled({
    issues: ["booking_id: the booking is already cancelled"],
    booking_id: stored.id,
    request_id: stored.requestId,
    cancellation: cancellationOf(stored, stored.timeZone),
    safe_next_step: `${cancelledStep(stored, surface)} This call changed nothing.`
  })

export const notFound = (partner: Partner["Service"]) =>
  new BookingNotFound({
    safe_next_step: `No booking with this id exists for ${partner.sandbox ? "your sandbox token" : "your token"}. Nothing was changed. Do not tell the user anything was cancelled or moved; check the id (booking.id or request_id from the confirmation).`
  })

export const keyOf = (bodyKey: string | undefined, headerKey: string | undefined) =>
  requiredKeyOf(
    bodyKey,
    headerKey,
    "Nothing was changed. Send the request again with an idempotency_key (in the body or the Idempotency-Key header), and reuse that key on every retry of this change."
  )

export const stale = (stored: StoredBooking, expected: number, surface: Surface) =>
  new BookingChanged({
    issues: [`expected_version: the booking is at version ${stored.version}, not ${expected}`],
    booking_id: stored.id,
    request_id: stored.requestId,
    safe_next_step: `Nothing was changed: the booking changed since you read it. Look it up with ${surface.bookingStatus(stored.requestId)}, tell the user how it stands now, and ask again before changing it.`
  })

export const keyHolds = (what: string, stored: StoredBooking, surface: Surface) =>
  new IdempotencyKeyReused({
    issues: [`idempotency_key: already holds ${what} with other details`],
    booking_id: stored.id,
    request_id: stored.requestId,
    safe_next_step: `This idempotency_key already holds ${what} (request_id ${stored.requestId}). This call changed nothing. Look the booking up with ${surface.bookingStatus(stored.requestId)} and tell the user how it stands; for a different change, use a new idempotency_key.`
  })

/** The customer's and the provider's notice of a change, on their channels; the messages say nothing the booking does not. */
export const changeNotices = (
  stored: StoredBooking,
  c: BookingContact | undefined,
  changeId: string,
  topic: Notification["topic"],
  messagesOf: (booking: ChangedBooking) => BookingConfirmation,
  channelFor: (role: RecipientRole, contact: Contact) => ChannelChoice
): ReadonlyArray<Notification> => {
  const messages = messagesOf({
    bookingId: stored.id,
    requestId: stored.requestId,
    providerId: stored.providerId,
    providerName: stored.providerName,
    serviceLabelSv: c?.serviceLabelSv ?? stored.serviceId,
    ...(c?.labelEn ? { serviceLabelEn: c.labelEn } : {}),
    slotStart: stored.slotStart,
    slotEnd: stored.slotEnd,
    timeZone: stored.timeZone,
    termsVersion: stored.termsVersion,
    termsUrl: c?.termsUrl ?? "",
    ...(c ? { serviceAddress: `${c.serviceLocation.address}, ${c.serviceLocation.postcode}` } : {}),
    ...(c ? { customerName: customerNameOf(c.customer) } : {})
  })
  const contacts = {
    customer: { email: c?.customer.email ?? null },
    provider: { email: c?.notifyEmail ?? null, webhookUrl: c?.notifyWebhookUrl ?? null }
  }
  return (["customer", "provider"] as const).map(
    (role): Notification => ({
      id: randomUUID(),
      topic,
      subjectId: changeId,
      recipientRole: role,
      providerId: role === "provider" ? stored.providerId : null,
      ...channelFor(role, contacts[role]),
      ...(role === "customer" ? { ...messages.customer, payload: {} } : messages.provider)
    })
  )
}
