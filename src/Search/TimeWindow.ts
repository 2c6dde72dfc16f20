/**
 * Turns the free-text timing a person gave (Swedish or English, relayed by an AI assistant)
 * into the window in which the search looks for free slots, plus a bilingual echo of what was
 * understood and, in plain words, what was not. Pure: the clock is the `now` argument.
 *
 * TimeVocabulary.ts turns phrases into tokens; here they are split into alternatives ("eller"),
 * exclusions ("inte") and preferences ("helst"), each is resolved to days, hours and bounds, and
 * the result becomes one window. A word about time that is not understood makes the reading
 * tentative: the search covers a general window and the label names the word, so no part of the
 * text is silently read as something else.
 */
import type { DaySpan } from "../Domain/Holidays.js"
import { DAY, isoWeekday, MINUTE, startOfDay, toInstant, wallClockOf, type Zone, zoneFor } from "../Domain/Zone.js"
import {
  type Context,
  clock,
  clockMinutes,
  type DayAtom,
  dayLabel,
  type Hours,
  isoDate,
  type Label,
  lex,
  normalize,
  onlyFiller,
  spanLabel,
  type Token,
  weekdayNames
} from "./TimeVocabulary.js"

export { asapDays, pointWindowHours } from "./TimeVocabulary.js"

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
  /** Present when a part of the day narrows a window spanning several days ("förmiddagar nästa vecka"). */
  readonly dailyHours?: DailyHours
  /** Local dates ("YYYY-MM-DD" in the request's zone) inside the window that are not wanted ("inte måndag", "vardagar"). */
  readonly excludedDates?: ReadonlyArray<string>
}

export interface ParseTimeWindowInput {
  readonly preferredTimeText?: string | undefined
  readonly urgency?: string | undefined
  readonly timeZone: string
  readonly now: Date
}

/** No window reaches further than this past `now`; slots beyond it are not bookable anyway. */
export const horizonDays = 60
/** What is searched when the text names no days ("förmiddagar", "vardagar efter 17") or is not understood. */
export const defaultDays = 14
/** A window already under way with less than this left is treated as over ("idag" at 23:59 finds nothing). */
export const minimumRemainingMinutes = 60

const wholeDay: Hours = { from: 0, to: 24 * 60 }

/** Whether anything is left to search in [start, end): an explicit future window always, one under way only if enough remains. */
const worthSearching = (start: number, end: number, now: number): boolean =>
  start >= now ? start < end : end - now >= minimumRemainingMinutes * MINUTE

// ---------------------------------------------------------------------------------------------
// Labels.
// ---------------------------------------------------------------------------------------------

const joinLabels = (labels: ReadonlyArray<Label>, sv = " ", en = sv): Label => ({
  sv: labels
    .map((label) => label.sv)
    .filter((text) => text !== "")
    .join(sv),
  en: labels
    .map((label) => label.en)
    .filter((text) => text !== "")
    .join(en)
})

const bilingual = (label: Label): string => (label.sv === label.en ? label.sv : `${label.sv} (${label.en})`)

const todayParts: Readonly<Record<string, Label>> = {
  förmiddag: { sv: "i förmiddag", en: "this morning" },
  eftermiddag: { sv: "i eftermiddag", en: "this afternoon" },
  kväll: { sv: "i kväll", en: "this evening" }
}

/** "idag förmiddag" reads "i förmiddag (this morning)". */
const dayWithHours = (days: Label | undefined, hours: Label | undefined): Label => {
  if (days?.sv === "idag" && hours !== undefined && todayParts[hours.sv] !== undefined) {
    return todayParts[hours.sv] ?? hours
  }
  return joinLabels([days ?? { sv: "", en: "" }, hours ?? { sv: "", en: "" }])
}

// ---------------------------------------------------------------------------------------------
// What a part of the text asks for.
// ---------------------------------------------------------------------------------------------

interface Span {
  readonly start: number
  readonly end: number
}

interface Plan {
  /** Instants; undefined when the part names no days ("förmiddag", "vardagar"). */
  readonly span?: Span
  /** Which local days are wanted. */
  readonly keep?: (day: number) => boolean
  readonly hours?: Hours
  readonly label: Label
  readonly notes: ReadonlyArray<Label>
}

interface Issue {
  readonly quote: string
  readonly note?: Label
}

/** The vocabulary's context and the current instant, which only the window's own steps read. */
interface Moment extends Context {
  readonly now: number
}

interface Reader {
  readonly ctx: Moment
  readonly text: string
  readonly quote: (from: number, to: number) => string
  readonly issues: Array<Issue>
}

const issue = (reader: Reader, tokens: ReadonlyArray<Token>, note?: Label): undefined => {
  const from = Math.min(...tokens.map((t) => t.at[0]))
  const to = Math.max(...tokens.map((t) => t.at[1]))
  reader.issues.push(note === undefined ? { quote: reader.quote(from, to) } : { quote: reader.quote(from, to), note })
  return undefined
}

const intersectHours = (a: Hours | undefined, b: Hours | undefined): Hours | undefined | "empty" => {
  if (a === undefined) return b
  if (b === undefined) return a
  const from = Math.max(a.from, b.from)
  const to = Math.min(a.to, b.to)
  return from < to ? { from, to } : "empty"
}

const dayOf = (instant: number, zone: Zone): number => startOfDay(wallClockOf(instant, zone))

const daySpanPlan = (span: DaySpan, zone: Zone, label: Label, keep?: (day: number) => boolean): Plan => ({
  span: { start: toInstant(span.first, zone), end: toInstant(span.last + DAY, zone) },
  ...(keep === undefined ? {} : { keep }),
  label,
  notes: []
})

