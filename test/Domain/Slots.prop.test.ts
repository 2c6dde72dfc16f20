import { describe, expect, it } from "@effect/vitest"
import {
  bufferMinutes,
  freeSlots,
  type Interval,
  leadTimeMinutes,
  type SlotQuery,
  slotStepMinutes,
  type WorkingHours
} from "../../src/Domain/Slots.js"
import { formatInZone, providerTimeZone, wallClockToInstant } from "../../src/Domain/Zone.js"
import { fc, propSettings } from "../support/Props.js"

const { parameters, timeout } = propSettings("free slots", { quick: 200, deep: 2000 }, 20)

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

// Days on which Stockholm (and London, at the same instant) changes its clocks.
const dstDays = ["2026-03-29", "2026-10-25", "2027-03-28", "2027-10-31", "2028-03-26", "2028-10-29"]

const requesterZones = ["Europe/Stockholm", "Europe/London", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe"]

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

// Night hours too, so that the DST changes at 02:00-03:00 fall inside working hours.
const anyTimeOfDay = fc.oneof(
  fc.integer({ min: 0, max: 47 }).map((half) => half * 30),
  fc.integer({ min: 0, max: 24 * 60 - 2 })
)

const anyWorkingHours: fc.Arbitrary<WorkingHours> = fc
  .record({
    isoWeekday: fc.integer({ min: 1, max: 7 }),
    opens: anyTimeOfDay,
    length: fc.integer({ min: 1, max: 1439 })
  })
  .map(({ isoWeekday, opens, length }) => ({
    isoWeekday,
    opens: hhmm(opens),
    closes: hhmm(Math.min(opens + length, 24 * 60 - 1))
  }))

const allDayEveryDay = [1, 2, 3, 4, 5, 6, 7].map((isoWeekday) => ({ isoWeekday, opens: "00:00", closes: "23:59" }))

// The instants Stockholm and London change their clocks: 01:00 UTC.
const transitions = dstDays.map((day) => Date.parse(`${day}T01:00:00Z`))
const springForwards = dstDays.filter((day) => day.slice(5, 7) === "03").map((day) => Date.parse(`${day}T01:00:00Z`))

const anyNowAndWindowStart = fc
  .tuple(
    fc.integer({ min: Date.parse("2026-01-01T00:00:00Z"), max: Date.parse("2028-12-20T00:00:00Z") }),
    fc.integer({ min: -2 * 24 * 60, max: 4 * 24 * 60 })
  )
  .map(([now, offset]) => ({ now, windowStart: now + offset * MINUTE }))

/** Searches whose first possible slots are in the night of a change. */
const nightNowAndWindowStart = (
  changes: ReadonlyArray<number>,
  offsets: {
    readonly now: { readonly min: number; readonly max: number }
    readonly window: { readonly min: number; readonly max: number }
  }
) =>
  fc
    .tuple(fc.constantFrom(...changes), fc.integer(offsets.now), fc.integer(offsets.window))
    .map(([transition, nowOffset, windowOffset]) => ({
      now: transition - leadTimeMinutes * MINUTE + nowOffset * MINUTE,
      windowStart: transition + windowOffset * MINUTE
    }))

const anyDailyHours = fc
  .tuple(fc.integer({ min: 0, max: 48 }), fc.integer({ min: 0, max: 48 }))
  .filter(([a, b]) => a !== b)
  .map(([a, b]) => ({ fromHour: Math.min(a, b) / 2, toHour: Math.max(a, b) / 2 }))

/** Night hours ("före kl 03"), which the DST changes cut into. */
const nightDailyHours = fc
  .tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 5, max: 10 }))
  .map(([from, to]) => ({ fromHour: from / 2, toHour: to / 2 }))

interface Booking {
  readonly offset: number
  readonly length: number
}

const anyBookings: fc.Arbitrary<ReadonlyArray<Booking>> = fc.array(
  fc.record({ offset: fc.integer({ min: -24 * 60, max: 11 * 24 * 60 }), length: fc.integer({ min: 15, max: 480 }) }),
  { maxLength: 8 }
)

/** The local date and minute of the day of an instant, read from its ISO form in the zone. */
const localTime = (instant: number, timeZone: string) => {
  const iso = formatInZone(instant, timeZone)
  return { date: iso.slice(0, 10), minutes: Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16)) }
}

