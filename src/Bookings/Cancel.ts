import { Effect, type Option } from "effect"
import {
  BookingStarted,
  type CancelBookingRequest,
  type CancelledBooking,
  type CancelledBy,
  type CancelPreview
} from "../Domain/BookingChange.js"
import { policyOfBooking, type StoredBooking } from "../Domain/BookingRecord.js"
import { cancellationAt } from "../Domain/CancellationPolicy.js"
import { cancellationWords } from "../Domain/CancellationWords.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import { sandboxChangeNote } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import type { LegalBasis } from "../Domain/Withdrawal.js"
import { formatInZone } from "../Domain/Zone.js"
import type { DeliveryState } from "../Notifications/DeliveryState.js"
import { bookingPolicy, deliveries, skippedInDryRun } from "./Answers.js"
import { alreadyCancelled, cancellationOf, feeStep, stale } from "./Cancellations.js"

/** What a cancel says when the database does not answer, by how far it got (Changes.ts runs the cancel). */
export const cancelSteps = (surface: Surface, bookingId: string) => ({
  beforeWriting:
    "The booking could not be read or cancelled because the database does not answer. This call cancelled nothing; if an earlier attempt with the same idempotency_key cancelled it, that stands. Do not tell the user it is cancelled, nor that it is not. Retry the same request (same idempotency_key) in a moment.",
  notWritten:
    "Nothing was cancelled by this attempt: the database failed before the cancellation was saved, so the booking stands as it was. Do not tell the user it is cancelled. Retry the same request (same idempotency_key) in a moment.",
  commitUnknown: `The outcome is unknown: the database stopped answering while the cancellation was being saved, so the booking may or may not be cancelled. Do not tell the user either. Retry the same request with the same idempotency_key (safe: it returns the cancellation if it was saved), or look the booking up with ${surface.bookingStatus(bookingId)} once the service answers.`,
  replayUnreadable:
    "This idempotency_key already holds a cancellation, but it cannot be read right now because the database does not answer. Do not cancel again with a new key. Retry the same request in a moment."
})

export const cancelledAnswer = (
  stored: StoredBooking,
  states: Option.Option<ReadonlyArray<DeliveryState>>,
  replay: boolean
): CancelledBooking => {
  const cancellation = cancellationOf(stored, stored.timeZone)
  return {
    ok: true,
    spec_version: bookingsSpecVersion,
    booking_id: stored.id,
    request_id: stored.requestId,
    cancelled: true,
    booking_active: false,
    cancellation,
    confirmation_delivery: deliveries(states),
    idempotent_replay: replay,
    ...(stored.sandbox ? { sandbox: true as const } : {}),
    safe_next_step: `${stored.sandbox ? sandboxChangeNote : ""}The booking is cancelled: ${stored.providerName}, ${stored.slotLabel} (request_id ${stored.requestId}). Nothing is booked under it now and the time is released. ${feeStep(stored)} Tell the user exactly this. Messages to the customer and provider are reported in confirmation_delivery and do not change the cancellation.`
  }
}

/** What a cancel now would be, or the refusal that applies: the same checks before and inside the write. */
export const assessCancel = (
  stored: StoredBooking,
  by: CancelledBy,
  expectedVersion: number | undefined,
  now: Date,
  surface: Surface
) => {
  if (stored.status === "cancelled") return Effect.fail(alreadyCancelled(surface, stored))
  if (expectedVersion !== undefined && expectedVersion !== stored.version)
    return Effect.fail(stale(stored, expectedVersion, surface))
  const at = cancellationAt(
    policyOfBooking(stored),
    stored.slotStart.getTime(),
    now.getTime(),
    stored.confirmedAt.getTime()
  )
  if (at._tag === "Started")
    return Effect.fail(
      new BookingStarted({
        issues: [`booking_id: the slot started at ${formatInZone(stored.slotStart, stored.timeZone)}`],
        booking_id: stored.id,
        request_id: stored.requestId,
        safe_next_step: `Nothing was cancelled: the booked time (${stored.slotLabel}) has started, so the booking can no longer be cancelled here. Tell the user to contact ${stored.providerName} directly, quoting request_id ${stored.requestId}.${
          now.getTime() < at.withdrawalUntil
            ? ` The right of withdrawal still lasts until ${formatInZone(at.withdrawalUntil, stored.timeZone)}: the user can withdraw by telling the provider (the standard withdrawal form is linked in the terms). ${earlyStartOf(stored).summary_en}`
            : ""
        }`
      })
    )
  // The provider cancelling its own booking charges the customer nothing.
  const feeSek = by === "provider" ? 0 : at.feeSek
  const legalBasis: LegalBasis = by === "provider" ? "provider_cancelled" : at.legalBasis
  return Effect.succeed({
    feeSek,
    withinFreePeriod: at.withinFreePeriod,
    freeUntil: new Date(at.freeUntil),
    withdrawalUntil: new Date(at.withdrawalUntil),
    legalBasis
  })
}

/** The dry run's answer: what a cancel now would cost, and nothing written. */
export const cancelPreview = (
  current: StoredBooking,
  request: CancelBookingRequest,
  by: CancelledBy,
  would: Effect.Success<ReturnType<typeof assessCancel>>,
  now: Date,
  surface: Surface
): CancelPreview => {
  return {
    ok: true,
    spec_version: bookingsSpecVersion,
    booking_id: current.id,
    request_id: current.requestId,
    cancelled: false,
    booking_active: true,
    dry_run: true,
    cancellation: {
      cancelled_by: by,
      ...(request.reason === undefined ? {} : { reason: request.reason }),
      fee_sek: would.feeSek,
      within_free_period: would.withinFreePeriod,
      free_until: formatInZone(would.freeUntil, current.timeZone),
      legal_basis: would.legalBasis,
      withdrawal_until: formatInZone(would.withdrawalUntil, current.timeZone)
    },
    cancellation_policy: bookingPolicy(current, current.timeZone, now),
    confirmation_delivery: { customer: skippedInDryRun, provider: skippedInDryRun },
    idempotent_replay: false,
    ...(current.sandbox ? { sandbox: true as const } : {}),
    safe_next_step: `${current.sandbox ? sandboxChangeNote : ""}Dry run: nothing was cancelled and nobody was told; the booking (${current.providerName}, ${current.slotLabel}) stands. ${cancellationWords({ cancelledBy: by, ...would }, current.timeZone, false).en} Tell the user this and ask whether to cancel. Only on their yes, send this request again without dry_run (${surface.cancelBooking(current.requestId)}). Do not say the booking is cancelled until an answer has cancelled: true.`
  }
}
