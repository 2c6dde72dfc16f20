/**
 * Turns the free-text timing a person gave (Swedish or English, relayed by an AI assistant)
 * into the window in which the search looks for free slots, plus a bilingual echo of what
 * was understood. Pure: the clock is the `now` argument and nothing here does I/O.
 */

import {
  DAY,
  HOUR,
  isoWeekday,
  MINUTE,
  startOfDay,
  toInstant,
  wallClockOf,
  type Zone,
  zoneFor
} from "../Domain/Zone.js"

/** Local wall-clock hours (fractional when minutes were given) to keep on every day of a multi-day window. */
export interface DailyHours {
  readonly fromHour: number
  readonly toHour: number
}

export interface TimeWindow {
  readonly start: Date
  readonly end: Date
  readonly label: string
  readonly understood: boolean
  /** Present when a part-of-day qualifier narrows a window spanning several days ("nästa vecka förmiddag"). */
  readonly dailyHours?: DailyHours
}

export interface ParseTimeWindowInput {
  readonly preferredTimeText?: string | undefined
  readonly urgency?: string | undefined
  readonly timeZone: string
  readonly now: Date
}

/** No window reaches further than this past `now`; slots beyond it are not bookable anyway. */
export const horizonDays = 60
/** What is searched when the timing text says nothing usable. */
export const defaultDays = 14
/** An exact clock time ("2026-12-03T10:00", "kl 10") becomes a window this long, so slots starting at or shortly after it are offered. */
export const pointWindowHours = 4
/** "snarast" / "asap" / "akut". */
export const asapDays = 3
/** A window already under way with less than this left is treated as over ("idag" at 23:59 finds nothing). */
export const minimumRemainingMinutes = 60

const mondayOf = (day: number): number => day - (isoWeekday(day) - 1) * DAY

const isoDate = (day: number): string => new Date(day).toISOString().slice(0, 10)

const calendarDay = (year: number, month: number, day: number): number | undefined => {
  const ms = Date.UTC(year, month - 1, day)
  const date = new Date(ms)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? ms
    : undefined
}

/** Monday of ISO week `week` of ISO year `year`, if the year has that week. */
const isoWeekMonday = (year: number, week: number): number | undefined => {
  const firstMonday = mondayOf(Date.UTC(year, 0, 4))
  const monday = firstMonday + (week - 1) * 7 * DAY
  return week >= 1 && monday < mondayOf(Date.UTC(year + 1, 0, 4)) ? monday : undefined
}

const clock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

// ---------------------------------------------------------------------------------------------
// What a phrase resolves to before it becomes a window.
// ---------------------------------------------------------------------------------------------

/** Minutes since local midnight; `to` may be 1440 (midnight ending the day). */
interface Hours {
  readonly from: number
  readonly to: number
}

const wholeDay: Hours = { from: 0, to: 24 * 60 }

interface Qualifier {
  readonly hours: Hours
  readonly sv: string
  readonly en: string
  /** Morning/afternoon/evening, which are said "i förmiddag" / "this morning" rather than "idag förmiddag". */
  readonly partOfDay: boolean
}

type Resolved =
  /** Whole local days, first..last inclusive; a qualifier narrows each of them. */
  | { readonly _tag: "Days"; readonly first: number; readonly last: number; readonly sv: string; readonly en: string }
  /** Fixed instants; `takesQualifier` says whether a part-of-day qualifier still means something. */
  | {
      readonly _tag: "Span"
      readonly start: number
      readonly end: number
      readonly sv: string
      readonly en: string
      readonly takesQualifier: boolean
    }

interface Context {
  readonly now: number
  readonly today: number
  readonly zone: Zone
  readonly hours: Hours
}

const days = (first: number, last: number, sv: string, en: string): Resolved => ({
  _tag: "Days",
  first,
  last,
  sv,
  en
})

/** Whether anything is left to search in [start, end): an explicit future window always, one under way only if enough remains. */
const worthSearching = (start: number, end: number, now: number): boolean =>
  start >= now ? start < end : end - now >= minimumRemainingMinutes * MINUTE

/** Whether the (qualified) part of `day` is still worth searching, i.e. "today" still makes sense. */
const stillAhead = (day: number, ctx: Context): boolean =>
  worthSearching(
    toInstant(day + ctx.hours.from * MINUTE, ctx.zone),
    toInstant(day + ctx.hours.to * MINUTE, ctx.zone),
    ctx.now
  )

