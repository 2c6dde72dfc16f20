/**
 * Swedish public holidays and the days people name around them, computed for any year on
 * wall-clock days (see Zone.ts), never listed by year.
 */
import { DAY, isoWeekday } from "./Zone.js"

/** First and last wall-clock day, inclusive. */
export interface DaySpan {
  readonly first: number
  readonly last: number
}

export interface NamedDays {
  readonly sv: string
  readonly en: string
  /** The occurrence that belongs to `year` (nyår starts on 31 December of `year`). */
  readonly span: (year: number) => DaySpan
}

const date = (year: number, month: number, day: number): number => Date.UTC(year, month - 1, day)

const one = (day: number): DaySpan => ({ first: day, last: day })

/** Easter Sunday by the anonymous Gregorian (Meeus/Jones/Butcher) algorithm. */
export const easterSunday = (year: number): number => {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return date(year, month, day)
}

/** The first day on or after `from` that falls on `weekday` (1 = Monday). */
const weekdayFrom = (from: number, weekday: number): number => from + ((weekday - isoWeekday(from) + 7) % 7) * DAY

const easter = (offset: number) => (year: number) => one(easterSunday(year) + offset * DAY)
const fixed = (month: number, day: number) => (year: number) => one(date(year, month, day))
const fixedSpan = (month: number, first: number, last: number) => (year: number) => ({
  first: date(year, month, first),
  last: date(year, month, last)
})

/** Midsommarafton is the Friday between 19 and 25 June. */
const midsummerEve = (year: number): number => weekdayFrom(date(year, 6, 19), 5)
/** Alla helgons dag is the Saturday between 31 October and 6 November. */
const allSaintsDay = (year: number): number => weekdayFrom(date(year, 10, 31), 6)

export const namedDays = {
  nyarsdagen: { sv: "nyårsdagen", en: "New Year's Day", span: fixed(1, 1) },
  trettondagsafton: { sv: "trettondagsafton", en: "Twelfth Night", span: fixed(1, 5) },
  trettondagen: { sv: "trettondedag jul", en: "Epiphany", span: fixed(1, 6) },
  allaHjartansDag: { sv: "alla hjärtans dag", en: "Valentine's Day", span: fixed(2, 14) },
  fettisdagen: { sv: "fettisdagen", en: "Shrove Tuesday", span: easter(-47) },
  skartorsdag: { sv: "skärtorsdagen", en: "Maundy Thursday", span: easter(-3) },
  langfredag: { sv: "långfredagen", en: "Good Friday", span: easter(-2) },
  paskafton: { sv: "påskafton", en: "Holy Saturday", span: easter(-1) },
  paskdagen: { sv: "påskdagen", en: "Easter Sunday", span: easter(0) },
  annandagPask: { sv: "annandag påsk", en: "Easter Monday", span: easter(1) },
  pask: {
    sv: "påsken",
    en: "Easter",
    span: (year: number) => ({ first: easterSunday(year) - 2 * DAY, last: easterSunday(year) + DAY })
  },
  valborg: { sv: "valborgsmässoafton", en: "Walpurgis Night", span: fixed(4, 30) },
  forstaMaj: { sv: "första maj", en: "May Day", span: fixed(5, 1) },
  kristiHimmelsfard: { sv: "Kristi himmelsfärdsdag", en: "Ascension Day", span: easter(39) },
  morsDag: {
    sv: "mors dag",
    en: "Mother's Day",
    span: (year: number) => one(weekdayFrom(date(year, 5, 25), 7))
  },
  pingstafton: { sv: "pingstafton", en: "Whitsun Eve", span: easter(48) },
  pingstdagen: { sv: "pingstdagen", en: "Whit Sunday", span: easter(49) },
  nationaldagen: { sv: "nationaldagen", en: "National Day", span: fixed(6, 6) },
  midsommarafton: { sv: "midsommarafton", en: "Midsummer Eve", span: (year: number) => one(midsummerEve(year)) },
  midsommardagen: {
    sv: "midsommardagen",
    en: "Midsummer Day",
    span: (year: number) => one(midsummerEve(year) + DAY)
  },
  midsommar: {
    sv: "midsommar",
    en: "Midsummer",
    span: (year: number) => ({ first: midsummerEve(year), last: midsummerEve(year) + 2 * DAY })
  },
  allhelgonaafton: {
    sv: "allhelgonaafton",
    en: "All Saints' Eve",
    span: (year: number) => one(allSaintsDay(year) - DAY)
  },
  allaHelgonsDag: { sv: "alla helgons dag", en: "All Saints' Day", span: (year: number) => one(allSaintsDay(year)) },
  farsDag: {
    sv: "fars dag",
    en: "Father's Day",
    span: (year: number) => one(weekdayFrom(date(year, 11, 1), 7) + 7 * DAY)
  },
  lucia: { sv: "lucia", en: "Saint Lucy's Day", span: fixed(12, 13) },
  julafton: { sv: "julafton", en: "Christmas Eve", span: fixed(12, 24) },
  juldagen: { sv: "juldagen", en: "Christmas Day", span: fixed(12, 25) },
  annandagJul: { sv: "annandag jul", en: "Boxing Day", span: fixed(12, 26) },
  jul: { sv: "julen", en: "Christmas", span: fixedSpan(12, 24, 26) },
  mellandagarna: { sv: "mellandagarna", en: "the days between Christmas and New Year", span: fixedSpan(12, 27, 30) },
  nyarsafton: { sv: "nyårsafton", en: "New Year's Eve", span: fixed(12, 31) },
  nyar: {
    sv: "nyår",
    en: "New Year",
    span: (year: number) => ({ first: date(year, 12, 31), last: date(year + 1, 1, 1) })
  },
  arsskiftet: { sv: "årsskiftet", en: "the turn of the year", span: (year: number) => one(date(year + 1, 1, 1)) }
} satisfies Record<string, NamedDays>

export type NamedDay = keyof typeof namedDays

/** The occurrence of a named day that has not ended by `today`: this year's, else next year's. */
export const nextOccurrence = (name: NamedDay, today: number): DaySpan => {
  const year = new Date(today).getUTCFullYear()
  const { span } = namedDays[name]
  for (const candidate of [year - 1, year, year + 1]) {
    const occurrence = span(candidate)
    if (occurrence.last >= today) return occurrence
  }
  return span(year + 1)
}