const queryOf = (parts: {
  readonly start: fc.Arbitrary<{ readonly now: number; readonly windowStart: number }>
  readonly durationMinutes: fc.Arbitrary<number>
  readonly windowTimeZone: fc.Arbitrary<string>
  readonly dailyHours: fc.Arbitrary<SlotQuery["dailyHours"]>
  readonly hours?: fc.Arbitrary<ReadonlyArray<WorkingHours>>
  readonly bookings?: fc.Arbitrary<ReadonlyArray<Booking>>
}): fc.Arbitrary<SlotQuery> =>
  fc
    .record({
      hours: fc.oneof(fc.array(anyWorkingHours, { minLength: 1, maxLength: 12 }), fc.constant(allDayEveryDay)),
      bookings: anyBookings,
      windowLength: fc.integer({ min: 0, max: 10 * 24 * 60 }),
      limit: fc.integer({ min: 1, max: 30 }),
      excludedDays: fc.array(fc.integer({ min: -1, max: 11 }), { maxLength: 4 }),
      ...parts
    })
    .map(({ start: { now, windowStart }, windowLength, bookings, excludedDays, ...rest }) => ({
      ...rest,
      excludedDates: excludedDays.map((days) => localTime(windowStart + days * DAY, rest.windowTimeZone).date),
      busy: bookings.map(({ offset, length }) => ({
        start: windowStart + offset * MINUTE,
        end: windowStart + (offset + length) * MINUTE
      })),
      window: { start: windowStart, end: windowStart + windowLength * MINUTE },
      now
    }))

const anyQuery = queryOf({
  start: fc.oneof(
    anyNowAndWindowStart,
    nightNowAndWindowStart(transitions, { now: { min: -6 * 60, max: 60 }, window: { min: -6 * 60, max: 6 * 60 } })
  ),
  durationMinutes: fc.integer({ min: 15, max: 480 }),
  windowTimeZone: fc.constantFrom(...requesterZones),
  dailyHours: fc.oneof(fc.constant(undefined), anyDailyHours, nightDailyHours)
})

/** Night searches across a spring-forward gap, in a zone that has it, for hours of the night, with time to work. */
const nightQuery = queryOf({
  start: nightNowAndWindowStart(springForwards, { now: { min: -4 * 60, max: 0 }, window: { min: -3 * 60, max: 0 } }),
  hours: fc.constant(allDayEveryDay),
  bookings: fc.constant([]),
  durationMinutes: fc.integer({ min: 15, max: 180 }),
  windowTimeZone: fc.constantFrom("Europe/Stockholm", "Europe/London"),
  dailyHours: nightDailyHours
})

const withoutDailyHours = anyQuery.map((query) => ({ ...query, dailyHours: undefined }))

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/** A provider's working intervals on one local date, as instants. */
const workingIntervals = (hours: ReadonlyArray<WorkingHours>, date: string): Array<Interval> => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  const isoWeekday = ((new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7) + 1
  const instant = (hhmm: string) =>
    wallClockToInstant(
      { year, month, day, hour: Math.floor(minutesOf(hhmm) / 60), minute: minutesOf(hhmm) % 60 },
      providerTimeZone
    ).getTime()
  return hours
    .filter((h) => h.isoWeekday === isoWeekday)
    .map((h) => ({ start: instant(h.opens), end: instant(h.closes) }))
    .sort((a, b) => a.start - b.start)
}

const datesFrom = (first: string, last: string): Array<string> => {
  const dates: Array<string> = []
  for (let day = Date.parse(`${first}T00:00:00Z`); day <= Date.parse(`${last}T00:00:00Z`); day += DAY) {
    dates.push(new Date(day).toISOString().slice(0, 10))
  }
  return dates
}

const notBefore = (query: SlotQuery) => Math.max(query.window.start, query.now + leadTimeMinutes * MINUTE)

/**
 * The earliest non-overlapping free slots, walked date by date and interval by interval in
 * real time from each opening, off the requester's excluded dates; daily hours are left out.
 */
const referenceSlots = (query: SlotQuery): Array<Interval> => {
  const duration = query.durationMinutes * MINUTE
  const buffer = bufferMinutes * MINUTE
  const slots: Array<Interval> = []
  const dates = datesFrom(
    localTime(notBefore(query), providerTimeZone).date,
    localTime(query.window.end, providerTimeZone).date
  )
  for (const date of dates) {
    for (const interval of workingIntervals(query.hours, date)) {
      for (let start = interval.start; start + duration <= interval.end; start += slotStepMinutes * MINUTE) {
        const slot = { start, end: start + duration }
        const clear = query.busy.every((b) => slot.end + buffer <= b.start || b.end + buffer <= slot.start)
        const excluded = [slot.start, slot.end - 1].some((instant) =>
          query.excludedDates?.includes(localTime(instant, query.windowTimeZone).date)
        )
        const previous = slots.at(-1)
        if (slot.start < notBefore(query) || slot.end > query.window.end || !clear || excluded) continue
        if (previous !== undefined && slot.start < previous.end) continue
        slots.push(slot)
        if (slots.length === query.limit) return slots
      }
    }
  }
  return slots
}