// ---------------------------------------------------------------------------------------------
// Vocabulary. Texts are matched after `normalize`: lower case, diacritics stripped, so "över"
// and "over" are the same word and patterns are written in ascii.
// ---------------------------------------------------------------------------------------------

const normalize = (text: string): string => text.normalize("NFKD").toLowerCase().replace(/\p{M}/gu, "")

/** Whole words only: letters or digits on either side mean the phrase is part of something else. */
const phrase = (source: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "gu")

const numberWords: Readonly<Record<string, number>> = {
  en: 1,
  ett: 1,
  tva: 2,
  tre: 3,
  fyra: 4,
  fem: 5,
  sex: 6,
  sju: 7,
  atta: 8,
  nio: 9,
  tio: 10,
  elva: 11,
  tolv: 12,
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12
}
const NUMBER = `(\\d{1,3}|${Object.keys(numberWords).join("|")})`
const readNumber = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : /^\d+$/.test(text) ? Number(text) : numberWords[text]

const weekdayNames = [
  { sv: "måndag", en: "Monday" },
  { sv: "tisdag", en: "Tuesday" },
  { sv: "onsdag", en: "Wednesday" },
  { sv: "torsdag", en: "Thursday" },
  { sv: "fredag", en: "Friday" },
  { sv: "lördag", en: "Saturday" },
  { sv: "söndag", en: "Sunday" }
] as const
const weekdayIndex = new Map<string, number>(
  weekdayNames.flatMap(({ en, sv }, i) => [
    [normalize(sv), i + 1],
    [en.toLowerCase(), i + 1]
  ])
)
const WEEKDAY = `(${[...weekdayIndex.keys()].join("|")})(?:en)?`

// A 24-hour clock reading, "3 pm", "15.30", "kl. 15".
const CLOCK = `(\\d{1,2})(?:[:.](\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?`
const KL = `(?:kl(?:ockan)?\\.?\\s*)?`
// "efter 3 dagar" is a delay, not a time of day.
const NOT_A_DURATION = "(?!\\s*(?:dag|day|veck|week|tim|hour|min|manad|month))"

const clockMinutes = (
  hourText: string | undefined,
  minuteText: string | undefined,
  meridiem: string | undefined
): number | undefined => {
  if (hourText === undefined) return undefined
  let hour = Number(hourText)
  const minute = minuteText === undefined ? 0 : Number(minuteText)
  if (minute > 59) return undefined
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined
    hour = (hour % 12) + (meridiem.startsWith("p") ? 12 : 0)
  } else if (hour >= 1 && hour <= 6 && !hourText.startsWith("0")) {
    // Nobody books a plumber for 03:00: a bare "efter 3" / "after 3" means the afternoon.
    hour += 12
  }
  return hour > 23 ? undefined : hour * 60 + minute
}

interface QualifierPhrase {
  readonly pattern: RegExp
  readonly read: (match: RegExpExecArray) => Qualifier | undefined
}

const partOfDay =
  (sv: string, en: string, fromHour: number, toHour: number): QualifierPhrase["read"] =>
  () => ({
    hours: { from: fromHour * 60, to: toHour * 60 },
    sv,
    en,
    partOfDay: true
  })

