import type { EarlyStart } from "./Booking.js"
import { dayTime } from "./CancellationPolicy.js"
import { withdrawalUntil } from "./Withdrawal.js"

export interface EarlyStartFacts {
  readonly earlyStartRequested: boolean | null
  readonly earlyStartStatement: string | null
  readonly slotStart: Date
  readonly confirmedAt: Date
  readonly timeZone: string
}

/**
 * What the customer's early-start request means for a withdrawal (2005:59, 2 kap. 11 § 1 p. and
 * 15 §): asked for, a withdrawal after work has begun costs the part done, and none is left once
 * the work is fully performed; not asked for, a withdrawal within the period costs nothing, even
 * for work done. A slot after the period leaves the request without effect.
 */
export const earlyStartOf = (booking: EarlyStartFacts): typeof EarlyStart.Type => {
  const end = withdrawalUntil(booking.confirmedAt.getTime())
  const within = booking.slotStart.getTime() < end
  const requested = booking.earlyStartRequested === true
  const w = dayTime(end - 60_000, booking.timeZone)
  const words = !within
    ? {
        sv: `Arbetet börjar efter ångerfristen, som gäller till och med ${w.sv}.`,
        en: `The work starts after the withdrawal period, which lasts until ${w.en}.`
      }
    : requested
      ? {
          sv: `Arbetet ska enligt begäran börja under ångerfristen (till och med ${w.sv}). Ångras bokningen efter att arbetet har börjat betalas den del som har utförts; när arbetet är helt utfört upphör ångerrätten.`,
          en: `The work was asked to start within the withdrawal period (until ${w.en}). A withdrawal after the work has begun costs the part already done; once the work is fully performed the right of withdrawal ends.`
        }
      : {
          sv: `Ingen begäran om att arbetet ska börja under ångerfristen (till och med ${w.sv}) har gjorts. Ångras bokningen inom fristen ska ingenting betalas, inte ens för arbete som har utförts.`,
          en: `No request was made for the work to start within the withdrawal period (until ${w.en}). A withdrawal within it owes nothing, even for work already done.`
        }
  return {
    requested,
    ...(booking.earlyStartStatement === null ? {} : { statement: booking.earlyStartStatement }),
    slot_within_withdrawal_period: within,
    summary_sv: words.sv,
    summary_en: words.en
  }
}
