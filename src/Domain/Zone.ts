/**
 * Time-zone arithmetic on "wall-clock ms": a local date-time read as if it were UTC, so adding
 * DAY moves one calendar day regardless of DST. Only when wall-clock values become instants are
 * DST gaps and overlaps resolved.
 */
export const fallbackZone = "Europe/Stockholm"

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

// ---------------------------------------------------------------------------------------------
// Time zones.
//
// Calendar arithmetic is done on "wall-clock ms": the local date-time read as if it were UTC, so
// adding DAY moves one calendar day regardless of DST. Only at the very end are wall-clock values
// turned into instants, which is where DST gaps and overlaps are resolved.
// ---------------------------------------------------------------------------------------------

export type Zone = Intl.DateTimeFormat

const zoneCache = new Map<string, Zone>()

const makeZone = (timeZone: string): Zone =>
  new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric"
  })

export const zoneFor = (timeZone: string): Zone => {
  const cached = zoneCache.get(timeZone)
  if (cached !== undefined) return cached
  let zone: Zone
  try {
    zone = makeZone(timeZone)
  } catch {
    // The caller validates the zone separately; here an unknown zone must not crash the search, so it means Stockholm.
    return timeZone === fallbackZone ? makeZone("UTC") : zoneFor(fallbackZone)
  }
  // Valid zone names are a small closed set (modulo letter case); the cap only guards against case-variant floods.
  if (zoneCache.size > 1000) zoneCache.clear()
  zoneCache.set(timeZone, zone)
  return zone
}

const readWallClock = (instant: number, zone: Zone): number => {
  const wholeSeconds = Math.floor(instant / 1000) * 1000
  const field = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 }
  for (const part of zone.formatToParts(wholeSeconds)) {
    if (part.type in field) field[part.type as keyof typeof field] = Number(part.value)
  }
  // Some ICU versions still render midnight as 24 despite h23.
  const hour = field.hour === 24 ? 0 : field.hour
  return Date.UTC(field.year, field.month - 1, field.day, hour, field.minute, field.second) + (instant - wholeSeconds)
}

const QUARTER = 15 * MINUTE
const offsetCache = new WeakMap<Zone, Map<number, number>>()

/**
 * The zone's UTC offset at an instant. formatToParts is slow and a search asks thousands of
 * times, so offsets are memoised per quarter hour: every transition since 1970 in the tz
 * database falls on a quarter-hour boundary, so one offset holds for a whole bucket.
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
  const start = bucket * QUARTER
  const offset = readWallClock(start, zone) - start
  if (offsets.size >= 50_000) offsets.clear()
  offsets.set(bucket, offset)
  return offset
}

export const wallClockOf = (instant: number, zone: Zone): number => instant + offsetAt(instant, zone)

/**
 * The instant at which the zone's clocks show `wallClock`. Deterministic at transitions, like
 * Temporal's "compatible" disambiguation: in an overlap (fall back) the earlier instant wins; in a
 * gap (spring forward) the time is pushed forward by the gap's length (02:30 becomes 03:30).
 */
export const toInstant = (wallClock: number, zone: Zone): number => {
  // Transitions are rare enough that a day on either side sees the offsets before and after any one of them.
  const before = offsetAt(wallClock - DAY, zone)
  const after = offsetAt(wallClock + DAY, zone)
  const matching = [wallClock - before, wallClock - after].filter(
    (candidate) => wallClockOf(candidate, zone) === wallClock
  )
  return matching.length > 0 ? Math.min(...matching) : wallClock - before
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

// ---------------------------------------------------------------------------------------------
// Calendar helpers on wall-clock ms.
// ---------------------------------------------------------------------------------------------

export const startOfDay = (wallClock: number): number => Math.floor(wallClock / DAY) * DAY

/** 1 = Monday .. 7 = Sunday; 1970-01-01 was a Thursday. */
export const isoWeekday = (day: number): number => ((((Math.floor(day / DAY) + 3) % 7) + 7) % 7) + 1

const validity = new Map<string, boolean>()

/** Asked on every search and confirm; building a DateTimeFormat to find out is slow, so answers are kept. */
export const isValidTimeZone = (timeZone: string): boolean => {
  const known = validity.get(timeZone)
  if (known !== undefined) return known
  let valid = true
  try {
    new Intl.DateTimeFormat("en-US", { timeZone })
  } catch {
    valid = false
  }
  // Like zoneFor's cache, capped against floods of made-up names.
  if (validity.size > 1000) validity.clear()
  validity.set(timeZone, valid)
  return valid
}

const pad = (n: number) => String(n).padStart(2, "0")

/** ISO 8601 in the zone's local time with its explicit offset: 2026-11-23T08:00:00+01:00. */
export const formatInZone = (instant: Date | number, timeZone: string): string => {
  const ms = typeof instant === "number" ? instant : instant.getTime()
  const zone = zoneFor(timeZone)
  const wallClock = wallClockOf(Math.floor(ms / 1000) * 1000, zone)
  const offsetMinutes = Math.round((wallClock - Math.floor(ms / 1000) * 1000) / MINUTE)
  const sign = offsetMinutes < 0 ? "-" : "+"
  const abs = Math.abs(offsetMinutes)
  return `${new Date(wallClock).toISOString().slice(0, 19)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}
