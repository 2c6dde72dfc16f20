/** The groups between "eller", "inte", "men", "helst", and the context they share. */
import { DAY } from "../../Domain/Zone.js"
import { weekdayAtom } from "./Atoms.js"
import { reduceDays } from "./Days.js"
import { evalBound, evalRange, hoursOfTokens, parseItems, stillAhead, timesClash } from "./Grammar.js"
import { dayWithHours, joinLabels } from "./Labels.js"
import { daySpanPlan, intersectHours, intersectPlans, issue, type Plan, type Reader } from "./Plan.js"
import type { Context, DayAtom, Hours, Token } from "./Tokens.js"
import { clockLabel, pointHours } from "./Words.js"

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

/**
 * "kl 8 på kvällen", "ikväll kl 7", "tonight after 8": beside a part of the day after noon, a clock
 * time before noon is that time in the afternoon or evening.
 */
const inTheEvening = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> => {
  const part = tokens.find((t) => t._tag === "Hours" && !t.point && t.hours.from >= 12 * 60)
  if (part?._tag !== "Hours") return tokens
  const inPart = (minutes: number) => minutes >= part.hours.from && minutes <= part.hours.to
  return tokens.map((t) => {
    if (t._tag === "Number" && t.value >= 1 && t.value < 12 && inPart((t.value + 12) * 60))
      return { ...t, value: t.value + 12 }
    if (t._tag !== "Hours" || !t.point || t.hours.from >= 12 * 60 || !inPart(t.hours.from + 12 * 60)) return t
    const minutes = t.hours.from + 12 * 60
    return { ...pointHours(minutes, t.label.sv === "" ? t.label : clockLabel(minutes)), at: t.at }
  })
}

export const evalGroup = (
  reader: Reader,
  groupTokens: ReadonlyArray<Token>,
  negative: boolean
): Plan | "anytime" | undefined => {
  const { ctx } = reader
  const tokens = inTheEvening(groupTokens)
  const items = parseItems(reader, tokens)
  const dayTokens: Array<Token> = []
  const atoms: Array<DayAtom> = []
  const hourTokens: Array<Token> = []
  const plans: Array<Plan> = []
  const fromNow: Array<Extract<Token, { readonly _tag: "FromNow" }>> = []
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
        fromNow.push(token)
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
  // "snarast nästa vecka": as soon as possible within the days named, from their start.
  const base = Math.max(ctx.now, ...[plan, ...plans].map((p) => p?.span?.start ?? ctx.now))
  for (const token of fromNow) {
    plans.push({ span: { start: base, end: base + token.length }, label: token.label, notes: [] })
  }
  for (const next of plans) {
    if (plan === undefined) {
      plan = next
      continue
    }
    const both = intersectPlans(plan, next)
    if (both === "empty") {
      issue(reader, tokens, timesClash)
      return undefined
    }
    plan = both
  }
  if (failed) return undefined
  if (hours !== undefined) {
    if (plan === undefined) return { hours, label: hoursLabel ?? { sv: "", en: "" }, notes: [] }
    const narrowed = intersectHours(plan.hours, hours)
    if (narrowed === "empty") return issue(reader, hourTokens, timesClash)
    plan = { ...plan, hours: narrowed ?? hours, label: dayWithHours(plan.label, hoursLabel) }
  }
  return plan ?? (anytime ? "anytime" : undefined)
}

export interface Group {
  readonly tokens: Array<Token>
  negative: boolean
  soft: boolean
  /** Opened by "eller" / "och": an alternative to the group before it. */
  alternative: boolean
}

const separators = new Set(["or", "and", "but", "not", "soft", "comma"])

const isWord = (token: Token | undefined, word: string): boolean => token?._tag === "Word" && token.word === word

/** The tokens after a comma up to the next one: the clause a comma may open. */
const clauseAfter = (tokens: ReadonlyArray<Token>, at: number): ReadonlyArray<Token> => {
  const end = tokens.findIndex((token, i) => i > at && isWord(token, "comma"))
  return tokens.slice(at + 1, end === -1 ? tokens.length : end)
}

/** Whether nothing but words follows a "not" up to the next separator: "fredag passar inte". */
const trailing = (tokens: ReadonlyArray<Token>, at: number): boolean => {
  for (let i = at + 1; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token._tag === "Word") {
      if (separators.has(token.word)) return true
      continue
    }
    return false
  }
  return true
}