const within = (plan: Plan, day: number, zone: Zone): boolean =>
  (plan.keep?.(day) ?? true) &&
  (plan.span === undefined ||
    (day >= dayOf(plan.span.start, zone) && day <= dayOf(plan.span.end - 1, zone) && plan.span.end > plan.span.start))

const intersectPlans = (a: Plan, b: Plan): Plan | "empty" => {
  const hours = intersectHours(a.hours, b.hours)
  if (hours === "empty") return "empty"
  const span =
    a.span === undefined
      ? b.span
      : b.span === undefined
        ? a.span
        : { start: Math.max(a.span.start, b.span.start), end: Math.min(a.span.end, b.span.end) }
  const keepA = a.keep
  const keepB = b.keep
  return {
    ...(span === undefined ? {} : { span }),
    ...(keepA === undefined
      ? keepB === undefined
        ? {}
        : { keep: keepB }
      : { keep: keepB === undefined ? keepA : (day: number) => keepA(day) && keepB(day) }),
    ...(hours === undefined ? {} : { hours }),
    label: a.label.sv === b.label.sv ? a.label : joinLabels([a.label, b.label]),
    notes: [...a.notes, ...b.notes]
  }
}

// ---------------------------------------------------------------------------------------------
// Days: "torsdag den 3 december", "fredag nästa vecka", "tisdag onsdag", "vardagar".
// ---------------------------------------------------------------------------------------------

type Days =
  | {
      readonly _tag: "Days"
      readonly span: DaySpan
      readonly keep?: (day: number) => boolean
      readonly label: Label
      readonly notes: ReadonlyArray<Label>
    }
  | { readonly _tag: "Recurring"; readonly keep: (day: number) => boolean; readonly label: Label }

const one = (day: number): DaySpan => ({ first: day, last: day })

const withNotes = (days: Days | undefined, notes: ReadonlyArray<Label>): Days | undefined =>
  days?._tag === "Days" ? { ...days, notes: [...days.notes, ...notes] } : days

const nearestWeekday = (day: number, weekday: number): number => {
  const ahead = (weekday - isoWeekday(day) + 7) % 7
  return ahead <= 3 ? day + ahead * DAY : day - (7 - ahead) * DAY
}

