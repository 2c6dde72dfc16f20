/** Days: "torsdag den 3 december", "fredag nästa vecka", "tisdag onsdag", "vardagar". */
import type { DaySpan } from "../../Domain/Holidays.js"
import { DAY, isoWeekday } from "../../Domain/Zone.js"
import { isoDate, one } from "./Calendar.js"
import { dayLabel, joinLabels, spanLabel, weekdayName } from "./Labels.js"
import { issue, type Reader } from "./Plan.js"
import type { DayAtom, Label, Token } from "./Tokens.js"

type Days =
  | {
      readonly _tag: "Days"
      readonly span: DaySpan
      readonly keep?: (day: number) => boolean
      readonly label: Label
      readonly notes: ReadonlyArray<Label>
    }
  | { readonly _tag: "Recurring"; readonly keep: (day: number) => boolean; readonly label: Label }

const withNotes = (days: Days | undefined, notes: ReadonlyArray<Label>): Days | undefined =>
  days?._tag === "Days" ? { ...days, notes: [...days.notes, ...notes] } : days

/** The named weekday nearest the date, but never one that has passed while the date has not. */
const nearestWeekday = (day: number, weekday: number, today: number): number => {
  const ahead = (weekday - isoWeekday(day) + 7) % 7
  const before = day - (7 - ahead) * DAY
  return ahead <= 3 || (before < today && day >= today) ? day + ahead * DAY : before
}

/** "fredag den 3 december" when the 3rd is a Thursday: both days, and the label says why. */
const mismatch = (day: number, weekday: number, today: number): Extract<Days, { readonly _tag: "Days" }> => {
  const other = nearestWeekday(day, weekday, today)
  const [first, last] = day < other ? [day, other] : [other, day]
  const name = weekdayName(isoWeekday(day))
  const said = weekdayName(weekday)
  return {
    _tag: "Days",
    span: { first, last },
    keep: (d) => d === day || d === other,
    label: joinLabels([dayLabel(day), dayLabel(other)], " eller ", " or "),
    notes: [
      {
        sv: `${isoDate(day)} är en ${name.sv}, inte en ${said.sv}`,
        en: `${isoDate(day)} is a ${name.en}, not a ${said.en}`
      }
    ]
  }
}