const qualifiers: ReadonlyArray<QualifierPhrase> = [
  {
    pattern: phrase("formiddag(?:en)?|f\\.m\\.|fm|morning|morgonen|bitti|(?:fore|innan)\\s+lunch|before\\s+lunch"),
    read: partOfDay("förmiddag", "morning", 8, 12)
  },
  {
    pattern: phrase("eftermiddag(?:en)?|e\\.m\\.|em|afternoon|efter\\s+lunch|after\\s+lunch"),
    read: partOfDay("eftermiddag", "afternoon", 12, 17)
  },
  {
    pattern: phrase("kvall(?:en)?|ikvall|evening|tonight"),
    read: partOfDay("kväll", "evening", 17, 21)
  },
  {
    // Until the evening ends; "efter 22" still gets the rest of that day.
    pattern: phrase(`(?:efter|after)\\s+${KL}${CLOCK}${NOT_A_DURATION}`),
    read: (m) => {
      const from = clockMinutes(m[1], m[2], m[3])
      if (from === undefined) return undefined
      const to = from < 21 * 60 ? 21 * 60 : 24 * 60
      return { hours: { from, to }, sv: `efter ${clock(from)}`, en: `after ${clock(from)}`, partOfDay: false }
    }
  },
  {
    // From the start of the working day, or from midnight for very early limits.
    pattern: phrase(`(?:fore|innan|before)\\s+${KL}${CLOCK}${NOT_A_DURATION}`),
    read: (m) => {
      const to = clockMinutes(m[1], m[2], m[3])
      if (to === undefined || to === 0) return undefined
      const from = to > 8 * 60 ? 8 * 60 : 0
      return { hours: { from, to }, sv: `före ${clock(to)}`, en: `before ${clock(to)}`, partOfDay: false }
    }
  },
  {
    pattern: phrase(
      `(?:mellan|between)\\s+${KL}${CLOCK}\\s*(?:och|and|-|–)\\s*${KL}${CLOCK}|kl(?:ockan)?\\.?\\s*${CLOCK}\\s*[-–]\\s*${CLOCK}`
    ),
    read: (m) => {
      const from = clockMinutes(m[1] ?? m[7], m[2] ?? m[8], m[3] ?? m[9])
      const to = clockMinutes(m[4] ?? m[10], m[5] ?? m[11], m[6] ?? m[12])
      if (from === undefined || to === undefined || to <= from) return undefined
      const range = `${clock(from)}–${clock(to)}`
      return { hours: { from, to }, sv: `kl ${range}`, en: range, partOfDay: false }
    }
  },
  {
    // An exact time of day: a short window from it (see pointWindowHours).
    pattern: phrase(`(?:kl(?:ockan)?\\.?\\s*|at\\s+)${CLOCK}${NOT_A_DURATION}`),
    read: (m) => {
      const from = clockMinutes(m[1], m[2], m[3])
      if (from === undefined) return undefined
      const to = Math.min(from + pointWindowHours * 60, 24 * 60)
      return { hours: { from, to }, sv: `kl ${clock(from)}`, en: `at ${clock(from)}`, partOfDay: false }
    }
  }
]

interface DayPhrase {
  readonly pattern: RegExp
  readonly resolve: (match: RegExpExecArray, ctx: Context) => Resolved | undefined
}

// ISO 8601 date or date-time; an offset only after "T", so "2026-12-03 10:00-12:00" is not read as UTC-12.
const ISO_POINT =
  "\\d{4}-\\d{2}-\\d{2}(?:t\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:z|[+-]\\d{2}(?::?\\d{2})?)?|\\s+\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?)?"
const ISO_POINT_PARTS =
  /^(\d{4})-(\d{2})-(\d{2})(?:(?:t|\s+)(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:(z)|([+-])(\d{2}):?(\d{2})?)?)?$/u

interface IsoPoint {
  readonly day: number
  /** Present when a time was given. */
  readonly at?: number
}

const parseIsoPoint = (text: string, zone: Zone): IsoPoint | undefined => {
  const m = ISO_POINT_PARTS.exec(text)
  if (m === null) return undefined
  const day = calendarDay(Number(m[1]), Number(m[2]), Number(m[3]))
  if (day === undefined) return undefined
  if (m[4] === undefined) return { day }
  const hour = Number(m[4])
  const minute = Number(m[5])
  const second = Number(m[6] ?? 0)
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const wallClock = day + hour * HOUR + minute * MINUTE + second * 1000
  if (m[7] !== undefined) return { day, at: wallClock }
  if (m[8] !== undefined) {
    const offsetHours = Number(m[9])
    const offsetMinutes = Number(m[10] ?? 0)
    if (offsetHours > 23 || offsetMinutes > 59) return undefined
    const offset = (m[8] === "-" ? -1 : 1) * (offsetHours * HOUR + offsetMinutes * MINUTE)
    return { day, at: wallClock - offset }
  }
  return { day, at: toInstant(wallClock, zone) }
}

const isoLabel = (text: string): string => text.toUpperCase().replace(/\s+/g, " ")

const weekdayLabel = (day: number, next: boolean): { readonly sv: string; readonly en: string } => {
  const name = weekdayNames[isoWeekday(day) - 1] ?? weekdayNames[0]
  return next
    ? { sv: `nästa ${name.sv} ${isoDate(day)}`, en: `next ${name.en} ${isoDate(day)}` }
    : { sv: `${name.sv} ${isoDate(day)}`, en: `${name.en} ${isoDate(day)}` }
}

