import { describe, expect, it } from "@effect/vitest"
import ICAL from "ical.js"
import { busyTimes } from "../../src/Providers/BusyTimes.js"
import { fc, propSettings } from "../support/Props.js"

const { parameters, timeout } = propSettings(
  "a series' busy times equal ical.js's own walk",
  { quick: 40, deep: 400 },
  500
)

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const stockholm = [
  "BEGIN:VTIMEZONE",
  "TZID:Europe/Stockholm",
  "BEGIN:DAYLIGHT",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0200",
  "DTSTART:19700329T020000",
  "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
  "END:DAYLIGHT",
  "BEGIN:STANDARD",
  "TZOFFSETFROM:+0200",
  "TZOFFSETTO:+0100",
  "DTSTART:19701025T030000",
  "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
  "END:STANDARD",
  "END:VTIMEZONE"
]

const weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const
const someWeekdays = fc.subarray([...weekdays], { minLength: 1 }).map((days) => days.join(","))

/** Daily, weekly and monthly rules of the shapes Google, Outlook and iCloud write, without COUNT. */
const anyRule = fc.oneof(
  fc
    .record({ interval: fc.integer({ min: 1, max: 3 }), byDay: fc.option(someWeekdays, { nil: undefined }) })
    .map(({ interval, byDay }) => `FREQ=DAILY;INTERVAL=${interval}${byDay ? `;BYDAY=${byDay}` : ""}`),
  fc
    .record({ interval: fc.integer({ min: 1, max: 3 }), byDay: fc.option(someWeekdays, { nil: undefined }) })
    .map(({ interval, byDay }) => `FREQ=WEEKLY;INTERVAL=${interval}${byDay ? `;BYDAY=${byDay}` : ""}`),
  fc
    .record({
      interval: fc.integer({ min: 1, max: 2 }),
      days: fc.oneof(
        fc.constant(""),
        fc.integer({ min: 1, max: 28 }).map((monthDay) => `;BYMONTHDAY=${monthDay}`),
        fc.constant(";BYMONTHDAY=-1"),
        fc
          .tuple(fc.constantFrom("1", "2", "-1"), fc.constantFrom(...weekdays))
          .map(([ordinal, weekday]) => `;BYDAY=${ordinal}${weekday}`),
        fc.constant(";BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
      )
    })
    .map(({ interval, days }) => `FREQ=MONTHLY;INTERVAL=${interval}${days}`)
)

const stamp = (instant: number) => new Date(instant).toISOString().replace(/[-:]/g, "").slice(0, 15)
const localStamp = (year: number, month: number, day: number, minutes: number) =>
  `${year}${String(month).padStart(2, "0")}${String(day).padStart(2, "0")}T${String(Math.floor(minutes / 60)).padStart(2, "0")}${String(minutes % 60).padStart(2, "0")}00`

const anySeries = fc.record({
  rule: anyRule,
  until: fc.option(fc.integer({ min: Date.parse("2025-06-01T00:00:00Z"), max: Date.parse("2027-12-31T00:00:00Z") }), {
    nil: undefined
  }),
  year: fc.integer({ min: 2023, max: 2026 }),
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.integer({ min: 1, max: 31 }),
  // Quarter hours, the night ones too, so that some instances fall in the hour a DST change skips or repeats.
  minutes: fc.integer({ min: 0, max: 95 }).map((quarter) => quarter * 15),
  durationMinutes: fc.integer({ min: 15, max: 26 * 60 }),
  inUtc: fc.boolean(),
  windowStart: fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2027-06-01T00:00:00Z") }),
  windowDays: fc.integer({ min: 1, max: 35 })
})

type Series = typeof anySeries extends fc.Arbitrary<infer A> ? A : never

const calendarOf = (series: Series) => {
  const day = Math.min(series.day, new Date(Date.UTC(series.year, series.month, 0)).getUTCDate())
  const start = localStamp(series.year, series.month, day, series.minutes)
  const dtstart = series.inUtc ? `DTSTART:${start}Z` : `DTSTART;TZID=Europe/Stockholm:${start}`
  const until = series.until === undefined ? "" : `;UNTIL=${stamp(series.until)}Z`
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Test//Series//EN",
    ...stockholm,
    "BEGIN:VEVENT",
    "UID:series@example.se",
    "DTSTAMP:20260101T000000Z",
    dtstart,
    `DURATION:PT${series.durationMinutes}M`,
    `RRULE:${series.rule}${until}`,
    "END:VEVENT",
    "END:VCALENDAR",
    ""
  ].join("\r\n")
}

/** What ical.js's own expansion gives, walked from the series' first instance: the law's other side. */
const walkedByIcalJs = (text: string, window: { start: number; end: number }, durationMinutes: number) => {
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent")!)
  const starts = [event.startDate.toUnixTime() * 1000]
  const iterator = event.iterator()
  for (let next = iterator.next(); next; next = iterator.next()) {
    const start = next.toUnixTime() * 1000
    if (start >= window.end) break
    starts.push(start)
  }
  const busy = [...new Set(starts)]
    .map((start) => ({ start, end: start + durationMinutes * MINUTE }))
    .filter(({ start, end }) => start < window.end && end > window.start)
    .map(({ start, end }) => ({ start: Math.max(start, window.start), end: Math.min(end, window.end) }))
    .sort((a, b) => a.start - b.start)
  const merged: Array<{ start: number; end: number }> = []
  for (const next of busy) {
    const last = merged.at(-1)
    if (last && next.start <= last.end) last.end = Math.max(last.end, next.end)
    else merged.push({ ...next })
  }
  return merged.map(({ start, end }) => [new Date(start).toISOString(), new Date(end).toISOString()])
}

describe("busyTimes on recurring series", () => {
  it(
    "skipping a series ahead to the window never changes its busy times: they equal ical.js's walk from the first instance",
    () => {
      fc.assert(
        fc.property(anySeries, (series) => {
          const text = calendarOf(series)
          const window = { start: series.windowStart, end: series.windowStart + series.windowDays * DAY }
          const result = busyTimes(text, { start: new Date(window.start), end: new Date(window.end) })
          if (!result.ok) throw new Error(result.error)
          expect(result.ignored.truncated).toBe(0)
          expect(result.intervals.map(({ start, end }) => [start.toISOString(), end.toISOString()])).toEqual(
            walkedByIcalJs(text, window, series.durationMinutes)
          )
        }),
        parameters
      )
    },
    timeout
  )
})
