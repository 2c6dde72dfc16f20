/** Bounds and ranges ("före fredag", "efter 17", "från 28 november till 1 december") inside one group. */
import type { DaySpan } from "../../Domain/Holidays.js"
import { DAY, MINUTE, toInstant } from "../../Domain/Zone.js"
import { reduceDays } from "./Days.js"
import { clock, dayWithHours, joinLabels } from "./Labels.js"
import { onlyFiller } from "./Lexer.js"
import { daySpanPlan, intersectHours, issue, type Moment, type Plan, type Reader, type Span } from "./Plan.js"
import type { Hours, Label, Token } from "./Tokens.js"
import { horizonDays, wholeDay, worthSearching } from "./Window.js"
import { clockMinutes } from "./Words.js"

export const timesClash: Label = { sv: "tiderna går inte ihop", en: "the times do not add up" }
const endBeforeStart: Label = { sv: "slutet ligger före början", en: "the end is before the start" }

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

export const parseItems = (reader: Reader, tokens: ReadonlyArray<Token>): Array<Item> => {
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
        // "fredag senast", "fredag at the latest"; not "fredag efter skolan", where it bounds an event.
        const after = reader.text.slice(token.at[1], tokens[i]?.at[0] ?? reader.text.length)
        const x = onlyFiller(after.replace(/\b(?:tack|thanks|please)\b/gu, "")) ? popRun(token) : []
        if (x.length > 0) pushBound(op, x)
        // "innan vi flyttar den 20 december", "efter det": beside a time, a bound that bounds
        // nothing is not dropped ("ring innan ni kommer" says nothing about time).
        else if (tokens.some((t) => t._tag === "Day" || t._tag === "Hours" || t._tag === "Span")) issue(reader, [token])
      }
    } else if (op === "onwards") {
      const x = popRun(token)
      if (x.length > 0) pushBound("from", x)
    }
  }
  return items
}

export const stillAhead = (day: number, hours: Hours | undefined, ctx: Moment): boolean =>
  worthSearching(
    toInstant(day + (hours ?? wholeDay).from * MINUTE, ctx.zone),
    toInstant(day + (hours ?? wholeDay).to * MINUTE, ctx.zone),
    ctx.now
  )

export const hoursOfTokens = (reader: Reader, tokens: ReadonlyArray<Token>): Hours | undefined | "empty" => {
  let hours: Hours | undefined
  // "eftermiddag kl 9": a time of day outside the part of the day said beside it does not add up,
  // however the four hours after it overlap the part.
  const all = tokens.filter((t): t is Extract<Token, { readonly _tag: "Hours" }> => t._tag === "Hours")
  const parts = all.filter((t) => !t.point)
  const outside = all.some(
    (p) => p.point && parts.some((part) => p.hours.from < part.hours.from || p.hours.from >= part.hours.to)
  )
  if (outside) {
    issue(reader, all, timesClash)
    return "empty"
  }
  for (const token of tokens) {
    if (token._tag !== "Hours") continue
    const next = intersectHours(hours, token.hours)
    if (next === "empty") {
      issue(
        reader,
        tokens.filter((t) => t._tag === "Hours"),
        timesClash
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

export const evalBound = (reader: Reader, op: Op, operand: ReadonlyArray<Token>): Plan | undefined => {
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

export const evalRange = (
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
  // "tisdag till torsdag nästa vecka": a period said after the end holds for a start of weekdays only.
  const weekdaysOnly = (tokens: ReadonlyArray<Token>) =>
    tokens.every((t) => t._tag !== "Day" || t.atom.kind === "weekday")
  const period = to.filter((t) => t._tag === "Day" && t.atom.kind === "period")
  // Unless the start would then come after the end ("fredag till måndag nästa vecka" starts this Friday).
  const carried = period.length > 0 && weekdaysOnly(from) ? resolveOperand(reader, [...from, ...period]) : undefined
  // The end as said alone, read once: an end that cannot be read names its words once.
  const unanchored = carried === undefined ? undefined : resolveOperand(reader, to)
  if (carried !== undefined && unanchored === undefined) return undefined
  const x =
    carried !== undefined && unanchored !== undefined && unanchored.span.last >= carried.span.first
      ? carried
      : resolveOperand(reader, from)
  if (x === undefined) return undefined
  const y = resolveOperand(reader, to, between ? x.span.last : x.span.first)
  if (y === undefined) return undefined
  // "28/12-3/1" reaches into next year; "15/12-10/12" is written backwards, not a year long.
  if (
    y.span.last - x.span.first > horizonDays * DAY &&
    ((unanchored ?? resolveOperand(reader, to))?.span.last ?? 0) < x.span.first
  ) {
    return issue(reader, all, endBeforeStart)
  }
  // "mellan jul och nyår" is the days in between; "mellan 1 och 5 december" and "från jul till nyår" include both ends.
  const multiDay = (span: DaySpan) => span.last > span.first
  const first = between ? (multiDay(x.span) ? x.span.last + DAY : x.span.first) : x.span.first
  const last = between ? (multiDay(y.span) ? y.span.first - DAY : y.span.last) : y.span.last
  if (last < first) return issue(reader, all, endBeforeStart)
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
