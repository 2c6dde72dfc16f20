import { namedDays } from "./Holidays.js"
import { DAY, isoWeekday, providerTimeZone, startOfDay, toInstant, wallClockOf, zoneFor } from "./Zone.js"

/**
 * The consumer's right of withdrawal (ångerrätt) from a distance contract for a service: lag
 * (2005:59) om distansavtal och avtal utanför affärslokaler, 2 kap. 10 § (14 days) and 12 § (for a
 * service the period runs from the day the contract is concluded). See docs/consumer-law.md.
 */
export const withdrawalDays = 14

/** The days on which a period ending that day runs on to the next (lag (1930:173) om beräkning av lagstadgad tid). */
const closedDay = (day: number): boolean => {
  if (isoWeekday(day) >= 6) return true
  const year = new Date(day).getUTCFullYear()
  return (
    [
      namedDays.nyarsdagen,
      namedDays.trettondagen,
      namedDays.langfredag,
      namedDays.annandagPask,
      namedDays.forstaMaj,
      namedDays.kristiHimmelsfard,
      namedDays.nationaldagen,
      namedDays.midsommarafton,
      namedDays.julafton,
      namedDays.juldagen,
      namedDays.annandagJul,
      namedDays.nyarsafton
    ] as const
  ).some((named) => named.span(year).first === day)
}

/**
 * The last instant of the withdrawal period of a contract concluded at `concludedAt`: the end of
 * the fourteenth day after the day of conclusion (that day itself is not counted), in Swedish
 * time, run on to the end of the next working day when it falls on a Saturday, Sunday or public
 * holiday. The reading that gives the consumer the longer period wherever the rule could be read two ways.
 */
export const withdrawalUntil = (concludedAt: number): number => {
  const zone = zoneFor(providerTimeZone)
  let lastDay = startOfDay(wallClockOf(concludedAt, zone)) + withdrawalDays * DAY
  while (closedDay(lastDay)) lastDay += DAY
  return toInstant(lastDay + DAY, zone)
}

/** Whether a cancel at `now` is a withdrawal within the period. Before the slot's start no work can have begun. */
export const withinWithdrawal = (concludedAt: number, now: number): boolean => now < withdrawalUntil(concludedAt)

/**
 * On what a cancellation's fee rests: the statutory right of withdrawal (no fee), the provider's
 * own terms under konsumenttjänstlagen 42–43 §§ (a fee only if reasonable), or the provider's own
 * cancel (the customer owes nothing).
 */
export type LegalBasis = "withdrawal_right" | "provider_terms" | "provider_cancelled"
export const legalBases = ["withdrawal_right", "provider_terms", "provider_cancelled"] as const

/** The path of the standard withdrawal form (förordning (2014:19), bilaga I B till direktiv 2011/83/EU). */
export const withdrawalFormPath = "/withdrawal-form"
