import ICAL from "ical.js"
import { occurrenceStarts, UnsupportedRule } from "./IcalRecurrence.js"
import { defineMissingZones, instantOf } from "./IcalTimeZones.js"

export interface BusyInterval {
  readonly start: Date
  readonly end: Date
}

export interface BusyTimesOptions {
  /** Longest calendar text read, in UTF-8 octets. */
  readonly maxInputBytes?: number
  /** Most instances walked per recurrence rule; an event cut short is counted in `ignored.truncated`. */
  readonly maxInstancesPerEvent?: number
  /** Most busy instances in the window before merging; more is an error, not a silent cut. */
  readonly maxIntervals?: number
}

/** VEVENTs (series, single events or overridden instances) that gave no busy time, by reason. */
export interface IgnoredEvents {
  /** STATUS:CANCELLED. */
  readonly cancelled: number
  /** TRANSP:TRANSPARENT (shown as free). */
  readonly transparent: number
  /** No readable DTSTART, an unreadable date or rule, or an end before the start. */
  readonly invalid: number
  /** A recurrence rule this reader does not expand (sub-daily, exotic yearly). */
  readonly unsupported: number
  /** Series whose expansion stopped at `maxInstancesPerEvent`: the window may lack some of their instances. */
  readonly truncated: number
  /** TZIDs that named no zone this reader knows; their times were read as Europe/Stockholm. */
  readonly unknownTimeZones: number
}

export type BusyTimes =
  | { readonly ok: true; readonly intervals: ReadonlyArray<BusyInterval>; readonly ignored: IgnoredEvents }
  | { readonly ok: false; readonly error: string }

export const busyTimesDefaults = {
  maxInputBytes: 5_000_000,
  maxInstancesPerEvent: 2_000,
  maxIntervals: 10_000
} as const satisfies Required<BusyTimesOptions>

/** How far an instance ends after its start: whole days on the wall clock, then exact time (RFC 5545 3.3.6). */
interface Span {
  readonly days: number
  readonly ms: number
}

const day = 86_400_000

const endOf = (start: ICAL.Time, span: Span): number => {
  if (span.days === 0) return instantOf(start) + span.ms
  const later = start.clone()
  later.adjust(span.days, 0, 0, 0)
  return instantOf(later) + span.ms
}

