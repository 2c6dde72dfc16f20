/**
 * The words of the time parser: what each Swedish or English phrase means, as tokens the
 * grammar in TimeWindow.ts combines. Texts are matched after `normalize` (lower case,
 * diacritics stripped, so "över" and "over" are one word), hence the ascii patterns.
 */
import { type DaySpan, type NamedDay, namedDays, nextOccurrence } from "../Domain/Holidays.js"
import { DAY, HOUR, isoWeekday, MINUTE, toInstant, type Zone } from "../Domain/Zone.js"

export interface Label {
  readonly sv: string
  readonly en: string
}

/** Minutes since local midnight; `to` may be 1440 (the midnight ending the day). */
export interface Hours {
  readonly from: number
  readonly to: number
}

/**
 * What a phrase's reading may depend on besides its words. Not the current instant: a reading
 * relative to it is a FromNow token, which the window resolves, so the tokens of a text are the
 * same all day and can be kept.
 */
export interface Context {
  /** Local midnight of today, as wall-clock ms. */
  readonly today: number
  readonly zone: Zone
}

/** A kind of day, for "tisdagar", "vardagar", "inte måndag", "fredag" inside "nästa vecka". */
interface DayFilter {
  readonly test: (day: number) => boolean
  readonly label: Label
}

export interface DayAtom {
  readonly kind: "date" | "dayOfMonth" | "weekday" | "period" | "recurring"
  /** The first occurrence that has not ended before `from` (a wall-clock day); undefined when there is none. */
  readonly occurrence: (from: number) => DaySpan | undefined
  readonly label: (span: DaySpan) => Label
  /** How the atom reads beside a period: "fredag" in "fredag nästa vecka". */
  readonly filter?: DayFilter
  readonly weekday?: number
  /** Days inside the occurrence that are not meant ("3, 5 eller 9 december" spans 3-9 but means three days). */
  readonly only?: (day: number) => boolean
  /** "nästa fredag" is one Friday even where a bare "fredag" means every Friday ("inte fredag"). */
  readonly pinned?: boolean
  /** Splits the period into its beginning, middle and end ("början av nästa vecka"). */
  readonly thirds?: (span: DaySpan) => readonly [DaySpan, DaySpan, DaySpan]
  /** "slutet av X": "före slutet av nästa vecka" means by its end, not before it begins. */
  readonly endPart?: boolean
}

export type Word =
  | "or"
  | "and"
  | "not"
  | "but"
  | "soft"
  | "before"
  | "by"
  | "after"
  | "from"
  | "to"
  | "between"
  | "onwards"
  /** Words that look like another word's but change nothing ("jobbar hemifrån" is being at home). */
  | "filler"

type TokenBody =
  | { readonly _tag: "Day"; readonly atom: DayAtom }
  | { readonly _tag: "Hours"; readonly hours: Hours; readonly point: boolean; readonly label: Label }
  | { readonly _tag: "Span"; readonly start: number; readonly end: number; readonly label: Label }
  /** From the current instant for `length` ms ("snarast", "inom 2 veckor"). */
  | { readonly _tag: "FromNow"; readonly length: number; readonly label: Label }
  | { readonly _tag: "Anytime"; readonly label: Label }
  | { readonly _tag: "Number"; readonly value: number }
  | { readonly _tag: "Unknown"; readonly note?: Label }
  | { readonly _tag: "Word"; readonly word: Word }

/** A token and where it stands in the normalized text. */
export type Token = TokenBody & { readonly at: readonly [number, number] }

/** An exact clock time ("kl 10", "2026-12-03T10:00") is a window this long, so slots starting at or shortly after it are offered. */
export const pointWindowHours = 4
/** "snarast" / "asap" / "akut". */
export const asapDays = 3
/** "snart", "inom kort". */
const soonDays = 7
/** "de närmaste dagarna", "the next few days". */
const fewDays = 5

// ---------------------------------------------------------------------------------------------
// Calendar helpers on wall-clock days.
// ---------------------------------------------------------------------------------------------

const mondayOf = (day: number): number => day - (isoWeekday(day) - 1) * DAY

export const isoDate = (day: number): string => new Date(day).toISOString().slice(0, 10)

const yearOf = (day: number): number => new Date(day).getUTCFullYear()
const monthOf = (day: number): number => new Date(day).getUTCMonth() + 1

const calendarDay = (year: number, month: number, day: number): number | undefined => {
  const ms = Date.UTC(year, month - 1, day)
  const date = new Date(ms)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? ms
    : undefined
}

const lastOfMonth = (year: number, month: number): number => Date.UTC(year, month, 0)

/** Monday of ISO week `week` of ISO year `year`, if the year has that week. */
const isoWeekMonday = (year: number, week: number): number | undefined => {
  const firstMonday = mondayOf(Date.UTC(year, 0, 4))
  const monday = firstMonday + (week - 1) * 7 * DAY
  return week >= 1 && monday < mondayOf(Date.UTC(year + 1, 0, 4)) ? monday : undefined
}

const one = (day: number): DaySpan => ({ first: day, last: day })

// ---------------------------------------------------------------------------------------------
// Labels.
// ---------------------------------------------------------------------------------------------

export const weekdayNames = [
  { sv: "måndag", en: "Monday", svPlural: "måndagar", enPlural: "Mondays" },
  { sv: "tisdag", en: "Tuesday", svPlural: "tisdagar", enPlural: "Tuesdays" },
  { sv: "onsdag", en: "Wednesday", svPlural: "onsdagar", enPlural: "Wednesdays" },
  { sv: "torsdag", en: "Thursday", svPlural: "torsdagar", enPlural: "Thursdays" },
  { sv: "fredag", en: "Friday", svPlural: "fredagar", enPlural: "Fridays" },
  { sv: "lördag", en: "Saturday", svPlural: "lördagar", enPlural: "Saturdays" },
  { sv: "söndag", en: "Sunday", svPlural: "söndagar", enPlural: "Sundays" }
] as const

const weekdayName = (weekday: number) => weekdayNames[weekday - 1] ?? weekdayNames[0]

export const dayLabel = (day: number): Label => {
  const name = weekdayName(isoWeekday(day))
  return { sv: `${name.sv} ${isoDate(day)}`, en: `${name.en} ${isoDate(day)}` }
}

export const spanLabel = (span: DaySpan): Label =>
  span.first === span.last
    ? dayLabel(span.first)
    : { sv: `${isoDate(span.first)}–${isoDate(span.last)}`, en: `${isoDate(span.first)}–${isoDate(span.last)}` }

const fixedLabel =
  (label: Label) =>
  (_span: DaySpan): Label =>
    label

const monthNames = [
  { sv: "januari", en: "January" },
  { sv: "februari", en: "February" },
  { sv: "mars", en: "March" },
  { sv: "april", en: "April" },
  { sv: "maj", en: "May" },
  { sv: "juni", en: "June" },
  { sv: "juli", en: "July" },
  { sv: "augusti", en: "August" },
  { sv: "september", en: "September" },
  { sv: "oktober", en: "October" },
  { sv: "november", en: "November" },
  { sv: "december", en: "December" }
] as const

export const clock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

// ---------------------------------------------------------------------------------------------
// Normalization, keeping where each normalized character came from so the label can quote the
// person's own words.
// ---------------------------------------------------------------------------------------------

interface Normalized {
  readonly text: string
  /** origin[i] is the index in the original text of normalized character i; one extra entry for the end. */
  readonly origin: ReadonlyArray<number>
}

