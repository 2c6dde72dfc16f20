import { randomUUID } from "node:crypto"
import { Effect, Option, Result } from "effect"
import { SlotTaken } from "../Domain/Booking.js"
import {
  BookingChanged,
  OptionNotForThisBooking,
  OutsideChangeWindow,
  type RescheduleBookingRequest,
  type RescheduleBookingResponse,
  type ReschedulePreview
} from "../Domain/BookingChange.js"
import type { OptionExpired, OptionInvalid, SignedOption } from "../Domain/BookingOption.js"
import { policyOfBooking, type StoredBooking } from "../Domain/BookingRecord.js"
import { changeableAt, noStatedPolicy, policyTerms } from "../Domain/CancellationPolicy.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { bookingRescheduled } from "../Domain/ChangeMessages.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { BookingId } from "../Domain/Ids.js"
import { slotLabel } from "../Domain/Labels.js"
import type { Partner } from "../Domain/Partner.js"
import { kronorEn, priceWording } from "../Domain/Pricing.js"
import { sandboxChangeNote } from "../Domain/Sandbox.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import type { CurrentOffer } from "../Domain/Supply.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { formatInZone, knownTimeZone } from "../Domain/Zone.js"
import type { DeliveryState } from "../Notifications/DeliveryState.js"
import { calendarOf } from "../Shared/Calendar.js"
import { fingerprintHash, persistenceUnavailable, sqlStateOf } from "../Shared/Idempotency.js"
import { hasExpired } from "../Shared/OptionSigner.js"
import { deductionOfOption, optionPrice, priceFactsOfOption } from "./Answers.js"
import { alreadyCancelled } from "./Cancellations.js"
import { type ChangeKit, keyOf, notFound, rescheduleSteps, stale } from "./ChangeKit.js"
import { pricedAs } from "./Confirmation.js"
import { type HeldOption, heldOption, takenAfterHold } from "./HeldOption.js"

