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

/** The time was taken after the partner's hold on it had run out: say so, since the partner held it. */
export const takenAfterHold = (surface: Surface, hold: StoredHold, keepsBooking?: string) =>
  new SlotTaken({
    option_refresh_required: true,
    issues: [
      `booking_option_id: your hold ${hold.id} ran out at ${formatInZone(hold.expiresAt, hold.timeZone)}, and the slot was taken since`
    ],
    safe_next_step: `${keepsBooking ?? "This call booked nothing."} Your hold on this time had run out (at ${formatInZone(hold.expiresAt, hold.timeZone)}), and the time was taken meanwhile. Tell the user the time is gone, search again (${surface.search}) and offer the new options; hold the one they pick (${surface.hold}) before asking for their details.`
  })