const daysBetween = (from: ICAL.Time, to: ICAL.Time) =>
  Math.round((Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / day)

/**
 * DTEND is exclusive and, for a series, the same exact duration for every instance; DURATION's
 * days are calendar days; neither means one day for an all-day event and no time for a timed one.
 */
const spanOf = (event: ICAL.Component, start: ICAL.Time): Span => {
  const end = event.getFirstPropertyValue("dtend")
  if (end instanceof ICAL.Time) {
    return start.isDate && end.isDate
      ? { days: daysBetween(start, end), ms: 0 }
      : { days: 0, ms: instantOf(end) - instantOf(start) }
  }
  const duration = event.getFirstPropertyValue("duration")
  if (duration instanceof ICAL.Duration) {
    const sign = duration.isNegative ? -1 : 1
    return {
      days: sign * (7 * duration.weeks + duration.days),
      ms: sign * 1000 * (3600 * duration.hours + 60 * duration.minutes + duration.seconds)
    }
  }
  return { days: start.isDate ? 1 : 0, ms: 0 }
}

const upperText = (event: ICAL.Component, name: string) => String(event.getFirstPropertyValue(name) ?? "").toUpperCase()

const failure = (error: string): BusyTimes => ({ ok: false, error })

const parseCalendars = (icsText: string): ReadonlyArray<ICAL.Component> | string => {
  let parsed: ReadonlyArray<unknown>
  try {
    parsed = ICAL.parse(icsText.replace(/^\uFEFF/, "")) as ReadonlyArray<unknown>
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return `not an iCalendar file (${reason.slice(0, 80)})`
  }
  const components = Array.isArray(parsed[0]) ? parsed : parsed.length > 0 ? [parsed] : []
  const calendars = components
    .map((jcal) => new ICAL.Component(jcal as Array<unknown>))
    .filter((component) => component.name === "vcalendar")
  return calendars.length > 0 ? calendars : "no VCALENDAR in the file"
}

/**
 * The busy time a provider's own calendar (the text of its iCalendar feed) shows within the
 * window: every opaque, not cancelled instance, clipped to the window, merged where they
 * overlap or touch, in order. Never throws: unusable input is `{ ok: false, error }`.
 */
export const busyTimes = (
  icsText: string,
  window: { readonly start: Date; readonly end: Date },
  options: BusyTimesOptions = {}
): BusyTimes => {
  try {
    return read(icsText, window, options)
  } catch (error) {
    // Each event's errors are caught and counted where it is read; this is for what ical.js may still throw.
    const reason = error instanceof Error ? error.message : String(error)
    return failure(`the calendar could not be read (${reason.slice(0, 80)})`)
  }
}

const read = (
  icsText: string,
  window: { readonly start: Date; readonly end: Date },
  options: BusyTimesOptions
): BusyTimes => {
  const limits = { ...busyTimesDefaults, ...options }
  const windowStart = window.start.getTime()
  const windowEnd = window.end.getTime()
  if (!(windowStart < windowEnd)) return failure("the window must end after it starts")
  if (Buffer.byteLength(icsText, "utf8") > limits.maxInputBytes) {
    return failure(`the calendar is larger than ${limits.maxInputBytes} bytes`)
  }
  const calendars = parseCalendars(icsText)
  if (typeof calendars === "string") return failure(calendars)

  const ignored = { cancelled: 0, transparent: 0, invalid: 0, unsupported: 0, truncated: 0, unknownTimeZones: 0 }
  for (const calendar of calendars) ignored.unknownTimeZones += defineMissingZones(calendar)
  const events = calendars.flatMap((calendar) => calendar.getAllSubcomponents("vevent"))

  // An instance given its own VEVENT (moved, cancelled, retitled) is that VEVENT's, not the series'.
  const overridden = new Map<string, Set<number>>()
  for (const event of events) {
    const recurrenceId = event.getFirstProperty("recurrence-id")
    if (recurrenceId === null) continue
    try {
      const uid = String(event.getFirstPropertyValue("uid"))
      const instants = overridden.get(uid) ?? new Set<number>()
      instants.add(instantOf(recurrenceId.getFirstValue() as ICAL.Time))
      overridden.set(uid, instants)
    } catch {
      // Counted as invalid when the event itself is read below.
    }
  }

  const busy: Array<{ start: number; end: number }> = []
  for (const event of events) {
    try {
      if (upperText(event, "status") === "CANCELLED") {
        ignored.cancelled++
        continue
      }
      if (upperText(event, "transp") === "TRANSPARENT") {
        ignored.transparent++
        continue
      }
      const start = event.getFirstPropertyValue("dtstart")
      if (!(start instanceof ICAL.Time)) {
        ignored.invalid++
        continue
      }
      const span = spanOf(event, start)
      if (endOf(start, span) < instantOf(start)) {
        ignored.invalid++
        continue
      }
      const isOverride = event.hasProperty("recurrence-id")
      const recurs = !isOverride && (event.hasProperty("rrule") || event.hasProperty("rdate"))
      // Wall-clock days last 23 to 25 hours: an hour's margin keeps a long instance that reaches the window.
      const from = windowStart - span.days * day - span.ms - 3_600_000
      const occurrences = recurs
        ? occurrenceStarts(event, start, { from, until: windowEnd }, limits.maxInstancesPerEvent)
        : { starts: [start], truncated: false }
      if (occurrences.truncated) ignored.truncated++
      const moved = isOverride ? undefined : overridden.get(String(event.getFirstPropertyValue("uid")))
      for (const occurrence of occurrences.starts) {
        const startsAt = instantOf(occurrence)
        if (moved?.has(startsAt)) continue
        const endsAt = endOf(occurrence, span)
        if (startsAt >= windowEnd || endsAt <= windowStart || endsAt <= startsAt) continue
        busy.push({ start: Math.max(startsAt, windowStart), end: Math.min(endsAt, windowEnd) })
        if (busy.length > limits.maxIntervals) {
          return failure(`more than ${limits.maxIntervals} busy times in the window`)
        }
      }
    } catch (error) {
      if (error instanceof UnsupportedRule) ignored.unsupported++
      else ignored.invalid++
    }
  }
  return { ok: true, intervals: merged(busy), ignored }
}

const merged = (busy: ReadonlyArray<{ start: number; end: number }>): ReadonlyArray<BusyInterval> => {
  const ordered = [...busy].sort((a, b) => a.start - b.start)
  const joined: Array<{ start: number; end: number }> = []
  for (const next of ordered) {
    const last = joined.at(-1)
    if (last !== undefined && next.start <= last.end) last.end = Math.max(last.end, next.end)
    else joined.push({ ...next })
  }
  return joined.map(({ start, end }) => ({ start: new Date(start), end: new Date(end) }))
}
