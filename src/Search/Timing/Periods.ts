/** Phrases that name a period and may take "början / mitten / slutet av". */

import type { DaySpan } from "../../Domain/Holidays.js"
import { DAY } from "../../Domain/Zone.js"
import { month, period, relativeMonth, relativeYear, week, weekThirds } from "./Atoms.js"
import { isoWeekMonday, mondayOf, yearOf } from "./Calendar.js"
import type { Context, DayAtom } from "./Tokens.js"
import { horizonDays } from "./Window.js"
import { MONTH, monthIndex, YEAR } from "./Words.js"

interface PeriodPhrase {
  readonly source: string
  readonly read: (m: RegExpExecArray, ctx: Context) => DayAtom | undefined
}

const periodPhrases: ReadonlyArray<PeriodPhrase> = [
  {
    source:
      "(?:nasta|nastkommande)\\s+veckan?|next\\s+week|till\\s+veckan|kommande\\s+veckan?|(?:the\\s+)?coming\\s+week|veckan\\s+som\\s+kommer",
    read: (_m, ctx) => week(1, { sv: "nästa vecka", en: "next week" }, ctx)
  },
  // A period that has ended is read as itself, so the answer says it has passed instead of the
  // "veckan" in "förra veckan" being read as this week.
  {
    source: "(?:i\\s+)?forra\\s+veckan?|last\\s+week|(?:the\\s+)?previous\\s+week",
    read: (_m, ctx) => week(-1, { sv: "förra veckan", en: "last week" }, ctx)
  },
  {
    source: "denna\\s+vecka|den\\s+har\\s+veckan|(?:i|under)\\s+veckan|this\\s+week|veckan",
    read: (_m, ctx) => week(0, { sv: "denna vecka", en: "this week" }, ctx)
  },
  {
    source: "(?:vecka|v\\.?|week|w)\\s*(\\d{1,2})(?!\\d)(?:\\s*(?:,|of|i|ar)?\\s*(\\d{4})(?!\\d))?",
    read: (m, ctx) => {
      const number = Number(m[1])
      // "vecka 2 2027": that ISO year's week, whether or not it has passed.
      if (m[2] !== undefined) {
        const monday = isoWeekMonday(Number(m[2]), number)
        return monday === undefined
          ? undefined
          : period(
              () => ({ first: monday, last: monday + 6 * DAY }),
              { sv: `vecka ${number} ${m[2]}`, en: `week ${number} of ${m[2]}` },
              weekThirds
            )
      }
      return period(
        (from) => {
          const thisIsoYear = yearOf(mondayOf(from) + 3 * DAY)
          const today = Math.min(from, ctx.today)
          const weeks = [thisIsoYear - 1, thisIsoYear, thisIsoYear + 1]
            .map((year) => isoWeekMonday(year, number))
            .filter((monday) => monday !== undefined)
            .map((monday) => ({ first: monday, last: monday + 6 * DAY }))
          const next = weeks.find((w) => w.last >= today)
          // One that ended within the horizon, when the next lies beyond it: "vecka 52" on 30 December has passed.
          const passed = weeks.filter((w) => w.last < today && w.last >= today - horizonDays * DAY).at(-1)
          return passed !== undefined && (next === undefined || next.first >= today + horizonDays * DAY) ? passed : next
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
    source: "(?:i\\s+)?forra\\s+manaden?|last\\s+month|(?:the\\s+)?previous\\s+month",
    read: (_m, ctx) => relativeMonth(-1, { sv: "förra månaden", en: "last month" }, ctx)
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
    source: "(?:i\\s+)?forra\\s+aret|i\\s*fjol|last\\s+year|(?:the\\s+)?previous\\s+year",
    read: (_m, ctx) => relativeYear(-1, { sv: "förra året", en: "last year" }, ctx)
  },
  {
    source: "(?:i\\s+|detta\\s+|det\\s+har\\s+)ar|aret|this\\s+year|the\\s+year",
    read: (_m, ctx) => relativeYear(0, { sv: "i år", en: "this year" }, ctx)
  }
]

export const readPeriod = (text: string, ctx: Context): DayAtom | undefined => {
  for (const { read, source } of periodPhrases) {
    const m = new RegExp(`^(?:${source})$`, "u").exec(text)
    if (m !== null) return read(m, ctx)
  }
  return undefined
}

export const PERIOD = `(${periodPhrases.map(({ source }) => source.replace(/\((?!\?)/g, "(?:")).join("|")})`

const thirdNames = [
  { sv: "början av", en: "early" },
  { sv: "mitten av", en: "mid" },
  { sv: "slutet av", en: "late" }
] as const

export const partOfPeriod = (which: 0 | 1 | 2, inner: DayAtom | undefined): DayAtom | undefined => {
  const thirds = inner?.thirds
  if (inner === undefined || thirds === undefined) return undefined
  return {
    kind: "period",
    endPart: which === 2,
    occurrence: (from) => {
      // The first occurrence whose part has not ended: "slutet av månaden" on the 31st is today.
      // A period that does not recur ("förra veckan", "december 2025") keeps its part that has
      // ended, so the answer says it has passed.
      let first: DaySpan | undefined
      for (let probe = from, i = 0; i < 3; i++) {
        const whole = inner.occurrence(probe)
        if (whole === undefined) return first
        const part = thirds(whole)[which]
        if (part.last >= from) return part
        first ??= part
        probe = whole.last + DAY
      }
      return first
    },
    label: (span) => {
      const innerLabel = inner.label(inner.occurrence(span.first) ?? span)
      const name = thirdNames[which]
      return { sv: `${name.sv} ${innerLabel.sv}`, en: `${name.en} ${innerLabel.en}` }
    }
  }
}
