/**
 * Declared data: the lexicon, every Swedish or English phrase the parser knows and the tokens
 * it reads as (the `entries` table, in priority order), with the few entry builders it uses.
 * Texts are matched after `normalize` (lower case, diacritics stripped, so "över" and "over"
 * are one word), hence the ascii patterns.
 */
import { type DaySpan, type NamedDay, namedDays, nextOccurrence } from "../../Domain/Holidays.js"
import { DAY, HOUR, isoWeekday, MINUTE, toInstant } from "../../Domain/Zone.js"
import {
  dateAtom,
  dateRangeAtom,
  dayListAtom,
  dayOfMonthAtom,
  days,
  dayToken,
  month,
  monthThirds,
  named,
  pastWeekday,
  period,
  recurringWeekday,
  relativeMonth,
  season,
  svOrdinalNames,
  week,
  weekdayAtom,
  weekends,
  weekOfMonth,
  weekOrdinals,
  workingDays
} from "./Atoms.js"
import { calendarDay, isoDate, lastOfMonth, mondayOf, monthOf, yearOf } from "./Calendar.js"
import { dayLabel, fixedLabel } from "./Labels.js"
import { phrase } from "./Normalize.js"
import { PERIOD, partOfPeriod, readPeriod } from "./Periods.js"
import {
  asapDays,
  type Context,
  fewDays,
  type Label,
  pointWindowHours,
  soonDays,
  type TokenBody,
  type Word
} from "./Tokens.js"
import { horizonDays } from "./Window.js"
import {
  ABBREVIATION,
  ABOUT,
  abbreviationIndex,
  CLOCK,
  CLOCK_DONE,
  clockLabel,
  clockMinutes,
  clockWords,
  continuesAsDate,
  DOM,
  enOrdinals,
  half,
  KL,
  MONTH,
  MONTH_ALONE,
  monthIndex,
  NUMBER,
  numberWords,
  partOfCompound,
  parts,
  pointHours,
  rangeHours,
  readDom,
  readNumber,
  WEEKDAY,
  weekdayIndex,
  YEAR
} from "./Words.js"

export interface Entry {
  readonly pattern: RegExp
  readonly read: (m: RegExpExecArray, ctx: Context) => TokenBody | ReadonlyArray<TokenBody> | undefined
}

const word = (w: Word) => (): TokenBody => ({ _tag: "Word", word: w })

const unknown = (sv: string, en: string): TokenBody => ({ _tag: "Unknown", note: { sv, en } })
/** A pattern's source with its outer group made non-capturing, for use inside a lookahead. */
const uncaptured = (source: string) => `(?:${source.slice(1)}`

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

/**
 * "veckan före jul", "helgen efter påsk": the whole week (Monday to Sunday) or weekend before the
 * named day's occurrence or after it, not this week narrowed by "före jul".
 */
