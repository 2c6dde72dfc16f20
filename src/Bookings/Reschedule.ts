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
import { changeableAt, type policyTerms } from "../Domain/CancellationPolicy.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { slotLabel } from "../Domain/Labels.js"
import { kronorEn, priceWording } from "../Domain/Pricing.js"
import { sandboxChangeNote } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import { formatInZone, knownTimeZone } from "../Domain/Zone.js"
import type { DeliveryState } from "../Notifications/DeliveryState.js"
import { hasExpired } from "../Shared/OptionSigner.js"
import { bookingPolicy, confirmedFacts, type deductionOfOption, optionPrice, priceFactsOfOption } from "./Answers.js"
import type { BookingChangeRow } from "./BookingsRepo.js"
import { alreadyCancelled, stale } from "./Cancellations.js"
import { type HeldOption, takenAfterHold } from "./HeldOption.js"

/** What a move answers and refuses: the words and checks the reschedule of Changes.ts runs. */
export const rescheduleSteps = (surface: Surface, bookingId: string) => ({
  beforeWriting:
    "The booking could not be read or moved because the database does not answer. This call changed nothing; if an earlier attempt with the same idempotency_key moved it, that stands. Do not tell the user the time changed, nor that it did not. Retry the same request (same idempotency_key) in a moment.",
  notWritten:
    "Nothing was changed by this attempt: the database failed before the new time was saved, so the booking at its old time still stands. Retry the same request (same idempotency_key) in a moment.",
  commitUnknown: `The outcome is unknown: the database stopped answering while the new time was being saved, so the booking may be at its old time or its new one. Do not tell the user either. Retry the same request with the same idempotency_key (safe: it returns the moved booking if the move was saved), or look it up with ${surface.bookingStatus(bookingId)} once the service answers.`,
  replayUnreadable:
    "This idempotency_key already holds a move of the booking, but it cannot be read right now because the database does not answer. Do not move it again with a new key. Retry the same request in a moment."
})

export const rescheduledAnswer = (
  stored: StoredBooking,
  states: Option.Option<ReadonlyArray<DeliveryState>>,
  now: Date,
  previous: { readonly slotStart: Date; readonly slotEnd: Date },
  replay: boolean
): RescheduleBookingResponse => ({
  ...confirmedFacts(stored, states, now),
  idempotent_replay: replay,
  previous_slot: {
    start_at: formatInZone(previous.slotStart, stored.timeZone),
    end_at: formatInZone(previous.slotEnd, stored.timeZone)
  },
  safe_next_step: `${stored.sandbox ? sandboxChangeNote : ""}The booking has been moved and is confirmed at its new time: ${stored.providerName}, ${stored.slotLabel} (terms ${stored.termsVersion}, request_id ${stored.requestId}, version ${stored.version}). The earlier time (${slotLabel({ start: previous.slotStart.getTime(), end: previous.slotEnd.getTime() }, stored.timeZone)}) is released. Tell the user exactly this. Messages are reported in confirmation_delivery and do not change the booking.`
})

export const assessMove = (stored: StoredBooking, expectedVersion: number | undefined, now: Date, surface: Surface) => {
  if (stored.status === "cancelled") return Effect.fail(alreadyCancelled(surface, stored))
  if (expectedVersion !== undefined && expectedVersion !== stored.version)
    return Effect.fail(stale(stored, expectedVersion, surface))
  const policy = policyOfBooking(stored)
  if (!changeableAt(policy, stored.slotStart.getTime(), now.getTime())) {
    const terms = bookingPolicy(stored, stored.timeZone, now)
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

export const slotTakenKeepsBooking = (stored: StoredBooking, surface: Surface) =>
  new SlotTaken({
    option_refresh_required: true,
    issues: ["booking_option_id: the new slot was just taken"],
    safe_next_step: `Nothing was changed: the new time was taken meanwhile. The booking at its old time (${stored.providerName}, ${stored.slotLabel}, request_id ${stored.requestId}) still stands. Tell the user so, search again (${surface.search}) for the same provider and service, and offer the new times.`
  })

/** The new time taken meanwhile, through the partner's hold or without one: refused, the booking at its old time standing. */
export const takenMeanwhile = (held: HeldOption, before: StoredBooking, surface: Surface) =>
  Option.isSome(held.hold)
    ? takenAfterHold(
        surface,
        { ...held, hold: held.hold },
        `Nothing was changed: the booking at its old time (${before.providerName}, ${before.slotLabel}, request_id ${before.requestId}) still stands.`
      )
    : slotTakenKeepsBooking(before, surface)

/** The option's own checks and its fit to the booking: before any write. */
export const checkOption = (
  request: RescheduleBookingRequest,
  opened: Result.Result<SignedOption, OptionInvalid | OptionExpired>,
  stored: StoredBooking,
  now: Date,
  surface: Surface,
  live: boolean,
  expired: OptionExpired
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
    if (!live && hasExpired(option, now)) return yield* Effect.fail(expired)
    return option
  })

/** A replayed move whose booking has changed again since: the key's answer would no longer be true. */
export const movedAgain = (stored: StoredBooking, change: BookingChangeRow, surface: Surface) =>
  new BookingChanged({
    issues: [`idempotency_key: its move made version ${change.version}; the booking is at ${stored.version} now`],
    booking_id: stored.id,
    request_id: stored.requestId,
    safe_next_step: `This key's move was made, but the booking has changed again since. Look it up with ${surface.bookingStatus(stored.requestId)} and tell the user how it stands now.`
  })

/** The dry run's answer: the move the option would make and what it would cost, nothing written. */
export const reschedulePreview = (
  current: StoredBooking,
  option: SignedOption,
  deduction: ReturnType<typeof deductionOfOption>,
  newTerms: ReturnType<typeof policyTerms>,
  surface: Surface
): ReschedulePreview => {
  const timeZone = knownTimeZone(option.timeZone)
  const label = slotLabel({ start: option.slotStart, end: option.slotEnd }, timeZone)
  const difference = option.amountSek - current.priceSek
  return {
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
    new_slot: {
      start_at: formatInZone(new Date(option.slotStart), timeZone),
      end_at: formatInZone(new Date(option.slotEnd), timeZone),
      label
    },
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
}
