import ICAL from "ical.js"
import { instantOf } from "./IcalTimeZones.js"

/** The starts of one recurring VEVENT that can reach a window, and whether a limit cut them short. */
export interface Occurrences {
  readonly starts: ReadonlyArray<ICAL.Time>
  readonly truncated: boolean
}

/** A rule this module will not expand: sub-daily, or a yearly shape ical.js may search for ages. */
export class UnsupportedRule extends Error {}

class StepBudgetSpent extends Error {}

const supportedFrequencies: ReadonlySet<string> = new Set(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"])
const day = 86_400_000

const checkSupported = (rule: ICAL.Recur) => {
  if (!supportedFrequencies.has(rule.freq)) throw new UnsupportedRule(`FREQ=${rule.freq}`)
  const parts = rule.parts
  // ical.js searches up to the year 20000 for a yearly rule no date satisfies
  // ("the first Monday of April on the 15th to 21st"): no phone calendar writes these.
  if (rule.freq === "YEARLY" && (parts.BYYEARDAY || parts.BYWEEKNO || (parts.BYDAY && parts.BYMONTHDAY))) {
    throw new UnsupportedRule("a yearly rule by year day, week number, or weekday and month day")
  }
}

/**
 * ical.js loops forever on a daily rule no day satisfies (BYMONTH=2;BYMONTHDAY=30, a negative
 * BYMONTHDAY, BYDAY=1MO): every pass of that loop takes one of these steps, so counting them
 * bounds it.
 */
const limitSteps = (iterator: ICAL.RecurIterator, budget: number) => {
  let left = budget
  const guard = (step: () => number) => () => {
    if (--left < 0) throw new StepBudgetSpent()
    return step()
  }
  iterator.next_day = guard(iterator.next_day.bind(iterator))
  iterator.next_week = guard(iterator.next_week.bind(iterator))
  iterator.next_month = guard(iterator.next_month.bind(iterator))
  iterator.next_year = guard(iterator.next_year.bind(iterator)) as () => 0 | 1
}

const plainWeekday = /^(MO|TU|WE|TH|FR|SA|SU)$/
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
const daysSinceEpoch = (time: ICAL.Time) => Date.UTC(time.year, time.month - 1, time.day) / day

/**
 * The whole number of days by which the rule's start can move without changing which
 * instances it makes from there on, or undefined when there is none. Daily and weekly rules
 * without COUNT repeat every INTERVAL days or weeks (every multiple of 7 days, too, when BYDAY
 * picks weekdays); COUNT counts from the first instance, and the other BY parts tie the rule to
 * months and years.
 */
const periodInDays = (rule: ICAL.Recur): number | undefined => {
  const parts = rule.parts
  const tied = ["BYSETPOS", "BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYHOUR", "BYMINUTE", "BYSECOND"]
  if (rule.count || tied.some((part) => part in parts)) return undefined
  if (parts.BYDAY && !parts.BYDAY.every((weekday: string) => plainWeekday.test(weekday))) return undefined
  const interval = rule.interval || 1
  if (rule.freq === "WEEKLY") return 7 * interval
  if (rule.freq !== "DAILY") return undefined
  return parts.BYDAY ? (7 * interval) / gcd(7, interval) : interval
}

/**
 * A start that skips whole periods up to a day or two before `from`: ical.js walks a rule
 * instance by instance from its start (~60 µs each), so a daily event begun years ago would
 * cost a second and the instance limit before it reached this week.
 */
const skipAhead = (rule: ICAL.Recur, start: ICAL.Time, from: number): ICAL.Time => {
  const period = periodInDays(rule)
  if (period === undefined) return start
  const periods = Math.floor((Math.floor(from / day) - 2 - daysSinceEpoch(start)) / period)
  if (periods <= 0) return start
  const moved = start.clone()
  moved.adjust(periods * period, 0, 0, 0)
  return moved
}

const weekdayOf = (time: ICAL.Time) => ICAL.Recur.numericDayToIcalDay(time.dayOfWeek())

/** ical.js makes a daily rule's start an instance even when BYDAY rules its weekday out. */
const madeByRule = (rule: ICAL.Recur, start: ICAL.Time) =>
  !rule.parts.BYDAY || rule.parts.BYDAY.includes(weekdayOf(start))

const dateKey = (time: ICAL.Time) => `${time.year}-${time.month}-${time.day}`

const valuesOf = (event: ICAL.Component, name: string): ReadonlyArray<ICAL.Time> =>
  event
    .getAllProperties(name)
    .flatMap((property) => property.getValues())
    .map((value) => (value instanceof ICAL.Period ? value.start : value))
    .filter((value): value is ICAL.Time => value instanceof ICAL.Time)

/**
 * The starts of a VEVENT's instances (DTSTART, RRULE, RDATE, less EXDATE) from `from` on and
 * before `until` (ms), at most `maxInstances` walked per rule. The caller puts `from` early
 * enough that an instance starting before it ends before the window does.
 */
export const occurrenceStarts = (
  event: ICAL.Component,
  start: ICAL.Time,
  window: { readonly from: number; readonly until: number },
  maxInstances: number
): Occurrences => {
  const rules = event.getAllProperties("rrule").map((property) => property.getFirstValue() as ICAL.Recur)
  rules.forEach(checkSupported)
  const starts: Array<ICAL.Time> = [start, ...valuesOf(event, "rdate")]
  let truncated = false
  for (const rule of rules) {
    const first = skipAhead(rule, start, window.from)
    const iterator = rule.iterator(first)
    limitSteps(iterator, 20_000 + 50 * maxInstances)
    try {
      for (let walked = 0, next = iterator.next(); next; next = iterator.next()) {
        if (instantOf(next) >= window.until) break
        if (++walked > maxInstances) {
          truncated = true
          break
        }
        if (first !== start && next.compare(first) === 0 && !madeByRule(rule, first)) continue
        starts.push(next.clone())
      }
    } catch (error) {
      if (!(error instanceof StepBudgetSpent)) throw error
      truncated = true
    }
  }
  const excluded = valuesOf(event, "exdate")
  const excludedInstants = new Set(excluded.filter((time) => !time.isDate).map(instantOf))
  const excludedDates = new Set(excluded.filter((time) => time.isDate).map(dateKey))
  const seen = new Set<number>()
  const kept = starts.filter((time) => {
    const instant = instantOf(time)
    if (instant < window.from || instant >= window.until || seen.has(instant)) return false
    seen.add(instant)
    return !excludedInstants.has(instant) && !excludedDates.has(dateKey(time))
  })
  return { starts: kept, truncated }
}