const besideHolidayEntries: ReadonlyArray<Entry> = holidayPhrases.map(([source, name]) => ({
  pattern: phrase(
    `(?:the\\s+)?(veckan|week|helgen|weekend)\\s+(fore|innan|before|efter|after)\\s+(?:the\\s+)?(?:${source})`
  ),
  read: (m, ctx) => {
    const week = m[1] === "veckan" || m[1] === "week"
    const before = m[2] === "fore" || m[2] === "innan" || m[2] === "before"
    const beside = (holiday: DaySpan): number => {
      if (week) return before ? mondayOf(holiday.first) - 7 * DAY : mondayOf(holiday.last) + 7 * DAY
      const saturday = mondayOf(before ? holiday.first : holiday.last) + 5 * DAY
      if (before) return saturday + DAY >= holiday.first ? saturday - 7 * DAY : saturday
      return saturday <= holiday.last ? saturday + 7 * DAY : saturday
    }
    // After a holiday that has just been, its week or weekend after may still be to come ("veckan efter jul" on 30 December).
    // And one that ended within the horizon, when the next lies beyond it, is the one that has passed.
    const lately = beside(nextOccurrence(name, ctx.today - horizonDays * DAY))
    const next = beside(nextOccurrence(name, ctx.today))
    const latelyLast = lately + (week ? 6 : 1) * DAY
    const first =
      lately !== next &&
      latelyLast >= ctx.today - horizonDays * DAY &&
      (latelyLast >= ctx.today || next >= ctx.today + horizonDays * DAY)
        ? lately
        : next
    const last = first + (week ? 6 : 1) * DAY
    const { sv, en } = namedDays[name]
    const when = `${isoDate(first)}–${isoDate(last)}`
    return dayToken(
      days(first, last, {
        sv: `${week ? "veckan" : "helgen"} ${before ? "före" : "efter"} ${sv} ${when}`,
        en: `the ${week ? "week" : "weekend"} ${before ? "before" : "after"} ${en} ${when}`
      })
    )
  }
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
  const plausibleDate =
    occurrence !== undefined && occurrence.first >= ctx.today && occurrence.first - ctx.today <= 62 * DAY
  if (plausibleDate && plausibleTime)
    return unknown("kan vara ett datum eller ett klockslag", "could be a date or a time")
  if (plausibleTime && asTime !== undefined) return pointHours(asTime, clockLabel(asTime))
  return date === undefined ? unknown("varken datum eller klockslag", "neither a date nor a time") : dayToken(date)
}

export const entries: ReadonlyArray<Entry> = [
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

  // Calendar dates in words and numbers, day before month as Swedes write them. "från" belongs to
  // a range ("från 15 till 20 december"); before a single date it is the open-ended "from".
  {
    pattern: phrase(
      `(?:(?:fran|from)\\s+(?=(?:(?:den|the|on\\s+the)\\s+)?${uncaptured(DOM)}\\s*(?:-|till|to)))?(?:(?:den|the|on\\s+the)\\s+)?${DOM}(?:\\s*(?:-|till|to)\\s*(?:(?:den|the)\\s+)?${DOM})?\\s+(?:(?:i|of|av)\\s+)?${MONTH}(?:,?\\s+${YEAR})?`
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
    // "efter 10 och före 14" is one range, as "efter 10 men före 14" is.
    pattern: phrase(
      `(?:efter|after)\\s+${KL}?${CLOCK}\\s*,?\\s*(?:och|and|men|but)\\s+(?:fore|innan|before)\\s+${KL}?${CLOCK}${CLOCK_DONE}`
    ),
    // The second time's am/pm holds for the first only where that makes a range ("after 9 and before 11am").
    read: (m) =>
      rangeHours(clockMinutes(m[1], m[2], m[3] ?? m[6]), clockMinutes(m[4], m[5], m[6])) ??
      rangeHours(clockMinutes(m[1], m[2], m[3]), clockMinutes(m[4], m[5], m[6]))
  },
  {
    // "från 10-14" is the range, not "from 10" with the 14 lost.
    pattern: phrase(`(?:(?:fran|from)\\s+)?(?:${KL}|${ABOUT})?${CLOCK}\\s*-\\s*${KL}?${CLOCK}${CLOCK_DONE}`),
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
      // "halv tio" is 9:30 and "half past nine" 9:30; a quarter is 15 minutes either way.
      const offset = kind === "halv" ? -30 : kind.startsWith("half") ? 30 : /past|over/.test(kind) ? 15 : -15
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
    pattern: phrase(
      `om\\s+${NUMBER}\\s+dag(?:ar)?|in\\s+${NUMBER}\\s+days?(?:'?\\s+time)?|${NUMBER}\\s+dag(?:ar)?\\s+fran\\s+(?:nu|idag|i\\s*dag)|${NUMBER}\\s+days?\\s+from\\s+(?:now|today)`
    ),
    read: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2] ?? m[3] ?? m[4])
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
    pattern: phrase(
      `om\\s+${NUMBER}\\s+veck(?:a|or)|in\\s+${NUMBER}\\s+weeks?(?:'?\\s+time)?|${NUMBER}\\s+veck(?:a|or)\\s+fran\\s+(?:nu|idag|i\\s*dag)|${NUMBER}\\s+weeks?\\s+from\\s+(?:now|today)`
    ),
    read: (m, ctx) => {
      const n = readNumber(m[1] ?? m[2] ?? m[3] ?? m[4])
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
      // "i tisdags eller onsdags": the "i" holds for both, so both days have passed.
      "i\\s+(mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)s(?:\\s*(?:,|eller|or|och|and)\\s*(mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)s)?|(?:last|forra)\\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mandag|tisdag|onsdag|torsdag|fredag|lordag|sondag)(?:en)?"
    ),
    read: (m, ctx) => {
      const weekday = weekdayIndex.get(m[1] ?? m[3] ?? "")
      if (weekday === undefined) return undefined
      const second = m[2] === undefined ? undefined : weekdayIndex.get(m[2])
      return second === undefined
        ? dayToken(pastWeekday(weekday, ctx))
        : [dayToken(pastWeekday(weekday, ctx)), word("or")(), dayToken(pastWeekday(second, ctx))]
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
      "(?:i\\s+|denna\\s+|den\\s+har\\s+|till\\s+|over\\s+|under\\s+|nu\\s+i\\s+|kommande\\s+)?(?:helgen|veckoslutet)|(?:i|kommande)\\s+helg|(?:this|the|over\\s+the|on\\s+the|at\\s+the|this\\s+coming)\\s+weekend|weekend"
    ),
    read: (_m, ctx) => {
      const saturday = mondayOf(ctx.today) + 5 * DAY
      return dayToken({
        kind: "period",
        occurrence: () => ({ first: saturday, last: saturday + DAY }),
        label: fixedLabel({ sv: "i helgen", en: "this weekend" }),
        // "inte i helgen" is this weekend only, not every weekend.
        pinned: true,
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
        // "inte i helgen" is this weekend only, not every weekend.
        pinned: true,
        filter: weekends.filter ?? { test: () => true, label: { sv: "", en: "" } }
      })
    }
  },
  {
    pattern: phrase("(?:i\\s+)?forra\\s+(?:helgen|helg|veckoslutet)|(?:the\\s+)?(?:last|previous)\\s+weekend"),
    read: (_m, ctx) => {
      const saturday = mondayOf(ctx.today) - 2 * DAY
      return dayToken(days(saturday, saturday + DAY, { sv: "förra helgen", en: "last weekend" }))
    }
  },

  {
    // "3:e advent", "andra advent", "the first Sunday of Advent": the Sundays before Christmas Eve.
    pattern: phrase(
      "(?:([1-4]):?(?:a|e)|(forsta|andra|tredje|fjarde))\\s+advent(?:ssondag(?:en)?)?|(?:the\\s+)?(first|second|third|fourth)\\s+(?:sunday\\s+(?:of|in)\\s+)?advent"
    ),
    read: (m, ctx) => {
      const n =
        m[1] !== undefined
          ? Number(m[1])
          : weekOrdinals.findIndex((words: ReadonlyArray<string>) => words.includes(m[2] ?? m[3] ?? "")) + 1
      if (n < 1 || n > 4) return undefined
      const sundayOf = (year: number) => {
        const eve = Date.UTC(year, 11, 24)
        return eve - (isoWeekday(eve) % 7) * DAY - (4 - n) * 7 * DAY
      }
      const year = yearOf(ctx.today)
      // This year's while it is to come or passed within the horizon, else next year's.
      const day = sundayOf(year) >= ctx.today - horizonDays * DAY ? sundayOf(year) : sundayOf(year + 1)
      const names = ["första", "andra", "tredje", "fjärde"] as const
      const english = ["first", "second", "third", "fourth"] as const
      return dayToken(
        days(day, day, {
          sv: `${names[n - 1]} advent ${isoDate(day)}`,
          en: `the ${english[n - 1]} Sunday of Advent ${isoDate(day)}`
        })
      )
    }
  },

  // Named days and periods.
  ...besideHolidayEntries,
  ...holidayEntries,
  {
    pattern: phrase(
      "(?:(?:sport|host|jul|pask|sommar|skol|vinter|sportlovs)lov(?:et|sveckan)?|lovet|(?:school|half[-\\s]?term|winter|spring|autumn|fall|easter|christmas|summer|february|ski)\\s+(?:break|holidays?|vacation))"
    ),
    read: () => schoolHoliday
  },
  {
    // "sista fredagen i december", "the first Monday of January": that weekday of that month.
    pattern: phrase(
      `(?:the\\s+)?(forsta|andra|tredje|fjarde|femte|sista|first|second|third|fourth|fifth|last)\\s+${WEEKDAY}(?:en)?\\s+(?:i|of|in)\\s+${MONTH}(?:\\s+${YEAR})?`
    ),
    read: (m) => {
      const ordinal = m[1] ?? ""
      const n = /^(femte|fifth)$/.test(ordinal)
        ? 5
        : weekOrdinals.findIndex((words: ReadonlyArray<string>) => words.includes(ordinal)) + 1
      const last = /^(sista|last)$/.test(ordinal)
      const weekday = weekdayIndex.get(m[2] ?? "")
      const monthNumber = monthIndex.get(m[3] ?? "")
      if (n === 0 || weekday === undefined || monthNumber === undefined) return undefined
      const inMonth = month(monthNumber, m[4] === undefined ? undefined : Number(m[4]))
      const dayIn = (span: DaySpan): number | undefined => {
        if (last) return span.last - ((isoWeekday(span.last) - weekday + 7) % 7) * DAY
        const day = span.first + (((weekday - isoWeekday(span.first) + 7) % 7) + (n - 1) * 7) * DAY
        return day <= span.last ? day : undefined
      }
      const span = inMonth.occurrence(Date.UTC(2000, 0, 1))
      if (span !== undefined && m[4] !== undefined && dayIn(span) === undefined)
        return unknown("den dagen finns inte den månaden", "that month has no such day")
      return dayToken({
        kind: "date",
        occurrence: (from) => {
          const month = inMonth.occurrence(from)
          const day = month === undefined ? undefined : dayIn(month)
          return day === undefined ? undefined : { first: day, last: day }
        },
        label: (span) => dayLabel(span.first)
      })
    }
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
      // "by the end of the month" is a deadline: "by" is read on its own, before the part.
      `(?:i\\s+|in\\s+|at\\s+|the\\s+|mot\\s+|towards\\s+the\\s+)?(borjan|mitten|slutet|beginning|start|middle|end)\\s+(?:av|pa|of)\\s+(?:the\\s+)?${PERIOD}`
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
    // "anything but Friday" is every day except Friday.
    pattern: phrase("(?:anything|any\\s*time|any\\s+day|every\\s*day|all\\s+days|whenever)\\s+but"),
    read: () => [{ _tag: "Anytime", label: { sv: "när som helst", en: "any time" } }, word("not")()]
  },
  {
    pattern: phrase(
      "nar\\s+som\\s+helst|(?:nagon|nan|en)\\s+(?:gang|dag)|sometime|some\\s+day|(?:alla|varje)\\s+dag(?:ar)?|every\\s+day|all\\s+days|(?:vilken|valfri)\\s+dag(?:\\s+som\\s+helst)?|nar\\s+det\\s+passar(?:\\s+(?:er|dig|bast))?|nar\\s+ni\\s+(?:har\\s+tid|kan)" +
        "|whenever(?:\\s+(?:suits|works|you\\s+can))?|any\\s*time|any\\s+day|when\\s+(?:it\\s+suits|you\\s+can|you\\s+have\\s+time)" +
        "|ingen\\s+(?:brads?ka|stress)|(?:det\\s+)?(?:ar\\s+)?(?:inte|ej|not|non)[\\s-]+(?:sa\\s+|so\\s+|speciellt\\s+|sarskilt\\s+)?(?:akut|bradskande|brattom|urgent)" +
        "|no\\s+(?:rush|hurry)|flexibel(?:t)?|flexible|spelar\\s+ingen\\s+roll|doesn'?t\\s+matter" +
        "|ingen\\s+(?:preferens|skillnad|fara)|inga\\s+(?:onskemal|preferenser|krav)|no\\s+(?:preference|worries|difference)|spelar\\s+(?:inte|ingen)\\s+(?:sa\\s+)?(?:stor\\s+)?roll|inte\\s+sa\\s+noga|hemma\\s+eller\\s+borta"
    ),
    read: () => ({ _tag: "Anytime", label: { sv: "när som helst", en: "any time" } })
  },

  // Connectives.
  { pattern: phrase("eller|or|nor|alternativt|alternatively|annars|otherwise|el\\."), read: word("or") },
  { pattern: /[,;]/gu, read: word("comma") },
  // A condition is not read ("om inte fredag så måndag"); "om det inte regnar" is filler below.
  {
    pattern: phrase("om\\s+inte|if\\s+not|unless"),
    read: () => unknown("villkor läses inte", "conditions are not read")
  },
  {
    pattern: phrase(
      // Negations that say yes: "fredag är inga problem", "why not Friday".
      "no\\s+problem|(?:is\\s+|'s\\s+)?not\\s+a\\s+problem|(?:ar\\s+)?inte\\s+(?:ett\\s+)?problem|inga\\s+problem|(?:ar\\s+)?inte\\s+omojligt|varfor\\s+inte|why\\s+not|" +
        "(?:gar|funkar|fungerar|passar)\\s+(?:bra|fint|utmarkt|ocksa)|(?:ar|blir|vore)\\s+(?:bra|ok|okej|fint|perfekt)|funkar|passar|bra|ok|okej|kan(?:\\s+(?:jag|vi))?" +
        "|(?:is|are|'s|'re|would\\s+be)\\s+(?:fine|ok|okay|good|great|perfect)|(?:would|will)\\s+work|works|suits|fine"
    ),
    read: word("yes")
  },
  { pattern: /\//gu, read: word("or") },
  { pattern: phrase("och|and|samt"), read: word("and") },
  { pattern: /[&+]/gu, read: word("and") },
  {
    pattern: phrase(
      "(?:men\\s+|dock\\s+|but\\s+|helst\\s+|preferably\\s+|garna\\s+)?(?:inte|ej|icke|not)(?:\\s+(?:pa|on|den|the))?|utom|forutom|except(?:\\s+for|\\s+on)?|excluding|aldrig|never|bortsett\\s+fran|no" +
        // Saying when one is busy is saying when not to come: "jobbar dagtid", "bortrest nästa vecka".
        "|(?:vi\\s+|jag\\s+|hon\\s+|han\\s+|de\\s+)?(?:(?:jobbar|arbetar)(?!\\s+(?:hemifran|hemma|pa\\s+distans))|ar\\s+pa\\s+jobbet|ar\\s+upptagen|ar\\s+upptagna|upptagen|upptagna|bortrest|bortresta|ar\\s+borta|ar\\s+bortresta?|kan\\s+(?:inte|ej)|har\\s+inte\\s+mojlighet|inte\\s+hemma|ej\\s+hemma)" +
        "|(?:i\\s+|we\\s+)?(?:am\\s+|are\\s+|'m\\s+|'re\\s+)?(?:working|at\\s+work|busy|away|unavailable|not\\s+available|not\\s+home|can'?t|cannot)" +
        // After a day these say it does not suit: "fredag är dåligt", "Friday doesn't work".
        "|borta|inga|ingen|varken|neither|nej|upptaget|(?:funkar|passar|gar)\\s+(?:inte|ej|daligt)|(?:is|are|'s|'re)\\s+out|(?:ar|blir|vore)\\s+(?:daligt|dalig|omojligt|svart)|(?:does\\s*n'?o?t|do\\s*n'?o?t|won'?t|will\\s+not|can'?t|cannot)\\s+work|(?:is|are|'s|'re)\\s+(?:bad|no\\s+good|not\\s+(?:good|possible|ok))|(?:isn|aren)'?t\\s+(?:good|possible|ok)"
    ),
    read: word("not")
  },
  { pattern: phrase("men|but|dock|utan"), read: word("but") },
  {
    pattern: phrase(
      "(?:jobbar|arbetar)\\s+(?:hemifran|hemma|pa\\s+distans)|hemmajobbar|work(?:s|ing)?\\s+from\\s+home" +
        // Doubt is not a "no": "fredag? vet inte" still says Friday; nor is a condition or a thanks.
        "|(?:jag\\s+)?vet\\s+(?:inte|ej)|ingen\\s+aning|no\\s+idea|(?:i\\s+)?do\\s*n'?o?t\\s+know|not\\s+sure|(?:lite\\s+)?osaker|(?:ar\\s+)?inte\\s+saker" +
        "|om\\s+det\\s+inte\\s+\\p{L}+|gar\\s+inte\\s+att\\s+flytta|(?:nej\\s+)?tack" +
        // Numbers that are not about time, when the job's facts come with the time: "75 kvm, helst
        // nästa vecka", "portkod 1234", "det tar ca 2 timmar".
        "|\\d+(?:[.,]\\d+)?\\s*(?:kvm|m2|m²|kvadratmeter|kvadrat|sqm|square\\s+met(?:re|er)s?|kr|kronor|sek|st|stycken|rum|fonster|windows?|rooms?|%)" +
        "|(?:portkod(?:en)?|kod(?:en)?|door\\s*code|lgh|lagenhet|vaning|floor|trappor?)\\s*(?:nr\\.?\\s*)?\\d+" +
        // An ordinal of the home, not a date: "1:a hand", "2:a våningen", "en 3:a", "3 rok", "2 tr".
        "|\\d:a\\s+hand(?:en)?|\\d{1,2}:?(?:a|e)\\s+(?:vaning(?:en)?|van\\.?|floor|trappa(?:n)?|tr\\.?)|(?:en|min|var|vart)\\s+\\d:a(?![\\s:]*\\d)" +
        "|\\d+\\s*(?:rok|r\\.o\\.k\\.?|tr\\.?|trappor|personer|pers|kartonger|flyttkartonger|lador|katter|hundar|husdjur)" +
        "|(?<!(?:om|in|inom|within)\\s+(?:ca\\.?\\s*|cirka\\s+|about\\s+|around\\s+|ungefar\\s+)?)\\d+(?:[.,]\\d+)?\\s*(?:h|tim|timmar|timme|hours?)(?=\\s*(?:$|[,.;!]|racker|is\\s+enough))" +
        "|(?:tar|takes|will\\s+take)\\s+(?:ca\\.?\\s+|cirka\\s+|about\\s+|around\\s+|ungefar\\s+)?\\d+(?:[.,]\\d+)?\\s*(?:timmar|timme|tim|h|hours?|minuter|min|minutes?)"
    ),
    read: word("filler")
  },
  {
    pattern: phrase(
      "helst|garna|preferably|preferable|ideally|om\\s+mojligt|if\\s+possible|foretradesvis|i\\s+forsta\\s+hand|hellre|primarily|rather" +
        "|(?:ar|vore|passar|funkar)\\s+bast|bast|(?:is|would\\s+be|works)\\s+best"
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
      "(?:inte|ej)\\s+forran|not\\s+until|no\\s+sooner\\s+than|not\\s+sooner\\s+than|fran\\s+och\\s+med|fr\\.?\\s*o\\.?\\s*m\\.?|fran|from|starting(?:\\s+from|\\s+on)?|as\\s+of|beginning|med\\s+start|tidigast|at\\s+the\\s+earliest|no\\s+earlier\\s+than|(?:inte|ej)\\s+(?:fore|innan)|not\\s+before|earliest"
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
