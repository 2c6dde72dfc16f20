import { Effect, Option } from "effect"
import { SlotTaken } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { isUuid } from "../Domain/Ids.js"
import type { Partner } from "../Domain/Partner.js"
import type { Surface } from "../Domain/Surface.js"
import { formatInZone } from "../Domain/Zone.js"
import { holdNotFound } from "../Holds/Steps.js"
import { type HoldsRepo, isLive, type StoredHold, slotOfOption } from "../Shared/HoldsRepo.js"

/** The partner's hold a confirm or a move of the option goes through, and whether it still holds the time. */
export interface HeldOption {
  readonly hold: Option.Option<StoredHold>
  readonly live: boolean
}

const sameSlot = (hold: StoredHold, option: SignedOption) =>
  hold.providerId === option.providerId &&
  hold.serviceId === option.serviceId &&
  hold.slotStart.getTime() === option.slotStart &&
  hold.slotEnd.getTime() === option.slotEnd

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
    if (holdId === undefined) {
      const hold = yield* repo.latestOn(partner.id, slotOfOption(option))
      return { hold, live: Option.isSome(hold) && isLive(hold.value, now) } satisfies HeldOption
    }
    const found = isUuid(holdId) ? yield* repo.find(partner.id, holdId) : Option.none()
    if (Option.isNone(found)) return yield* holdNotFound(holdId)
    if (!sameSlot(found.value, option)) {
      return yield* new InvalidRequest({
        issues: [`hold_id: hold ${holdId} holds another option; send the booking_option_id it was made with`]
      })
    }
    return { hold: found, live: isLive(found.value, now) } satisfies HeldOption
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
