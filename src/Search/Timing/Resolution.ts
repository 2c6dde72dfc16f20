import { DAY, HOUR, MINUTE, toInstant, type Zone } from "../../Domain/Zone.js"
import { isoDate } from "./Calendar.js"
import { evalGroup, shareContext, split } from "./Groups.js"
import { clock, joinLabels } from "./Labels.js"
import { lex } from "./Lexer.js"
import { normalize } from "./Normalize.js"
import { dayOf, type Issue, intersectPlans, type Moment, type Plan, type Reader, type Span, within } from "./Plan.js"
import type { Hours, Label, Token } from "./Tokens.js"
import {
  defaultDays,
  horizonDays,
  minimumRemainingMinutes,
  type TimeWindow,
  wholeDay,
  worthSearching
} from "./Window.js"

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

/**
 * Alternatives: every day any of them wants, with hours that cover all of theirs. One that has
 * passed or lies beyond the horizon is left out and named in a note ("igår eller idag" is today;
 * yesterday has passed), unless all are: then the reading as a whole is out of reach.
 */
const union = (all: ReadonlyArray<Plan>, ctx: Moment): Plan => {
  const horizonEnd = ctx.now + horizonDays * DAY
  // When an alternative's time runs out: its span's end, or its hours' end on its last day ("idag kl 15" at 19:30).
  const endOf = (p: Plan & { readonly span: Span }) =>
    p.hours === undefined || !Number.isFinite(p.span.end)
      ? p.span.end
      : Math.min(p.span.end, toInstant(dayOf(p.span.end - 1, ctx.zone) + p.hours.to * MINUTE, ctx.zone))
  const over = (p: Plan & { readonly span: Span }) => endOf(p) - ctx.now < minimumRemainingMinutes * MINUTE
  const outOfReach = (p: Plan) => p.span !== undefined && (over({ ...p, span: p.span }) || p.span.start >= horizonEnd)
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
const subtractHours = (
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
const materialize = (plan: Plan, ctx: Moment): Materialized => {
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
const cutLabel = (lastDay: number): Label => ({
  sv: `bara till ${isoDate(lastDay)} (${horizonDays} dagar fram)`,
  en: `only until ${isoDate(lastDay)} (${horizonDays} days ahead)`
})

export type Reading =
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

export const read = (text: string, now: number, zone: Zone): Reading => {
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
  let wishing = false
  // "fredag passar inte?", "kan ni inte komma på fredag?": a question with "inte" asks; it is not a no.
  const not = tokens.find((t) => t._tag === "Word" && t.word === "not")
  if (not !== undefined && text.includes("?")) {
    reader.issues.push({
      quote: reader.quote(not.at[0], not.at[1]),
      note: { sv: "en fråga, inte ett nej", en: "a question, not a no" }
    })
  }
  const groups = split(tokens)
  shareContext(groups, { today: ctx.today, zone })
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
    // "helst" before anything else is the wish itself ("helst förmiddag"), with its alternatives
    // ("helst fredag, annars måndag"); after it, a preference that does not narrow.
    if (group.soft && hard && !(group.alternative && wishing)) {
      preferences.push(words)
      wishing = false
      return
    }
    wishing = group.soft && (!hard || wishing)
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
    else {
      // "fredag 10-12 eller 14-16": hours alone after an alternative with days are on those days.
      const before = alternatives.at(-1)
      // Only beside hours of its own: "fredag eller 14-16" is Friday, or 14-16 on any day.
      const onTheSameDays =
        group.alternative &&
        result.span === undefined &&
        result.keep === undefined &&
        result.hours !== undefined &&
        before !== undefined &&
        before.hours !== undefined &&
        (before.span !== undefined || before.keep !== undefined)
      alternatives.push(
        onTheSameDays
          ? {
              ...result,
              ...(before.span === undefined ? {} : { span: before.span }),
              ...(before.keep === undefined ? {} : { keep: before.keep })
            }
          : result
      )
    }
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
  // Said after the last alternative, that is: "fredag efter 15 eller lördag" keeps Saturday whole.
  const withHours = alternatives.filter((p) => p.hours !== undefined && (p.span !== undefined || p.keep !== undefined))
  const shared =
    withHours.length === 1 && alternatives.length > 1 && withHours[0] === alternatives.at(-1)
      ? withHours[0]?.hours
      : undefined
  const spread = alternatives.map((p) => (shared !== undefined && p.hours === undefined ? { ...p, hours: shared } : p))
  let plan: Plan =
    spread.length > 0
      ? union(spread.every((p) => p.span === undefined) ? spread : spread.map((p) => bounded(p, ctx)), ctx)
      : { label: anytime ? { sv: "när som helst", en: "any time" } : { sv: "", en: "" }, notes: [] }
  // "i helgen eller måndag förmiddag": hours said once narrow a period said before them too, and
  // the label says so; for single days ("tisdag eller onsdag förmiddag") it reads so already.
  const spreadOverPeriod = alternatives.some(
    (p) => p.hours === undefined && (p.span === undefined || p.span.end - p.span.start > 25 * HOUR)
  )
  if (shared !== undefined && spreadOverPeriod) {
    plan = {
      ...plan,
      notes: [
        ...plan.notes,
        {
          sv: `kl ${clock(shared.from)}–${clock(shared.to)} alla dagarna`,
          en: `${clock(shared.from)}–${clock(shared.to)} on each day`
        }
      ]
    }
  }
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
      // One part of the day is searched; when the other had more than two waking hours, the label says which.
      const only = hours.droppedWaking
        ? [
            {
              sv: `söker bara kl ${clock(hours.kept.from)}–${clock(hours.kept.to)}`,
              en: `searching only ${clock(hours.kept.from)}–${clock(hours.kept.to)}`
            }
          ]
        : []
      plan = {
        ...plan,
        hours: hours.kept,
        label: joinLabels([plan.label, label], ", "),
        notes: [...plan.notes, ...only]
      }
    }
  }
  const wanted = joinLabels(
    [plan.label, ...preferences.map((p) => ({ sv: `helst ”${p}”`, en: `preferably “${p}”` }))],
    "; "
  )
  const label = joinLabels([wanted, ...plan.notes], "; ")
  const materialized = materialize(plan, ctx)
  // The reason belongs to what was wanted, the notes after it: "… har redan varit; 2026-12-03 är en torsdag".
  if (materialized._tag === "OutOfReach")
    return { _tag: "OutOfReach", label: wanted, reason: joinLabels([materialized.reason, ...plan.notes], "; ") }
  const { window, cutAt } = materialized
  return { _tag: "Window", window, label: cutAt === undefined ? label : joinLabels([label, cutLabel(cutAt)], "; ") }
}