export const normalize = (text: string): Normalized => {
  let out = ""
  const origin: Array<number> = []
  let index = 0
  for (const char of text) {
    const folded = char
      .normalize("NFKD")
      .toLowerCase()
      .replace(/\p{M}/gu, "")
      .replace(/[’‘`´]/gu, "'")
      .replace(/[‐‑‒–—−]/gu, "-")
    for (let i = 0; i < folded.length; i++) origin.push(index)
    out += folded
    index += char.length
  }
  origin.push(index)
  return { text: out, origin }
}

/** Whole words only: letters or digits on either side mean the phrase is part of something else. */
const phrase = (source: string): RegExp => new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "gu")

// ---------------------------------------------------------------------------------------------
// Numbers, clock times, months, weekdays.
// ---------------------------------------------------------------------------------------------

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
/** Hours said in words after "kl" ("kl tio", "at ten"); "en"/"a" are left out, being articles as often. */
const clockWords: Readonly<Record<string, number>> = {
  ...Object.fromEntries(Object.entries(numberWords).filter(([w]) => !["en", "ett", "a", "an"].includes(w))),
  ett: 1,
  tretton: 13,
  fjorton: 14,
  femton: 15,
  sexton: 16,
  sjutton: 17,
  arton: 18,
  nitton: 19,
  tjugo: 20
}
const NUMBER = `(\\d{1,3}|${Object.keys(numberWords).join("|")})`
const readNumber = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : /^\d+$/.test(text) ? Number(text) : numberWords[text]

const svOrdinalUnits = [
  "forsta",
  "andra",
  "tredje",
  "fjarde",
  "femte",
  "sjatte",
  "sjunde",
  "attonde",
  "nionde"
] as const
const svOrdinals: ReadonlyArray<string> = [
  ...svOrdinalUnits,
  "tionde",
  "elfte",
  "tolfte",
  "trettonde",
  "fjortonde",
  "femtonde",
  "sextonde",
  "sjuttonde",
  "artonde",
  "nittonde",
  "tjugonde",
  ...svOrdinalUnits.map((unit) => `tjugo${unit}`),
  "trettionde",
  "trettioforsta"
]
const enOrdinalUnits = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"] as const
const enOrdinals: ReadonlyArray<string> = [
  ...enOrdinalUnits,
  "tenth",
  "eleventh",
  "twelfth",
  "thirteenth",
  "fourteenth",
  "fifteenth",
  "sixteenth",
  "seventeenth",
  "eighteenth",
  "nineteenth",
  "twentieth",
  ...enOrdinalUnits.map((unit) => `twenty-?${unit}`),
  "thirtieth",
  "thirty-?first"
]
const ordinalValue = new Map<string, number>([
  ...svOrdinals.map((word, i) => [word, i + 1] as const),
  ...enOrdinals.map((word, i) => [word.replace("-?", ""), i + 1] as const)
])
const ORDINAL_WORD = `(?:${[...svOrdinals, ...enOrdinals].sort((a, b) => b.length - a.length).join("|")})`

/** A day of the month: "3", "3:e", "3e", "1:a", "3rd", "tredje", "third". */
const DOM = `(\\d{1,2}(?!\\d)(?::e|:a|st|nd|rd|th|e)?|${ORDINAL_WORD})`
const readDom = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined
  const digits = /^(\d{1,2})/.exec(text)
  const value = digits ? Number(digits[1]) : ordinalValue.get(text.replace("-", ""))
  return value !== undefined && value >= 1 && value <= 31 ? value : undefined
}

const monthWords: ReadonlyArray<readonly [string, number]> = [
  ["januari", 1],
  ["january", 1],
  ["jan", 1],
  ["februari", 2],
  ["february", 2],
  ["feb", 2],
  ["mars", 3],
  ["march", 3],
  ["mar", 3],
  ["april", 4],
  ["apr", 4],
  ["maj", 5],
  ["may", 5],
  ["juni", 6],
  ["june", 6],
  ["jun", 6],
  ["juli", 7],
  ["july", 7],
  ["jul", 7],
  ["augusti", 8],
  ["august", 8],
  ["aug", 8],
  ["september", 9],
  ["sept", 9],
  ["sep", 9],
  ["oktober", 10],
  ["october", 10],
  ["okt", 10],
  ["oct", 10],
  ["november", 11],
  ["nov", 11],
  ["december", 12],
  ["dec", 12]
]
const monthIndex = new Map(monthWords)
const MONTH = `(${monthWords.map(([word]) => word).join("|")})\\.?`
/** Month names that mean the month on their own; "jul" alone is Christmas and "may" a verb. */
const MONTH_ALONE = `(${monthWords
  .map(([word]) => word)
  .filter((word) => (word.length > 3 && word !== "sept") || word === "maj")
  .join("|")})`
const YEAR = "(\\d{4})"

const weekdayWords: ReadonlyArray<readonly [string, number]> = [
  ["mandag", 1],
  ["tisdag", 2],
  ["onsdag", 3],
  ["torsdag", 4],
  ["fredag", 5],
  ["lordag", 6],
  ["sondag", 7],
  ["monday", 1],
  ["tuesday", 2],
  ["wednesday", 3],
  ["thursday", 4],
  ["friday", 5],
  ["saturday", 6],
  ["sunday", 7]
]
const weekdayIndex = new Map(weekdayWords)
const WEEKDAY = `(${weekdayWords.map(([word]) => word).join("|")})`
/** Abbreviations that are also ordinary words ("man", "son", "sat", "sun") only count next to a date, a range or another day. */
const abbreviations: ReadonlyArray<readonly [string, number, boolean]> = [
  ["man", 1, true],
  ["mon", 1, false],
  ["tis", 2, false],
  ["tue", 2, false],
  ["tues", 2, false],
  ["ons", 3, false],
  ["wed", 3, false],
  ["tors", 4, false],
  ["tor", 4, false],
  ["thu", 4, false],
  ["thur", 4, false],
  ["thurs", 4, false],
  ["fre", 5, false],
  ["fri", 5, false],
  ["lor", 6, false],
  ["sat", 6, true],
  ["son", 7, true],
  ["sun", 7, true]
]
const abbreviationIndex = new Map(abbreviations.map(([word, day]) => [word, day]))
const NEXT_TO_A_DAY = `(?=\\.?\\s*(?:\\d|[-/]|den\\s|eller\\s|or\\s|och\\s|and\\s|,))|(?<=(?:[-/]|eller|or|och|and|,)\\s*)`
const ABBREVIATION = `(?:(${abbreviations
  .filter(([, , strict]) => !strict)
  .map(([word]) => word)
  .join("|")})\\.?|(${abbreviations
  .filter(([, , strict]) => strict)
  .map(([word]) => word)
  .join("|")})(?:${NEXT_TO_A_DAY}))`

/** Nobody books a plumber for 03:00: a bare "efter 3" / "kl 3" means the afternoon. */
export const clockMinutes = (
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
    hour += 12
  }
  if (hour === 24 && minute === 0) return 24 * 60
  return hour > 23 ? undefined : hour * 60 + minute
}

const CLOCK = `(\\d{1,2})(?:[:.](\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?`
const KL = `(?:kl(?:ockan)?\\.?\\s*)`
const ABOUT = `(?:(?:vid|runt|omkring|cirka|ca\\.?|ungefar|around|about|approx\\.?|at|@)\\s*)`
/** A clock time is read whole: "9:00" is never "9" followed by ":00". */
const CLOCK_DONE = "(?![:.]?\\d)"
const dateOrDurationAfter = new RegExp(
  `^\\s*(?:dag|day|veck|week|tim|hour|min|manad|month|ar\\b|years?\\b|[/.]\\d|:e|(?:${monthWords
    .map(([word]) => word)
    .join("|")})(?!\\p{L}))`,
  "u"
)
/** A bare number is not a time of day when a unit, a month or a date continues it ("3 dagar", "3 december", "3/12"). */
const continuesAsDate = (m: RegExpExecArray): boolean => dateOrDurationAfter.test(m.input.slice(m.index + m[0].length))

const pointHours = (from: number, label: Label): TokenBody => ({
  _tag: "Hours",
  hours: { from, to: Math.min(from + pointWindowHours * 60, 24 * 60) },
  point: true,
  label
})

const clockLabel = (minutes: number): Label => ({ sv: `kl ${clock(minutes)}`, en: `at ${clock(minutes)}` })

const rangeHours = (from: number | undefined, to: number | undefined): TokenBody | undefined => {
  if (from === undefined || to === undefined || to <= from) return undefined
  const range = `${clock(from)}–${clock(to)}`
  return { _tag: "Hours", hours: { from, to }, point: false, label: { sv: `kl ${range}`, en: range } }
}

const partOfDay = (sv: string, en: string, fromHour: number, toHour: number): TokenBody => ({
  _tag: "Hours",
  hours: { from: fromHour * 60, to: toHour * 60 },
  point: false,
  label: { sv, en }
})

const parts = {
  earlyMorning: partOfDay("bitti", "early morning", 7, 10),
  morning: partOfDay("förmiddag", "morning", 8, 12),
  lunch: partOfDay("lunchtid", "lunchtime", 11, 13),
  afternoon: partOfDay("eftermiddag", "afternoon", 12, 17),
  afterLunch: partOfDay("efter lunch", "after lunch", 13, 17),
  evening: partOfDay("kväll", "evening", 17, 21),
  daytime: partOfDay("dagtid", "daytime", 8, 17),
  allDay: partOfDay("hela dagen", "all day", 0, 24)
} as const

/** The part of day a compound names: "vardagskvällar", "helgförmiddag", "vardagsmorgnar". */
const compoundParts: Record<string, TokenBody> = {
  kvall: parts.evening,
  formiddag: parts.morning,
  eftermiddag: parts.afternoon,
  morgn: parts.earlyMorning,
  morgon: parts.earlyMorning
}
const partOfCompound = (word: string | undefined) => compoundParts[word ?? ""] ?? parts.earlyMorning

/** "tidig eftermiddag" is its first half, "sen eftermiddag" its second. */
const half = (part: TokenBody, which: "early" | "late"): TokenBody => {
  if (part._tag !== "Hours") return part
  const middle = Math.round((part.hours.from + part.hours.to) / 60) * 30
  return {
    ...part,
    hours: which === "early" ? { from: part.hours.from, to: middle } : { from: middle, to: part.hours.to },
    label:
      which === "early"
        ? { sv: `tidig ${part.label.sv}`, en: `early ${part.label.en}` }
        : { sv: `sen ${part.label.sv}`, en: `late ${part.label.en}` }
  }
}

// ---------------------------------------------------------------------------------------------
// Day atoms.
// ---------------------------------------------------------------------------------------------

const weekdayFilter = (weekday: number): DayFilter => ({
  test: (day) => isoWeekday(day) === weekday,
  label: { sv: weekdayName(weekday).svPlural, en: weekdayName(weekday).enPlural }
})

const weekdaySet = (days: ReadonlyArray<number>, label: Label): DayAtom => ({
  kind: "recurring",
  occurrence: () => undefined,
  label: fixedLabel(label),
  filter: { test: (day) => days.includes(isoWeekday(day)), label }
})

const workingDays = weekdaySet([1, 2, 3, 4, 5], { sv: "vardagar", en: "weekdays" })
const weekends = weekdaySet([6, 7], { sv: "helger", en: "weekends" })

const weekdayAtom = (weekday: number, next: boolean, ctx: Context): DayAtom => ({
  kind: "weekday",
  weekday,
  pinned: next,
  occurrence: (from) => {
    if (!next) return one(from + ((weekday - isoWeekday(from) + 7) % 7) * DAY)
    // "nästa fredag" is the Friday of the following ISO week (README: decisions).
    let day = mondayOf(ctx.today) + 7 * DAY + (weekday - 1) * DAY
    while (day < from) day += 7 * DAY
    return one(day)
  },
  label: (span) => {
    const label = dayLabel(span.first)
    return next ? { sv: `nästa ${label.sv}`, en: `next ${label.en}` } : label
  },
  filter: weekdayFilter(weekday)
})

const recurringWeekday = (weekday: number): DayAtom =>
  weekdaySet([weekday], { sv: weekdayName(weekday).svPlural, en: weekdayName(weekday).enPlural })

const pastWeekday = (weekday: number, ctx: Context): DayAtom => ({
  kind: "date",
  occurrence: () => one(ctx.today - (((isoWeekday(ctx.today) - weekday + 6) % 7) + 1) * DAY),
  label: (span) => dayLabel(span.first)
})

const dateAtom = (day: number, month: number, year: number | undefined): DayAtom | undefined => {
  const years = year === undefined ? [0, 1, 2, 3, 4, 5, 6, 7, 8] : [0]
  const valid = (y: number) => calendarDay(y, month, day) !== undefined
  if (!years.some((offset) => valid((year ?? 2028) + offset))) return undefined
  return {
    kind: "date",
    occurrence: (from) => {
      const start = year ?? yearOf(from)
      for (const offset of years) {
        const candidate = calendarDay(start + offset, month, day)
        if (candidate !== undefined && (year !== undefined || candidate >= from)) return one(candidate)
      }
      return undefined
    },
    label: (span) => dayLabel(span.first)
  }
}

const dateRangeAtom = (firstDay: number, lastDay: number, month: number, year: number | undefined): DayAtom => ({
  kind: "period",
  occurrence: (from) => {
    const start = year ?? yearOf(from)
    for (const offset of year === undefined ? [0, 1] : [0]) {
      const first = calendarDay(start + offset, month, firstDay)
      const last = calendarDay(start + offset, month, lastDay)
      if (first !== undefined && last !== undefined && (year !== undefined || last >= from)) return { first, last }
    }
    return undefined
  },
  label: spanLabel
})

const dayListAtom = (list: ReadonlyArray<number>, month: number): DayAtom | undefined => {
  // "3, 5 eller 9 december" counts up; "efter 12, den 2 januari" is a time and a date.
  if (list.some((day, i) => i > 0 && day <= (list[i - 1] ?? 0))) return undefined
  const sorted = [...list]
  const first = sorted[0]
  const last = sorted.at(-1)
  if (first === undefined || last === undefined || first === last) return undefined
  const range = dateRangeAtom(first, last, month, undefined)
  return {
    ...range,
    only: (day) => sorted.includes(new Date(day).getUTCDate()),
    label: (span) => joinDays(sorted.map((d) => span.first + (d - first) * DAY))
  }
}

const joinDays = (list: ReadonlyArray<number>): Label => ({
  sv: list.map((day) => dayLabel(day).sv).join(" eller "),
  en: list.map((day) => dayLabel(day).en).join(" or ")
})

const englishOrdinal = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`

const dayOfMonthAtom = (dom: number): DayAtom => ({
  kind: "dayOfMonth",
  occurrence: (from) => {
    for (let i = 0; i < 13; i++) {
      const candidate = calendarDay(yearOf(from), monthOf(from) + i, dom) ?? calendarDayRolled(from, i, dom)
      if (candidate !== undefined && candidate >= from) return one(candidate)
    }
    return undefined
  },
  label: (span) => dayLabel(span.first),
  filter: {
    test: (d) => new Date(d).getUTCDate() === dom,
    label: { sv: `den ${dom}:e`, en: `the ${englishOrdinal(dom)}` }
  }
})

/** Day `dom` of the month `i` months after `from`'s, across year ends. */
const calendarDayRolled = (from: number, i: number, dom: number): number | undefined => {
  const month = monthOf(from) - 1 + i
  return calendarDay(yearOf(from) + Math.floor(month / 12), (month % 12) + 1, dom)
}

const period = (
  span: (from: number) => DaySpan | undefined,
  label: Label | ((span: DaySpan) => Label),
  thirds?: DayAtom["thirds"]
): DayAtom => ({
  kind: "period",
  occurrence: span,
  label: typeof label === "function" ? label : fixedLabel(label),
  ...(thirds === undefined ? {} : { thirds })
})

const weekThirds = (span: DaySpan): readonly [DaySpan, DaySpan, DaySpan] => {
  const monday = mondayOf(span.last)
  return [
    { first: monday, last: monday + 2 * DAY },
    { first: monday + DAY, last: monday + 3 * DAY },
    { first: monday + 3 * DAY, last: monday + 6 * DAY }
  ]
}

const monthThirds = (span: DaySpan): readonly [DaySpan, DaySpan, DaySpan] => {
  const first = Date.UTC(yearOf(span.last), monthOf(span.last) - 1, 1)
  return [
    { first, last: first + 9 * DAY },
    { first: first + 10 * DAY, last: first + 19 * DAY },
    { first: first + 20 * DAY, last: lastOfMonth(yearOf(span.last), monthOf(span.last)) }
  ]
}

const weekOrdinals = [
  ["forsta", "first"],
  ["andra", "second"],
  ["tredje", "third"],
  ["fjarde", "fourth"],
  ["sista", "last"]
] as const
const svOrdinalNames = ["första", "andra", "tredje", "fjärde"] as const

/** "första veckan i december": its first seven days and the ISO week they start in; 5 is the last week. */
const weekOfMonth = (month: DaySpan, n: number): DaySpan => {
  if (n === 5) return { first: mondayOf(month.last - 6 * DAY), last: month.last }
  const first = month.first + (n - 1) * 7 * DAY
  return { first: mondayOf(first), last: Math.max(first + 6 * DAY, mondayOf(first) + 6 * DAY) }
}

const yearThirds = (span: DaySpan): readonly [DaySpan, DaySpan, DaySpan] => {
  const year = yearOf(span.last)
  return [
    { first: Date.UTC(year, 0, 1), last: lastOfMonth(year, 4) },
    { first: Date.UTC(year, 4, 1), last: lastOfMonth(year, 8) },
    { first: Date.UTC(year, 8, 1), last: lastOfMonth(year, 12) }
  ]
}

const week = (offset: number, label: Label, ctx: Context): DayAtom => {
  const monday = mondayOf(ctx.today) + offset * 7 * DAY
  return period(() => ({ first: monday, last: monday + 6 * DAY }), label, weekThirds)
}

const month = (monthNumber: number, year: number | undefined): DayAtom => {
  const name = monthNames[monthNumber - 1] ?? monthNames[0]
  return period(
    (from) => {
      const start = year ?? yearOf(from)
      for (const y of year === undefined ? [start, start + 1] : [start]) {
        const last = lastOfMonth(y, monthNumber)
        if (year !== undefined || last >= from) return { first: Date.UTC(y, monthNumber - 1, 1), last }
      }
      return undefined
    },
    (span) => ({ sv: `${name.sv} ${yearOf(span.first)}`, en: `${name.en} ${yearOf(span.first)}` }),
    monthThirds
  )
}

const relativeMonth = (offset: number, label: Label, ctx: Context): DayAtom => {
  const year = yearOf(ctx.today)
  const index = monthOf(ctx.today) - 1 + offset
  const y = year + Math.floor(index / 12)
  const m = (index % 12) + 1
  return period(() => ({ first: Date.UTC(y, m - 1, 1), last: lastOfMonth(y, m) }), label, monthThirds)
}

const relativeYear = (offset: number, label: Label, ctx: Context): DayAtom => {
  const y = yearOf(ctx.today) + offset
  return period(() => ({ first: Date.UTC(y, 0, 1), last: Date.UTC(y, 11, 31) }), label, yearThirds)
}

const named = (name: NamedDay): DayAtom =>
  period(
    (from) => nextOccurrence(name, from),
    (span) => {
      const { en, sv } = namedDays[name]
      const when = span.first === span.last ? isoDate(span.first) : `${isoDate(span.first)}–${isoDate(span.last)}`
      return { sv: `${sv} ${when}`, en: `${en} ${when}` }
    }
  )

const days = (first: number, last: number, label: Label): DayAtom => period(() => ({ first, last }), label)

const seasons = [
  { sv: "våren", en: "spring", from: 3 },
  { sv: "sommaren", en: "summer", from: 6 },
  { sv: "hösten", en: "autumn", from: 9 },
  { sv: "vintern", en: "winter", from: 12 }
] as const

/** Three months from March, June, September or December; winter runs into the next year. */
const season = (index: number): DayAtom => {
  const { en, from, sv } = seasons[index] ?? seasons[0]
  const spanOf = (year: number): DaySpan => ({ first: Date.UTC(year, from - 1, 1), last: Date.UTC(year, from + 2, 0) })
  return period(
    (day) => [yearOf(day) - 1, yearOf(day), yearOf(day) + 1].map(spanOf).find((span) => span.last >= day),
    (span) => ({ sv: `${sv} ${yearOf(span.first)}`, en: `${en} ${yearOf(span.first)}` })
  )
}

const dayToken = (atom: DayAtom): TokenBody => ({ _tag: "Day", atom })

// ---------------------------------------------------------------------------------------------
// Phrases that name a period and may take "början / mitten / slutet av".
// ---------------------------------------------------------------------------------------------

interface PeriodPhrase {
  readonly source: string
  readonly read: (m: RegExpExecArray, ctx: Context) => DayAtom | undefined
}

const periodPhrases: ReadonlyArray<PeriodPhrase> = [
  {
    source:
      "nasta\\s+vecka|next\\s+week|till\\s+veckan|kommande\\s+vecka|(?:the\\s+)?coming\\s+week|veckan\\s+som\\s+kommer",
    read: (_m, ctx) => week(1, { sv: "nästa vecka", en: "next week" }, ctx)
  },
  {
    source: "denna\\s+vecka|den\\s+har\\s+veckan|(?:i|under)\\s+veckan|this\\s+week|veckan",
    read: (_m, ctx) => week(0, { sv: "denna vecka", en: "this week" }, ctx)
  },
  {
    source: "(?:vecka|v\\.?|week|w)\\s*(\\d{1,2})(?!\\d)",
    read: (m, ctx) => {
      const number = Number(m[1])
      return period(
        (from) => {
          const thisIsoYear = yearOf(mondayOf(from) + 3 * DAY)
          for (const year of [thisIsoYear, thisIsoYear + 1]) {
            const monday = isoWeekMonday(year, number)
            if (monday !== undefined && monday + 6 * DAY >= Math.min(from, ctx.today)) {
              return { first: monday, last: monday + 6 * DAY }
            }
          }
          return undefined
        },
        { sv: `vecka ${number}`, en: `week ${number}` },
        weekThirds
      )
    }
  },
  {
    source: "nasta\\s+manad|next\\s+month|kommande\\s+manad|(?:the\\s+)?coming\\s+month",
    read: (_m, ctx) => relativeMonth(1, { sv: "nästa månad", en: "next month" }, ctx)
  },
  {
    source: "denna\\s+manad|den\\s+har\\s+manaden|this\\s+month|(?:the\\s+)?month|manaden",
    read: (_m, ctx) => relativeMonth(0, { sv: "denna månad", en: "this month" }, ctx)
  },
  {
    source: `${MONTH}(?:\\s+${YEAR})?`,
    read: (m) => {
      const monthNumber = monthIndex.get(m[1] ?? "")
      return monthNumber === undefined ? undefined : month(monthNumber, m[2] === undefined ? undefined : Number(m[2]))
    }
  },
  {
    source: "nasta\\s+ar|next\\s+year",
    read: (_m, ctx) => relativeYear(1, { sv: "nästa år", en: "next year" }, ctx)
  },
  {
    source: "(?:i\\s+|detta\\s+|det\\s+har\\s+)ar|aret|this\\s+year|the\\s+year",
    read: (_m, ctx) => relativeYear(0, { sv: "i år", en: "this year" }, ctx)
  }
]

const readPeriod = (text: string, ctx: Context): DayAtom | undefined => {
  for (const { read, source } of periodPhrases) {
    const m = new RegExp(`^(?:${source})$`, "u").exec(text)
    if (m !== null) return read(m, ctx)
  }
  return undefined
}

const PERIOD = `(${periodPhrases.map(({ source }) => source.replace(/\((?!\?)/g, "(?:")).join("|")})`

const thirdNames = [
  { sv: "början av", en: "early" },
  { sv: "mitten av", en: "mid" },
  { sv: "slutet av", en: "late" }
] as const

const partOfPeriod = (which: 0 | 1 | 2, inner: DayAtom | undefined): DayAtom | undefined => {
  const thirds = inner?.thirds
  if (inner === undefined || thirds === undefined) return undefined
  return {
    kind: "period",
    endPart: which === 2,
    occurrence: (from) => {
      // The first occurrence whose part has not ended: "slutet av månaden" on the 31st is today.
      for (let probe = from, i = 0; i < 3; i++) {
        const whole = inner.occurrence(probe)
        if (whole === undefined) return undefined
        const part = thirds(whole)[which]
        if (part.last >= from) return part
        probe = whole.last + DAY
      }
      return undefined
    },
    label: (span) => {
      const innerLabel = inner.label(inner.occurrence(span.first) ?? span)
      const name = thirdNames[which]
      return { sv: `${name.sv} ${innerLabel.sv}`, en: `${name.en} ${innerLabel.en}` }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The lexicon.
// ---------------------------------------------------------------------------------------------

interface Entry {
  readonly pattern: RegExp
  readonly read: (m: RegExpExecArray, ctx: Context) => TokenBody | ReadonlyArray<TokenBody> | undefined
}

const word = (w: Word) => (): TokenBody => ({ _tag: "Word", word: w })

const unknown = (sv: string, en: string): TokenBody => ({ _tag: "Unknown", note: { sv, en } })

const holidayPhrases: ReadonlyArray<readonly [string, NamedDay]> = [
  ["julafton(?:en)?|christmas\\s+eve|xmas\\s+eve", "julafton"],
  ["juldag(?:en)?|christmas\\s+day", "juldagen"],
  ["annandag(?:en)?(?:\\s+jul)?|boxing\\s+day", "annandagJul"],
  ["(?:i\\s+|over\\s+|under\\s+)?(?:jul(?:en)?|julhelgen)|christmas|xmas", "jul"],
  ["mellandagar(?:na)?|romjul(?:en)?", "mellandagarna"],
  ["nyarsafton(?:en)?|new\\s+year'?s\\s+eve", "nyarsafton"],
  ["nyarsdag(?:en)?|new\\s+year'?s\\s+day", "nyarsdagen"],
  ["(?:i\\s+|over\\s+)?(?:nyar(?:et)?|nyarshelgen)|new\\s+year'?s?", "nyar"],
  ["arsskiftet|the\\s+turn\\s+of\\s+the\\s+year|the\\s+end\\s+of\\s+the\\s+year|year\\s+end", "arsskiftet"],
  ["trettondagsafton(?:en)?|twelfth\\s+night", "trettondagsafton"],
  ["trettondag(?:en)?(?:\\s+jul)?|trettondedag(?:en)?(?:\\s+jul)?|epiphany", "trettondagen"],
  ["alla\\s+hjartans\\s+dag|valentine'?s(?:\\s+day)?", "allaHjartansDag"],
  ["fettisdag(?:en)?|shrove\\s+tuesday", "fettisdagen"],
  ["skartorsdag(?:en)?|maundy\\s+thursday", "skartorsdag"],
  ["langfredag(?:en)?|good\\s+friday", "langfredag"],
  ["paskafton(?:en)?|holy\\s+saturday|easter\\s+eve", "paskafton"],
  ["paskdag(?:en)?|easter\\s+(?:sun)?day", "paskdagen"],
  ["annandag(?:en)?\\s+pask|easter\\s+monday", "annandagPask"],
  ["(?:i\\s+|over\\s+|under\\s+)?(?:pask(?:en)?|paskhelgen)|easter(?:\\s+weekend)?", "pask"],
  ["valborg(?:smassoafton(?:en)?|safton(?:en)?)?|walpurgis(?:\\s+night)?", "valborg"],
  ["forsta\\s+maj|may\\s+day", "forstaMaj"],
  ["kristi\\s+himmelsfard(?:sdag(?:en)?)?|himmelsfard(?:sdag(?:en)?)?|ascension(?:\\s+day)?", "kristiHimmelsfard"],
  ["pingstafton(?:en)?", "pingstafton"],
  ["pingst(?:en|dagen|helgen)?|pentecost|whitsun(?:day)?", "pingstdagen"],
  ["mors\\s+dag|mother'?s\\s+day", "morsDag"],
  ["fars\\s+dag|father'?s\\s+day", "farsDag"],
  ["(?:sveriges\\s+)?nationaldag(?:en)?|(?:swedish\\s+)?national\\s+day", "nationaldagen"],
  ["midsommarafton(?:en)?|midsummer\\s+eve", "midsommarafton"],
  ["midsommardag(?:en)?|midsummer\\s+day", "midsommardagen"],
  ["(?:i\\s+|over\\s+)?(?:midsommar(?:en|helgen)?)|midsummer(?:\\s+weekend)?", "midsommar"],
  ["allhelgonaafton(?:en)?", "allhelgonaafton"],
  ["alla\\s+helgons\\s+dag|allhelgonadag(?:en)?|allhelgona(?:helgen)?|all\\s+saints'?(?:\\s+day)?", "allaHelgonsDag"],
  ["lucia(?:dagen)?|(?:saint|st\\.?)\\s+lucy'?s?(?:\\s+day)?", "lucia"]
]

const isoPointSource = "\\d{4}-\\d{2}-\\d{2}(?:t\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:z|[+-]\\d{2}(?::?\\d{2})?)?)?"
const isoPointParts =
  /^(\d{4})-(\d{2})-(\d{2})(?:t(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:(z)|([+-])(\d{2}):?(\d{2})?)?)?$/u

interface IsoPoint {
  readonly day: number
  /** Local minutes, when a local time was given. */
  readonly minutes?: number
  /** The instant, when an offset was given. */
  readonly instant?: number
}

const parseIsoPoint = (text: string): IsoPoint | undefined => {
  const m = isoPointParts.exec(text)
  if (m === null) return undefined
  const day = calendarDay(Number(m[1]), Number(m[2]), Number(m[3]))
  if (day === undefined) return undefined
  if (m[4] === undefined) return { day }
  const hour = Number(m[4])
  const minute = Number(m[5])
  const second = Number(m[6] ?? 0)
  if (hour > 23 || minute > 59 || second > 59) return undefined
  const wallClock = day + hour * HOUR + minute * MINUTE + second * 1000
  if (m[7] !== undefined) return { day, instant: wallClock }
  if (m[8] !== undefined) {
    const offsetHours = Number(m[9])
    const offsetMinutes = Number(m[10] ?? 0)
    if (offsetHours > 23 || offsetMinutes > 59) return undefined
    const offset = (m[8] === "-" ? -1 : 1) * (offsetHours * HOUR + offsetMinutes * MINUTE)
    return { day, instant: wallClock - offset }
  }
  return { day, minutes: hour * 60 + minute }
}

const isoLabel = (text: string): Label => ({ sv: text.toUpperCase(), en: text.toUpperCase() })

const isoTokens = (text: string): ReadonlyArray<TokenBody> | undefined => {
  const point = parseIsoPoint(text)
  if (point === undefined) return undefined
  const label = isoLabel(text)
  if (point.instant !== undefined) {
    return [{ _tag: "Span", start: point.instant, end: point.instant + pointWindowHours * HOUR, label }]
  }
  const day = dayToken(days(point.day, point.day, label))
  return point.minutes === undefined ? [day] : [day, pointHours(point.minutes, { sv: "", en: "" })]
}

const PART_SOURCES = {
  morning: "formiddag(?:en|ar|arna|stid)?|mornings?",
  afternoon: "eftermiddag(?:en|ar|arna|stid)?|afternoons?",
  evening: "kvall(?:en|ar|arna|stid)?|evenings?"
} as const

const partEntries = (source: string, part: TokenBody): ReadonlyArray<Entry> => [
  { pattern: phrase(`(?:in\\s+the\\s+|pa\\s+)?(?:${source})`), read: () => part },
  {
    pattern: phrase(`(?:tidig(?:a|t)?|early)\\s+(?:pa\\s+|in\\s+the\\s+)?(?:${source})`),
    read: () => half(part, "early")
  },
  { pattern: phrase(`(?:sen(?:a|t)?|late)\\s+(?:pa\\s+|in\\s+the\\s+)?(?:${source})`), read: () => half(part, "late") }
]

const holidayEntries: ReadonlyArray<Entry> = holidayPhrases.map(([source, name]) => ({
  pattern: phrase(source),
  read: () => dayToken(named(name))
}))

const schoolHoliday = unknown("skollov skiljer sig mellan kommuner", "school holidays differ between municipalities")

/** "2.12" is 2 December, "14.30" half past two; when both read sensibly ("10.10"), neither is guessed. */
const dayDotMonth = (m: RegExpExecArray, ctx: Context): TokenBody | undefined => {
  const [a, b] = [m[1] ?? "", m[2] ?? ""]
  // A time is said in round minutes during the day; a date is one the search can reach.
  const asTime = b.length === 2 ? clockMinutes(a, b, undefined) : undefined
  const plausibleTime = asTime !== undefined && asTime >= 6 * 60 && asTime <= 22 * 60 && Number(b) % 5 === 0
  const date = dateAtom(Number(a), Number(b), undefined)
  const occurrence = date?.occurrence(ctx.today)
  const plausibleDate = occurrence !== undefined && occurrence.first - ctx.today <= 62 * DAY
  if (plausibleDate && plausibleTime)
    return unknown("kan vara ett datum eller ett klockslag", "could be a date or a time")
  if (plausibleTime && asTime !== undefined) return pointHours(asTime, clockLabel(asTime))
  return date === undefined ? unknown("varken datum eller klockslag", "neither a date nor a time") : dayToken(date)
}

const entries: ReadonlyArray<Entry> = [
  // ISO 8601 intervals and points.
  {
    pattern: phrase(`(${isoPointSource})\\s*/\\s*(${isoPointSource})`),
    read: (m, ctx) => {
      const from = parseIsoPoint(m[1] ?? "")
      const to = parseIsoPoint(m[2] ?? "")
      const label = { sv: `${isoLabel(m[1] ?? "").sv}/${isoLabel(m[2] ?? "").sv}`, en: "" }
      const both = { sv: label.sv, en: label.sv }
      if (from === undefined || to === undefined) return unknown("datumet finns inte", "no such date")
      const dateOnly = (p: IsoPoint) => p.minutes === undefined && p.instant === undefined
      if (dateOnly(from) && dateOnly(to)) {
        return from.day <= to.day
          ? dayToken(days(from.day, to.day, both))
          : unknown("slutet ligger före början", "the end is before the start")
      }
      const start = from.instant ?? toInstant(from.day + (from.minutes ?? 0) * MINUTE, ctx.zone)
      const end =
        to.instant ??
        (to.minutes === undefined
          ? toInstant(to.day + DAY, ctx.zone)
          : toInstant(to.day + to.minutes * MINUTE, ctx.zone))
      return end > start
        ? { _tag: "Span", start, end, label: both }
        : unknown("slutet ligger före början", "the end is before the start")
    }
  },
  {
    pattern: phrase(isoPointSource),
    read: (m) => isoTokens(m[0]) ?? unknown("datumet eller tiden finns inte", "no such date or time")
  },

  // Calendar dates in words and numbers, day before month as Swedes write them.
  {
    pattern: phrase(
      `(?:(?:fran|from)\\s+)?(?:(?:den|the|on\\s+the)\\s+)?${DOM}(?:\\s*(?:-|till|to)\\s*(?:(?:den|the)\\s+)?${DOM})?\\s+(?:(?:i|of|av)\\s+)?${MONTH}(?:,?\\s+${YEAR})?`
    ),
    read: (m) => {
      const first = readDom(m[1])
      const last = readDom(m[2])
      const monthNumber = monthIndex.get(m[3] ?? "")
      const year = m[4] === undefined ? undefined : Number(m[4])
      if (first === undefined || monthNumber === undefined) return undefined
      if (m[2] !== undefined) {
        return last !== undefined && last > first
          ? dayToken(dateRangeAtom(first, last, monthNumber, year))
          : unknown("datumen går inte ihop", "the dates do not add up")
      }
      const atom = dateAtom(first, monthNumber, year)
      return atom === undefined ? unknown("datumet finns inte", "no such date") : dayToken(atom)
    }
  },
  {
    pattern: phrase(
      `(?:(?:den|the)\\s+)?\\d{1,2}(?::e|:a|st|nd|rd|th|e)?(?:\\s*(?:,|och|eller|and|or|&)\\s*(?:(?:den|the)\\s+)?\\d{1,2}(?::e|:a|st|nd|rd|th|e)?)+\\s+(?:(?:i|of)\\s+)?${MONTH}(?:\\s+${YEAR})?`
    ),
    read: (m) => {
      const monthNumber = monthIndex.get(m[1] ?? "")
      const year = m[2] === undefined ? undefined : Number(m[2])
      const numbers = Array.from(m[0].matchAll(/\d{1,2}(?!\d)/g), (n) => Number(n[0])).filter((n) => n <= 31)
      // A list says "eller" or "och" somewhere, and "den" on a later day only if on the first: "efter 12, den 13 maj" is a time and a date.
      const joined = /(?:^|\s)(?:och|eller|and|or)\s|&/.test(m[0])
      const laterDen = /\d.*\b(?:den|the)\s/.test(m[0]) && !/^(?:den|the)\s/.test(m[0])
      if (monthNumber === undefined || year !== undefined || !joined || laterDen) return undefined
      const atom = dayListAtom(numbers, monthNumber)
      return atom === undefined ? undefined : dayToken(atom)
    }
  },
  {
    pattern: phrase(
      `${MONTH}\\s+(?:the\\s+)?${DOM}(?:\\s*(?:-|to|till)\\s*${DOM})?(?![:.]\\d|\\s*(?:am|pm|h\\b))(?:,?\\s+${YEAR})?`
    ),
    read: (m) => {
      const monthNumber = monthIndex.get(m[1] ?? "")
      const first = readDom(m[2])
      const last = readDom(m[3])
      const year = m[4] === undefined ? undefined : Number(m[4])
      if (monthNumber === undefined || first === undefined) return undefined
      if (m[3] !== undefined) {
        return last !== undefined && last > first ? dayToken(dateRangeAtom(first, last, monthNumber, year)) : undefined
      }
      const atom = dateAtom(first, monthNumber, year)
      return atom === undefined ? unknown("datumet finns inte", "no such date") : dayToken(atom)
    }
  },
  {
    pattern: phrase("(\\d{1,2})\\s*-\\s*(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}|\\d{2}))?"),
    read: (m) => {
      const [first, last, monthNumber] = [Number(m[1]), Number(m[2]), Number(m[3])]
      const year = m[4] === undefined ? undefined : Number(m[4].length === 2 ? `20${m[4]}` : m[4])
      if (monthNumber < 1 || monthNumber > 12 || last <= first || last > 31) return undefined
      return dayToken(dateRangeAtom(first, last, monthNumber, year))
    }
  },
  {
    pattern: phrase("(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}|\\d{2}))?|(\\d{1,2})\\.(\\d{1,2})\\.(\\d{4}|\\d{2})"),
    read: (m) => {
      const day = Number(m[1] ?? m[4])
      const monthNumber = Number(m[2] ?? m[5])
      const yearText = m[3] ?? m[6]
      const year = yearText === undefined ? undefined : Number(yearText.length === 2 ? `20${yearText}` : yearText)
      const atom = monthNumber >= 1 && monthNumber <= 12 ? dateAtom(day, monthNumber, year) : undefined
      return atom === undefined ? unknown("datumet finns inte", "no such date") : dayToken(atom)
    }
  },
  { pattern: phrase("(\\d{1,2})\\.(\\d{1,2})"), read: dayDotMonth },
  {
    pattern: phrase(`(?:den|the|on\\s+the)\\s+${DOM}(?![:.]\\d)|(\\d{1,2})(?::e|:a|st|nd|rd|th)`),
    read: (m) => {
      const dom = readDom(m[1] ?? m[2])
      return dom === undefined ? undefined : dayToken(dayOfMonthAtom(dom))
    }
  },

  {
    pattern: phrase(
      `(?:mellan|between)\\s+(?:(?:den|the)\\s+)?${DOM}\\s+(?:och|and|-)\\s+(?:(?:den|the)\\s+)?${DOM}\\s+(?:(?:i|of)\\s+)?${MONTH}(?:,?\\s+${YEAR})?`
    ),
    read: (m) => {
      const first = readDom(m[1])
      const last = readDom(m[2])
      const monthNumber = monthIndex.get(m[3] ?? "")
      if (first === undefined || last === undefined || monthNumber === undefined || last <= first) return undefined
      return dayToken(dateRangeAtom(first, last, monthNumber, m[4] === undefined ? undefined : Number(m[4])))
    }
  },

  // Clock times and ranges.
  {
    pattern: phrase(`(?:mellan|between)\\s+${KL}?${CLOCK}\\s*(?:och|and|-)\\s*${KL}?${CLOCK}${CLOCK_DONE}`),
    read: (m) =>
      m[5] === undefined && m[6] === undefined && continuesAsDate(m)
        ? undefined
        : rangeHours(clockMinutes(m[1], m[2], m[3] ?? m[6]), clockMinutes(m[4], m[5], m[6]))
  },
  {
    pattern: phrase(`(?:${KL}|${ABOUT})?${CLOCK}\\s*-\\s*${KL}?${CLOCK}${CLOCK_DONE}`),
    read: (m) =>
      m[5] === undefined && m[6] === undefined && continuesAsDate(m)
        ? undefined
        : rangeHours(clockMinutes(m[1], m[2], m[3] ?? m[6]), clockMinutes(m[4], m[5], m[6]))
  },
  {
    pattern: phrase(
      `${KL}?(halv|half\\s+past|kvart\\s+over|quarter\\s+past|kvart\\s+i|quarter\\s+to)\\s+(\\d{1,2}|${Object.keys(numberWords).join("|")})`
    ),
    read: (m) => {
      const hour = readNumber(m[2])
      const kind = m[1] ?? ""
      if (hour === undefined || hour < 1 || hour > 24) return undefined
      const offset = kind === "halv" ? -30 : kind.includes("past") || kind.includes("over") ? 15 : -15
      const base = clockMinutes(String(hour), undefined, undefined)
      const minutes = base === undefined ? undefined : base + offset
      return minutes === undefined || minutes < 0 ? undefined : pointHours(minutes, clockLabel(minutes))
    }
  },
  {
    pattern: phrase(`(?:${KL}|${ABOUT})${CLOCK}${CLOCK_DONE}`),
    read: (m) => {
      if (m[2] === undefined && m[3] === undefined && continuesAsDate(m)) return undefined
      const minutes = clockMinutes(m[1], m[2], m[3])
      return minutes === undefined ? undefined : pointHours(minutes, clockLabel(minutes))
    }
  },
  {
    pattern: phrase("(\\d{1,2}):(\\d{2})\\s*(am|pm|a\\.m\\.|p\\.m\\.)?|(\\d{1,2})\\s*(am|pm|a\\.m\\.|p\\.m\\.)"),
    read: (m) => {
      const minutes = m[1] === undefined ? clockMinutes(m[4], undefined, m[5]) : clockMinutes(m[1], m[2], m[3])
      return minutes === undefined ? undefined : pointHours(minutes, clockLabel(minutes))
    }
  },
  {
    pattern: phrase("(?:at\\s+|kl\\s+)?(?:12\\s+)?noon|kl(?:ockan)?\\s+tolv"),
    read: () => pointHours(720, clockLabel(720))
  },

  {
    pattern: phrase("(?:vid|runt|kring|framat)?\\s*(?:kl(?:ockan)?\\.?\\s*)?(\\d{1,2})\\s*-?\\s*tiden"),
    read: (m) => {
      const minutes = clockMinutes(m[1], undefined, undefined)
      return minutes === undefined ? undefined : pointHours(minutes, clockLabel(minutes))
    }
  },

  {
    pattern: phrase(
      `(?:kl(?:ockan)?\\.?|at)\\s+(${Object.keys(clockWords).join("|")})(?:\\s*(am|pm|o'?clock))?|(${Object.keys(clockWords).join("|")})\\s+o'?clock`
    ),
    read: (m) => {
      const hour = clockWords[m[1] ?? m[3] ?? ""]
      const meridiem = m[2] === "am" || m[2] === "pm" ? m[2] : undefined
      const minutes = hour === undefined ? undefined : clockMinutes(String(hour), undefined, meridiem)
      return minutes === undefined ? undefined : pointHours(minutes, clockLabel(minutes))
    }
  },

  // Parts of the day.
  ...partEntries(PART_SOURCES.morning, parts.morning),
  ...partEntries(PART_SOURCES.afternoon, parts.afternoon),
  ...partEntries(PART_SOURCES.evening, parts.evening),
  {
    pattern: phrase(
      "bitti|(?:tidigt\\s+)?(?:pa\\s+)?morgon(?:en)?|morgnar(?:na)?|morgontid|(?:tidig|tidiga)\\s+morgon(?:en|nar)?|early\\s+mornings?|first\\s+thing(?:\\s+in\\s+the\\s+morning)?"
    ),
    read: () => parts.earlyMorning
  },
  {
    pattern: phrase("fm|f\\.m\\."),
    read: () => parts.morning
  },
  {
    pattern: phrase("em|e\\.m\\."),
    read: () => parts.afternoon
  },
  {
    pattern: phrase(
      "(?:vid\\s+|runt\\s+|kring\\s+|at\\s+|around\\s+)?lunch(?:tid(?:en)?|en|time)?|mitt\\s+pa\\s+dagen|mitt\\s+pa\\s+dan|midday"
    ),
    read: () => parts.lunch
  },
  {
    pattern: phrase("(?:fore|innan|before)\\s+lunch(?:en)?"),
    read: () => ({ ...parts.morning, label: { sv: "före lunch", en: "before lunch" } })
  },
  { pattern: phrase("efter\\s+lunch(?:en)?|after\\s+lunch"), read: () => parts.afterLunch },
  {
    pattern: phrase("efter\\s+jobbet|efter\\s+arbetstid(?:en)?|after\\s+work"),
    read: () => ({ ...parts.evening, label: { sv: "efter jobbet", en: "after work" } })
  },
  {
    pattern: phrase(
      "dagtid(?:en)?|(?:pa|under)\\s+dagen|dagtid|daytime|during\\s+the\\s+day|arbetstid|kontorstid|office\\s+hours|working\\s+hours|business\\s+hours"
    ),
    read: () => parts.daytime
  },
  { pattern: phrase("hela\\s+dagen|heldag|all\\s+day|(?:the\\s+)?whole\\s+day"), read: () => parts.allDay },
  {
    pattern: phrase("i\\s*natt|inatt|natt(?:en|etid)?|nights?|at\\s+night|overnight"),
    read: () => unknown("nattarbete bokas inte här", "night work is not booked here")
  },

  // Days relative to today.
  {
    pattern: phrase("i\\s*formiddag|this\\s+morning"),
    read: (_m, ctx) => [dayToken(days(ctx.today, ctx.today, { sv: "idag", en: "today" })), parts.morning]
  },
  {
    pattern: phrase("i\\s*eftermiddag|this\\s+afternoon"),
    read: (_m, ctx) => [dayToken(days(ctx.today, ctx.today, { sv: "idag", en: "today" })), parts.afternoon]
  },
  {
    pattern: phrase("i\\s*kvall|ikvall|tonight|this\\s+evening"),
    read: (_m, ctx) => [dayToken(days(ctx.today, ctx.today, { sv: "idag", en: "today" })), parts.evening]
  },
  {
    pattern: phrase("i\\s*morse"),
    read: (_m, ctx) => [dayToken(days(ctx.today, ctx.today, { sv: "idag", en: "today" })), parts.earlyMorning]
  },
  {
    pattern: phrase("i\\s*dag|today"),
    read: (_m, ctx) => dayToken(days(ctx.today, ctx.today, { sv: "idag", en: "today" }))
  },
  {
    pattern: phrase("i\\s*morgon|i\\s*morr?n|tomorrow|tmrw"),
    read: (_m, ctx) => dayToken(days(ctx.today + DAY, ctx.today + DAY, { sv: "imorgon", en: "tomorrow" }))
  },
  {
    pattern: phrase("(?:i\\s*)?overmorgon|(?:the\\s+)?day\\s+after\\s+tomorrow"),
    read: (_m, ctx) =>
      dayToken(days(ctx.today + 2 * DAY, ctx.today + 2 * DAY, { sv: "i övermorgon", en: "the day after tomorrow" }))
  },
  {
    pattern: phrase("i\\s*gar|yesterday"),
    read: (_m, ctx) => dayToken(days(ctx.today - DAY, ctx.today - DAY, { sv: "igår", en: "yesterday" }))
  },
  {
    pattern: phrase(`om\\s+${NUMBER}\\s+dag(?:ar)?|in\\s+${NUMBER}\\s+days?(?:'?\\s+time)?`),
    read: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2])
      if (n === undefined) return undefined
      const day = ctx.today + n * DAY
      return dayToken(
        days(day, day, {
          sv: `om ${n} ${n === 1 ? "dag" : "dagar"}`,
          en: `in ${n} ${n === 1 ? "day" : "days"}`
        })
      )
    }
  },
  {
    pattern: phrase(`(?:efter|after)\\s+${NUMBER}\\s+(dag|dagar|days?|vecka|veckor|weeks?)`),
    read: (m, ctx) => {
      const n = readNumber(m[1])
      if (n === undefined) return undefined
      const count = /^(v|w)/.test(m[2] ?? "") ? n * 7 : n
      const first = ctx.today + count * DAY
      return dayToken(
        days(first, first + 13 * DAY, {
          sv: `efter ${count} ${count === 1 ? "dag" : "dagar"}`,
          en: `after ${count} ${count === 1 ? "day" : "days"}`
        })
      )
    }
  },
  {
    pattern: phrase(`om\\s+${NUMBER}\\s+veck(?:a|or)|in\\s+${NUMBER}\\s+weeks?(?:'?\\s+time)?`),
    read: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2])
      if (n === undefined) return undefined
      return dayToken(
        week(n, { sv: `om ${n} ${n === 1 ? "vecka" : "veckor"}`, en: `in ${n} ${n === 1 ? "week" : "weeks"}` }, ctx)
      )
    }
  },
  {
    pattern: phrase("in\\s+a\\s+fortnight(?:'?s\\s+time)?"),
    read: (_m, ctx) => dayToken(week(2, { sv: "om 2 veckor", en: "in 2 weeks" }, ctx))
  },
  {
    pattern: phrase("(?:within|over)\\s+(?:a|the\\s+next)\\s+fortnight"),
    read: () => ({
      _tag: "FromNow",
      length: 14 * DAY,
      label: { sv: "inom 14 dagar", en: "within 14 days" }
    })
  },
  {
    pattern: phrase(
      "(?:denna|den\\s+har|this)(?:\\s+(?:vecka|veckan|week))?\\s+(?:eller|or|och|and)\\s+(?:nasta|next)(?:\\s+(?:vecka|week))?"
    ),
    read: (_m, ctx) => {
      const monday = mondayOf(ctx.today)
      return dayToken(
        period(() => ({ first: monday, last: monday + 13 * DAY }), {
          sv: "denna eller nästa vecka",
          en: "this or next week"
        })
      )
    }
  },
  {
    pattern: phrase(
      "(?:nasta|next)(?:\\s+(?:vecka|week))?\\s+(?:eller|or|och|and)\\s+(?:nastnasta|overnasta|veckan\\s+efter|the\\s+week\\s+after|the\\s+one\\s+after)(?:\\s+(?:vecka|week))?"
    ),
    read: (_m, ctx) => {
      const monday = mondayOf(ctx.today) + 7 * DAY
      return dayToken(
        period(() => ({ first: monday, last: monday + 13 * DAY }), {
          sv: "nästa eller nästnästa vecka",
          en: "next week or the week after"
        })
      )
    }
  },
  {
    pattern: phrase(
      "(?:denna|den\\s+har|this)(?:\\s+(?:manad|manaden|month))?\\s+(?:eller|or|och|and)\\s+(?:nasta|next)\\s+(?:manad|month)"
    ),
    read: (_m, ctx) => {
      const first = Date.UTC(yearOf(ctx.today), monthOf(ctx.today) - 1, 1)
      const last = Date.UTC(yearOf(ctx.today), monthOf(ctx.today) + 1, 0)
      return dayToken(period(() => ({ first, last }), { sv: "denna eller nästa månad", en: "this or next month" }))
    }
  },
  {
    pattern: phrase(
      "veckan\\s+(?:darpa|efter\\s+nasta)|(?:the\\s+)?week\\s+after\\s+next|(?:overnasta|nastnasta)\\s+vecka"
    ),
    read: (_m, ctx) => dayToken(week(2, { sv: "veckan efter nästa", en: "the week after next" }, ctx))
  },
  {
    pattern: phrase(`om\\s+${NUMBER}\\s+manad(?:er)?|in\\s+${NUMBER}\\s+months?(?:'?\\s+time)?`),
    read: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2])
      if (n === undefined) return undefined
      return dayToken(
        relativeMonth(
          n,
          { sv: `om ${n} ${n === 1 ? "månad" : "månader"}`, en: `in ${n} ${n === 1 ? "month" : "months"}` },
          ctx
        )
      )
    }
  },

  // Weekdays.
  {
    pattern: phrase("(?:mandag|man|monday|mon)\\.?\\s*(?:-|till|to|through|thru)\\s*(?:fredag|fre|friday|fri)\\.?"),
    read: () => dayToken(workingDays)
  },
  {
    pattern: phrase(
      "i\\s+(mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)s|(?:last|forra)\\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)(?:en)?"
    ),
    read: (m, ctx) => {
      const weekday = weekdayIndex.get(m[1] ?? m[2] ?? "")
      return weekday === undefined ? undefined : dayToken(pastWeekday(weekday, ctx))
    }
  },
  {
    pattern: phrase(
      `(?:(?:varje|every|alla|each)\\s+)${WEEKDAY}(?:ar|arna|s)?|(?:pa\\s+|on\\s+)?${WEEKDAY}(?:ar|arna|s)`
    ),
    read: (m) => {
      const weekday = weekdayIndex.get(m[1] ?? m[2] ?? "")
      return weekday === undefined ? undefined : dayToken(recurringWeekday(weekday))
    }
  },
  {
    pattern: phrase(
      `(?:(nasta|next|kommande|coming|this|denna|den\\s+har|nu\\s+pa|the\\s+coming|pa|on)\\s+)?(?:${WEEKDAY}(?:en|ens)?|${ABBREVIATION})`
    ),
    read: (m, ctx) => {
      const weekday = weekdayIndex.get(m[2] ?? "") ?? abbreviationIndex.get(m[3] ?? m[4] ?? "")
      if (weekday === undefined) return undefined
      return dayToken(weekdayAtom(weekday, m[1] === "nasta" || m[1] === "next", ctx))
    }
  },

  // Weekdays and weekends as kinds of day.
  {
    pattern: phrase(
      "(?:pa\\s+|alla\\s+|on\\s+|(?:en|a)\\s+)?(?:vardag(?:ar|arna|en)?|veckodag(?:ar|arna)?|weekdays?|working\\s+days?|work\\s*days?|arbetsdag(?:ar|arna)?|business\\s+days?)"
    ),
    read: () => dayToken(workingDays)
  },
  {
    pattern: phrase("vardags(kvall|formiddag|eftermiddag|morgn|morgon)(?:ar|arna|en)?"),
    read: (m) => [dayToken(workingDays), partOfCompound(m[1])]
  },
  {
    pattern: phrase("helg(kvall|formiddag|eftermiddag|morgn|morgon)(?:ar|arna|en)?"),
    read: (m) => [dayToken(weekends), partOfCompound(m[1])]
  },
  {
    pattern: phrase("(?:pa\\s+|alla\\s+|on\\s+|(?:en|a)\\s+)?(?:helger(?:na)?|weekends|helg)"),
    read: () => dayToken(weekends)
  },
  {
    pattern: phrase(
      "(?:i\\s+|denna\\s+|den\\s+har\\s+|till\\s+|over\\s+|under\\s+|nu\\s+i\\s+)?(?:helgen|veckoslutet)|i\\s+helg|(?:this|the|over\\s+the|on\\s+the|at\\s+the|this\\s+coming)\\s+weekend|weekend"
    ),
    read: (_m, ctx) => {
      const saturday = mondayOf(ctx.today) + 5 * DAY
      return dayToken({
        kind: "period",
        occurrence: () => ({ first: saturday, last: saturday + DAY }),
        label: fixedLabel({ sv: "i helgen", en: "this weekend" }),
        filter: weekends.filter ?? { test: () => true, label: { sv: "", en: "" } }
      })
    }
  },
  {
    pattern: phrase("nasta\\s+helg(?:en)?|next\\s+weekend|helgen\\s+efter(?=\\s*(?:$|[,.!?;]))"),
    read: (_m, ctx) => {
      const saturday = mondayOf(ctx.today) + 12 * DAY
      return dayToken({
        kind: "period",
        occurrence: () => ({ first: saturday, last: saturday + DAY }),
        label: fixedLabel({ sv: "nästa helg", en: "next weekend" }),
        filter: weekends.filter ?? { test: () => true, label: { sv: "", en: "" } }
      })
    }
  },

  // Named days and periods.
  ...holidayEntries,
  {
    pattern: phrase(
      "(?:(?:sport|host|jul|pask|sommar|skol|vinter|sportlovs)lov(?:et|sveckan)?|lovet|(?:school|half[-\\s]?term|winter|spring|autumn|fall|easter|christmas|summer|february|ski)\\s+(?:break|holidays?|vacation))"
    ),
    read: () => schoolHoliday
  },
  {
    pattern: phrase(
      `(?:(?:i|in|the|under|during)\\s+)?(forsta|andra|tredje|fjarde|sista|first|second|third|fourth|last)\\s+(?:veckan|week)\\s+(?:i|of|in|av)\\s+(?:the\\s+)?${PERIOD}`
    ),
    read: (m, ctx) => {
      const inner = readPeriod(m[2] ?? "", ctx)
      if (inner?.thirds !== monthThirds) return undefined
      const n = weekOrdinals.findIndex((words: ReadonlyArray<string>) => words.includes(m[1] ?? "")) + 1
      const ordinal =
        n === 5 ? { sv: "sista", en: "last" } : { sv: svOrdinalNames[n - 1] ?? "", en: enOrdinals[n - 1] ?? "" }
      return dayToken({
        kind: "period",
        occurrence: (from) => {
          const whole = inner.occurrence(from)
          return whole === undefined ? undefined : weekOfMonth(whole, n)
        },
        label: (span) => {
          const name = inner.label(inner.occurrence((span.first + span.last) / 2) ?? span)
          return { sv: `${ordinal.sv} veckan i ${name.sv}`, en: `the ${ordinal.en} week of ${name.en}` }
        }
      })
    }
  },
  {
    // "i vår" is also "in our": only at the end of a phrase is it the spring.
    pattern: phrase(
      "(?:(?:i|till|under|framat|mot)\\s+)?(varen|sommaren|hosten|vintern)|i\\s+(sommar|host|vinter)|i\\s+(var)(?=\\s*(?:$|[,.!?;]|eller\\b|or\\b))|(?:(?:this|next|in\\s+the|in)\\s+)?(spring|summer|autumn|fall|winter)"
    ),
    read: (m) => {
      const name = m[1] ?? m[2] ?? m[3] ?? m[4] ?? ""
      const index = /^(var|spring)/.test(name) ? 0 : /^(som|sum)/.test(name) ? 1 : /^(ho|aut|fall)/.test(name) ? 2 : 3
      return dayToken(season(index))
    }
  },
  {
    pattern: phrase(
      "(?:veckorna|vecka|v\\.?|weeks?|w)\\s*(\\d{1,2})\\s*(-|till|to|eller|or|och|and|/)\\s*(?:vecka\\s*|v\\.?\\s*|week\\s*)?(\\d{1,2})(?!\\d)"
    ),
    read: (m, ctx) => {
      const first = readPeriod(`vecka ${m[1]}`, ctx)?.occurrence(ctx.today)
      const second = readPeriod(`vecka ${m[3]}`, ctx)?.occurrence(first?.first ?? ctx.today)
      if (first === undefined || second === undefined || second.first <= first.first) return undefined
      const through = /^(-|till|to)$/.test(m[2] ?? "") || second.first === first.last + DAY
      return dayToken({
        kind: "period",
        occurrence: () => ({ first: first.first, last: second.last }),
        ...(through ? {} : { only: (day: number) => day <= first.last || day >= second.first }),
        label: () => ({
          sv: `vecka ${m[1]}${through ? "–" : " eller "}${m[3]}`,
          en: `week ${m[1]}${through ? "–" : " or "}${m[3]}`
        })
      })
    }
  },
  {
    pattern: phrase("manadsskiftet|(?:the\\s+)?turn\\s+of\\s+the\\s+month"),
    read: (_m, ctx) => {
      const last = lastOfMonth(yearOf(ctx.today), monthOf(ctx.today))
      return dayToken(
        period(() => ({ first: last - 2 * DAY, last: last + 3 * DAY }), {
          sv: "månadsskiftet",
          en: "the turn of the month"
        })
      )
    }
  },
  {
    pattern: phrase(
      `(?:i\\s+|in\\s+|at\\s+|the\\s+|by\\s+the\\s+|mot\\s+|towards\\s+the\\s+)?(borjan|mitten|slutet|beginning|start|middle|end)\\s+(?:av|pa|of)\\s+(?:the\\s+)?${PERIOD}`
    ),
    read: (m, ctx) => {
      const which = /^(borjan|beginning|start)$/.test(m[1] ?? "") ? 0 : /^(mitten|middle)$/.test(m[1] ?? "") ? 1 : 2
      const atom = partOfPeriod(which, readPeriod(m[2] ?? "", ctx))
      return atom === undefined ? undefined : dayToken(atom)
    }
  },
  {
    pattern: phrase(`(tidigt|sent|early|late|mid-?|mitt)\\s*(?:i\\s+|in\\s+|pa\\s+)?${PERIOD}`),
    read: (m, ctx) => {
      const which = /^(tidigt|early)$/.test(m[1] ?? "") ? 0 : /^mi/.test(m[1] ?? "") ? 1 : 2
      const atom = partOfPeriod(which, readPeriod(m[2] ?? "", ctx))
      return atom === undefined ? undefined : dayToken(atom)
    }
  },
  {
    pattern: phrase("senare\\s+(?:i|denna|den\\s+har)\\s+veckan?|later\\s+(?:this|in\\s+the)\\s+week|midweek"),
    read: (m, ctx) => {
      const monday = mondayOf(ctx.today)
      if (m[0] === "midweek")
        return dayToken(days(monday + DAY, monday + 3 * DAY, { sv: "mitt i veckan", en: "midweek" }))
      return dayToken(days(ctx.today + DAY, monday + 6 * DAY, { sv: "senare i veckan", en: "later this week" }))
    }
  },
  {
    pattern: phrase(`(?:(?:i|under|in|during|for|hela|all|the\\s+whole|resten\\s+av|the\\s+rest\\s+of)\\s+)?${PERIOD}`),
    read: (m, ctx) => {
      const inner = m[1] ?? ""
      const prefixed = m[0] !== inner
      // Abbreviated months and "may" are months only after a preposition ("i dec", "in may").
      if (!prefixed && monthIndex.has(inner.replace(/\.$/, "")) && !new RegExp(`^${MONTH_ALONE}$`).test(inner)) {
        return undefined
      }
      const atom = readPeriod(inner, ctx)
      return atom === undefined ? undefined : dayToken(atom)
    }
  },

  // Spans from now.
  {
    pattern: phrase(
      "(?:snarast|snarast\\s+mojligt|sa\\s+(?:snart|fort)\\s+(?:som\\s+)?(?:mojligt|ni\\s+kan|du\\s+kan|det\\s+gar)|fortast\\s+mojligt|asap|a\\.s\\.a\\.p\\.?" +
        "|as\\s+soon\\s+as\\s+(?:possible|you\\s+can|convenient)|akut(?:a|en)?|urgent(?:ly)?|emergency|brattom|bradskande|omgaende|genast" +
        "|omedelbart|immediately|right\\s+away|(?:nu\\s+)?direkt|right\\s+now|idag\\s+om\\s+mojligt" +
        "|(?:forsta|nasta|tidigast)\\s+(?:lediga|mojliga)(?:\\s+tid(?:en)?)?|(?:next|first|earliest)\\s+(?:available|possible)(?:\\s+(?:time|slot|day))?)"
    ),
    read: () => ({
      _tag: "FromNow",
      length: asapDays * DAY,
      label: { sv: "snarast", en: "as soon as possible" }
    })
  },
  {
    pattern: phrase("snart|soon|inom\\s+kort|shortly|(?:the\\s+)?(?:narmaste|kommande)\\s+veckan"),
    read: (m) => ({
      _tag: "FromNow",
      length: soonDays * DAY,
      label: /vecka/.test(m[0]) ? { sv: "den närmaste veckan", en: "the coming week" } : { sv: "snart", en: "soon" }
    })
  },
  {
    pattern: phrase(
      "(?:inom\\s+)?(?:de\\s+)?(?:narmaste|narmsta|kommande)\\s+dagarna|(?:inom\\s+)?(?:nagra|ett\\s+par)\\s+dagar|(?:in|within|over)?\\s*(?:the\\s+)?(?:next|coming)\\s+(?:few|couple\\s+of)\\s+days|(?:in|within)\\s+a\\s+(?:few|couple\\s+of)\\s+days"
    ),
    read: () => ({
      _tag: "FromNow",
      length: fewDays * DAY,
      label: { sv: "de närmaste dagarna", en: "the next few days" }
    })
  },
  {
    pattern: phrase(
      `(?:inom|pa)\\s+(?:de\\s+)?(?:narmaste\\s+|kommande\\s+)?${NUMBER}(?:\\s*-\\s*${NUMBER})?\\s+(dag|dagar|dagarna|vecka|veckor|veckorna|manad|manader|manaderna|timme|timmar|timmarna|h)` +
        `|(?:de\\s+)?(?:narmaste|kommande)\\s+${NUMBER}\\s+(dagarna|veckorna)` +
        `|(?:within|in|over)\\s+(?:the\\s+)?(?:next\\s+|coming\\s+)?${NUMBER}(?:\\s*-\\s*${NUMBER})?\\s+(days?|weeks?|months?|hours?)` +
        "|(?:inom|within)\\s+(?:en\\s+|a\\s+)?(vecka|week|manad|month|dag|day)"
    ),
    read: (m, ctx) => {
      // The upper end of "inom 1-2 veckor"; "inom en vecka" has no number.
      const n = readNumber(m[2] ?? m[1] ?? m[4] ?? m[7] ?? m[6]) ?? 1
      const unit = m[3] ?? m[5] ?? m[8] ?? m[9] ?? ""
      const kind = /^(v|w)/.test(unit) ? "week" : /^m/.test(unit) ? "month" : /^(t|h)/.test(unit) ? "hour" : "day"
      const inMonths = Date.UTC(yearOf(ctx.today), monthOf(ctx.today) - 1 + n, new Date(ctx.today).getUTCDate())
      const length =
        kind === "month" ? inMonths - ctx.today : n * (kind === "week" ? 7 * DAY : kind === "hour" ? HOUR : DAY)
      const count = kind === "week" ? n * 7 : n
      const label =
        kind === "month"
          ? { sv: `inom ${n} ${n === 1 ? "månad" : "månader"}`, en: `within ${n} ${n === 1 ? "month" : "months"}` }
          : kind === "hour"
            ? { sv: `inom ${n} ${n === 1 ? "timme" : "timmar"}`, en: `within ${n} ${n === 1 ? "hour" : "hours"}` }
            : {
                sv: `inom ${count} ${count === 1 ? "dag" : "dagar"}`,
                en: `within ${count} ${count === 1 ? "day" : "days"}`
              }
      return { _tag: "FromNow", length, label }
    }
  },

  // Any time.
  {
    pattern: phrase(
      "nar\\s+som\\s+helst|(?:nagon|nan|en)\\s+(?:gang|dag)|sometime|some\\s+day|(?:alla|varje)\\s+dagar?|every\\s+day|all\\s+days|(?:vilken|valfri)\\s+dag(?:\\s+som\\s+helst)?|nar\\s+det\\s+passar(?:\\s+(?:er|dig|bast))?|nar\\s+ni\\s+(?:har\\s+tid|kan)" +
        "|whenever(?:\\s+(?:suits|works|you\\s+can))?|any\\s*time|any\\s+day|when\\s+(?:it\\s+suits|you\\s+can|you\\s+have\\s+time)" +
        "|ingen\\s+(?:brads?ka|stress)|(?:det\\s+)?(?:ar\\s+)?(?:inte|ej|not|non)[\\s-]+(?:sa\\s+|so\\s+|speciellt\\s+|sarskilt\\s+)?(?:akut|bradskande|brattom|urgent)" +
        "|no\\s+(?:rush|hurry)|flexibel(?:t)?|flexible|spelar\\s+ingen\\s+roll|doesn'?t\\s+matter"
    ),
    read: () => ({ _tag: "Anytime", label: { sv: "när som helst", en: "any time" } })
  },

  // Connectives.
  { pattern: phrase("eller|or|alternativt|alternatively|annars|otherwise|el\\."), read: word("or") },
  { pattern: /\//gu, read: word("or") },
  { pattern: phrase("och|and|samt"), read: word("and") },
  { pattern: /[&+]/gu, read: word("and") },
  {
    pattern: phrase(
      "(?:men\\s+|dock\\s+|but\\s+|helst\\s+|preferably\\s+|garna\\s+)?(?:inte|ej|icke|not)(?:\\s+(?:pa|on|den|the))?|utom|forutom|except(?:\\s+for|\\s+on)?|excluding|aldrig|never|bortsett\\s+fran|no" +
        // Saying when one is busy is saying when not to come: "jobbar dagtid", "bortrest nästa vecka".
        "|(?:vi\\s+|jag\\s+|hon\\s+|han\\s+|de\\s+)?(?:(?:jobbar|arbetar)(?!\\s+(?:hemifran|hemma|pa\\s+distans))|ar\\s+pa\\s+jobbet|ar\\s+upptagen|ar\\s+upptagna|upptagen|upptagna|bortrest|bortresta|ar\\s+borta|ar\\s+bortresta?|kan\\s+(?:inte|ej)|har\\s+inte\\s+mojlighet|inte\\s+hemma|ej\\s+hemma)" +
        "|(?:i\\s+|we\\s+)?(?:am\\s+|are\\s+|'m\\s+|'re\\s+)?(?:working|at\\s+work|busy|away|unavailable|not\\s+available|not\\s+home|can'?t|cannot)"
    ),
    read: word("not")
  },
  { pattern: phrase("men|but|dock"), read: word("but") },
  {
    pattern: phrase(
      "(?:jobbar|arbetar)\\s+(?:hemifran|hemma|pa\\s+distans)|hemmajobbar|work(?:s|ing)?\\s+from\\s+home"
    ),
    read: word("filler")
  },
  {
    pattern: phrase(
      "helst|garna|preferably|preferable|ideally|om\\s+mojligt|if\\s+possible|foretradesvis|i\\s+forsta\\s+hand|hellre|primarily|rather"
    ),
    read: word("soft")
  },
  { pattern: phrase("fore|innan|before|prior\\s+to|tidigare\\s+an|earlier\\s+than"), read: word("before") },
  {
    pattern: phrase(
      "senast|by|no\\s+later\\s+than|at\\s+the\\s+latest|latest|inte\\s+senare\\s+an|(?:eller|or)\\s+(?:tidigare|earlier)"
    ),
    read: word("by")
  },
  { pattern: phrase("efter|after|senare\\s+an|later\\s+than"), read: word("after") },
  {
    pattern: phrase(
      "fran\\s+och\\s+med|fr\\.?\\s*o\\.?\\s*m\\.?|fran|from|starting(?:\\s+from|\\s+on)?|as\\s+of|beginning|med\\s+start|tidigast|at\\s+the\\s+earliest|no\\s+earlier\\s+than|(?:inte|ej)\\s+(?:fore|innan)|not\\s+before|earliest"
    ),
    read: word("from")
  },
  {
    pattern: phrase("(?:och|eller|or|and)\\s+(?:framat|senare|later|after|beyond)|onwards?|framover|and\\s+beyond"),
    read: word("onwards")
  },
  {
    pattern: phrase(
      "till\\s+och\\s+med|t\\.?\\s*o\\.?\\s*m\\.?|fram\\s+tills?|tills?|to|until|til|through|thru|up\\s+to"
    ),
    read: word("to")
  },
  { pattern: /\s*-\s*/gu, read: word("to") },
  { pattern: phrase("mellan|between"), read: word("between") },

  // Half a phrase ("den här eller nästa vecka" is read whole above): never silently dropped.
  {
    pattern: phrase("den\\s+har|denna|nasta|next|kommande|coming|nastnasta|overnasta"),
    read: () => ({ _tag: "Unknown" })
  },

  // Numbers the grammar reads from their neighbours ("efter 17", "från 8 till 12").
  { pattern: phrase("\\d{1,4}"), read: (m) => ({ _tag: "Number", value: Number(m[0]) }) }
]

// ---------------------------------------------------------------------------------------------
// Words that are about time but were not understood; their presence stops a confident reading.
// ---------------------------------------------------------------------------------------------

const temporalWords = new Set([
  ...monthWords.map(([w]) => w).filter((w) => w !== "may" && w !== "mar"),
  ..."tis ons tors fre lor tue tues wed thu thur thurs fri".split(" "),
  ..."dag dagen dagar dagarna dygn dygnet vecka veckan veckor veckorna helg helgen helger helgerna".split(" "),
  ..."manad manaden manader aret kvart halv timme timmen timmar minut minuter natt natten natter morse".split(" "),
  ..."middag middagen middagstid afton aftonen semester semestern lov lovet jul julen pask pasken nyar".split(" "),
  ..."nyaret midsommar tidig tidigt tidiga sent sena senare tidigare strax datum datumet helgdag helgdagar".split(" "),
  ..."forsta sista first last".split(" "),
  ..."klockan kl tiden tider dags stund vinter vintern sommar sommaren host hosten varen".split(" "),
  ..."day days week weeks weekend weekends month months year years morning mornings afternoon".split(" "),
  ..."afternoons evening evenings night nights tonight noon midnight christmas xmas easter midsummer".split(" "),
  ..."holiday holidays am pm oclock o'clock hour hours minute minutes early late later earlier eve".split(" "),
  ..."fortnight date dates vacation spring summer autumn winter weekday weekdays tomorrow today".split(" ")
])

const temporalEnding =
  /(dag|dagen|dagar|dagarna|afton|aftonen|helg|helgen|helger|lov|lovet|veckan|veckor|veckorna|kvall|kvallen|kvallar|morgon|morgonen|natt|natten|manad|manaden|day|days|eve|morning|evening|night)$/u

const isTemporal = (w: string): boolean => /\d/.test(w) || temporalWords.has(w) || temporalEnding.test(w)

/** The first match of an entry at or after `from` that reads as something. */
const nextHit = (entry: Entry, text: string, from: number, ctx: Context) => {
  // Patterns are global and lex is synchronous, so each one's lastIndex is ours for the call.
  const pattern = entry.pattern
  pattern.lastIndex = from
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const read = m[0].length === 0 ? undefined : entry.read(m, ctx)
    if (read !== undefined) return { match: m, read }
    pattern.lastIndex = m.index + 1
  }
  return undefined
}

