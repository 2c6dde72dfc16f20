/** How a reading's plans become one window: alternatives joined, hours left out, days laid out up to the horizon. */
import { DAY, MINUTE, toInstant } from "../../Domain/Zone.js"
import { isoDate } from "./Calendar.js"
import { clock, joinLabels } from "./Labels.js"
import { dayOf, type Moment, type Plan, type Span, within } from "./Plan.js"
import type { Hours, Label } from "./Tokens.js"
import {
  defaultDays,
  horizonDays,
  minimumRemainingMinutes,
  type TimeWindow,
  wholeDay,
  worthSearching
} from "./Window.js"

/** Today and the 13 days after it, whole days, so the last one is not cut at the current time of day. */
export const defaultSpan = (ctx: Moment): Span => ({
  start: ctx.now,
  end: toInstant(ctx.today + defaultDays * DAY, ctx.zone)
})
export const defaultLabel: Label = { sv: `de närmaste ${defaultDays} dagarna`, en: `the next ${defaultDays} days` }

export const bounded = (plan: Plan, ctx: Moment): Plan =>
  plan.span !== undefined
    ? plan
    : { ...plan, span: defaultSpan(ctx), label: joinLabels([plan.label, defaultLabel], ", ") }

/**
 * Alternatives: every day any of them wants, with hours that cover all of theirs. One that has
 * passed or lies beyond the horizon is left out and named in a note ("igår eller idag" is today;
 * yesterday has passed), unless all are: then the reading as a whole is out of reach.
 */
export const union = (all: ReadonlyArray<Plan>, ctx: Moment): Plan => {
  const horizonEnd = ctx.now + horizonDays * DAY
  // An alternative's time runs out at its span's end, or at its hours' end on its last day ("idag kl 15" at 19:30).
  const outOfReach = ({ hours, span }: Plan): boolean => {
    if (span === undefined) return false
    const end =
      hours === undefined || !Number.isFinite(span.end)
        ? span.end
        : Math.min(span.end, toInstant(dayOf(span.end - 1, ctx.zone) + hours.to * MINUTE, ctx.zone))
    return end - ctx.now < minimumRemainingMinutes * MINUTE || span.start >= horizonEnd
  }
  const reachable = all.filter((p) => !outOfReach(p))
  const plans = reachable.length === 0 ? all : reachable
  const left = reachable.length === 0 ? [] : all.filter(outOfReach)
  if (plans.length === 1 && plans[0] !== undefined && left.length === 0) return plans[0]
  const hours = plans.map((p) => p.hours ?? wholeDay)
  const from = Math.min(...hours.map((h) => h.from))
  const to = Math.max(...hours.map((h) => h.to))
  // Each day is searched in the same hours, so alternatives with hours of their own widen them,
  // and the label says so: "fredag efter 15 eller lördag" searches Friday morning too.
  const widened = hours.some((h) => h.from !== from || h.to !== to)
    ? [
        from === 0 && to === 24 * 60
          ? { sv: "söker hela dagarna", en: "searching the whole of each day" }
          : {
              sv: `söker kl ${clock(from)}–${clock(to)} alla dagarna`,
              en: `searching ${clock(from)}–${clock(to)} on each day`
            }
      ]
    : []
  const joined = {
    ...(from === 0 && to === 24 * 60 ? {} : { hours: { from, to } }),
    label: joinLabels(
      plans.map((p) => p.label),
      " eller ",
      " or "
    ),
    notes: [
      ...plans.flatMap((p) => p.notes),
      ...widened,
      ...left.map((p) =>
        p.span !== undefined && p.span.start < horizonEnd
          ? { sv: `${p.label.sv} har redan varit`, en: `${p.label.en} has already passed` }
          : {
              sv: `${p.label.sv} ligger mer än ${horizonDays} dagar fram`,
              en: `${p.label.en} is more than ${horizonDays} days ahead`
            }
      )
    ]
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

/** The hours a home visit can plausibly take place in, by which the parts left by an exclusion are weighed. */
const waking = { from: 6 * 60, to: 22 * 60 }
const wakingMinutes = (piece: Hours) => Math.max(0, Math.min(piece.to, waking.to) - Math.max(piece.from, waking.from))

/**
 * The part of `hours` that is not in `without` with the most waking time: "jobbar dagtid" leaves
 * the evening, not the night before eight.
 */
export const subtractHours = (
  hours: Hours,
  without: Hours
): { readonly kept: Hours; readonly droppedWaking: boolean } | undefined => {
  const pieces = [
    { from: hours.from, to: Math.min(hours.to, without.from) },
    { from: Math.max(hours.from, without.to), to: hours.to }
  ]
    .filter((piece) => piece.from < piece.to)
    .sort((a, b) => wakingMinutes(b) - wakingMinutes(a) || b.to - b.from - (a.to - a.from))
  const [kept, dropped] = pieces
  return kept === undefined
    ? undefined
    : { kept, droppedWaking: dropped !== undefined && wakingMinutes(dropped) > 2 * 60 }
}

type Materialized =
  | {
      readonly _tag: "Window"
      readonly window: Omit<TimeWindow, "label" | "understood">
      /** The horizon's last day, when the text's period runs on past it. */
      readonly cutAt?: number
    }
  | { readonly _tag: "OutOfReach"; readonly reason: Label }

/** The plan's wanted parts of each local day, inside [now, now + horizon]. */
export const materialize = (plan: Plan, ctx: Moment): Materialized => {
  const { now, zone } = ctx
  const span = plan.span ?? defaultSpan(ctx)
  const hours = plan.hours ?? wholeDay
  const horizonEnd = now + horizonDays * DAY
  const kept: Array<{ readonly day: number; readonly start: number; readonly end: number }> = []
  let over = true
  let anyPart = false
  const lastDay = dayOf(Math.min(span.end, horizonEnd) - 1, zone)
  for (let day = dayOf(Math.max(span.start, now - DAY), zone); day <= lastDay; day += DAY) {
    if (!(plan.keep?.(day) ?? true)) continue
    // A part already under way needs enough of it left; one that has not begun is kept however short.
    const begins = toInstant(day + hours.from * MINUTE, zone)
    const start = Math.max(begins, span.start)
    const end = Math.min(toInstant(day + hours.to * MINUTE, zone), span.end, horizonEnd)
    if (end <= start) continue
    anyPart = true
    if (end - now >= minimumRemainingMinutes * MINUTE) over = false
    if (worthSearching(begins < now ? begins : start, end, now)) kept.push({ day, start: Math.max(start, now), end })
  }
  const first = kept[0]
  const last = kept.at(-1)
  if (first === undefined || last === undefined) {
    const reason =
      span.start >= horizonEnd
        ? { sv: `ligger mer än ${horizonDays} dagar fram`, en: `is more than ${horizonDays} days ahead` }
        : // Passed only if some day had time that ran out, or the whole span lies before now.
          over && (anyPart || span.end <= now)
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
    },
    ...(span.end > horizonEnd ? { cutAt: dayOf(horizonEnd - 1, zone) } : {})
  }
}

/** What a label adds when the period it names runs on past the horizon: the rest was not searched. */
export const cutLabel = (lastDay: number): Label => ({
  sv: `bara till ${isoDate(lastDay)} (${horizonDays} dagar fram)`,
  en: `only until ${isoDate(lastDay)} (${horizonDays} days ahead)`
})
