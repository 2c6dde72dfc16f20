import { randomUUID } from "node:crypto"
import { Context, Effect, Layer, Option, Result } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import type { CancelBookingRequest, CancelledBy, RescheduleBookingRequest } from "../Domain/BookingChange.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import { noStatedPolicy, policyTerms } from "../Domain/CancellationPolicy.js"
import { bookingCancelled, bookingRescheduled, type ChangedBooking } from "../Domain/ChangeMessages.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { BookingId } from "../Domain/Ids.js"
import { slotLabel } from "../Domain/Labels.js"
import type { BookingConfirmation } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import { CurrentSurface } from "../Domain/Surface.js"
import {
  bookingCancelled as webhookBookingCancelled,
  bookingRescheduled as webhookBookingRescheduled
} from "../Domain/WebhookEvents.js"
import { knownTimeZone } from "../Domain/Zone.js"
import { isDeliverable } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar, calendarOf } from "../Shared/Calendar.js"
import { HoldsRepo } from "../Shared/HoldsRepo.js"
import {
  fingerprintHash,
  Idempotency,
  type OutageSteps,
  persistenceUnavailable,
  sqlStateOf
} from "../Shared/Idempotency.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { deductionOfOption } from "./Answers.js"
import { Bookings } from "./Bookings.js"
import { BookingsRepo } from "./BookingsRepo.js"
import { assessCancel, cancelledAnswer, cancelPreview, cancelSteps } from "./Cancel.js"
import { alreadyCancelled, changeNotices, keyHolds, keyOf, notFound } from "./Cancellations.js"
import { inOneTransaction, LostClaim } from "./ChangeTransaction.js"
import { pricedAs } from "./Confirmation.js"
import { type HeldOption, heldOption } from "./HeldOption.js"
import { NotifierLive } from "./NotifierLive.js"
import { lostSlotRace } from "./Refusals.js"
import {
  assessMove,
  checkOption,
  movedAgain,
  rescheduledAnswer,
  reschedulePreview,
  rescheduleSteps,
  slotTakenKeepsBooking,
  takenMeanwhile
} from "./Reschedule.js"

type Scope = "cancel" | "reschedule"

/**
 * Cancels and moves confirmed bookings, exactly once per key, under the policy they were confirmed with,
 * each in one transaction with its notices and the partner's webhook event: no event without its change.
 */