const dayPhrases: ReadonlyArray<DayPhrase> = [
  {
    pattern: phrase(`(${ISO_POINT})\\s*/\\s*(${ISO_POINT})`),
    resolve: (m, ctx) => {
      const from = parseIsoPoint(m[1] ?? "", ctx.zone)
      const to = parseIsoPoint(m[2] ?? "", ctx.zone)
      if (from === undefined || to === undefined) return undefined
      const label = `${isoLabel(m[1] ?? "")}/${isoLabel(m[2] ?? "")}`
      if (from.at === undefined && to.at === undefined) {
        return from.day <= to.day ? days(from.day, to.day, label, label) : undefined
      }
      // A date-only end means the whole of that day is included.
      const start = from.at ?? toInstant(from.day, ctx.zone)
      const end = to.at ?? toInstant(to.day + DAY, ctx.zone)
      return end > start ? { _tag: "Span", start, end, sv: label, en: label, takesQualifier: false } : undefined
    }
  },
  {
    pattern: phrase(`(${ISO_POINT})`),
    resolve: (m, ctx) => {
      const point = parseIsoPoint(m[1] ?? "", ctx.zone)
      if (point === undefined) return undefined
      const label = isoLabel(m[1] ?? "")
      return point.at === undefined
        ? days(point.day, point.day, label, label)
        : {
            _tag: "Span",
            start: point.at,
            end: point.at + pointWindowHours * HOUR,
            sv: label,
            en: label,
            takesQualifier: false
          }
    }
  },
  {
    pattern: phrase(
      // "inte akut" / "not urgent" is the opposite of urgent.
      "(?<!(?<!\\p{L})(?:inte|ej|icke|not|non|no)[\\s-]+(?:\\p{L}+\\s+)?)" +
        "(?:snarast(?:\\s+mojligt)?|sa\\s+(?:snart|fort)\\s+som\\s+mojligt|fortast\\s+mojligt|asap|a\\.s\\.a\\.p\\.?" +
        "|as\\s+soon\\s+as\\s+possible|akut(?:a|en)?|urgent(?:ly)?|emergency|brattom|bradskande|omgaende|genast" +
        "|omedelbart|immediately|right\\s+away)"
    ),
    resolve: (_m, ctx) => ({
      _tag: "Span",
      start: ctx.now,
      end: ctx.now + asapDays * DAY,
      sv: "snarast",
      en: "as soon as possible",
      takesQualifier: true
    })
  },
  {
    pattern: phrase(
      `inom\\s+${NUMBER}\\s+(dag|dagar|vecka|veckor)|within\\s+(?:the\\s+next\\s+)?${NUMBER}\\s+(days?|weeks?)`
    ),
    resolve: (m, ctx) => {
      const n = readNumber(m[1] ?? m[3])
      const unit = m[2] ?? m[4] ?? ""
      if (n === undefined) return undefined
      const weeks = unit.startsWith("v") || unit.startsWith("w")
      const count = weeks ? n * 7 : n
      return {
        _tag: "Span",
        start: ctx.now,
        end: ctx.now + count * DAY,
        sv: `inom ${count} ${count === 1 ? "dag" : "dagar"}`,
        en: `within ${count} ${count === 1 ? "day" : "days"}`,
        takesQualifier: true
      }
    }
  },
  {
    pattern: phrase("i\\s*dag|today"),
    resolve: (_m, ctx) => days(ctx.today, ctx.today, "idag", "today")
  },
  {
    pattern: phrase("i\\s*morgon|i\\s*morr?n|tomorrow"),
    resolve: (_m, ctx) => days(ctx.today + DAY, ctx.today + DAY, "imorgon", "tomorrow")
  },
  {
    pattern: phrase("(?:i\\s*)?overmorgon|(?:the\\s+)?day\\s+after\\s+tomorrow"),
    resolve: (_m, ctx) => days(ctx.today + 2 * DAY, ctx.today + 2 * DAY, "i övermorgon", "the day after tomorrow")
  },
  {
    // "fredag", "på fredag", "nästa fredag", "fredag nästa vecka", "next friday", "friday next week".
    pattern: phrase(`(?:(nasta|next)\\s+)?${WEEKDAY}(?:\\s+(?:i\\s+)?(nasta\\s+vecka|next\\s+week))?`),
    resolve: (m, ctx) => {
      const target = weekdayIndex.get(m[2] ?? "")
      if (target === undefined) return undefined
      const next = m[1] !== undefined || m[3] !== undefined
      let day: number
      if (next) {
        day = mondayOf(ctx.today) + 7 * DAY + (target - 1) * DAY
      } else {
        const ahead = (target - isoWeekday(ctx.today) + 7) % 7
        day = ctx.today + (ahead === 0 && !stillAhead(ctx.today, ctx) ? 7 : ahead) * DAY
      }
      const { en, sv } = weekdayLabel(day, next)
      return days(day, day, sv, en)
    }
  },
  {
    pattern: phrase("nasta\\s+vecka|next\\s+week"),
    resolve: (_m, ctx) => {
      const monday = mondayOf(ctx.today) + 7 * DAY
      return days(monday, monday + 6 * DAY, "nästa vecka", "next week")
    }
  },
  {
    pattern: phrase("denna\\s+vecka|den\\s+har\\s+veckan|i\\s+veckan|this\\s+week"),
    resolve: (_m, ctx) => days(ctx.today, mondayOf(ctx.today) + 6 * DAY, "denna vecka", "this week")
  },
  {
    // Saturday and Sunday of this ISO week, which on a weekend is the current one.
    pattern: phrase("(?:i\\s+|denna\\s+|den\\s+har\\s+)?helgen|i\\s+helg|(?:this\\s+|the\\s+)?weekend"),
    resolve: (_m, ctx) => {
      const saturday = mondayOf(ctx.today) + 5 * DAY
      return days(saturday, saturday + DAY, "i helgen", "this weekend")
    }
  },
  {
    // Same rule as "nästa fredag": the weekend of the following ISO week.
    pattern: phrase("nasta\\s+helg(?:en)?|next\\s+weekend"),
    resolve: (_m, ctx) => {
      const saturday = mondayOf(ctx.today) + 12 * DAY
      return days(saturday, saturday + DAY, "nästa helg", "next weekend")
    }
  },
  {
    pattern: phrase(`om\\s+${NUMBER}\\s+veck(?:a|or)|in\\s+${NUMBER}\\s+weeks?(?:\\s+time)?`),
    resolve: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2])
      if (n === undefined) return undefined
      const monday = mondayOf(ctx.today) + 7 * n * DAY
      return days(
        monday,
        monday + 6 * DAY,
        `om ${n} ${n === 1 ? "vecka" : "veckor"}`,
        `in ${n} ${n === 1 ? "week" : "weeks"}`
      )
    }
  },
  {
    // ISO week numbers, as Swedes say "vecka 49": the next such week that has not ended.
    pattern: phrase("(?:vecka|v\\.?|week)\\s*(\\d{1,2})"),
    resolve: (m, ctx) => {
      const week = Number(m[1])
      const thisIsoYear = new Date(mondayOf(ctx.today) + 3 * DAY).getUTCFullYear()
      for (const year of [thisIsoYear, thisIsoYear + 1]) {
        const monday = isoWeekMonday(year, week)
        if (monday !== undefined && monday + 6 * DAY >= ctx.today) {
          return days(monday, monday + 6 * DAY, `vecka ${week}`, `week ${week}`)
        }
      }
      return undefined
    }
  },
  {
    pattern: phrase(`om\\s+${NUMBER}\\s+dag(?:ar)?|in\\s+${NUMBER}\\s+days?`),
    resolve: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2])
      if (n === undefined) return undefined
      const day = ctx.today + n * DAY
      return days(day, day, `om ${n} ${n === 1 ? "dag" : "dagar"}`, `in ${n} ${n === 1 ? "day" : "days"}`)
    }
  }
]

