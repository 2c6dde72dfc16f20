export type DeductionKind = "rut" | "rot"

/**
 * One period of Skatteverket's rule for a kind of household-work tax reduction. Dates are
 * Swedish calendar dates, both ends inclusive; `valid_to: null` is in force until the law changes.
 */
export interface DeductionRule {
  readonly kind: DeductionKind
  /** The share of the labour cost (incl. VAT) that may be deducted on the invoice. */
  readonly rate: number
  readonly valid_from: string
  readonly valid_to: string | null
  /** The most this kind may reduce one person's tax in a year. */
  readonly yearly_cap_sek: number
  /** The most RUT and ROT together may reduce one person's tax in a year. */
  readonly combined_yearly_cap_sek: number
  readonly sources: ReadonlyArray<string>
}

const sources = {
  rutGuidance: "https://www4.skatteverket.se/rattsligvagledning/edition/2024.5/2944.html",
  rotGuidance: "http://www4.skatteverket.se/rattsligvagledning/edition/2020.15/2945.html",
  separateCaps2024: "https://rkrattsbaser.gov.se/prop?fritext=2023&page=7&post_id=135",
  rotRaised2025: "https://data.riksdagen.se/dokument/HC03156.html"
} as const

/**
 * The rules from 2024 on, as Skatteverket's legal guidance and the propositions that changed
 * them state (see `sources`). A change of the law is a new row, never an edit of an old one.
 */
export const deductionRules: ReadonlyArray<DeductionRule> = [
  {
    kind: "rut",
    rate: 0.5,
    valid_from: "2024-01-01",
    valid_to: "2024-06-30",
    yearly_cap_sek: 75_000,
    combined_yearly_cap_sek: 75_000,
    sources: [sources.rutGuidance, sources.separateCaps2024]
  },
  {
    kind: "rut",
    rate: 0.5,
    valid_from: "2024-07-01",
    valid_to: "2024-12-31",
    yearly_cap_sek: 75_000,
    combined_yearly_cap_sek: 150_000,
    sources: [sources.separateCaps2024]
  },
  {
    kind: "rut",
    rate: 0.5,
    valid_from: "2025-01-01",
    valid_to: null,
    yearly_cap_sek: 75_000,
    combined_yearly_cap_sek: 75_000,
    sources: [sources.rutGuidance, sources.separateCaps2024]
  },
  {
    kind: "rot",
    rate: 0.3,
    valid_from: "2024-01-01",
    valid_to: "2024-06-30",
    yearly_cap_sek: 50_000,
    combined_yearly_cap_sek: 75_000,
    sources: [sources.rotGuidance, sources.separateCaps2024]
  },
  {
    kind: "rot",
    rate: 0.3,
    valid_from: "2024-07-01",
    valid_to: "2024-12-31",
    yearly_cap_sek: 75_000,
    combined_yearly_cap_sek: 150_000,
    sources: [sources.separateCaps2024]
  },
  {
    kind: "rot",
    rate: 0.3,
    valid_from: "2025-01-01",
    valid_to: "2025-05-11",
    yearly_cap_sek: 50_000,
    combined_yearly_cap_sek: 75_000,
    sources: [sources.rotGuidance, sources.rotRaised2025]
  },
  {
    kind: "rot",
    rate: 0.5,
    valid_from: "2025-05-12",
    valid_to: "2025-12-31",
    yearly_cap_sek: 50_000,
    combined_yearly_cap_sek: 75_000,
    sources: [sources.rotRaised2025]
  },
  {
    kind: "rot",
    rate: 0.3,
    valid_from: "2026-01-01",
    valid_to: null,
    yearly_cap_sek: 50_000,
    combined_yearly_cap_sek: 75_000,
    sources: [sources.rotGuidance, sources.rotRaised2025]
  }
]

const isoDate = /^\d{4}-\d{2}-\d{2}$/

/** The rule of `kind` in force on a Swedish calendar date ("2025-05-12"), if the table knows one. */
export const ruleInForce = (
  kind: DeductionKind,
  localDate: string,
  rules: ReadonlyArray<DeductionRule> = deductionRules
): DeductionRule | undefined => {
  if (!isoDate.test(localDate)) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${localDate}`)
  return rules.find(
    (rule) =>
      rule.kind === kind && rule.valid_from <= localDate && (rule.valid_to === null || localDate <= rule.valid_to)
  )
}

const stockholmParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Stockholm",
  year: "numeric",
  month: "2-digit",
  day: "2-digit"
})

// A date-time without an offset names no instant: Date.parse would read it in the server's zone.
const withOffset = /(?:Z|[+-]\d{2}:?\d{2})$/i

/** The Europe/Stockholm calendar date of an instant (epoch ms, Date, or ISO date-time with offset). */
export const stockholmDate = (instant: Date | number | string): string => {
  if (typeof instant === "string" && !withOffset.test(instant))
    throw new RangeError(`a date-time needs its offset to name an instant: ${instant}`)
  const ms = instant instanceof Date ? instant.getTime() : typeof instant === "number" ? instant : Date.parse(instant)
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant: ${String(instant)}`)
  // Since 1970 Swedish time is UTC+1 or +2, changing on a whole UTC hour, so the date holds for the
  // hour: every option of a search dates its slot, and searches keep offering the same hours.
  if (ms < 0) return dateOf(ms)
  const hour = Math.floor(ms / HOUR)
  const cached = datesOfHour.get(hour)
  if (cached !== undefined) return cached
  const date = dateOf(hour * HOUR)
  if (datesOfHour.size >= 10_000) datesOfHour.delete(datesOfHour.keys().next().value!)
  datesOfHour.set(hour, date)
  return date
}

const HOUR = 3_600_000
const datesOfHour = new Map<number, string>()

const dateOf = (ms: number) => {
  const parts = stockholmParts.formatToParts(ms)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value
  return `${part("year")}-${part("month")}-${part("day")}`
}

/**
 * The next rule of `kind` that takes effect after `localDate` and no later than `withinDays`
 * after it. Skatteverket applies the rule in force when the buyer pays, which may be after a
 * change even when the work was done before it.
 */
export const nextRuleWithin = (
  kind: DeductionKind,
  localDate: string,
  withinDays: number,
  rules: ReadonlyArray<DeductionRule> = deductionRules
): DeductionRule | undefined => {
  const last = new Date(Date.parse(`${localDate}T00:00:00Z`) + withinDays * 86_400_000).toISOString().slice(0, 10)
  return rules
    .filter((rule) => rule.kind === kind && localDate < rule.valid_from && rule.valid_from <= last)
    .sort((a, b) => (a.valid_from < b.valid_from ? -1 : 1))[0]
}
