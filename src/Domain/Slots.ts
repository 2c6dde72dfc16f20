import type { OpeningHours } from "./Supply.js"
import { DAY, isoWeekday, MINUTE, providerTimeZone, startOfDay, toInstant, wallClockOf, zoneFor } from "./Zone.js"

/** Slots start on a half-hour grid from the opening time. */
export const slotStepMinutes = 30
/** Kept free around every confirmed booking, for travel between jobs. */
export const bufferMinutes = 30
/** No slot starts sooner than this after the search, so a provider can prepare. */
export const leadTimeMinutes = 120

/** One working interval of a provider's week, local "HH:MM". */
export type WorkingHours = typeof OpeningHours.Type

export interface Interval {
  readonly start: number
  readonly end: number
}

export interface SlotQuery {
  readonly hours: ReadonlyArray<WorkingHours>
  /** Confirmed bookings of the provider, epoch ms. */
  readonly busy: ReadonlyArray<Interval>
  readonly durationMinutes: number
  readonly window: Interval
  /** Local hours of the requester's zone to keep on each day ("nästa vecka förmiddag"). */
  readonly dailyHours?: { readonly fromHour: number; readonly toHour: number } | undefined
  /** Local dates ("YYYY-MM-DD") of the requester's zone on which no slot may lie ("inte måndag", "vardagar"). */
  readonly excludedDates?: ReadonlyArray<string> | undefined
  readonly windowTimeZone: string
  readonly now: number
  readonly limit: number
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/**
 * The earliest free slots of one provider: inside its working hours, clear of its confirmed
 * bookings by the buffer, at least the lead time after now, and inside the requested window,
 * its daily hours and off its excluded dates.
 * Slot ends are start + duration in real time, so a slot across a DST change keeps its length.
 * Successive slots do not overlap each other, so they are real alternatives.
 */
/** The longest single day a provider works, in minutes: no visit longer than this can be booked. */
export const longestWorkingDayMinutes = (hours: ReadonlyArray<WorkingHours>) =>
  Math.max(0, ...hours.map((h) => minutesOf(h.closes) - minutesOf(h.opens)))

export const freeSlots = (query: SlotQuery): Array<Interval> => {
  const zone = zoneFor(providerTimeZone)
  const windowZone = zoneFor(query.windowTimeZone)
  const duration = query.durationMinutes * MINUTE
  const step = slotStepMinutes * MINUTE
  const buffer = bufferMinutes * MINUTE
  const notBefore = Math.max(query.window.start, query.now + leadTimeMinutes * MINUTE)
  const byWeekday = new Map<number, Array<WorkingHours>>()
  for (const hours of query.hours) {
    const list = byWeekday.get(hours.isoWeekday) ?? []
    list.push(hours)
    byWeekday.set(hours.isoWeekday, list)
  }
  const excluded = new Set(query.excludedDates)
  const localDate = (wallClock: number) => new Date(wallClock).toISOString().slice(0, 10)
  const fitsRequest = (start: number, end: number) => {
    if (excluded.size === 0 && query.dailyHours === undefined) return true
    const localStart = wallClockOf(start, windowZone)
    const localEnd = wallClockOf(end, windowZone)
    if (excluded.has(localDate(localStart)) || excluded.has(localDate(localEnd - 1))) return false
    if (query.dailyHours === undefined) return true
    const dayStart = startOfDay(localStart)
    return (
      localStart - dayStart >= query.dailyHours.fromHour * 60 * MINUTE &&
      localEnd - dayStart <= query.dailyHours.toHour * 60 * MINUTE
    )
  }
  const isFree = (start: number, end: number) =>
    query.busy.every((booking) => end <= booking.start - buffer || start >= booking.end + buffer)

  const slots: Array<Interval> = []
  const lastDay = startOfDay(wallClockOf(query.window.end, zone))
  for (let day = startOfDay(wallClockOf(notBefore, zone)); day <= lastDay; day += DAY) {
    // In the order they open in real time: an opening in a spring-forward gap (02:01) moves
    // past the hour after it (03:00), so the local order of "HH:MM" is not the real one.
    const intervals = (byWeekday.get(isoWeekday(day)) ?? [])
      .map((hours) => ({
        opens: toInstant(day + minutesOf(hours.opens) * MINUTE, zone),
        closes: toInstant(day + minutesOf(hours.closes) * MINUTE, zone)
      }))
      .sort((a, b) => a.opens - b.opens)
    for (const { closes, opens } of intervals) {
      for (let start = opens; start + duration <= closes; start += step) {
        const end = start + duration
        if (start < notBefore || end > query.window.end) continue
        const previous = slots[slots.length - 1]
        if (previous !== undefined && start < previous.end) continue
        if (!fitsRequest(start, end) || !isFree(start, end)) continue
        slots.push({ start, end })
        if (slots.length >= query.limit) return slots
      }
    }
  }
  return slots
}

/** Whether a slot lies inside one of the provider's working intervals of its local day. */
export const withinWorkingHours = (hours: ReadonlyArray<WorkingHours>, slot: Interval): boolean => {
  const zone = zoneFor(providerTimeZone)
  const day = startOfDay(wallClockOf(slot.start, zone))
  return hours.some(
    (h) =>
      h.isoWeekday === isoWeekday(day) &&
      toInstant(day + minutesOf(h.opens) * MINUTE, zone) <= slot.start &&
      slot.end <= toInstant(day + minutesOf(h.closes) * MINUTE, zone)
  )
}
