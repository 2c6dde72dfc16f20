import { Effect, Option } from "effect"
import { SlotTaken } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import { InvalidRequest } from "../Domain/Errors.js"
import type { HoldNotFound } from "../Domain/Hold.js"
import { isUuid } from "../Domain/Ids.js"
import type { Partner } from "../Domain/Partner.js"
import type { Surface } from "../Domain/Surface.js"
import { formatInZone } from "../Domain/Zone.js"
import { holdNotFound } from "../Holds/Steps.js"
import { type HeldSlot, type HoldsRepo, isLive, type StoredHold, slotOfOption } from "../Shared/HoldsRepo.js"

/** The partner's hold a confirm or a move of the option goes through, and whether it still holds the time. */
export interface HeldOption {
  readonly hold: Option.Option<StoredHold>
  readonly live: boolean
}

/** No hold to go through: the confirm of an option the partner does not hold. */
export const noHold: HeldOption = { hold: Option.none(), live: false }

const sameSlot = (hold: StoredHold, option: SignedOption) =>
  hold.providerId === option.providerId &&
  hold.serviceId === option.serviceId &&
  hold.slotStart.getTime() === option.slotStart &&
  hold.slotEnd.getTime() === option.slotEnd

/** The hold named by `hold_id`, or the partner's latest on the option's slot, as what it means for the option. */
export const judgeHeld = (
  found: Option.Option<StoredHold>,
  option: SignedOption,
  holdId: string | undefined,
  now: Date
): Effect.Effect<HeldOption, HoldNotFound | InvalidRequest> => {
  if (holdId === undefined)
    return Effect.succeed({ hold: found, live: Option.isSome(found) && isLive(found.value, now) })
  if (Option.isNone(found)) return Effect.fail(holdNotFound(holdId))
  if (!sameSlot(found.value, option)) {
    return Effect.fail(
      new InvalidRequest({
        issues: [`hold_id: hold ${holdId} holds another option; send the booking_option_id it was made with`]
      })
    )
  }
  return Effect.succeed({ hold: found, live: isLive(found.value, now) })
}

/**
 * What a hold look-up reads: the hold `hold_id` names (only one in the form of an id is looked
 * up), or else the partner's latest hold on the option's slot; none when there is nothing to read.
 */
export const holdTarget = (option: SignedOption, holdId: string | undefined): string | HeldSlot | undefined =>
  holdId === undefined ? slotOfOption(option) : isUuid(holdId) ? holdId : undefined

/**
 * The hold named by `hold_id`, or else the partner's latest hold on the option's slot. Another
 * partner's hold is never found: its time is simply taken.
 */
export const heldOption = (
  repo: HoldsRepo["Service"],
  partner: Partner["Service"],
  option: SignedOption,
  holdId: string | undefined,
  now: Date
) =>
  Effect.gen(function* () {
    const target = holdTarget(option, holdId)
    const found =
      target === undefined
        ? Option.none()
        : typeof target === "string"
          ? yield* repo.find(partner.id, target)
          : yield* repo.latestOn(partner.id, target)
    return yield* judgeHeld(found, option, holdId, now)
  })

/**
 * The time could not be taken although the partner held it: its hold had run out and the time was
 * taken since, or (while it held) the provider's own calendar, imported after the hold was made,
 * marks the time busy.
 */
export const takenAfterHold = (
  surface: Surface,
  held: HeldOption & { readonly hold: Option.Some<StoredHold> },
  keepsBooking?: string
) => {
  const hold = held.hold.value
  const expiry = formatInZone(hold.expiresAt, hold.timeZone)
  const why = held.live
    ? `Your hold ${hold.id} (until ${expiry}) kept the time from other partners, but the provider's own calendar now marks it busy`
    : `Your hold on this time had run out (at ${expiry}), and the time was taken meanwhile`
  return new SlotTaken({
    option_refresh_required: true,
    issues: [
      held.live
        ? `booking_option_id: the provider's calendar marks the held slot busy (hold ${hold.id})`
        : `booking_option_id: your hold ${hold.id} ran out at ${expiry}, and the slot was taken since`
    ],
    safe_next_step: `${keepsBooking ?? "This call booked nothing."} ${why}. Tell the user the time is gone, search again (${surface.search}) and offer the new options; hold the one they pick (${surface.hold}) before asking for their details.`
  })
}
