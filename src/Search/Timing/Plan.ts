import type { DaySpan } from "../../Domain/Holidays.js"
import { DAY, startOfDay, toInstant, wallClockOf, type Zone } from "../../Domain/Zone.js"
import { joinLabels } from "./Labels.js"
import type { Context, Hours, Label, Token } from "./Tokens.js"

export interface Span {
  readonly start: number
  readonly end: number
}

export interface Plan {
  /** Instants; undefined when the part names no days ("förmiddag", "vardagar"). */
  readonly span?: Span
  /** Which local days are wanted. */
  readonly keep?: (day: number) => boolean
  readonly hours?: Hours
  readonly label: Label
  readonly notes: ReadonlyArray<Label>
}

export interface Issue {
  readonly quote: string
  readonly note?: Label
}

/** The vocabulary's context and the current instant, which only the window's own steps read. */
export interface Moment extends Context {
  readonly now: number
}

export interface Reader {
  readonly ctx: Moment
  readonly text: string
  readonly quote: (from: number, to: number) => string
  readonly issues: Array<Issue>
}

export const issue = (reader: Reader, tokens: ReadonlyArray<Token>, note?: Label): undefined => {
  const from = Math.min(...tokens.map((t) => t.at[0]))
  const to = Math.max(...tokens.map((t) => t.at[1]))
  reader.issues.push(note === undefined ? { quote: reader.quote(from, to) } : { quote: reader.quote(from, to), note })
  return undefined
}

export const intersectHours = (a: Hours | undefined, b: Hours | undefined): Hours | undefined | "empty" => {
  if (a === undefined) return b
  if (b === undefined) return a
  const from = Math.max(a.from, b.from)
  const to = Math.min(a.to, b.to)
  return from < to ? { from, to } : "empty"
}

export const dayOf = (instant: number, zone: Zone): number => startOfDay(wallClockOf(instant, zone))

export const daySpanPlan = (span: DaySpan, zone: Zone, label: Label, keep?: (day: number) => boolean): Plan => ({
  span: { start: toInstant(span.first, zone), end: toInstant(span.last + DAY, zone) },
  ...(keep === undefined ? {} : { keep }),
  label,
  notes: []
})

/** Whether a plan covers a local day; an open-ended span ("efter fredag") covers every day from its start. */
export const within = (plan: Plan, day: number, zone: Zone): boolean =>
  (plan.keep?.(day) ?? true) &&
  (plan.span === undefined ||
    (plan.span.end > plan.span.start &&
      (!Number.isFinite(plan.span.start) || day >= dayOf(plan.span.start, zone)) &&
      (!Number.isFinite(plan.span.end) || day <= dayOf(plan.span.end - 1, zone))))

export const intersectPlans = (a: Plan, b: Plan): Plan | "empty" => {
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
