import { BookingAlreadyCancelled } from "../Domain/BookingChange.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import type { Cancellation } from "../Domain/CancellationPolicy.js"
import { cancellationWords } from "../Domain/CancellationWords.js"
import { sandboxPrefix } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import { withdrawalUntil } from "../Domain/Withdrawal.js"
import { formatInZone } from "../Domain/Zone.js"

/** A cancelled booking's cancellation record, as its partner reads it. */
export const cancellationOf = (stored: StoredBooking): Cancellation => ({
  cancelled_at: formatInZone(stored.cancelledAt ?? stored.confirmedAt, stored.timeZone),
  cancelled_by: stored.cancelledBy ?? "partner",
  ...(stored.cancelReason === null ? {} : { reason: stored.cancelReason }),
  fee_sek: stored.cancelFeeSek ?? 0,
  within_free_period: stored.cancelWithinFreePeriod ?? true,
  free_until: formatInZone(stored.cancelFreeUntil ?? stored.slotStart, stored.timeZone),
  legal_basis: legalBasisOf(stored),
  withdrawal_until: formatInZone(withdrawalUntil(stored.confirmedAt.getTime()), stored.timeZone)
})

const legalBasisOf = (stored: StoredBooking) =>
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
  const cancellation = cancellationOf(stored)
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
    cancellation: cancellationOf(stored),
    safe_next_step: `${cancelledStep(stored, surface)} This call changed nothing.`
  })