/** Moves a booking to a new option of the same provider and service, keeping its id, exactly once per key. */
export const makeReschedule = (kit: ChangeKit) => {
  const rescheduledAnswer = (
    stored: StoredBooking,
    previous: { readonly slotStart: Date; readonly slotEnd: Date },
    states: Option.Option<ReadonlyArray<DeliveryState>>,
    replay: boolean,
    now: Date
  ): RescheduleBookingResponse => ({
    ok: true,
    spec_version: bookingsSpecVersion,
    request_id: stored.requestId,
    ...kit.bookings.present(stored, states, now),
    provider_selected: true,
    availability_checked: true,
    booking_created: true,
    idempotent_replay: replay,
    previous_slot: {
      start_at: formatInZone(previous.slotStart, stored.timeZone),
      end_at: formatInZone(previous.slotEnd, stored.timeZone)
    },
    safe_next_step: `${stored.sandbox ? sandboxChangeNote : ""}The booking has been moved and is confirmed at its new time: ${stored.providerName}, ${stored.slotLabel} (terms ${stored.termsVersion}, request_id ${stored.requestId}, version ${stored.version}). The earlier time (${slotLabel({ start: previous.slotStart.getTime(), end: previous.slotEnd.getTime() }, stored.timeZone)}) is released. Tell the user exactly this. Messages are reported in confirmation_delivery and do not change the booking.`
  })

  const assessMove = (stored: StoredBooking, expectedVersion: number | undefined, now: Date, surface: Surface) => {
    if (stored.status === "cancelled") return Effect.fail(alreadyCancelled(surface, stored))
    if (expectedVersion !== undefined && expectedVersion !== stored.version)
      return Effect.fail(stale(stored, expectedVersion, surface))
    const policy = policyOfBooking(stored)
    if (!changeableAt(policy, stored.slotStart.getTime(), now.getTime())) {
      const terms = policyTerms(
        policy,
        stored.slotStart.getTime(),
        stored.timeZone,
        now.getTime(),
        stored.confirmedAt.getTime()
      )
      return Effect.fail(
        new OutsideChangeWindow({
          issues: [`booking_id: the time could be changed until ${terms.change_until}`],
          booking_id: stored.id,
          request_id: stored.requestId,
          safe_next_step: `Nothing was changed: under the provider's terms this booking's time could be changed until ${terms.change_until}, and that has passed. The booking at ${stored.slotLabel} still stands. Tell the user so; they may contact ${stored.providerName} directly (request_id ${stored.requestId}), or cancel under the policy (${surface.cancelBooking(stored.requestId)} with dry_run: true shows what it would cost).`
        })
      )
    }
    return Effect.void
  }

  const slotTakenKeepsBooking = (stored: StoredBooking, surface: Surface) =>
    new SlotTaken({
      option_refresh_required: true,
      issues: ["booking_option_id: the new slot was just taken"],
      safe_next_step: `Nothing was changed: the new time was taken meanwhile. The booking at its old time (${stored.providerName}, ${stored.slotLabel}, request_id ${stored.requestId}) still stands. Tell the user so, search again (${surface.search}) for the same provider and service, and offer the new times.`
    })

  const keepsBookingWords = (stored: StoredBooking) =>
    `Nothing was changed: the booking at its old time (${stored.providerName}, ${stored.slotLabel}, request_id ${stored.requestId}) still stands.`

  /** The option's own checks and its fit to the booking: before any write. */
  const checkOption = (
    request: RescheduleBookingRequest,
    opened: Result.Result<SignedOption, OptionInvalid | OptionExpired>,
    stored: StoredBooking,
    now: Date,
    surface: Surface,
    live: boolean
  ): Effect.Effect<SignedOption, OptionInvalid | OptionExpired | OptionNotForThisBooking | InvalidRequest> =>
    Effect.gen(function* () {
      if (Result.isFailure(opened)) return yield* Effect.fail(opened.failure)
      const option = opened.success
      if (option.providerId !== stored.providerId || option.serviceId !== stored.serviceId) {
        return yield* new OptionNotForThisBooking({
          issues: [
            `booking_option_id: is for ${option.providerId}/${option.serviceId}, the booking is ${stored.providerId}/${stored.serviceId}`
          ],
          booking_id: stored.id,
          request_id: stored.requestId,
          safe_next_step: `Nothing was changed. A booking can only be moved to another time of the same provider and service (${stored.providerName}). Search again (${surface.search}) and pick an option of that provider and service_id ${stored.serviceId}; for another provider, cancel and book anew.`
        })
      }
      if (request.booking_terms_version !== option.termsVersion) {
        return yield* new InvalidRequest({
          issues: [`booking_terms_version: must equal the option's terms version ${option.termsVersion}`]
        })
      }
      if (!live && hasExpired(option, now)) return yield* Effect.fail(kit.signer.expiredRefusal)
      return option
    })

  const reschedule = Effect.fnUntraced(function* (
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
    const found = yield* kit
      .findBooking(partner, ref)
      .pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))
    if (Option.isNone(found)) return yield* notFound(partner)
    const current = found.value
    const opened = yield* kit.bookingOptions
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

    const replayOf = (resourceId: string, storedHash: string) =>
      Effect.gen(function* () {
        const { stored, change } = yield* kit.replayed(partner, resourceId, steps)
        if (storedHash !== hash || change.kind !== "reschedule") return yield* kit.keyHolds("a move", stored, surface)
        if (stored.status === "cancelled") return yield* alreadyCancelled(surface, stored)
        if (stored.version !== change.version) {
          return yield* new BookingChanged({
            issues: [
              `idempotency_key: its move made version ${change.version}; the booking is at ${stored.version} now`
            ],
            booking_id: stored.id,
            request_id: stored.requestId,
            safe_next_step: `This key's move was made, but the booking has changed again since. Look it up with ${surface.bookingStatus(stored.requestId)} and tell the user how it stands now.`
          })
        }
        const states = yield* kit.statesOf(change.id)
        return rescheduledAnswer(
          stored,
          { slotStart: change.previousSlotStart, slotEnd: change.previousSlotEnd },
          states,
          true,
          now
        )
      })

    if (request.dry_run !== true) {
      const existing = yield* kit.storedKey(partner, "reschedule", key, steps)
      if (Option.isSome(existing)) return yield* replayOf(existing.value.resourceId, existing.value.requestHash)
    }
    yield* assessMove(current, request.expected_version, now, surface)
    const held: HeldOption = Result.isFailure(opened)
      ? { hold: Option.none(), live: false }
      : yield* heldOption(kit.holds, partner, opened.success, request.hold_id, now).pipe(
          Effect.catchTag("SqlError", persistenceUnavailable("booking", steps.beforeWriting))
        )
    const ownHold = held.live && Option.isSome(held.hold) ? held.hold.value.id : undefined
    const option = yield* checkOption(request, opened, current, now, surface, held.live)
    const offer: CurrentOffer = yield* kit.bookings
      .revalidate(option, surface)
      .pipe(Effect.catchTag("SqlError", persistenceUnavailable("booking", steps.beforeWriting)))
    const timeZone = knownTimeZone(option.timeZone)
    const newStart = new Date(option.slotStart)
    const newEnd = new Date(option.slotEnd)
    const policy = offer.cancellationPolicy ?? noStatedPolicy
    const label = slotLabel({ start: option.slotStart, end: option.slotEnd }, timeZone)
    const deduction = deductionOfOption(option, offer)

    if (request.dry_run === true) {
      const free = yield* kit.calendar
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
      const difference = option.amountSek - current.priceSek
      const preview: ReschedulePreview = {
        ok: true,
        spec_version: bookingsSpecVersion,
        dry_run: true,
        rescheduled: false,
        booking_id: current.id,
        request_id: current.requestId,
        booking_version: current.version,
        current_slot: {
          start_at: formatInZone(current.slotStart, current.timeZone),
          end_at: formatInZone(current.slotEnd, current.timeZone)
        },
        new_slot: { start_at: formatInZone(newStart, timeZone), end_at: formatInZone(newEnd, timeZone), label },
        current_price_sek: current.priceSek,
        new_price: optionPrice(option, deduction),
        price_difference_sek: difference,
        new_cancellation_policy: newTerms,
        safe_next_step: `${current.sandbox ? sandboxChangeNote : ""}Dry run: nothing was changed and nobody was told; the booking stands at ${current.slotLabel}. It can be moved to ${label}, at ${priceWording(priceFactsOfOption(option)).en}: ${
          difference === 0
            ? "the same price as now"
            : `SEK ${kronorEn(Math.abs(difference))} ${difference > 0 ? "more" : "less"} than the SEK ${kronorEn(current.priceSek)} it costs now`
        } (prices before any RUT or ROT deduction; new_price.tax_deduction states the new one). ${newTerms.summary_en} Tell the user this and ask whether to move it. Only on their yes, send this request again without dry_run (${surface.rescheduleBooking(current.requestId)}); the time may be taken meanwhile.`
      }
      return preview
    }

    const changeId = randomUUID()
    const written = yield* kit
      .transact(
        Effect.gen(function* () {
          const before = yield* kit.claimAndLock(partner, "reschedule", key, hash, changeId, current.id)
          yield* assessMove(before, request.expected_version, now, surface)
          const version = before.version + 1
          // Release first: a move to a time overlapping the booking's own old one must not refuse itself.
          yield* kit.calendar.release(before.id, now)
          yield* kit.calendar
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
            .pipe(
              Effect.catchIf(
                (error) => ["23P01", "40P01", "40001"].includes(sqlStateOf(error) ?? ""),
                () =>
                  Effect.fail(
                    Option.isSome(held.hold)
                      ? takenAfterHold(surface, { ...held, hold: held.hold }, keepsBookingWords(before))
                      : slotTakenKeepsBooking(before, surface)
                  )
              )
            )
          if (ownHold !== undefined) {
            yield* kit.holds.confirmation({ holdId: ownHold, partnerId: partner.id }, before.id, now)
          }
          yield* kit.sql`UPDATE bookings SET slot_start = ${newStart}, slot_end = ${newEnd}, slot_label = ${label},
            time_zone = ${timeZone}, price_sek = ${option.amountSek}, pricing_model = ${option.pricingModel},
            price_type = ${option.priceType}, unit_price_sek = ${option.unitPriceSek ?? null}, unit = ${option.unit ?? null},
            quantity = ${option.quantity ?? null}, terms_version = ${option.termsVersion},
            tax_deduction = ${JSON.stringify(deduction)}::jsonb,
            terms_url = ${offer.termsUrl ?? ""}, free_cancellation_hours = ${policy.freeCancellationHours},
            late_fee_sek = ${policy.lateFeeSek}, change_hours = ${policy.changeHours}, version = ${version},
            notice_subject_id = ${changeId}::uuid, updated_at = greatest(updated_at, ${now})
          WHERE id = ${before.id}::uuid`
          yield* kit.sql`INSERT INTO booking_changes (id, booking_id, kind, version, previous_slot_start, previous_slot_end,
            slot_start, slot_end, created_at)
          VALUES (${changeId}::uuid, ${before.id}::uuid, 'reschedule', ${version}, ${before.slotStart}, ${before.slotEnd},
            ${newStart}, ${newEnd}, ${now})`
          const after: StoredBooking = {
            ...before,
            slotStart: newStart,
            slotEnd: newEnd,
            slotLabel: label,
            timeZone,
            ...pricedAs(option),
            taxDeduction: deduction,
            ...policy,
            version,
            noticeSubjectId: changeId
          }
          const previous = { slotStart: before.slotStart, slotEnd: before.slotEnd }
          const words = policyTerms(policy, option.slotStart, timeZone, now.getTime(), before.confirmedAt.getTime())
          const notices = yield* kit.noticesOf(after, partner, changeId, "booking_rescheduled", (booking) =>
            bookingRescheduled({ ...booking, termsUrl: offer.termsUrl ?? booking.termsUrl }, previous, words, version)
          )
          yield* kit.notifier.enqueue(notices, now)
          yield* kit.announce({
            kind: "rescheduled",
            previous,
            changeId,
            booking: after,
            partnerId: partner.id,
            version,
            at: now
          })
          return { after, previous, notices }
        }),
        steps,
        "reschedule"
      )
      .pipe(Effect.catchTag("LostClaim", () => Effect.succeed(undefined)))

    if (written === undefined) {
      const raced = yield* kit.racedKey(partner, "reschedule", key, steps)
      return yield* replayOf(raced.resourceId, raced.requestHash)
    }
    const states = yield* kit.deliver(written.notices, changeId)
    return rescheduledAnswer(written.after, written.previous, states, false, now)
  })

  return reschedule
}
