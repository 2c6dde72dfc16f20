import { DAY, HOUR, toInstant, type Zone } from "../../Domain/Zone.js"
import { bounded, cutLabel, defaultLabel, defaultSpan, materialize, subtractHours, union } from "./Combine.js"
import { evalGroup, shareContext, split } from "./Groups.js"
import { clock, joinLabels } from "./Labels.js"
import { lex } from "./Lexer.js"
import { normalize } from "./Normalize.js"
import { dayOf, type Issue, intersectPlans, type Moment, type Plan, type Reader, within } from "./Plan.js"
import type { Label, Token } from "./Tokens.js"
import { defaultDays, type TimeWindow, wholeDay } from "./Window.js"

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
