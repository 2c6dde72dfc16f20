import { namedDays } from "./Holidays.js"
import { DAY, isoWeekday, providerTimeZone, startOfDay, toInstant, wallClockOf, zoneFor } from "./Zone.js"

/**
 * The consumer's right of withdrawal (ångerrätt) from a distance contract for a service: lag
 * (2005:59) om distansavtal och avtal utanför affärslokaler, 2 kap. 10 § (14 days) and 12 § (for a
 * service the period runs from the day the contract is concluded). See docs/consumer-law.md.
 */
export const withdrawalDays = 14

/** The weekday holidays on which a period ending that day runs on (lag (1930:173) om beräkning av lagstadgad tid). */
const closedNamedDays = [
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

/** A year's closed holidays, computed once per year: every cancel's and option's deadline asks. */
const holidaysByYear = new Map<number, ReadonlySet<number>>()
const holidaysOf = (year: number): ReadonlySet<number> => {
  let days = holidaysByYear.get(year)
  if (days === undefined) {
    days = new Set(closedNamedDays.map((named) => named.span(year).first))
    holidaysByYear.set(year, days)
  }
  return days
}

/** The days on which a period ending that day runs on to the next: Saturdays, Sundays and those holidays. */
const closedDay = (day: number): boolean => isoWeekday(day) >= 6 || holidaysOf(new Date(day).getUTCFullYear()).has(day)

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
