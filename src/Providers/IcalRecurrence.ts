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

const daysSinceEpoch = (time: ICAL.Time) => Date.UTC(time.year, time.month - 1, time.day) / day

/**
 * A later start for the rule that makes the same instances from `from` on: ical.js walks a rule
 * instance by instance from its start (60 µs to 4 ms each), so a series begun years ago would
 * cost seconds and the instance limit before it reached this week. Without COUNT, a daily,
 * weekly or monthly rule repeats every INTERVAL days, weeks or months: its BY parts pick days
 * within each period or filter by the calendar, so moving the start by whole periods changes
 * nothing after the new start. The new start itself (which ical.js may make an instance when
 * the rule does not) lands at least a day before `from`, where the caller drops it. A monthly
 * start after the 28th stays, since a shorter month would move it into the next one.
 */
const skipAhead = (rule: ICAL.Recur, start: ICAL.Time, from: number): ICAL.Time => {
  if (rule.count) return start
  const interval = rule.interval || 1
  const lastDay = Math.floor(from / day) - 2
  const moved = start.clone()
  if (rule.freq === "DAILY" || rule.freq === "WEEKLY") {
    const period = rule.freq === "DAILY" ? interval : 7 * interval
    const periods = Math.floor((lastDay - daysSinceEpoch(start)) / period)
    if (periods <= 0) return start
    moved.adjust(periods * period, 0, 0, 0)
    return moved
  }
  if (rule.freq !== "MONTHLY" || start.day > 28) return start
  const last = new Date(lastDay * day)
  const months =
    12 * (last.getUTCFullYear() - start.year) +
    last.getUTCMonth() +
    1 -
    start.month -
    (last.getUTCDate() < start.day ? 1 : 0)
  const periods = Math.floor(months / interval)
  if (periods <= 0) return start
  const month = 12 * start.year + start.month - 1 + periods * interval
  moved.year = Math.floor(month / 12)
  moved.month = (month % 12) + 1
  return moved
}

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
    limitSteps(iterator, 1_000 + 8 * maxInstances)
    try {
      for (let walked = 0, next = iterator.next(); next; next = iterator.next()) {
        if (instantOf(next) >= window.until) break
        if (++walked > maxInstances) {
          truncated = true
          break
        }
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
