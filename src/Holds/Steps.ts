import { type Hold, HoldNotFound, type HoldStatus, TooManyHolds } from "../Domain/Hold.js"
import { sandboxPrefix } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import { formatInZone, wallClockOf, zoneFor } from "../Domain/Zone.js"
import { isLive, type StoredHold } from "../Shared/HoldsRepo.js"

/** "14:05": the wall-clock time of an instant in the zone the search was made in. */
export const clockTime = (instant: Date, timeZone: string) => {
  const wall = new Date(wallClockOf(instant.getTime(), zoneFor(timeZone)))
  return `${String(wall.getUTCHours()).padStart(2, "0")}:${String(wall.getUTCMinutes()).padStart(2, "0")}`
}

export const statusOf = (stored: StoredHold, at: Date): HoldStatus =>
  stored.status === "active" ? (isLive(stored, at) ? "active" : "expired") : stored.status

export const holdOf = (stored: StoredHold, at: Date): Hold => ({
  hold_id: stored.id,
  status: statusOf(stored, at),
  booking_option_id: stored.bookingOptionId,
  expires_at: formatInZone(stored.expiresAt, stored.timeZone),
  slot: {
    start_at: formatInZone(stored.slotStart, stored.timeZone),
    end_at: formatInZone(stored.slotEnd, stored.timeZone),
    label: stored.slotLabel
  },
  provider_id: stored.providerId,
  service_id: stored.serviceId,
  price_sek: stored.priceSek,
  ...(stored.bookingId !== null ? { booking_id: stored.bookingId } : {})
})

/** What the caller may say and do next, for each state a hold can be in at `at`. */
export const holdStep = (stored: StoredHold, at: Date, surface: Surface) => {
  const prefix = stored.sandbox ? `${sandboxPrefix}this hold is in the sandbox calendar only. ` : ""
  const until = clockTime(stored.expiresAt, stored.timeZone)
  switch (statusOf(stored, at)) {
    case "active":
      return `${prefix}The time ${stored.slotLabel} is held for you until ${until} (${formatInZone(stored.expiresAt, stored.timeZone)}). Nothing is booked yet: do not tell the user it is booked. Now ask the user for their name, phone, e-mail and address and for their consent, then confirm (${surface.confirm}) with this booking_option_id before ${until}; until then no other partner can take the time. If the user does not want it, release the hold (${surface.releaseHold(stored.id)}).`
    case "expired":
      return `${prefix}This hold ran out at ${until} and nothing was booked under it; the time may have been taken since. Confirming (${surface.confirm}) books it only if it is still free; otherwise search again (${surface.search}).`
    case "released":
      return `${prefix}This hold was released and nothing was booked under it; the time is free for others again.`
    case "confirmed":
      return `${prefix}This hold became booking ${stored.bookingId ?? ""}. Look it up with ${surface.bookingStatus(stored.bookingId ?? "")} and tell the user how it stands.`
  }
}

export const holdNotFound = (holdId: string) =>
  new HoldNotFound({
    issues: [`hold_id: you have no hold ${holdId}`],
    safe_next_step:
      "Nothing was changed. Use the hold_id the hold answer returned, with the same partner token; another partner's hold cannot be seen or used."
  })

export const tooManyHolds = (limit: number, surface: Surface) =>
  new TooManyHolds({
    issues: [`hold: at most ${limit} active holds per partner at once; you hold ${limit}`],
    safe_next_step: `Nothing was held. Confirm (${surface.confirm}) or release (${surface.releaseHold("{hold_id}")}) one of your holds first, or wait until one runs out; then hold again.`
  })

export const alreadyHeld = (held: StoredHold, surface: Surface) =>
  new TooManyHolds({
    issues: [
      `booking_option_id: at most one active hold per partner on a slot; you hold this one as hold ${held.id} until ${formatInZone(held.expiresAt, held.timeZone)}`
    ],
    safe_next_step: `Nothing new was held: you already hold this time as hold ${held.id} until ${clockTime(held.expiresAt, held.timeZone)}. Use that hold: confirm (${surface.confirm}) with its booking_option_id, or release it (${surface.releaseHold(held.id)}).`
  })