/**
 * The phrase that appears first in the text wins (ties: the longest, then table order), so
 * "nästa fredag" beats "fredag" and "fredag, annars nästa vecka" means Friday. A hit whose
 * builder rejects it (e.g. 2026-02-30) gives way to the next one, but not to pieces of itself:
 * a reversed interval "2026-12-05/2026-12-03" is not half-read as its second date.
 */
const firstHit = <E extends { readonly pattern: RegExp }, A>(
  text: string,
  entries: ReadonlyArray<E>,
  read: (entry: E, match: RegExpExecArray) => A | undefined
): A | undefined => {
  const hits = entries.flatMap((entry, rank) =>
    Array.from(text.matchAll(entry.pattern), (match) => ({ entry, match, rank }))
  )
  hits.sort((a, b) => a.match.index - b.match.index || b.match[0].length - a.match[0].length || a.rank - b.rank)
  const rejected: Array<readonly [number, number]> = []
  for (const { entry, match } of hits) {
    const from = match.index
    const to = from + match[0].length
    if (rejected.some(([start, end]) => start <= from && to <= end)) continue
    const value = read(entry, match)
    if (value !== undefined) return value
    rejected.push([from, to])
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------
// From phrases to a window.
// ---------------------------------------------------------------------------------------------

const bilingual = (sv: string, en: string): string => (sv === en ? sv : `${sv} (${en})`)

const combineLabel = (resolved: Resolved, qualifier: Qualifier | undefined): string => {
  if (qualifier === undefined) return bilingual(resolved.sv, resolved.en)
  if (resolved._tag === "Span") {
    return resolved.takesQualifier
      ? bilingual(`${resolved.sv}, ${qualifier.sv}`, `${resolved.en}, ${qualifier.en}`)
      : bilingual(resolved.sv, resolved.en)
  }
  // "i eftermiddag" / "this afternoon" rather than "idag eftermiddag" / "today afternoon".
  return resolved.en === "today" && qualifier.partOfDay
    ? bilingual(`i ${qualifier.sv}`, `this ${qualifier.en}`)
    : bilingual(`${resolved.sv} ${qualifier.sv}`, `${resolved.en} ${qualifier.en}`)
}

const dailyHoursOf = (hours: Hours): DailyHours => ({ fromHour: hours.from / 60, toHour: hours.to / 60 })

/** The window one text asks for, before clipping; undefined when nothing in it is understood. */
const understand = (text: string, now: number, zone: Zone): TimeWindow | undefined => {
  const normalized = normalize(text)
  const today = startOfDay(wallClockOf(now, zone))
  const qualifier = firstHit(normalized, qualifiers, (entry, match) => entry.read(match))
  const ctx: Context = { now, today, zone, hours: qualifier?.hours ?? wholeDay }

  // A qualifier on its own means the next such period: today's if enough of it is left.
  const resolved =
    firstHit(normalized, dayPhrases, (entry, match) => entry.resolve(match, ctx)) ??
    (qualifier === undefined
      ? undefined
      : stillAhead(today, ctx)
        ? days(today, today, "idag", "today")
        : days(today + DAY, today + DAY, "imorgon", "tomorrow"))
  if (resolved === undefined) return undefined

  const label = combineLabel(resolved, qualifier)
  if (resolved._tag === "Span") {
    return {
      start: new Date(resolved.start),
      end: new Date(resolved.end),
      label,
      understood: true,
      ...(qualifier !== undefined && resolved.takesQualifier ? { dailyHours: dailyHoursOf(qualifier.hours) } : {})
    }
  }
  const hours = qualifier?.hours ?? wholeDay
  return {
    start: new Date(toInstant(resolved.first + hours.from * MINUTE, zone)),
    end: new Date(toInstant(resolved.last + hours.to * MINUTE, zone)),
    label,
    understood: true,
    ...(qualifier !== undefined && resolved.last > resolved.first ? { dailyHours: dailyHoursOf(qualifier.hours) } : {})
  }
}

/** Keeps the window within [now, now + horizon]; undefined when nothing worth searching is left. */
const clip = (window: TimeWindow, now: number): TimeWindow | undefined => {
  if (!worthSearching(window.start.getTime(), window.end.getTime(), now)) return undefined
  const start = Math.max(window.start.getTime(), now)
  const end = Math.min(window.end.getTime(), now + horizonDays * DAY)
  return start < end ? { ...window, start: new Date(start), end: new Date(end) } : undefined
}

const fallback = (now: number): TimeWindow => ({
  start: new Date(now),
  end: new Date(now + defaultDays * DAY),
  label:
    `Tiden kunde inte tolkas; söker de närmaste ${defaultDays} dagarna ` +
    `(time not understood; searching the next ${defaultDays} days)`,
  understood: false
})

/**
 * The preferred-time text is tried first; the urgency text only when the former is absent, not
 * understood, or understood but wholly in the past or beyond the horizon ("idag" at 23:59 with
 * urgency "akut" is better served by the urgency than by the blind fallback).
 */
export const parseTimeWindow = (input: ParseTimeWindowInput): TimeWindow => {
  const now = input.now.getTime()
  const zone = zoneFor(input.timeZone)
  for (const text of [input.preferredTimeText, input.urgency]) {
    if (text === undefined) continue
    const understood = understand(text, now, zone)
    const clipped = understood === undefined ? undefined : clip(understood, now)
    if (clipped !== undefined) return clipped
  }
  return fallback(now)
}