/**
 * Splits at "eller", "och", "men", "inte", "helst"; "mellan 9 och 11" keeps its "och". A "not"
 * with nothing after it negates what came before ("fredag passar inte", with the alternatives
 * joined to it: "fredag eller lördag går inte").
 */
export const split = (tokens: ReadonlyArray<Token>): Array<Group> => {
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
  const negateBack = () => {
    current.negative = true
    for (let i = groups.length - 1, joined = current.alternative; i >= 0 && joined; i--) {
      const group = groups[i]!
      group.negative = true
      joined = group.alternative
    }
  }
  for (const [index, token] of tokens.entries()) {
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
        if (current.tokens.some((t) => t._tag !== "Word") && !current.negative && trailing(tokens, index)) {
          negateBack()
          open(false, false)
        } else open(true, false)
        break
      case "comma": {
        // A comma ends a negation's clause only where the next clause says how it stands: "inte
        // fredag, lördag går bra", "tisdag kan jag, måndag kan jag inte"; "inte måndag, onsdag" lists
        // what is left out. Elsewhere it changes nothing ("torsdag, kl 13").
        const clause = clauseAfter(tokens, index)
        if (!clause.some((t) => t._tag !== "Word")) break
        const yes = clause.some((t) => isWord(t, "yes"))
        const no = clause.some((t) => isWord(t, "not"))
        // A clause that opens its own group ("…, så helst efter 17") decides for itself.
        const own = no || clause.some((t) => isWord(t, "soft") || isWord(t, "but"))
        if (current.negative) {
          // "nej, nästa vecka": a negation with nothing of its own says no to something unsaid.
          if (current.tokens.length === 0) current.negative = false
          else if (yes) open(false, false)
          else if (!own) open(true, false, true)
        } else if (no) open(false, false)
        break
      }
      case "yes":
        break
      case "soft":
        // "fredag är bäst" after its day: that day is the preference.
        if (current.tokens.some((t) => t._tag !== "Word") && trailing(tokens, index)) current.soft = true
        else open(false, true)
        break
      default:
        current.tokens.push(token)
    }
  }
  groups.push(current)
  // "bortrest till fredag", "jobbar till 16": away until a time is there from that time.
  for (const group of groups) {
    const first = group.tokens[0]
    if (group.negative && first?._tag === "Word" && first.word === "to") {
      group.negative = false
      group.tokens[0] = { ...first, word: "from" }
    }
  }
  return groups.filter((group) => group.tokens.length > 0)
}

const isPeriod = (token: Token): boolean => token._tag === "Day" && token.atom.kind === "period"
const isWeekday = (token: Token): boolean => token._tag === "Day" && token.atom.kind === "weekday"

/** A lone weekday, perhaps with hours ("onsdag förmiddag"), as an alternative may be. */
const loneWeekday = (group: Group): Extract<Token, { readonly _tag: "Day" }> | undefined => {
  const days = group.tokens.filter((token) => token._tag !== "Word" && token._tag !== "Hours")
  const [day] = days
  return days.length === 1 && day?._tag === "Day" && day.atom.kind === "weekday" ? day : undefined
}

/**
 * What is said once holds for the alternatives beside it: "nästa tisdag eller onsdag" is next
 * week's Wednesday too, and in "tisdag eller torsdag nästa vecka" a period said once narrows every
 * alternative that names only weekdays.
 */
export const shareContext = (groups: ReadonlyArray<Group>, ctx: Context): void => {
  // "nästa tisdag eller onsdag": "nästa" said once holds for the weekdays after it.
  groups.forEach((group, i) => {
    const first = loneWeekday(group)
    if (first?.atom.pinned !== true || group.negative) return
    for (let j = i + 1; j < groups.length && groups[j]?.alternative === true; j++) {
      const other = groups[j]!
      const day = loneWeekday(other)
      if (day === undefined || day.atom.pinned === true || day.atom.weekday === undefined || other.negative) break
      other.tokens[other.tokens.indexOf(day)] = { ...day, atom: weekdayAtom(day.atom.weekday, true, ctx) }
    }
  })
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
