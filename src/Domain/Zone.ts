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

const providerZone = DateTime.zoneMakeNamedUnsafe(providerTimeZone)
const named = new Map<string, Option.Option<Zone>>()
const offsetZone = /^[+\-\u2212]/

/**
 * The named zone, if this runtime knows it. Asked on every search and confirm: `DateTime` caches
 * zones by their canonical name only, so each spelling's answer is kept here, capped against
 * floods of made-up or case-variant names.
 */
const namedZone = (timeZone: string): Option.Option<Zone> => {
  // Node 24's Intl also takes a UTC offset ("+01:00") as a zone; the contract's zones are IANA names.
  if (offsetZone.test(timeZone)) return Option.none()
  const known = named.get(timeZone)
  if (known !== undefined) return known
  const zone = DateTime.zoneMakeNamed(timeZone)
  if (named.size > 1000) named.clear()
  named.set(timeZone, zone)
  return zone
}

export const isValidTimeZone = (timeZone: string): boolean => Option.isSome(namedZone(timeZone))

/** The zone as the client spelled it when this runtime knows it, else Swedish time: the zone a booking is kept and told in. */
export const knownTimeZone = (timeZone: string | undefined): string =>
  timeZone !== undefined && isValidTimeZone(timeZone) ? timeZone : providerTimeZone

/** The caller validates the zone separately; here an unknown zone must not crash a search, so it means Swedish time. */
export const zoneFor = (timeZone: string): Zone => Option.getOrElse(namedZone(timeZone), () => providerZone)

/**
 * `compute` kept per zone and key. Reading a zone formats an instant in it, which is slow, and a
 * search asks thousands of times about the same few instants; each zone keeps a bounded number.
 */
const memoPerZone = <A>(compute: (zone: Zone, key: number) => A) => {
  const caches = new WeakMap<Zone, Map<number, A>>()
  return (zone: Zone, key: number): A => {
    let cache = caches.get(zone)
    if (cache === undefined) {
      cache = new Map()
      caches.set(zone, cache)
    }
    const cached = cache.get(key)
    if (cached !== undefined) return cached
    const value = compute(zone, key)
    if (cache.size >= 50_000) cache.clear()
    cache.set(key, value)
    return value
  }
}

const QUARTER = 15 * MINUTE

// Every transition since 1970 in the tz database falls on a quarter-hour boundary, so one offset holds for a quarter.
const offsetOfQuarter = memoPerZone((zone, quarter) =>
  DateTime.zonedOffset(DateTime.makeZonedUnsafe(quarter * QUARTER, { timeZone: zone }))
)

/** The zone's UTC offset at an instant. */
export const offsetAt = (instant: number, zone: Zone): number => offsetOfQuarter(zone, Math.floor(instant / QUARTER))

export const wallClockOf = (instant: number, zone: Zone): number => instant + offsetAt(instant, zone)

const compatibleInstant = memoPerZone((zone, wallClock) =>
  DateTime.toEpochMillis(
    DateTime.makeZonedUnsafe(wallClock, { timeZone: zone, adjustForTimeZone: true, disambiguation: "compatible" })
  )
)

/**
 * The instant at which the zone's clocks show `wallClock`, with Temporal's "compatible"
 * disambiguation: in an overlap (fall back) the earlier instant wins; in a gap (spring forward)
 * the time is pushed forward by the gap's length (02:30 becomes 03:30).
 */
export const toInstant = (wallClock: number, zone: Zone): number => {
  // A day on either side sees the offsets before and after any transition; without one, the offset is the answer.
  const before = offsetAt(wallClock - DAY, zone)
  return before === offsetAt(wallClock + DAY, zone) ? wallClock - before : compatibleInstant(zone, wallClock)
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

// formatIsoOffset writes milliseconds (".000+01:00"); the contract's times have none.
const isoToTheSecond = memoPerZone((zone, wholeSeconds) => {
  const iso = DateTime.formatIsoOffset(
    DateTime.makeZonedUnsafe(wholeSeconds, { timeZone: offsetAt(wholeSeconds, zone) })
  )
  return `${iso.slice(0, -10)}${iso.slice(-6)}`
})

/** ISO 8601 in the zone's local time with its explicit offset, to the second: 2026-11-23T08:00:00+01:00. */
export const formatInZone = (instant: Date | number, timeZone: string): string =>
  isoToTheSecond(
    zoneFor(timeZone),
    Math.floor((typeof instant === "number" ? instant : instant.getTime()) / 1000) * 1000
  )

/**
 * A time of the service's own (when an event happened, when a delivery is tried next), told in
 * Swedish time as the booking answers tell theirs: every date-time sent reads one way.
 */
export const formatStamp = (instant: Date | number): string => formatInZone(instant, providerTimeZone)
