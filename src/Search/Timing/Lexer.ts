import { type Entry, entries } from "./Lexicon.js"
import type { Context, Token, TokenBody } from "./Tokens.js"
import { monthWords } from "./Words.js"

const temporalWords = new Set([
  ...monthWords.map(([w]) => w).filter((w) => w !== "may" && w !== "mar"),
  ..."tis ons tors fre lor tue tues wed thu thur thurs fri".split(" "),
  ..."dag dagen dagar dagarna dygn dygnet vecka veckan veckor veckorna helg helgen helger helgerna".split(" "),
  ..."manad manaden manader aret kvart halv timme timmen timmar minut minuter natt natten natter morse".split(" "),
  ..."middag middagen middagstid afton aftonen semester semestern lov lovet jul julen pask pasken nyar".split(" "),
  ..."nyaret midsommar tidig tidigt tidiga sent sena senare tidigare strax datum datumet helgdag helgdagar".split(" "),
  ..."forsta sista first last forra forrforra ifjol varannan previous ago forran".split(" "),
  ..."klockan kl tiden tider dags stund vinter vintern sommar sommaren host hosten varen".split(" "),
  ..."day days week weeks weekend weekends month months year years morning mornings afternoon".split(" "),
  ..."afternoons evening evenings night nights tonight noon midnight christmas xmas easter midsummer".split(" "),
  ..."holiday holidays am pm oclock o'clock hour hours minute minutes early late later earlier eve".split(" "),
  ..."fortnight date dates vacation spring summer autumn winter weekday weekdays tomorrow today".split(" ")
])

const temporalEnding =
  /(dag|dagen|dagar|dagarna|afton|aftonen|helg|helgen|helger|lov|lovet|veckan|veckor|veckorna|kvall|kvallen|kvallar|morgon|morgonen|natt|natten|manad|manaden|day|days|eve|morning|evening|night)$/u

const isTemporal = (w: string): boolean => /\d/.test(w) || temporalWords.has(w) || temporalEnding.test(w)

/** The first match of an entry at or after `from` that reads as something. */
const nextHit = (entry: Entry, text: string, from: number, ctx: Context) => {
  // Patterns are global and lex is synchronous, so each one's lastIndex is ours for the call.
  const pattern = entry.pattern
  pattern.lastIndex = from
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const read = m[0].length === 0 ? undefined : entry.read(m, ctx)
    if (read !== undefined) return { match: m, read }
    pattern.lastIndex = m.index + 1
  }
  return undefined
}

/**
 * The tokens of a normalized text, left to right: at each position the longest phrase that
 * reads (ties: table order), then every word about time that none of them covers, as Unknown.
 */
export const lex = (text: string, ctx: Context): ReadonlyArray<Token> => {
  const tokens: Array<Token> = []
  const gaps: Array<readonly [number, number]> = []
  let covered = 0
  // Each entry's next hit, kept while it lies at or after `covered`: every position before it
  // had no match that reads, so a search from any later `covered` up to it finds the same hit,
  // and an entry with no hit from an earlier position has none from a later one either.
  const hits: Array<ReturnType<typeof nextHit> | null> = new Array(entries.length).fill(null)
  for (;;) {
    let best: { readonly match: RegExpExecArray; readonly read: TokenBody | ReadonlyArray<TokenBody> } | undefined
    for (let i = 0; i < entries.length; i++) {
      let hit = hits[i]
      if (hit === null || (hit !== undefined && hit.match.index < covered)) {
        hit = nextHit(entries[i]!, text, covered, ctx)
        hits[i] = hit
      }
      if (
        hit !== undefined &&
        (best === undefined ||
          hit.match.index < best.match.index ||
          (hit.match.index === best.match.index && hit.match[0].length > best.match[0].length))
      ) {
        best = hit
      }
    }
    if (best === undefined) break
    const at = [best.match.index, best.match.index + best.match[0].length] as const
    for (const body of "_tag" in best.read ? [best.read] : best.read) tokens.push({ ...body, at })
    if (at[0] > covered) gaps.push([covered, at[0]])
    covered = at[1]
  }
  gaps.push([covered, text.length])
  for (const [from, to] of gaps) {
    for (const w of text.slice(from, to).matchAll(/[\p{L}\p{N}']+/gu)) {
      if (isTemporal(w[0])) {
        const start = from + w.index
        tokens.push({ _tag: "Unknown", at: [start, start + w[0].length] })
      }
    }
  }
  return tokens.sort((a, b) => a.at[0] - b.at[0])
}

/** Whether the text between two tokens is only filler ("den", "på", "kl") that cannot change their meaning. */
export const onlyFiller = (text: string): boolean =>
  text
    .split(/[^\p{L}\p{N}]+/u)
    .every((w) => w === "" || /^(den|the|pa|on|kl|klockan|i|in|at|nu|om|vid|runt|of|av|dag|day|en|a|ca|cirka)$/.test(w))
