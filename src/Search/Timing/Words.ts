import { clock } from "./Labels.js"
import { type Label, pointWindowHours, type TokenBody } from "./Tokens.js"

// biome-ignore format: a table, Swedish then English
export const numberWords: Readonly<Record<string, number>> = {
  en: 1, ett: 1, tva: 2, tre: 3, fyra: 4, fem: 5, sex: 6, sju: 7, atta: 8, nio: 9, tio: 10, elva: 11, tolv: 12,
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12
}
/** Hours said in words after "kl" ("kl tio", "at ten"); "en"/"a" are left out, being articles as often. */
// biome-ignore format: a table
export const clockWords: Readonly<Record<string, number>> = {
  ...Object.fromEntries(Object.entries(numberWords).filter(([w]) => !["en", "ett", "a", "an"].includes(w))),
  ett: 1, tretton: 13, fjorton: 14, femton: 15, sexton: 16, sjutton: 17, arton: 18, nitton: 19, tjugo: 20
}
export const NUMBER = `(\\d{1,3}|${Object.keys(numberWords).join("|")})`
export const readNumber = (text: string | undefined): number | undefined =>
  text === undefined ? undefined : /^\d+$/.test(text) ? Number(text) : numberWords[text]

const svOrdinalUnits = "forsta andra tredje fjarde femte sjatte sjunde attonde nionde".split(" ")
const svOrdinals: ReadonlyArray<string> = [
  ...svOrdinalUnits,
  ..."tionde elfte tolfte trettonde fjortonde femtonde sextonde sjuttonde artonde nittonde tjugonde".split(" "),
  ...svOrdinalUnits.map((unit) => `tjugo${unit}`),
  "trettionde",
  "trettioforsta"
]
const enOrdinalUnits = "first second third fourth fifth sixth seventh eighth ninth".split(" ")
export const enOrdinals: ReadonlyArray<string> = [
  ...enOrdinalUnits,
  ..."tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split(
    " "
  ),
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
export const DOM = `(\\d{1,2}(?!\\d)(?::e|:a|st|nd|rd|th|e)?|${ORDINAL_WORD})`
export const readDom = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined
  const digits = /^(\d{1,2})/.exec(text)
  const value = digits ? Number(digits[1]) : ordinalValue.get(text.replace("-", ""))
  return value !== undefined && value >= 1 && value <= 31 ? value : undefined
}

export const monthWords: ReadonlyArray<readonly [string, number]> = [
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
export const monthIndex = new Map(monthWords)
export const MONTH = `(${monthWords.map(([word]) => word).join("|")})\\.?`
/** Month names that mean the month on their own; "jul" alone is Christmas and "may" a verb. */
export const MONTH_ALONE = `(${monthWords
  .map(([word]) => word)
  .filter((word) => (word.length > 3 && word !== "sept") || word === "maj")
  .join("|")})`
export const YEAR = "(\\d{4})"

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
export const weekdayIndex = new Map(weekdayWords)
export const WEEKDAY = `(${weekdayWords.map(([word]) => word).join("|")})`
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
export const abbreviationIndex = new Map(abbreviations.map(([word, day]) => [word, day]))
const STRICT = abbreviations
  .filter(([, , strict]) => strict)
  .map(([word]) => word)
  .join("|")
/** Where a strict abbreviation counts: after a dash, a slash, "eller" or a comma ("fre-sön"), or before one ("sön 13/12"). */
const NEXT_TO_A_DAY = `(?:(?<=(?:[-/]|eller|or|och|and|,)\\s*)|(?=(?:${STRICT})\\.?\\s*(?:\\d|[-/]|den\\s|eller\\s|or\\s|och\\s|and\\s|,)))`
export const ABBREVIATION = `(?:(${abbreviations
  .filter(([, , strict]) => !strict)
  .map(([word]) => word)
  .join("|")})\\.?|${NEXT_TO_A_DAY}(${STRICT})\\.?)`

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

export const CLOCK = `(\\d{1,2})(?:[:.](\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?`
export const KL = `(?:kl(?:ockan)?\\.?\\s*)`
export const ABOUT = `(?:(?:vid|runt|omkring|kring|cirka|ca\\.?|ungefar|around|about|approx\\.?|at|@)\\s*)`
/** A clock time is read whole: "9:00" is never "9" followed by ":00". */
export const CLOCK_DONE = "(?![:.]?\\d)"
const dateOrDurationAfter = new RegExp(
  `^\\s*(?:dag|day|veck|week|tim|hour|min|manad|month|ar\\b|years?\\b|[/.]\\d|:e|(?:${monthWords
    .map(([word]) => word)
    .join("|")})(?!\\p{L}))`,
  "u"
)
/** A bare number is not a time of day when a unit, a month or a date continues it ("3 dagar", "3 december", "3/12"). */
export const continuesAsDate = (m: RegExpExecArray): boolean =>
  dateOrDurationAfter.test(m.input.slice(m.index + m[0].length))

/** A time of day as the hours from it. 24:00 ends a range ("8–24"); as a time it names no day of its own. */
export const pointHours = (from: number, label: Label): TokenBody =>
  from >= 24 * 60
    ? {
        _tag: "Unknown",
        note: { sv: "24:00 är midnatt, mellan två dagar", en: "24:00 is midnight, between two days" }
      }
    : { _tag: "Hours", hours: { from, to: Math.min(from + pointWindowHours * 60, 24 * 60) }, point: true, label }

export const clockLabel = (minutes: number): Label => ({ sv: `kl ${clock(minutes)}`, en: `at ${clock(minutes)}` })

export const rangeHours = (from: number | undefined, to: number | undefined): TokenBody | undefined => {
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

export const parts = {
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
export const partOfCompound = (word: string | undefined) => compoundParts[word ?? ""] ?? parts.earlyMorning

/** "tidig eftermiddag" is its first half, "sen eftermiddag" its second. */
export const half = (part: TokenBody, which: "early" | "late"): TokenBody => {
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
