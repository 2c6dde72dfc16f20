import type { DaySpan } from "../../Domain/Holidays.js"
import type { Zone } from "../../Domain/Zone.js"

export interface Label {
  readonly sv: string
  readonly en: string
}

/** Minutes since local midnight; `to` may be 1440 (the midnight ending the day). */
export interface Hours {
  readonly from: number
  readonly to: number
}

/**
 * What a phrase's reading may depend on besides its words. Not the current instant: a reading
 * relative to it is a FromNow token, which the window resolves, so the tokens of a text are the
 * same all day and can be kept.
 */
export interface Context {
  /** Local midnight of today, as wall-clock ms. */
  readonly today: number
  readonly zone: Zone
}

/** A kind of day, for "tisdagar", "vardagar", "inte måndag", "fredag" inside "nästa vecka". */
export interface DayFilter {
  readonly test: (day: number) => boolean
  readonly label: Label
}

export interface DayAtom {
  readonly kind: "date" | "dayOfMonth" | "weekday" | "period" | "recurring"
  /** The first occurrence that has not ended before `from` (a wall-clock day); undefined when there is none. */
  readonly occurrence: (from: number) => DaySpan | undefined
  readonly label: (span: DaySpan) => Label
  /** How the atom reads beside a period: "fredag" in "fredag nästa vecka". */
  readonly filter?: DayFilter
  readonly weekday?: number
  /** Days inside the occurrence that are not meant ("3, 5 eller 9 december" spans 3-9 but means three days). */
  readonly only?: (day: number) => boolean
  /** "nästa fredag" is one Friday even where a bare "fredag" means every Friday ("inte fredag"). */
  readonly pinned?: boolean
  /** Splits the period into its beginning, middle and end ("början av nästa vecka"). */
  readonly thirds?: (span: DaySpan) => readonly [DaySpan, DaySpan, DaySpan]
  /** "slutet av X": "före slutet av nästa vecka" means by its end, not before it begins. */
  readonly endPart?: boolean
}

export type Word =
  | "or"
  | "and"
  | "not"
  | "but"
  | "soft"
  | "before"
  | "by"
  | "after"
  | "from"
  | "to"
  | "between"
  | "onwards"
  /** Words that look like another word's but change nothing ("jobbar hemifrån" is being at home). */
  | "filler"
  /** A comma or semicolon: where a negation's clause may end ("inte fredag, lördag går bra"). */
  | "comma"
  /** Says the days before it suit ("lördag går bra"): after a negation, a clause of its own. */
  | "yes"

export type TokenBody =
  | { readonly _tag: "Day"; readonly atom: DayAtom }
  | { readonly _tag: "Hours"; readonly hours: Hours; readonly point: boolean; readonly label: Label }
  | { readonly _tag: "Span"; readonly start: number; readonly end: number; readonly label: Label }
  /** From the current instant for `length` ms ("snarast", "inom 2 veckor"). */
  | { readonly _tag: "FromNow"; readonly length: number; readonly label: Label }
  | { readonly _tag: "Anytime"; readonly label: Label }
  | { readonly _tag: "Number"; readonly value: number }
  | { readonly _tag: "Unknown"; readonly note?: Label }
  | { readonly _tag: "Word"; readonly word: Word }

/** A token and where it stands in the normalized text. */
export type Token = TokenBody & { readonly at: readonly [number, number] }

/** An exact clock time ("kl 10", "2026-12-03T10:00") is a window this long, so slots starting at or shortly after it are offered. */
export const pointWindowHours = 4
/** "snarast" / "asap" / "akut". */
export const asapDays = 3
/** "snart", "inom kort". */
export const soonDays = 7
/** "de närmaste dagarna", "the next few days". */
export const fewDays = 5
