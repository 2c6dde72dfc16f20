/**
 * Time zones are Effect's `DateTime` zones. Calendar arithmetic is done on "wall-clock ms": a
 * local date-time read as if it were UTC, so adding DAY moves one calendar day regardless of DST;
 * only when wall-clock values become instants are DST gaps and overlaps resolved, by `DateTime`.
 */
import { DateTime, Option } from "effect"

/** Providers keep their working hours in Swedish local time; a zone that cannot be read means it too. */
export const providerTimeZone = "Europe/Stockholm"

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

export type Zone = DateTime.TimeZone.Named

const providerZone = DateTime.zoneUnsafeMakeNamed(providerTimeZone)
const named = new Map<string, Option.Option<Zone>>()

/**
 * The named zone, if this runtime knows it. Asked on every search and confirm: `DateTime` caches
 * zones by their canonical name only, so each spelling's answer is kept here, capped against
 * floods of made-up or case-variant names.
 */
export const namedZone = (timeZone: string): Option.Option<Zone> => {
  const known = named.get(timeZone)
  if (known !== undefined) return known
  const zone = DateTime.zoneMakeNamed(timeZone)
  if (named.size > 1000) named.clear()
  named.set(timeZone, zone)
  return zone
}

export const isValidTimeZone = (timeZone: string): boolean => Option.isSome(namedZone(timeZone))

/** The caller validates the zone separately; here an unknown zone must not crash a search, so it means Swedish time. */
export const zoneFor = (timeZone: string): Zone => Option.getOrElse(namedZone(timeZone), () => providerZone)

const QUARTER = 15 * MINUTE
const offsetCache = new WeakMap<Zone, Map<number, number>>()

/**
 * The zone's UTC offset at an instant. Reading it formats the instant in the zone, which is slow,
 * and a search asks thousands of times, so offsets are memoised per quarter hour: every
 * transition since 1970 in the tz database falls on a quarter-hour boundary.
 */
export const offsetAt = (instant: number, zone: Zone): number => {
  const bucket = Math.floor(instant / QUARTER)
  let offsets = offsetCache.get(zone)
  if (offsets === undefined) {
    offsets = new Map()
    offsetCache.set(zone, offsets)
  }
  const cached = offsets.get(bucket)
  if (cached !== undefined) return cached
  const offset = DateTime.zonedOffset(DateTime.unsafeMakeZoned(bucket * QUARTER, { timeZone: zone }))
  if (offsets.size >= 50_000) offsets.clear()
  offsets.set(bucket, offset)
  return offset
}

export const wallClockOf = (instant: number, zone: Zone): number => instant + offsetAt(instant, zone)

/** Near a transition DateTime reads the zone up to four times, so its answers are kept. */
const nearTransitionCache = new WeakMap<Zone, Map<number, number>>()

/**
 * The instant at which the zone's clocks show `wallClock`, with Temporal's "compatible"
 * disambiguation: in an overlap (fall back) the earlier instant wins; in a gap (spring forward)
 * the time is pushed forward by the gap's length (02:30 becomes 03:30).
 */
export const toInstant = (wallClock: number, zone: Zone): number => {
  // A day on either side sees the offsets before and after any transition; without one, the memoised offset is the answer.
  const before = offsetAt(wallClock - DAY, zone)
  if (before === offsetAt(wallClock + DAY, zone)) return wallClock - before
  let resolved = nearTransitionCache.get(zone)
  if (resolved === undefined) {
    resolved = new Map()
    nearTransitionCache.set(zone, resolved)
  }
  const cached = resolved.get(wallClock)
  if (cached !== undefined) return cached
  const instant = DateTime.toEpochMillis(
    DateTime.unsafeMakeZoned(wallClock, { timeZone: zone, adjustForTimeZone: true, disambiguation: "compatible" })
  )
  if (resolved.size >= 50_000) resolved.clear()
  resolved.set(wallClock, instant)
  return instant
}

/** The instant at which clocks in `timeZone` show the given local date-time (see `toInstant` for gaps and overlaps). */
export const wallClockToInstant = (
  local: {
    readonly year: number
    readonly month: number
    readonly day: number
    readonly hour?: number
    readonly minute?: number
  },
  timeZone: string
): Date =>
  new Date(
    toInstant(Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0), zoneFor(timeZone))
  )

export const startOfDay = (wallClock: number): number => Math.floor(wallClock / DAY) * DAY

/** 1 = Monday .. 7 = Sunday; 1970-01-01 was a Thursday. */
export const isoWeekday = (day: number): number => ((((Math.floor(day / DAY) + 3) % 7) + 7) % 7) + 1

const formattedCache = new WeakMap<Zone, Map<number, string>>()

/**
 * ISO 8601 in the zone's local time with its explicit offset, to the second: 2026-11-23T08:00:00+01:00.
 * Searches keep showing the same half-hour slots, so each time is formatted once per zone.
 */
export const formatInZone = (instant: Date | number, timeZone: string): string => {
  const wholeSeconds = Math.floor((typeof instant === "number" ? instant : instant.getTime()) / 1000) * 1000
  const zone = zoneFor(timeZone)
  let formatted = formattedCache.get(zone)
  if (formatted === undefined) {
    formatted = new Map()
    formattedCache.set(zone, formatted)
  }
  const cached = formatted.get(wholeSeconds)
  if (cached !== undefined) return cached
  // formatIsoOffset writes milliseconds (".000+01:00"); the contract's times have none.
  const iso = DateTime.formatIsoOffset(
    DateTime.unsafeMakeZoned(wholeSeconds, { timeZone: offsetAt(wholeSeconds, zone) })
  )
  const text = `${iso.slice(0, -10)}${iso.slice(-6)}`
  if (formatted.size >= 50_000) formatted.clear()
  formatted.set(wholeSeconds, text)
  return text
}
