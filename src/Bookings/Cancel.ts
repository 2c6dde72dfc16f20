import { randomUUID } from "node:crypto"
import { Effect, Option } from "effect"
import {
  BookingStarted,
  type CancelBookingRequest,
  type CancelledBooking,
  type CancelledBy,
  type CancelPreview
} from "../Domain/BookingChange.js"
import { policyOfBooking, type StoredBooking } from "../Domain/BookingRecord.js"
import { cancellationAt, policyTerms } from "../Domain/CancellationPolicy.js"
import { cancellationWords } from "../Domain/CancellationWords.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { bookingCancelled } from "../Domain/ChangeMessages.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import type { Partner } from "../Domain/Partner.js"
import { sandboxChangeNote } from "../Domain/Sandbox.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import type { LegalBasis } from "../Domain/Withdrawal.js"
import { formatInZone } from "../Domain/Zone.js"
import type { DeliveryState } from "../Notifications/DeliveryState.js"
import { fingerprintHash, persistenceUnavailable } from "../Shared/Idempotency.js"
import { deliveries, skippedInDryRun } from "./Answers.js"
import { alreadyCancelled, cancellationOf, feeStep } from "./Cancellations.js"
import { type ChangeKit, cancelSteps, keyOf, notFound, stale } from "./ChangeKit.js"

/** Cancels a booking under the policy it was confirmed with, exactly once per key. */
export const makeCancel = (kit: ChangeKit) => {
  const cancelledAnswer = (
    stored: StoredBooking,
    states: Option.Option<ReadonlyArray<DeliveryState>>,
    replay: boolean
  ): CancelledBooking => {
    const cancellation = cancellationOf(stored)
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
  const assessCancel = (
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

  /**
   * Cancels a booking for whoever asks: the partner's caller (`customer`, `partner`) or, through
   * issue 29's provider side, the provider. Idempotent per partner and key.
   */
  const cancelAs = Effect.fnUntraced(function* (
    ref: string,
    request: CancelBookingRequest,
    headerKey: string | undefined,
    partner: Partner["Service"],
    by: CancelledBy,
    now: Date
  ) {
    const surface = yield* CurrentSurface
    const key = yield* keyOf(request.idempotency_key, headerKey)
    const steps = cancelSteps(surface, ref)
    const found = yield* kit
      .findBooking(partner, ref)
      .pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))
    if (Option.isNone(found)) return yield* notFound(partner)
    const current = found.value
    const hash = fingerprintHash({ change: "cancel", booking: current.id, cancelled_by: by })

    if (request.dry_run === true) {
      const would = yield* assessCancel(current, by, request.expected_version, now, surface)
      const policy = policyTerms(
        policyOfBooking(current),
        current.slotStart.getTime(),
        current.timeZone,
        now.getTime(),
        current.confirmedAt.getTime()
      )
      const preview: CancelPreview = {
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
        cancellation_policy: policy,
        confirmation_delivery: { customer: skippedInDryRun, provider: skippedInDryRun },
        idempotent_replay: false,
        ...(current.sandbox ? { sandbox: true as const } : {}),
        safe_next_step: `${current.sandbox ? sandboxChangeNote : ""}Dry run: nothing was cancelled and nobody was told; the booking (${current.providerName}, ${current.slotLabel}) stands. ${cancellationWords({ cancelledBy: by, ...would }, current.timeZone, false).en} Tell the user this and ask whether to cancel. Only on their yes, send this request again without dry_run (${surface.cancelBooking(current.requestId)}). Do not say the booking is cancelled until an answer has cancelled: true.`
      }
      return preview
    }

    const replayOf = (resourceId: string, storedHash: string) =>
      Effect.gen(function* () {
        const { stored, change } = yield* kit.replayed(partner, resourceId, steps)
        if (storedHash !== hash || change.kind !== "cancel")
          return yield* kit.keyHolds("a cancellation", stored, surface)
        const states = yield* kit.statesOf(change.id)
        return cancelledAnswer(stored, states, true)
      })

    const existing = yield* kit.storedKey(partner, "cancel", key, steps)
    if (Option.isSome(existing)) return yield* replayOf(existing.value.resourceId, existing.value.requestHash)

    const changeId = randomUUID()
    const written = yield* kit
      .transact(
        Effect.gen(function* () {
          const before = yield* kit.claimAndLock(partner, "cancel", key, hash, changeId, current.id)
          const facts = yield* assessCancel(before, by, request.expected_version, now, surface)
          const version = before.version + 1
          yield* kit.sql`UPDATE bookings SET status = 'cancelled', version = ${version}, cancelled_at = ${now},
            cancelled_by = ${by}, cancel_reason = ${request.reason ?? null}, cancel_fee_sek = ${facts.feeSek},
            cancel_within_free_period = ${facts.withinFreePeriod}, cancel_free_until = ${facts.freeUntil},
            cancel_legal_basis = ${facts.legalBasis}, updated_at = greatest(updated_at, ${now})
          WHERE id = ${before.id}::uuid`
          yield* kit.calendar.release(before.id, now)
          yield* kit.sql`INSERT INTO booking_changes (id, booking_id, kind, version, previous_slot_start, previous_slot_end, created_at)
          VALUES (${changeId}::uuid, ${before.id}::uuid, 'cancel', ${version}, ${before.slotStart}, ${before.slotEnd}, ${now})`
          const notices = yield* kit.noticesOf(before, partner, changeId, "booking_cancelled", (booking) =>
            bookingCancelled(booking, { cancelledBy: by, ...facts })
          )
          yield* kit.notifier.enqueue(notices, now)
          const after: StoredBooking = {
            ...before,
            status: "cancelled",
            version,
            cancelledAt: now,
            cancelledBy: by,
            cancelReason: request.reason ?? null,
            cancelFeeSek: facts.feeSek,
            cancelWithinFreePeriod: facts.withinFreePeriod,
            cancelFreeUntil: facts.freeUntil,
            cancelLegalBasis: facts.legalBasis
          }
          yield* kit.announce({
            kind: "cancelled",
            cancelledBy: by,
            changeId,
            booking: after,
            partnerId: partner.id,
            version,
            at: now
          })
          return { after, notices }
        }),
        steps,
        "cancel"
      )
      .pipe(Effect.catchTag("LostClaim", () => Effect.succeed(undefined)))

    if (written === undefined) {
      const raced = yield* kit.racedKey(partner, "cancel", key, steps)
      return yield* replayOf(raced.resourceId, raced.requestHash)
    }
    const states = yield* kit.deliver(written.notices, changeId)
    return cancelledAnswer(written.after, states, false)
  })

  return cancelAs
}