export class Changes extends Context.Service<Changes>()("Booking/Changes", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const calendar = yield* Calendar
    const repo = yield* BookingsRepo
    const bookings = yield* Bookings
    const idempotency = yield* Idempotency
    const notifier = yield* Notifier
    const signer = yield* OptionSigner
    const bookingOptions = yield* BookingOptions
    const holds = yield* HoldsRepo
    const outbox = yield* WebhookOutbox

    const findBooking = (partner: Partner["Service"], ref: string, steps: OutageSteps) =>
      repo.findByRef(partner.id, ref).pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))

    const noticesOf = (
      stored: StoredBooking,
      partner: Partner["Service"],
      changeId: string,
      topic: "booking_cancelled" | "booking_rescheduled",
      messagesOf: (booking: ChangedBooking) => BookingConfirmation
    ) =>
      Effect.map(repo.contactOf(stored.id), (contact) =>
        changeNotices(stored, Option.getOrUndefined(contact), changeId, topic, messagesOf, (role, to) =>
          notifier.channelFor(role, to, partner.sandbox)
        )
      )

    /** The change in one transaction, from the key's claim and the booking locked as it is now. */
    const transact = <A, E>(
      partner: Partner["Service"],
      scope: Scope,
      claimed: { readonly key: string; readonly hash: string; readonly changeId: string; readonly bookingId: string },
      steps: OutageSteps,
      body: (before: StoredBooking) => Effect.Effect<A, E>
    ) =>
      inOneTransaction(
        sql,
        scope,
        steps,
        Effect.gen(function* () {
          yield* sql`INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
            VALUES (${partner.id}, ${scope}, ${claimed.key}, ${claimed.hash}, ${claimed.changeId}::uuid)`.pipe(
            Effect.catchIf(
              (error) => sqlStateOf(error) === "23505",
              () => Effect.fail(new LostClaim())
            )
          )
          const locked = yield* repo.lockById(claimed.bookingId)
          if (Option.isNone(locked)) return yield* notFound(partner)
          return yield* body(locked.value)
        })
      )

    const storedKey = (partner: Partner["Service"], scope: Scope, key: string, steps: OutageSteps) =>
      Effect.catch(idempotency.find(partner.id, scope, key), persistenceUnavailable("booking", steps.beforeWriting))

    /** What a replay must find: missing, it is the 503 that says retry (the key's write is still unsettled). */
    const foundOr =
      (steps: OutageSteps, missing: string) =>
      <A>(found: Option.Option<A>) =>
        Option.isSome(found)
          ? Effect.succeed(found.value)
          : persistenceUnavailable("booking", steps.replayUnreadable)(missing)

    /** The change a key already holds, with its booking as this partner sees it; unreadable, the 503 that says retry. */
    const replayed = (partner: Partner["Service"], resourceId: string, steps: OutageSteps) =>
      Effect.gen(function* () {
        const change = yield* repo.findChange(resourceId)
        if (Option.isNone(change)) return Option.none()
        const booking = yield* repo.findByRef(partner.id, change.value.bookingId)
        return Option.map(booking, (stored) => ({ change: change.value, stored }))
      }).pipe(
        Effect.catch(persistenceUnavailable("booking", steps.replayUnreadable)),
        Effect.flatMap(foundOr(steps, "idempotency key without its change"))
      )

    /** The key a concurrent change claimed first, for its answer to be replayed. */
    const racedKey = (partner: Partner["Service"], scope: Scope, key: string, steps: OutageSteps) =>
      storedKey(partner, scope, key, steps).pipe(Effect.flatMap(foundOr(steps, "key vanished")))

    /** Tries the new rows once at once (bounded), then reads every row's state. */
    const deliver = Effect.fnUntraced(function* (notices: ReadonlyArray<Notification>, subjectId: string) {
      const toSend = notices.filter((row) => isDeliverable(row.channel)).map((row) => row.id)
      if (toSend.length > 0) yield* Effect.ignore(notifier.deliverNow(toSend))
      return yield* bookings.deliveryStates([subjectId])
    })

    /** Cancels a booking for whoever asks: the partner's caller (`customer`, `partner`) or the provider. */
    const cancelAs = Effect.fn("Changes.cancel")(function* (
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
      const found = yield* findBooking(partner, ref, steps)
      if (Option.isNone(found)) return yield* notFound(partner)
      const current = found.value
      const hash = fingerprintHash({ change: "cancel", booking: current.id, cancelled_by: by })

      if (request.dry_run === true) {
        const would = yield* assessCancel(current, by, request.expected_version, now, surface)
        return cancelPreview(current, request, by, would, now, surface)
      }

      const replayOf = Effect.fnUntraced(function* (resourceId: string, storedHash: string) {
        const { stored, change } = yield* replayed(partner, resourceId, steps)
        if (storedHash !== hash || change.kind !== "cancel") return yield* keyHolds("a cancellation", stored, surface)
        return cancelledAnswer(stored, yield* bookings.deliveryStates([change.id]), true)
      })

      const existing = yield* storedKey(partner, "cancel", key, steps)
      if (Option.isSome(existing)) return yield* replayOf(existing.value.resourceId, existing.value.requestHash)

      const changeId = randomUUID()
      const written = yield* transact(
        partner,
        "cancel",
        { key, hash, changeId, bookingId: current.id },
        steps,
        Effect.fnUntraced(function* (before) {
          const facts = yield* assessCancel(before, by, request.expected_version, now, surface)
          const after: StoredBooking = {
            ...before,
            status: "cancelled",
            version: before.version + 1,
            cancelledAt: now,
            cancelledBy: by,
            cancelReason: request.reason ?? null,
            cancelFeeSek: facts.feeSek,
            cancelWithinFreePeriod: facts.withinFreePeriod,
            cancelFreeUntil: facts.freeUntil,
            cancelLegalBasis: facts.legalBasis
          }
          yield* repo.recordCancel(before, after, changeId, now)
          yield* calendar.release(before.id, now)
          const notices = yield* noticesOf(before, partner, changeId, "booking_cancelled", (booking) =>
            bookingCancelled(booking, { cancelledBy: by, ...facts })
          )
          yield* notifier.enqueue(notices, now)
          // The partner's event: thin (ids, slot, price, who cancelled), never the customer or the reason.
          yield* outbox.emit(
            { partnerId: partner.id, sandbox: after.sandbox },
            webhookBookingCancelled(after, by, now, { feeSek: facts.feeSek, legalBasis: facts.legalBasis }),
            now
          )
          return { after, notices }
        })
      ).pipe(Effect.catchTag("LostClaim", () => Effect.succeed(undefined)))

      if (written === undefined) {
        const raced = yield* racedKey(partner, "cancel", key, steps)
        return yield* replayOf(raced.resourceId, raced.requestHash)
      }
      return cancelledAnswer(written.after, yield* deliver(written.notices, changeId), false)
    })

    /** Moves a booking to a new option of the same provider and service, keeping its id, exactly once per key. */
    const reschedule = Effect.fn("Changes.reschedule")(function* (
      ref: string,
      request: RescheduleBookingRequest,
      headerKey: string | undefined,
      partner: Partner["Service"],
      now: Date
    ) {
      const surface = yield* CurrentSurface
      const key = yield* keyOf(request.idempotency_key, headerKey)
      const stamps = futureStampIssues([["booking_terms_accepted_at", request.booking_terms_accepted_at]], now)
      if (stamps.length > 0) return yield* new InvalidRequest({ issues: stamps })
      const steps = rescheduleSteps(surface, ref)
      const found = yield* findBooking(partner, ref, steps)
      if (Option.isNone(found)) return yield* notFound(partner)
      const current = found.value
      const opened = yield* bookingOptions
        .open(request.booking_option_id, now)
        .pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))
      const hash = fingerprintHash({
        change: "reschedule",
        booking: current.id,
        option: Result.isSuccess(opened)
          ? (({ expiresAt: _e, nonce: _n, timeZone: _z, ...what }) => what)(opened.success)
          : request.booking_option_id,
        terms_version: request.booking_terms_version
      })

      const replayOf = Effect.fnUntraced(function* (resourceId: string, storedHash: string) {
        const { stored, change } = yield* replayed(partner, resourceId, steps)
        if (storedHash !== hash || change.kind !== "reschedule") return yield* keyHolds("a move", stored, surface)
        if (stored.status === "cancelled") return yield* alreadyCancelled(surface, stored)
        if (stored.version !== change.version) return yield* movedAgain(stored, change, surface)
        const previous = { slotStart: change.previousSlotStart, slotEnd: change.previousSlotEnd }
        return rescheduledAnswer(stored, yield* bookings.deliveryStates([change.id]), now, previous, true)
      })

      if (request.dry_run !== true) {
        const existing = yield* storedKey(partner, "reschedule", key, steps)
        if (Option.isSome(existing)) return yield* replayOf(existing.value.resourceId, existing.value.requestHash)
      }
      yield* assessMove(current, request.expected_version, now, surface)
      const held: HeldOption = Result.isFailure(opened)
        ? { hold: Option.none(), live: false }
        : yield* heldOption(holds, partner, opened.success, request.hold_id, now).pipe(
            Effect.catchTag("SqlError", persistenceUnavailable("booking", steps.beforeWriting))
          )
      const ownHold = held.live && Option.isSome(held.hold) ? held.hold.value.id : undefined
      const option = yield* checkOption(request, opened, current, now, surface, held.live, signer.expiredRefusal)
      const offer = yield* bookings
        .revalidate(option, surface)
        .pipe(Effect.catchTag("SqlError", persistenceUnavailable("booking", steps.beforeWriting)))
      const timeZone = knownTimeZone(option.timeZone)
      const newStart = new Date(option.slotStart)
      const newEnd = new Date(option.slotEnd)
      const policy = offer.cancellationPolicy ?? noStatedPolicy
      const deduction = deductionOfOption(option, offer)

      if (request.dry_run === true) {
        const free = yield* calendar
          .isFree({
            providerId: current.providerId,
            calendar: calendarOf(partner),
            start: newStart,
            end: newEnd,
            except: current.id,
            at: now,
            ...(ownHold !== undefined ? { ownHold } : {})
          })
          .pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))
        if (!free) return yield* slotTakenKeepsBooking(current, surface)
        // A move keeps the contract, so its withdrawal period still runs from the original confirmation.
        const newTerms = policyTerms(policy, option.slotStart, timeZone, now.getTime(), current.confirmedAt.getTime())
        return reschedulePreview(current, option, deduction, newTerms, surface)
      }

      const changeId = randomUUID()
      const written = yield* transact(
        partner,
        "reschedule",
        { key, hash, changeId, bookingId: current.id },
        steps,
        Effect.fnUntraced(function* (before) {
          yield* assessMove(before, request.expected_version, now, surface)
          // Release first: a move to a time overlapping the booking's own old one must not refuse itself.
          yield* calendar.release(before.id, now)
          yield* calendar
            .booking({
              id: BookingId.make(randomUUID()),
              bookingId: before.id,
              providerId: option.providerId,
              serviceId: option.serviceId,
              slotStart: newStart,
              slotEnd: newEnd,
              calendar: calendarOf(partner),
              at: now,
              ...(ownHold !== undefined ? { replaces: ownHold } : {})
            })
            .pipe(Effect.catchIf(lostSlotRace, () => Effect.fail(takenMeanwhile(held, before, surface))))
          if (ownHold !== undefined) {
            yield* holds.confirmation({ holdId: ownHold, partnerId: partner.id }, before.id, now)
          }
          const version = before.version + 1
          const after: StoredBooking = {
            ...before,
            slotStart: newStart,
            slotEnd: newEnd,
            slotLabel: slotLabel({ start: option.slotStart, end: option.slotEnd }, timeZone),
            timeZone,
            ...pricedAs(option),
            taxDeduction: deduction,
            ...policy,
            version,
            noticeSubjectId: changeId
          }
          yield* repo.recordMove(before, after, offer.termsUrl ?? "", changeId, now)
          const previous = { slotStart: before.slotStart, slotEnd: before.slotEnd }
          const words = policyTerms(policy, option.slotStart, timeZone, now.getTime(), before.confirmedAt.getTime())
          const notices = yield* noticesOf(after, partner, changeId, "booking_rescheduled", (booking) =>
            bookingRescheduled({ ...booking, termsUrl: offer.termsUrl ?? booking.termsUrl }, previous, words, version)
          )
          yield* notifier.enqueue(notices, now)
          yield* outbox.emit(
            { partnerId: partner.id, sandbox: after.sandbox },
            webhookBookingRescheduled(after, previous, now),
            now
          )
          return { after, previous, notices }
        })
      ).pipe(Effect.catchTag("LostClaim", () => Effect.succeed(undefined)))

      if (written === undefined) {
        const raced = yield* racedKey(partner, "reschedule", key, steps)
        return yield* replayOf(raced.resourceId, raced.requestHash)
      }
      const states = yield* deliver(written.notices, changeId)
      return rescheduledAnswer(written.after, states, now, written.previous, false)
    })

    return {
      /** The partner's cancel: by the customer (default) or the partner itself. */
      cancel: (
        ref: string,
        request: CancelBookingRequest,
        headerKey: string | undefined,
        partner: Partner["Service"],
        now: Date
      ) => cancelAs(ref, request, headerKey, partner, request.cancelled_by ?? "customer", now),
      /** The provider's cancel passes `provider`. */
      cancelAs,
      reschedule
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([
      Bookings.Default,
      Calendar.Default,
      BookingsRepo.Default,
      Idempotency.Default,
      NotifierLive,
      OptionSigner.Default,
      BookingOptions.Default,
      WebhookOutbox.Default,
      HoldsRepo.Default
    ])
  )
}
