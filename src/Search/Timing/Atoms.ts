import { type DaySpan, type NamedDay, namedDays, nextOccurrence } from "../../Domain/Holidays.js"
import { monthNames } from "../../Domain/Months.js"
import { DAY, isoWeekday } from "../../Domain/Zone.js"
import { calendarDay, isoDate, lastOfMonth, mondayOf, monthOf, one, yearOf } from "./Calendar.js"
import { dayLabel, fixedLabel, spanLabel, weekdayName } from "./Labels.js"
import type { Context, DayAtom, DayFilter, Label, TokenBody } from "./Tokens.js"
import { horizonDays } from "./Window.js"

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

export const workingDays = weekdaySet([1, 2, 3, 4, 5], { sv: "vardagar", en: "weekdays" })
export const weekends = weekdaySet([6, 7], { sv: "helger", en: "weekends" })

export const weekdayAtom = (weekday: number, next: boolean, ctx: Context): DayAtom => ({
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

export const recurringWeekday = (weekday: number): DayAtom =>
  weekdaySet([weekday], { sv: weekdayName(weekday).svPlural, en: weekdayName(weekday).enPlural })

export const pastWeekday = (weekday: number, ctx: Context): DayAtom => ({
  kind: "date",
  occurrence: () => one(ctx.today - (((isoWeekday(ctx.today) - weekday + 6) % 7) + 1) * DAY),
  label: (span) => dayLabel(span.first)
})

/**
 * A date or month named without a year that ended at most this long ago is the one that ended
 * ("3/12" on 8 December has passed), not next year's, which nobody a few days later means.
 */
const recentlyPassed = horizonDays * DAY

export const dateAtom = (day: number, month: number, year: number | undefined): DayAtom | undefined => {
  const years = year === undefined ? [0, 1, 2, 3, 4, 5, 6, 7, 8] : [0]
  const valid = (y: number) => calendarDay(y, month, day) !== undefined
  if (!years.some((offset) => valid((year ?? 2028) + offset))) return undefined
  return {
    kind: "date",
    occurrence: (from) => {
      const start = year ?? yearOf(from)
      for (const offset of years) {
        const candidate = calendarDay(start + offset, month, day)
        if (candidate !== undefined && (year !== undefined || candidate >= from - (offset === 0 ? recentlyPassed : 0)))
          return one(candidate)
      }
      return undefined
    },
    label: (span) => dayLabel(span.first)
  }
}

export const dateRangeAtom = (firstDay: number, lastDay: number, month: number, year: number | undefined): DayAtom => ({
  kind: "period",
  occurrence: (from) => {
    const start = year ?? yearOf(from)
    for (const offset of year === undefined ? [0, 1] : [0]) {
      const first = calendarDay(start + offset, month, firstDay)
      const last = calendarDay(start + offset, month, lastDay)
      if (
        first !== undefined &&
        last !== undefined &&
        (year !== undefined || last >= from - (offset === 0 ? recentlyPassed : 0))
      )
        return { first, last }
    }
    return undefined
  },
  label: spanLabel
})

export const dayListAtom = (list: ReadonlyArray<number>, month: number): DayAtom | undefined => {
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

export const dayOfMonthAtom = (dom: number): DayAtom => ({
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

export const period = (
  span: (from: number) => DaySpan | undefined,
  label: Label | ((span: DaySpan) => Label),
  thirds?: DayAtom["thirds"]
): DayAtom => ({
  kind: "period",
  occurrence: span,
  label: typeof label === "function" ? label : fixedLabel(label),
  ...(thirds === undefined ? {} : { thirds })
})

export const weekThirds = (span: DaySpan): readonly [DaySpan, DaySpan, DaySpan] => {
  const monday = mondayOf(span.last)
  return [
    { first: monday, last: monday + 2 * DAY },
    { first: monday + DAY, last: monday + 3 * DAY },
    { first: monday + 3 * DAY, last: monday + 6 * DAY }
  ]
}

export const monthThirds = (span: DaySpan): readonly [DaySpan, DaySpan, DaySpan] => {
  const first = Date.UTC(yearOf(span.last), monthOf(span.last) - 1, 1)
  return [
    { first, last: first + 9 * DAY },
    { first: first + 10 * DAY, last: first + 19 * DAY },
    { first: first + 20 * DAY, last: lastOfMonth(yearOf(span.last), monthOf(span.last)) }
  ]
}

export const weekOrdinals = [
  ["forsta", "first"],
  ["andra", "second"],
  ["tredje", "third"],
  ["fjarde", "fourth"],
  ["sista", "last"]
] as const
export const svOrdinalNames = ["första", "andra", "tredje", "fjärde"] as const

/**
 * "första veckan i december": the month's nth seven days (1–7, 8–14, 15–21, 22–28), and 5, "sista",
 * its last seven; always whole days inside the month, however its weeks fall.
 */
export const weekOfMonth = (month: DaySpan, n: number): DaySpan =>
  n === 5
    ? { first: month.last - 6 * DAY, last: month.last }
    : { first: month.first + (n - 1) * 7 * DAY, last: month.first + (n * 7 - 1) * DAY }

const yearThirds = (span: DaySpan): readonly [DaySpan, DaySpan, DaySpan] => {
  const year = yearOf(span.last)
  return [
    { first: Date.UTC(year, 0, 1), last: lastOfMonth(year, 4) },
    { first: Date.UTC(year, 4, 1), last: lastOfMonth(year, 8) },
    { first: Date.UTC(year, 8, 1), last: lastOfMonth(year, 12) }
  ]
}

export const week = (offset: number, label: Label, ctx: Context): DayAtom => {
  const monday = mondayOf(ctx.today) + offset * 7 * DAY
  return period(() => ({ first: monday, last: monday + 6 * DAY }), label, weekThirds)
}

export const month = (monthNumber: number, year: number | undefined): DayAtom => {
  const name = monthNames[monthNumber - 1] ?? monthNames[0]
  return period(
    (from) => {
      const start = year ?? yearOf(from)
      for (const y of year === undefined ? [start, start + 1] : [start]) {
        const last = lastOfMonth(y, monthNumber)
        if (year !== undefined || last >= from - (y === start ? recentlyPassed : 0))
          return { first: Date.UTC(y, monthNumber - 1, 1), last }
      }
      return undefined
    },
    (span) => ({ sv: `${name.sv} ${yearOf(span.first)}`, en: `${name.en} ${yearOf(span.first)}` }),
    monthThirds
  )
}

export const relativeMonth = (offset: number, label: Label, ctx: Context): DayAtom => {
  const year = yearOf(ctx.today)
  const index = monthOf(ctx.today) - 1 + offset
  const y = year + Math.floor(index / 12)
  const m = (index % 12) + 1
  return period(() => ({ first: Date.UTC(y, m - 1, 1), last: lastOfMonth(y, m) }), label, monthThirds)
}

export const relativeYear = (offset: number, label: Label, ctx: Context): DayAtom => {
  const y = yearOf(ctx.today) + offset
  return period(() => ({ first: Date.UTC(y, 0, 1), last: Date.UTC(y, 11, 31) }), label, yearThirds)
}

/** A named day's occurrence as people mean it: one that ended lately ("efter jul" on 30 December), else the next. */
const namedOccurrence = (name: NamedDay, from: number): DaySpan => {
  const next = nextOccurrence(name, from - recentlyPassed)
  return next.last < from ? next : nextOccurrence(name, from)
}

export const named = (name: NamedDay): DayAtom =>
  period(
    (from) => namedOccurrence(name, from),
    (span) => {
      const { en, sv } = namedDays[name]
      const when = span.first === span.last ? isoDate(span.first) : `${isoDate(span.first)}–${isoDate(span.last)}`
      return { sv: `${sv} ${when}`, en: `${en} ${when}` }
    }
  )

export const days = (first: number, last: number, label: Label): DayAtom => period(() => ({ first, last }), label)

const seasons = [
  { sv: "våren", en: "spring", from: 3 },
  { sv: "sommaren", en: "summer", from: 6 },
  { sv: "hösten", en: "autumn", from: 9 },
  { sv: "vintern", en: "winter", from: 12 }
] as const

/** Three months from March, June, September or December; winter runs into the next year. */
export const season = (index: number): DayAtom => {
  const { en, from, sv } = seasons[index] ?? seasons[0]
  const spanOf = (year: number): DaySpan => ({ first: Date.UTC(year, from - 1, 1), last: Date.UTC(year, from + 2, 0) })
  return period(
    (day) => [yearOf(day) - 1, yearOf(day), yearOf(day) + 1].map(spanOf).find((span) => span.last >= day),
    (span) => ({ sv: `${sv} ${yearOf(span.first)}`, en: `${en} ${yearOf(span.first)}` })
  )
}

export const dayToken = (atom: DayAtom): TokenBody => ({ _tag: "Day", atom })