const law = (
  name: string,
  arbitrary: fc.Arbitrary<SlotQuery>,
  check: (query: SlotQuery, slots: Array<Interval>) => void
) =>
  it(
    name,
    () => {
      fc.assert(
        fc.property(arbitrary, (query) => check(query, freeSlots(query))),
        parameters
      )
    },
    timeout
  )

describe("freeSlots laws", () => {
  law("every slot is inside working hours, on the half-hour grid from the opening", anyQuery, (query, slots) => {
    for (const slot of slots) {
      const inside = workingIntervals(query.hours, localTime(slot.start, providerTimeZone).date).some(
        (interval) =>
          interval.start <= slot.start &&
          slot.end <= interval.end &&
          (slot.start - interval.start) % (slotStepMinutes * MINUTE) === 0
      )
      expect(inside, `${formatInZone(slot.start, providerTimeZone)} ${formatInZone(slot.end, providerTimeZone)}`).toBe(
        true
      )
    }
  })

  law("every slot keeps the buffer to every booking", anyQuery, (query, slots) => {
    const buffer = bufferMinutes * MINUTE
    for (const slot of slots) {
      for (const booking of query.busy) {
        expect(slot.end + buffer <= booking.start || booking.end + buffer <= slot.start).toBe(true)
      }
    }
  })

  law("no slot starts before the lead time or outside the window", anyQuery, (query, slots) => {
    for (const slot of slots) {
      expect(slot.start).toBeGreaterThanOrEqual(query.now + leadTimeMinutes * MINUTE)
      expect(slot.start).toBeGreaterThanOrEqual(query.window.start)
      expect(slot.end).toBeLessThanOrEqual(query.window.end)
    }
  })

  law("slots are returned in order and never overlap each other, at most limit of them", anyQuery, (query, slots) => {
    expect(slots.length).toBeLessThanOrEqual(query.limit)
    slots.forEach((slot, i) => {
      const next = slots[i + 1]
      if (next !== undefined) expect(next.start).toBeGreaterThanOrEqual(slot.end)
    })
  })

  law("every slot is exactly its duration long in real time", anyQuery, (query, slots) => {
    for (const slot of slots) expect(slot.end - slot.start).toBe(query.durationMinutes * MINUTE)
  })

  law("no slot touches a date the requester excluded", anyQuery, (query, slots) => {
    for (const slot of slots) {
      expect(query.excludedDates).not.toContain(localTime(slot.start, query.windowTimeZone).date)
      expect(query.excludedDates).not.toContain(localTime(slot.end - 1, query.windowTimeZone).date)
    }
  })

  law(
    "without daily hours, the slots are the earliest free ones of a simple reference",
    withoutDailyHours,
    (query, slots) => {
      expect(slots).toEqual(referenceSlots(query))
    }
  )

  law(
    "every slot lies within the daily hours on the requester's clock",
    fc.oneof({ arbitrary: anyQuery, weight: 1 }, { arbitrary: nightQuery, weight: 9 }),
    (query, slots) => {
      if (query.dailyHours === undefined) return
      const { fromHour, toHour } = query.dailyHours
      for (const slot of slots) {
        const start = localTime(slot.start, query.windowTimeZone)
        const end = localTime(slot.end, query.windowTimeZone)
        const [year, month, day] = start.date.split("-").map(Number) as [number, number, number]
        const endOnStartDay = end.date === start.date ? end.minutes : end.minutes + 24 * 60
        // An end hour that a DST change skips is reached when the clock jumps past it.
        const endHourReached = wallClockToInstant({ year, month, day, minute: toHour * 60 }, query.windowTimeZone)
        const shown = `${formatInZone(slot.start, query.windowTimeZone)} ${formatInZone(slot.end, query.windowTimeZone)}`
        expect(start.minutes, shown).toBeGreaterThanOrEqual(fromHour * 60)
        expect(endOnStartDay <= toHour * 60 || slot.end <= endHourReached.getTime(), shown).toBe(true)
      }
    }
  )
})