/** "fredag den 3 december" when the 3rd is a Thursday: both days, and the label says why. */
const mismatch = (day: number, weekday: number): Extract<Days, { readonly _tag: "Days" }> => {
  const other = nearestWeekday(day, weekday)
  const [first, last] = day < other ? [day, other] : [other, day]
  const name = weekdayNames[isoWeekday(day) - 1] ?? weekdayNames[0]
  const said = weekdayNames[weekday - 1] ?? weekdayNames[0]
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

const reduceDays = (
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
      const days = mismatch(span.first, said)
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
        const days = mismatch(span.first, said)
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

// ---------------------------------------------------------------------------------------------
// Bounds and ranges: "före fredag", "efter 17", "från 28 november till 1 december".
// ---------------------------------------------------------------------------------------------

type Op = "before" | "by" | "after" | "from"

type Item =
  | { readonly _tag: "Atom"; readonly token: Token }
  | { readonly _tag: "Bound"; readonly op: Op; readonly operand: ReadonlyArray<Token> }
  | {
      readonly _tag: "Range"
      readonly from: ReadonlyArray<Token>
      readonly to: ReadonlyArray<Token>
      readonly between: boolean
    }

const adjacent = (reader: Reader, a: Token | undefined, b: Token): boolean =>
  a === undefined || onlyFiller(reader.text.slice(a.at[1], Math.max(a.at[1], b.at[0])))

/** What an operator applies to: one clock time, or the days (and times) right after it. */
const takeOperand = (reader: Reader, tokens: ReadonlyArray<Token>, j: number) => {
  const first = tokens[j]
  if (first === undefined || !adjacent(reader, tokens[j - 1], first)) return { taken: [], next: j }
  if (first._tag === "Number" || first._tag === "Hours") return { taken: [first], next: j + 1 }
  if (first._tag !== "Day") return { taken: [], next: j }
  const taken: Array<Token> = [first]
  let k = j + 1
  for (; k < tokens.length; k++) {
    const token = tokens[k]
    if (token === undefined || (token._tag !== "Day" && token._tag !== "Hours")) break
    if (!adjacent(reader, tokens[k - 1], token)) break
    taken.push(token)
  }
  return { taken, next: k }
}

const isHoursOperand = (operand: ReadonlyArray<Token>): boolean =>
  operand.length === 1 && (operand[0]?._tag === "Number" || operand[0]?._tag === "Hours")

const parseItems = (reader: Reader, tokens: ReadonlyArray<Token>): Array<Item> => {
  const items: Array<Item> = []
  // "före jul på förmiddagen": the part of the day applies to every day, not to the bound.
  const pushBound = (op: Op, operand: ReadonlyArray<Token>) => {
    if (isHoursOperand(operand)) {
      items.push({ _tag: "Bound", op, operand })
      return
    }
    const bound = operand.filter((t) => t._tag === "Day" || (t._tag === "Hours" && t.point))
    items.push({ _tag: "Bound", op, operand: bound })
    for (const t of operand) if (t._tag === "Hours" && !t.point) items.push({ _tag: "Atom", token: t })
  }
  // The days or time just before "till" / "senast" / "och framåt".
  const popRun = (word: Token): Array<Token> => {
    const run: Array<Token> = []
    let next = word
    for (let last = items.at(-1); last?._tag === "Atom"; last = items.at(-1)) {
      const token = last.token
      if ((token._tag !== "Day" && token._tag !== "Hours" && token._tag !== "Number") || !adjacent(reader, token, next))
        break
      run.unshift(token)
      items.pop()
      next = token
    }
    return run
  }
  let i = 0
  while (i < tokens.length) {
    const token = tokens[i]
    i += 1
    if (token === undefined) continue
    if (token._tag !== "Word") {
      items.push({ _tag: "Atom", token })
      continue
    }
    const op = token.word
    if (op === "from" || op === "between") {
      const x = takeOperand(reader, tokens, i)
      const to = tokens[x.next]
      if (x.taken.length > 0 && to?._tag === "Word" && (to.word === "to" || (op === "between" && to.word === "and"))) {
        const y = takeOperand(reader, tokens, x.next + 1)
        if (y.taken.length > 0) {
          items.push({ _tag: "Range", from: x.taken, to: y.taken, between: op === "between" })
          i = y.next
          continue
        }
      }
      if (x.taken.length === 0) continue
      if (op === "between") items.push({ _tag: "Range", from: x.taken, to: [], between: true })
      else pushBound("from", x.taken)
      i = x.next
    } else if (op === "to") {
      const y = takeOperand(reader, tokens, i)
      if (y.taken.length === 0) continue
      const x = popRun(token)
      if (x.length > 0) items.push({ _tag: "Range", from: x, to: y.taken, between: false })
      else pushBound("by", y.taken)
      i = y.next
    } else if (op === "before" || op === "by" || op === "after") {
      const y = takeOperand(reader, tokens, i)
      if (y.taken.length > 0) {
        pushBound(op, y.taken)
        i = y.next
      } else {
        // "fredag senast", "fredag at the latest".
        const x = popRun(token)
        if (x.length > 0) pushBound(op, x)
      }
    } else if (op === "onwards") {
      const x = popRun(token)
      if (x.length > 0) pushBound("from", x)
    }
  }
  return items
}

const stillAhead = (day: number, hours: Hours | undefined, ctx: Moment): boolean =>
  worthSearching(
    toInstant(day + (hours ?? wholeDay).from * MINUTE, ctx.zone),
    toInstant(day + (hours ?? wholeDay).to * MINUTE, ctx.zone),
    ctx.now
  )

const hoursOfTokens = (reader: Reader, tokens: ReadonlyArray<Token>): Hours | undefined | "empty" => {
  let hours: Hours | undefined
  for (const token of tokens) {
    if (token._tag !== "Hours") continue
    const next = intersectHours(hours, token.hours)
    if (next === "empty") {
      issue(
        reader,
        tokens.filter((t) => t._tag === "Hours"),
        { sv: "tiderna går inte ihop", en: "the times do not add up" }
      )
      return "empty"
    }
    hours = next
  }
  return hours
}

interface Resolved {
  readonly span: DaySpan
  readonly keep?: (day: number) => boolean
  readonly hours?: Hours
  /** Set when a clock time was named: the operand is that instant ("fredag kl 12"). */
  readonly point?: number
  readonly endPart: boolean
  readonly label: Label
}

/** The days (and time) an operator applies to. */
const resolveOperand = (reader: Reader, tokens: ReadonlyArray<Token>, anchor?: number): Resolved | undefined => {
  const { ctx } = reader
  const dayTokens = tokens.filter((t) => t._tag === "Day")
  const hours = hoursOfTokens(reader, tokens)
  if (hours === "empty") return undefined
  const earliest = stillAhead(ctx.today, hours, ctx) ? ctx.today : ctx.today + DAY
  const days = reduceDays(
    reader,
    tokens,
    dayTokens.map((t) => t.atom),
    earliest,
    anchor
  )
  if (days === undefined) return undefined
  if (days._tag === "Recurring") return issue(reader, tokens)
  const point = tokens.find((t) => t._tag === "Hours" && t.point)
  const pointHours = point?._tag === "Hours" ? point.hours.from : undefined
  const hoursLabels = tokens.flatMap((t) => (t._tag === "Hours" ? [t.label] : []))
  return {
    span: days.span,
    ...(days.keep === undefined ? {} : { keep: days.keep }),
    ...(hours === undefined ? {} : { hours }),
    ...(pointHours === undefined ? {} : { point: toInstant(days.span.first + pointHours * MINUTE, ctx.zone) }),
    endPart: dayTokens.some((t) => t.atom.endPart === true),
    label: dayWithHours(days.label, hoursLabels.length > 0 ? joinLabels(hoursLabels) : undefined)
  }
}

const clockOf = (token: Token | undefined, end: boolean): number | undefined => {
  if (token?._tag === "Number")
    return token.value <= 24 ? clockMinutes(String(token.value), undefined, undefined) : undefined
  if (token?._tag === "Hours") return end && !token.point ? token.hours.to : token.hours.from
  return undefined
}

const boundLabels: Readonly<Record<Op, Label>> = {
  before: { sv: "före", en: "before" },
  by: { sv: "senast", en: "by" },
  after: { sv: "efter", en: "after" },
  from: { sv: "från", en: "from" }
}

const evalBound = (reader: Reader, op: Op, operand: ReadonlyArray<Token>): Plan | undefined => {
  const { ctx } = reader
  if (isHoursOperand(operand)) {
    const minutes = clockOf(operand[0], op === "after")
    if (minutes === undefined) return issue(reader, operand)
    if (op === "before" || op === "by") {
      if (minutes === 0) return issue(reader, operand)
      // From the start of the working day, or a few hours before an early limit ("före 8").
      const from = Math.max(0, Math.min(8 * 60, minutes - 3 * 60))
      return {
        hours: { from, to: minutes },
        label: { sv: `före ${clock(minutes)}`, en: `before ${clock(minutes)}` },
        notes: []
      }
    }
    // Until the evening ends; "efter 22" still gets the rest of that day.
    const to = minutes < 21 * 60 ? 21 * 60 : 24 * 60
    if (minutes >= to) return issue(reader, operand)
    return {
      hours: { from: minutes, to },
      label: { sv: `efter ${clock(minutes)}`, en: `after ${clock(minutes)}` },
      notes: []
    }
  }
  const target = resolveOperand(reader, operand)
  if (target === undefined) return undefined
  const start = target.point ?? toInstant(target.span.first, ctx.zone)
  const end = target.point ?? toInstant(target.span.last + DAY, ctx.zone)
  const label = { sv: `${boundLabels[op].sv} ${target.label.sv}`, en: `${boundLabels[op].en} ${target.label.en}` }
  const span: Span =
    op === "before"
      ? { start: ctx.now, end: target.endPart ? end : start }
      : op === "by"
        ? { start: ctx.now, end }
        : op === "after"
          ? { start: end, end: Number.POSITIVE_INFINITY }
          : { start, end: Number.POSITIVE_INFINITY }
  return { span, label, notes: [] }
}

const evalRange = (
  reader: Reader,
  from: ReadonlyArray<Token>,
  to: ReadonlyArray<Token>,
  between: boolean
): Plan | undefined => {
  const { ctx } = reader
  const all = [...from, ...to]
  const hasDays = (tokens: ReadonlyArray<Token>) => tokens.some((t) => t._tag === "Day")
  if (!hasDays(from) && !hasDays(to)) {
    // "från 8 till 12", "kl 9 till 12".
    const start = clockOf(from[0], false)
    const end = clockOf(to[0], true)
    if (from.length !== 1 || to.length !== 1 || start === undefined || end === undefined || end <= start) {
      return issue(reader, all)
    }
    const range = `${clock(start)}–${clock(end)}`
    return { hours: { from: start, to: end }, label: { sv: `kl ${range}`, en: range }, notes: [] }
  }
  if (to.length === 0 && between) {
    // "mellan 1 och 5 december" reads as one list of days.
    const target = resolveOperand(reader, from)
    return target === undefined
      ? undefined
      : daySpanPlan(target.span, ctx.zone, { sv: `mellan ${target.label.sv}`, en: `between ${target.label.en}` })
  }
  if (!hasDays(from) || !hasDays(to) || all.some((t) => t._tag === "Number")) return issue(reader, all)
  const x = resolveOperand(reader, from)
  if (x === undefined) return undefined
  const y = resolveOperand(reader, to, between ? x.span.last : x.span.first)
  if (y === undefined) return undefined
  // "28/12-3/1" reaches into next year; "15/12-10/12" is written backwards, not a year long.
  if (y.span.last - x.span.first > horizonDays * DAY && (resolveOperand(reader, to)?.span.last ?? 0) < x.span.first) {
    return issue(reader, all, { sv: "slutet ligger före början", en: "the end is before the start" })
  }
  // "mellan jul och nyår" is the days in between; "mellan 1 och 5 december" and "från jul till nyår" include both ends.
  const multiDay = (span: DaySpan) => span.last > span.first
  const first = between ? (multiDay(x.span) ? x.span.last + DAY : x.span.first) : x.span.first
  const last = between ? (multiDay(y.span) ? y.span.first - DAY : y.span.last) : y.span.last
  if (last < first) return issue(reader, all, { sv: "slutet ligger före början", en: "the end is before the start" })
  const plain = !x.label.sv.includes("–") && !y.label.sv.includes("–")
  const label = between
    ? { sv: `mellan ${x.label.sv} och ${y.label.sv}`, en: `between ${x.label.en} and ${y.label.en}` }
    : plain
      ? { sv: `${x.label.sv}–${y.label.sv}`, en: `${x.label.en}–${y.label.en}` }
      : { sv: `från ${x.label.sv} till ${y.label.sv}`, en: `from ${x.label.en} to ${y.label.en}` }
  if (x.hours !== undefined || y.point !== undefined) {
    const start = toInstant(first + (x.hours?.from ?? 0) * MINUTE, ctx.zone)
    const endMinutes = y.hours === undefined ? 24 * 60 : y.point !== undefined ? y.hours.from : y.hours.to
    const end = toInstant(last + endMinutes * MINUTE, ctx.zone)
    return end > start ? { span: { start, end }, label, notes: [] } : issue(reader, all)
  }
  // "måndag till onsdag förmiddag": the part of the day holds for every day of the range.
  const plan = daySpanPlan({ first, last }, ctx.zone, label)
  return y.hours === undefined ? plan : { ...plan, hours: y.hours }
}

// ---------------------------------------------------------------------------------------------
// A group of tokens between "eller", "inte", "men", "helst".
// ---------------------------------------------------------------------------------------------

/** Inside "inte …" a weekday means every such day ("inte måndag"), not the next one. */
const everyOccurrence = (atom: DayAtom): DayAtom =>
  atom.filter === undefined || atom.pinned === true
    ? atom
    : {
        kind: "recurring",
        occurrence: () => undefined,
        label: () => atom.filter?.label ?? { sv: "", en: "" },
        filter: atom.filter
      }

const evalGroup = (reader: Reader, tokens: ReadonlyArray<Token>, negative: boolean): Plan | "anytime" | undefined => {
  const { ctx } = reader
  const items = parseItems(reader, tokens)
  const dayTokens: Array<Token> = []
  const atoms: Array<DayAtom> = []
  const hourTokens: Array<Token> = []
  const plans: Array<Plan> = []
  let anytime = false
  let failed = false
  for (const item of items) {
    if (item._tag !== "Atom") {
      const plan =
        item._tag === "Bound"
          ? evalBound(reader, item.op, item.operand)
          : evalRange(reader, item.from, item.to, item.between)
      if (plan === undefined) failed = true
      else plans.push(plan)
      continue
    }
    const token = item.token
    switch (token._tag) {
      case "Day":
        dayTokens.push(token)
        atoms.push(negative ? everyOccurrence(token.atom) : token.atom)
        break
      case "Hours":
        hourTokens.push(token)
        break
      case "Span":
        plans.push({ span: { start: token.start, end: token.end }, label: token.label, notes: [] })
        break
      case "FromNow":
        plans.push({ span: { start: ctx.now, end: ctx.now + token.length }, label: token.label, notes: [] })
        break
      case "Anytime":
        anytime = true
        break
      case "Number":
        issue(reader, [token])
        failed = true
        break
      case "Unknown":
        issue(reader, [token], token.note)
        failed = true
        break
      case "Word":
        break
    }
  }
  const hours = hoursOfTokens(reader, hourTokens)
  if (hours === "empty") return undefined
  const hoursLabel =
    hourTokens.length === 0
      ? undefined
      : joinLabels(hourTokens.map((t) => (t._tag === "Hours" ? t.label : { sv: "", en: "" })))
  let plan: Plan | undefined
  if (atoms.length > 0) {
    // "fredag efter 15" late on a Friday is next Friday: the hours of "efter 15" count too.
    const bounded = plans.reduce<Hours | undefined | "empty">(
      (sofar, p) =>
        sofar === "empty" || p.span !== undefined || p.keep !== undefined ? sofar : intersectHours(sofar, p.hours),
      hours
    )
    const earliest = stillAhead(ctx.today, bounded === "empty" ? hours : bounded, ctx) ? ctx.today : ctx.today + DAY
    const days = reduceDays(reader, dayTokens, atoms, earliest)
    if (days === undefined) failed = true
    else if (days._tag === "Days")
      plan = { ...daySpanPlan(days.span, ctx.zone, days.label, days.keep), notes: days.notes }
    else plan = { keep: days.keep, label: days.label, notes: [] }
  }
  for (const next of plans) {
    if (plan === undefined) {
      plan = next
      continue
    }
    const both = intersectPlans(plan, next)
    if (both === "empty") {
      issue(reader, tokens, { sv: "tiderna går inte ihop", en: "the times do not add up" })
      return undefined
    }
    plan = both
  }
  if (failed) return undefined
  if (hours !== undefined) {
    if (plan === undefined) return { hours, label: hoursLabel ?? { sv: "", en: "" }, notes: [] }
    const narrowed = intersectHours(plan.hours, hours)
    if (narrowed === "empty")
      return issue(reader, hourTokens, { sv: "tiderna går inte ihop", en: "the times do not add up" })
    plan = { ...plan, hours: narrowed ?? hours, label: dayWithHours(plan.label, hoursLabel) }
  }
  return plan ?? (anytime ? "anytime" : undefined)
}

interface Group {
  readonly tokens: Array<Token>
  negative: boolean
  soft: boolean
  /** Opened by "eller" / "och": an alternative to the group before it. */
  alternative: boolean
}

/** Splits at "eller", "och", "men", "inte", "helst"; "mellan 9 och 11" keeps its "och". */
const split = (tokens: ReadonlyArray<Token>): Array<Group> => {
  const groups: Array<Group> = []
  let current: Group = { tokens: [], negative: false, soft: false, alternative: false }
  const open = (negative: boolean, soft: boolean, alternative = false) => {
    if (current.tokens.length === 0) {
      current.negative ||= negative
      current.soft ||= soft
      return
    }
    groups.push(current)
    current = { tokens: [], negative, soft, alternative }
  }
  const betweenOpen = () => {
    const lastWord = current.tokens.filter((t) => t._tag === "Word").at(-1)
    return lastWord?._tag === "Word" && lastWord.word === "between"
  }
  for (const token of tokens) {
    if (token._tag !== "Word") {
      current.tokens.push(token)
      continue
    }
    switch (token.word) {
      case "and":
        if (betweenOpen()) current.tokens.push(token)
        else open(current.negative, current.soft, true)
        break
      case "or":
        // Alternatives keep their kind: "inte måndag eller tisdag", "helst tisdag eller onsdag".
        open(current.negative, current.soft, true)
        break
      case "but":
        open(false, false)
        break
      case "not":
        open(true, false)
        break
      case "soft":
        open(false, true)
        break
      default:
        current.tokens.push(token)
    }
  }
  groups.push(current)
  return groups.filter((group) => group.tokens.length > 0)
}

const isPeriod = (token: Token): boolean => token._tag === "Day" && token.atom.kind === "period"
const isWeekday = (token: Token): boolean => token._tag === "Day" && token.atom.kind === "weekday"

/** "tisdag eller torsdag nästa vecka": a period said once narrows every alternative that names only weekdays. */
const shareContext = (groups: ReadonlyArray<Group>): void => {
  const alternatives = groups.filter((group) => !group.negative && !group.soft)
  const withContext = alternatives.filter((group) => group.tokens.some(isPeriod) && group.tokens.some(isWeekday))
  const source = withContext[0]
  if (withContext.length !== 1 || source === undefined) return
  const context = source.tokens.filter(isPeriod)
  for (const group of alternatives) {
    const days = group.tokens.filter((token) => token._tag === "Day")
    if (group !== source && days.length > 0 && days.every(isWeekday)) group.tokens.push(...context)
  }
}

// ---------------------------------------------------------------------------------------------
// From the groups to one window.
// ---------------------------------------------------------------------------------------------

/** Today and the 13 days after it, whole days, so the last one is not cut at the current time of day. */
const defaultSpan = (ctx: Moment): Span => ({
  start: ctx.now,
  end: toInstant(ctx.today + defaultDays * DAY, ctx.zone)
})
const defaultLabel: Label = { sv: `de närmaste ${defaultDays} dagarna`, en: `the next ${defaultDays} days` }

const bounded = (plan: Plan, ctx: Moment): Plan =>
  plan.span !== undefined
    ? plan
    : { ...plan, span: defaultSpan(ctx), label: joinLabels([plan.label, defaultLabel], ", ") }

/** Alternatives: every day any of them wants, with hours that cover all of theirs. */
const union = (plans: ReadonlyArray<Plan>, ctx: Moment): Plan => {
  if (plans.length === 1 && plans[0] !== undefined) return plans[0]
  const hours = plans.map((p) => p.hours ?? wholeDay)
  const from = Math.min(...hours.map((h) => h.from))
  const to = Math.max(...hours.map((h) => h.to))
  const joined = {
    ...(from === 0 && to === 24 * 60 ? {} : { hours: { from, to } }),
    label: joinLabels(
      plans.map((p) => p.label),
      " eller ",
      " or "
    ),
    notes: plans.flatMap((p) => p.notes)
  }
  // "tisdagar eller torsdagar": kinds of day, still without a span.
  if (plans.every((p) => p.span === undefined)) {
    return { keep: (day) => plans.some((p) => p.keep?.(day) ?? true), ...joined }
  }
  const spans = plans.map((p) => p.span ?? defaultSpan(ctx))
  return {
    span: { start: Math.min(...spans.map((s) => s.start)), end: Math.max(...spans.map((s) => s.end)) },
    keep: (day) => plans.some((p) => within(p, day, ctx.zone)),
    ...joined
  }
}

/** The largest part of `hours` that is not in `without`. */
const subtractHours = (hours: Hours, without: Hours): Hours | undefined => {
  const pieces = [
    { from: hours.from, to: Math.min(hours.to, without.from) },
    { from: Math.max(hours.from, without.to), to: hours.to }
  ].filter((piece) => piece.from < piece.to)
  return pieces.sort((a, b) => b.to - b.from - (a.to - a.from))[0]
}

type Materialized =
  | { readonly _tag: "Window"; readonly window: Omit<TimeWindow, "label" | "understood"> }
  | { readonly _tag: "OutOfReach"; readonly reason: Label }

/** The plan's wanted parts of each local day, inside [now, now + horizon]. */
const materialize = (plan: Plan, ctx: Moment): Materialized => {
  const { now, zone } = ctx
  const span = plan.span ?? defaultSpan(ctx)
  const hours = plan.hours ?? wholeDay
  const horizonEnd = now + horizonDays * DAY
  const kept: Array<{ readonly day: number; readonly start: number; readonly end: number }> = []
  let over = true
  const lastDay = dayOf(Math.min(span.end, horizonEnd) - 1, zone)
  for (let day = dayOf(Math.max(span.start, now - DAY), zone); day <= lastDay; day += DAY) {
    if (!(plan.keep?.(day) ?? true)) continue
    // A part already under way needs enough of it left; one that has not begun is kept however short.
    const begins = toInstant(day + hours.from * MINUTE, zone)
    const start = Math.max(begins, span.start)
    const end = Math.min(toInstant(day + hours.to * MINUTE, zone), span.end, horizonEnd)
    if (end <= start) continue
    if (end - now >= minimumRemainingMinutes * MINUTE) over = false
    if (worthSearching(begins < now ? begins : start, end, now)) kept.push({ day, start: Math.max(start, now), end })
  }
  const first = kept[0]
  const last = kept.at(-1)
  if (first === undefined || last === undefined) {
    const reason =
      span.start >= horizonEnd
        ? { sv: `ligger mer än ${horizonDays} dagar fram`, en: `is more than ${horizonDays} days ahead` }
        : over
          ? { sv: "har redan varit", en: "has already passed" }
          : { sv: "lämnar ingen tid att söka i", en: "leaves no time to search" }
    return { _tag: "OutOfReach", reason }
  }
  const keptDays = new Set(kept.map((k) => k.day))
  const excludedDates: Array<string> = []
  for (let day = first.day; day <= last.day; day += DAY) if (!keptDays.has(day)) excludedDates.push(isoDate(day))
  const narrowed = plan.hours !== undefined && (plan.hours.from > 0 || plan.hours.to < 24 * 60)
  return {
    _tag: "Window",
    window: {
      start: new Date(first.start),
      end: new Date(last.end),
      ...(narrowed && last.day > first.day ? { dailyHours: { fromHour: hours.from / 60, toHour: hours.to / 60 } } : {}),
      ...(excludedDates.length > 0 ? { excludedDates } : {})
    }
  }
}

type Reading =
  | { readonly _tag: "Window"; readonly window: Omit<TimeWindow, "label" | "understood">; readonly label: Label }
  /** Something in the text is about time but was not understood, or the parts contradict each other. */
  | {
      readonly _tag: "Tentative"
      readonly understood?: Label
      readonly issues: ReadonlyArray<Issue>
      readonly reach?: number
    }
  | { readonly _tag: "OutOfReach"; readonly label: Label; readonly reason: Label }
  | { readonly _tag: "Nothing" }

interface Lexed {
  readonly normalized: ReturnType<typeof normalize>
  readonly tokens: ReadonlyArray<Token>
}

const lexedTexts = new Map<string, Lexed>()

/**
 * A text's normalized form and tokens. They depend on its words, the local day and the zone and
 * on nothing else (the vocabulary never sees the current instant), and searches keep sending the
 * same few phrases, so each is lexed once a day per zone; the cache is emptied when it holds 1000.
 */
const lexed = (text: string, today: number, zone: Zone): Lexed => {
  const key = `${zone.id}\n${today}\n${text}`
  const cached = lexedTexts.get(key)
  if (cached !== undefined) return cached
  const normalized = normalize(text)
  // A context of its own, holding no instant, since the tokens' day atoms keep it.
  const entry: Lexed = { normalized, tokens: lex(normalized.text, { today, zone }) }
  if (lexedTexts.size >= 1000) lexedTexts.clear()
  lexedTexts.set(key, entry)
  return entry
}

const read = (text: string, now: number, zone: Zone): Reading => {
  const ctx: Moment = { now, today: dayOf(now, zone), zone }
  const { normalized, tokens } = lexed(text, ctx.today, zone)
  const reader: Reader = {
    ctx,
    text: normalized.text,
    quote: (from, to) => text.slice(normalized.origin[from] ?? 0, normalized.origin[to] ?? text.length).trim(),
    issues: []
  }
  const alternatives: Array<Plan> = []
  const dailyHours: Array<Plan> = []
  const exclusions: Array<{ readonly plan: Plan; readonly words: string }> = []
  const preferences: Array<string> = []
  let anytime = false
  let hard = false
  const groups = split(tokens)
  shareContext(groups)
  groups.forEach((group, i) => {
    const result = evalGroup(reader, group.tokens, group.negative)
    if (result === undefined) return
    const first = group.tokens[0]
    const last = group.tokens.at(-1)
    const words = first === undefined || last === undefined ? "" : reader.quote(first.at[0], last.at[1])
    if (group.negative) {
      if (result !== "anytime") exclusions.push({ plan: result, words })
      return
    }
    // "helst" before anything else is the wish itself ("helst förmiddag"); after it, a preference that does not narrow.
    if (group.soft && hard) {
      preferences.push(words)
      return
    }
    hard = true
    if (result === "anytime") anytime = true
    // "efter 16 eller i helgen": hours said as an alternative are not hours for every alternative.
    else if (
      result.span === undefined &&
      result.keep === undefined &&
      !group.alternative &&
      groups[i + 1]?.alternative !== true
    )
      dailyHours.push(result)
    else alternatives.push(result)
  })

  const understoodLabel = (): Label | undefined => {
    const labels = [...alternatives, ...dailyHours].map((p) => p.label)
    return labels.length === 0 ? undefined : joinLabels(labels, ", ")
  }
  if (reader.issues.length > 0) {
    const understood = understoodLabel()
    const reach = Math.max(
      ...alternatives.map((p) =>
        p.span === undefined ? now : Number.isFinite(p.span.end) ? p.span.end : p.span.start + defaultDays * DAY
      )
    )
    return {
      _tag: "Tentative",
      ...(understood === undefined ? {} : { understood }),
      issues: reader.issues,
      reach
    }
  }
  if (alternatives.length === 0 && dailyHours.length === 0 && exclusions.length === 0 && !anytime) {
    return { _tag: "Nothing" }
  }

  // "tisdag eller onsdag förmiddag": one part of the day said once holds for every alternative.
  const withHours = alternatives.filter((p) => p.hours !== undefined && (p.span !== undefined || p.keep !== undefined))
  const shared = withHours.length === 1 && alternatives.length > 1 ? withHours[0]?.hours : undefined
  const spread = alternatives.map((p) => (shared !== undefined && p.hours === undefined ? { ...p, hours: shared } : p))
  let plan: Plan =
    spread.length > 0
      ? union(spread.every((p) => p.span === undefined) ? spread : spread.map((p) => bounded(p, ctx)), ctx)
      : { label: anytime ? { sv: "när som helst", en: "any time" } : { sv: "", en: "" }, notes: [] }
  for (const hours of dailyHours) {
    const narrowed = intersectPlans(plan, hours)
    if (narrowed === "empty") {
      return {
        _tag: "OutOfReach",
        label: joinLabels([plan.label, hours.label]),
        reason: { sv: "går inte ihop", en: "does not add up" }
      }
    }
    plan = { ...narrowed, label: joinLabels([plan.label, hours.label], plan.label.sv === "" ? "" : ", ") }
  }
  // "från måndag" and "efter jul" are open-ended unless something else ends them.
  if (plan.span?.end === Number.POSITIVE_INFINITY) {
    const start = Math.max(plan.span.start, now)
    plan = { ...plan, span: { start, end: toInstant(dayOf(start, zone) + defaultDays * DAY, zone) } }
  }
  if (plan.span === undefined) {
    plan = {
      ...plan,
      span: defaultSpan(ctx),
      label: plan.label.sv === "" ? defaultLabel : joinLabels([plan.label, defaultLabel], ", ")
    }
  }
  for (const { plan: exclusion, words } of exclusions) {
    const label = { sv: `utom ${exclusion.label.sv}`, en: `except ${exclusion.label.en}` }
    const namesDays = exclusion.span !== undefined || exclusion.keep !== undefined
    if (namesDays && exclusion.hours !== undefined) {
      reader.issues.push({
        quote: words,
        note: { sv: "kan inte uteslutas bara delvis", en: "cannot be left out in part" }
      })
      return { _tag: "Tentative", ...(understoodLabel() ? { understood: plan.label } : {}), issues: reader.issues }
    }
    if (namesDays) {
      const keep = plan.keep
      plan = {
        ...plan,
        keep: (day) => (keep?.(day) ?? true) && !within(exclusion, day, ctx.zone),
        label: joinLabels([plan.label, label], ", ")
      }
    } else if (exclusion.hours !== undefined) {
      const hours = subtractHours(plan.hours ?? wholeDay, exclusion.hours)
      if (hours === undefined) {
        return {
          _tag: "OutOfReach",
          label: joinLabels([plan.label, label], ", "),
          reason: { sv: "lämnar ingen tid", en: "leaves no time" }
        }
      }
      plan = { ...plan, hours, label: joinLabels([plan.label, label], ", ") }
    }
  }
  const label = joinLabels(
    [plan.label, ...preferences.map((p) => ({ sv: `helst ”${p}”`, en: `preferably “${p}”` })), ...plan.notes],
    "; "
  )
  const materialized = materialize(plan, ctx)
  return materialized._tag === "Window"
    ? { _tag: "Window", window: materialized.window, label }
    : { _tag: "OutOfReach", label, reason: materialized.reason }
}

// ---------------------------------------------------------------------------------------------
// The window searched, and what its label says.
// ---------------------------------------------------------------------------------------------

const quoted = (issues: ReadonlyArray<Issue>): Label => ({
  sv: issues.map((i) => `”${i.quote}”${i.note === undefined ? "" : ` (${i.note.sv})`}`).join(", "),
  en: issues.map((i) => `“${i.quote}”${i.note === undefined ? "" : ` (${i.note.en})`}`).join(", ")
})

const searching = (end: number, now: number, zone: Zone): Label =>
  end === now + defaultDays * DAY
    ? { sv: `söker de närmaste ${defaultDays} dagarna`, en: `searching the next ${defaultDays} days` }
    : { sv: `söker fram till ${isoDate(dayOf(end - 1, zone))}`, en: `searching until ${isoDate(dayOf(end - 1, zone))}` }

/** What a reading that gives no window of its own says about itself. */
const explanation = (reading: Reading): Label | undefined => {
  switch (reading._tag) {
    case "Tentative": {
      const words = quoted(reading.issues)
      return reading.understood === undefined
        ? { sv: `förstod inte ${words.sv}`, en: `did not understand ${words.en}` }
        : {
            sv: `förstod ${reading.understood.sv} men inte ${words.sv}`,
            en: `understood ${reading.understood.en} but not ${words.en}`
          }
    }
    case "OutOfReach":
      return { sv: `${reading.label.sv} ${reading.reason.sv}`, en: `${reading.label.en} ${reading.reason.en}` }
    default:
      return undefined
  }
}

/** A general window from now, reaching as far as anything that was understood. */
const fallback = (reading: Reading | undefined, now: number, zone: Zone): TimeWindow => {
  const reach = reading?._tag === "Tentative" ? (reading.reach ?? now) : now
  const end = Math.min(Math.max(now + defaultDays * DAY, reach), now + horizonDays * DAY)
  const range = searching(end, now, zone)
  const why = reading === undefined ? undefined : explanation(reading)
  const label: Label =
    why === undefined
      ? { sv: `Tiden kunde inte tolkas; ${range.sv}`, en: `time not understood; ${range.en}` }
      : reading?._tag === "Tentative" && reading.understood !== undefined
        ? {
            sv: `Tiden kunde bara delvis tolkas: ${why.sv}; ${range.sv}`,
            en: `time only partly understood: ${why.en}; ${range.en}`
          }
        : reading?._tag === "OutOfReach"
          ? {
              sv: `Tiden går inte att söka: ${why.sv}; ${range.sv}`,
              en: `time cannot be searched: ${why.en}; ${range.en}`
            }
          : { sv: `Tiden kunde inte tolkas: ${why.sv}; ${range.sv}`, en: `time not understood: ${why.en}; ${range.en}` }
  return { start: new Date(now), end: new Date(end), label: bilingual(label), understood: false }
}

/**
 * The preferred-time text is tried first; the urgency text only when the former gives no window
 * of its own (not understood, or wholly in the past or beyond the horizon), and then the label
 * still says what was wrong with the former.
 */
export const parseTimeWindow = (input: ParseTimeWindowInput): TimeWindow => {
  const now = input.now.getTime()
  const zone = zoneFor(input.timeZone)
  const preferred = input.preferredTimeText === undefined ? undefined : read(input.preferredTimeText, now, zone)
  if (preferred?._tag === "Window") return { ...preferred.window, label: bilingual(preferred.label), understood: true }
  const urgency = input.urgency === undefined ? undefined : read(input.urgency, now, zone)
  const caveat = preferred === undefined ? undefined : explanation(preferred)
  if (urgency?._tag === "Window") {
    const label = caveat === undefined ? urgency.label : joinLabels([urgency.label, caveat], "; ")
    return { ...urgency.window, label: bilingual(label), understood: true }
  }
  return fallback(preferred?._tag === "Nothing" || preferred === undefined ? urgency : preferred, now, zone)
}