export const reduceDays = (
  reader: Reader,
  tokens: ReadonlyArray<Token>,
  atoms: ReadonlyArray<DayAtom>,
  earliest: number,
  anchor?: number
): Days | undefined => {
  const { today } = reader.ctx
  const fromDate = anchor ?? today
  const fromWeekday = anchor ?? earliest
  const fixed = atoms.filter((a) => a.kind === "date" || a.kind === "period")
  const flexible = atoms.filter((a) => a.kind === "weekday" || a.kind === "dayOfMonth")
  const recurring = atoms.filter((a) => a.kind === "recurring")
  const recurringKeep = (day: number) => recurring.every((a) => a.filter?.test(day) ?? true)
  const recurringLabel = joinLabels(
    recurring.map((a) => a.filter?.label ?? { sv: "", en: "" }),
    ", "
  )

  const finish = (span: DaySpan, label: Label, keep?: (day: number) => boolean): Days | undefined => {
    const all = (day: number) => (keep?.(day) ?? true) && recurringKeep(day)
    let any = false
    for (let day = span.first; day <= span.last; day += DAY) any ||= all(day)
    if (!any) return issue(reader, tokens, { sv: "dagarna går inte ihop", en: "the days do not add up" })
    const filtered = keep !== undefined || recurring.length > 0
    return {
      _tag: "Days",
      span,
      ...(filtered ? { keep: all } : {}),
      label: recurring.length > 0 ? joinLabels([label, recurringLabel], ", ") : label,
      notes: []
    }
  }

  if (fixed.length > 0) {
    const spans = fixed.map((a) => a.occurrence(fromDate))
    if (spans.some((s) => s === undefined)) return issue(reader, tokens)
    const defined = spans.filter((s): s is DaySpan => s !== undefined)
    const first = Math.max(...defined.map((s) => s.first))
    const last = Math.min(...defined.map((s) => s.last))
    let span: DaySpan
    let keep: ((day: number) => boolean) | undefined
    let label: Label
    if (first <= last) {
      span = { first, last }
      label = fixed.length === 1 ? (fixed[0]?.label(span) ?? spanLabel(span)) : spanLabel(span)
    } else {
      // Periods that do not overlap: a kind of day one of them names ("helgen") may pick the other's ("nästa vecka").
      const filters = fixed.filter((a) => a.filter !== undefined)
      const others = defined.filter((_, i) => fixed[i]?.filter === undefined)
      const narrowed = others.length > 0 && filters.length > 0
      if (narrowed) {
        const otherFirst = Math.max(...others.map((s) => s.first))
        const otherLast = Math.min(...others.map((s) => s.last))
        span = { first: otherFirst, last: otherLast }
        keep = (day) => filters.every((a) => a.filter?.test(day) ?? true)
        label = joinLabels(
          [
            ...fixed.flatMap((a, i) => (a.filter === undefined ? [a.label(defined[i] ?? span)] : [])),
            ...filters.map((a) => a.filter?.label ?? { sv: "", en: "" })
          ],
          ", "
        )
      } else {
        // Days listed side by side ("idag imorgon") are alternatives.
        span = { first: Math.min(...defined.map((s) => s.first)), last: Math.max(...defined.map((s) => s.last)) }
        keep = (day) => defined.some((s) => day >= s.first && day <= s.last)
        label = joinLabels(
          fixed.map((a, i) => a.label(defined[i] ?? span)),
          " eller ",
          " or "
        )
      }
    }
    const listed = fixed.flatMap((a) => (a.only === undefined ? [] : [a.only]))
    if (listed.length > 0) {
      const before = keep
      keep = (day) => (before?.(day) ?? true) && listed.every((only) => only(day))
    }
    const weekdays = flexible.filter((a) => a.kind === "weekday")
    const single = span.first === span.last && keep === undefined
    const said = weekdays[0]?.weekday
    if (single && said !== undefined && weekdays.length === 1 && isoWeekday(span.first) !== said) {
      const days = mismatch(span.first, said, today)
      return withNotes(finish(days.span, days.label, days.keep), days.notes)
    }
    const flexibleKeep = (day: number) => flexible.every((a) => a.filter?.test(day) ?? true)
    const combined = keep === undefined ? flexibleKeep : (day: number) => (keep?.(day) ?? true) && flexibleKeep(day)
    if (flexible.length === 0) return finish(span, label, keep)
    const narrowedLabel = single ? label : joinLabels([label, ...flexible.map((a) => a.filter?.label ?? label)], ", ")
    const result = finish(span, narrowedLabel, combined)
    if (result?._tag === "Days") {
      let only: number | undefined
      let count = 0
      for (let day = result.span.first; day <= result.span.last; day += DAY) {
        if (result.keep?.(day) ?? true) {
          only = day
          count += 1
        }
      }
      if (count === 1 && only !== undefined) return { _tag: "Days", span: one(only), label: dayLabel(only), notes: [] }
    }
    return result
  }

  if (flexible.length > 0) {
    const dayOfMonth = flexible.find((a) => a.kind === "dayOfMonth")
    const weekdays = flexible.filter((a) => a.kind === "weekday")
    if (dayOfMonth !== undefined) {
      const span = dayOfMonth.occurrence(fromDate)
      if (span === undefined) return issue(reader, tokens)
      const said = weekdays[0]?.weekday
      if (said !== undefined && weekdays.length === 1 && isoWeekday(span.first) !== said) {
        const days = mismatch(span.first, said, today)
        return withNotes(finish(days.span, days.label, days.keep), days.notes)
      }
      return finish(span, dayOfMonth.label(span))
    }
    const spans = weekdays.map((a) => a.occurrence(fromWeekday))
    if (spans.some((s) => s === undefined)) return issue(reader, tokens)
    const defined = spans.filter((s): s is DaySpan => s !== undefined)
    if (defined.length === 1 && defined[0] !== undefined) {
      return finish(defined[0], weekdays[0]?.label(defined[0]) ?? spanLabel(defined[0]))
    }
    const span = { first: Math.min(...defined.map((s) => s.first)), last: Math.max(...defined.map((s) => s.last)) }
    return finish(
      span,
      joinLabels(
        weekdays.map((a, i) => a.label(defined[i] ?? span)),
        " eller ",
        " or "
      ),
      (day) => defined.some((s) => day >= s.first && day <= s.last)
    )
  }

  return { _tag: "Recurring", keep: recurringKeep, label: recurringLabel }
}