/**
 * The tokens of a normalized text, left to right: at each position the longest phrase that
 * reads (ties: table order), then every word about time that none of them covers, as Unknown.
 */
export const lex = (text: string, ctx: Context): ReadonlyArray<Token> => {
  const tokens: Array<Token> = []
  const gaps: Array<readonly [number, number]> = []
  let covered = 0
  // Each entry's next hit, kept while it lies at or after `covered`: every position before it
  // had no match that reads, so a search from any later `covered` up to it finds the same hit,
  // and an entry with no hit from an earlier position has none from a later one either.
  const hits: Array<ReturnType<typeof nextHit> | null> = new Array(entries.length).fill(null)
  for (;;) {
    let best: { readonly match: RegExpExecArray; readonly read: TokenBody | ReadonlyArray<TokenBody> } | undefined
    for (let i = 0; i < entries.length; i++) {
      let hit = hits[i]
      if (hit === null || (hit !== undefined && hit.match.index < covered)) {
        hit = nextHit(entries[i]!, text, covered, ctx)
        hits[i] = hit
      }
      if (
        hit !== undefined &&
        (best === undefined ||
          hit.match.index < best.match.index ||
          (hit.match.index === best.match.index && hit.match[0].length > best.match[0].length))
      ) {
        best = hit
      }
    }
    if (best === undefined) break
    const at = [best.match.index, best.match.index + best.match[0].length] as const
    for (const body of "_tag" in best.read ? [best.read] : best.read) tokens.push({ ...body, at })
    if (at[0] > covered) gaps.push([covered, at[0]])
    covered = at[1]
  }
  gaps.push([covered, text.length])
  for (const [from, to] of gaps) {
    for (const w of text.slice(from, to).matchAll(/[\p{L}\p{N}']+/gu)) {
      if (isTemporal(w[0])) {
        const start = from + w.index
        tokens.push({ _tag: "Unknown", at: [start, start + w[0].length] })
      }
    }
  }
  return tokens.sort((a, b) => a.at[0] - b.at[0])
}

/** Whether the text between two tokens is only filler ("den", "på", "kl") that cannot change their meaning. */
export const onlyFiller = (text: string): boolean =>
  text
    .split(/[^\p{L}\p{N}]+/u)
    .every((w) => w === "" || /^(den|the|pa|on|kl|klockan|i|in|at|nu|om|vid|runt|of|av|dag|day|en|a|ca|cirka)$/.test(w))
