import type { PriceKind } from "../Domain/Pricing.js"
import type { Surface } from "../Domain/Surface.js"
import type { TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"

export const noOptionsStep = (surface: Surface) =>
  `No direct booking is available for this job now. Tell the user nothing is booked, and offer to send the job to providers as a follow-up request (${surface.createRequest}) once the user consents to sharing contact details.`

/** What a quantity key asks the user for, in words an assistant can repeat. */
const quantityQuestions: Readonly<Record<string, string>> = {
  area_sqm: "the area in square metres",
  home_size_sqm: "the home's size in square metres",
  window_count: "the number of windows",
  hours: "the number of hours",
  item_count: "the number of items"
}

const askFor = (keys: ReadonlyArray<string>) =>
  keys.map((key) => `${quantityQuestions[key] ?? key} (details.${key})`).join(" or ")

/**
 * The price is per unit and the search did not say how many: the fix is the user's answer, so it
 * comes before any fallback.
 */
export const missingQuantityStep = (surface: Surface, keys: ReadonlyArray<string>) =>
  `Nothing is booked. This job is priced per unit, so the search needs ${askFor(keys)}: ask the user and search again (${surface.search}) with it in details. Only if they cannot say, offer a follow-up request (${surface.createRequest}) once they consent to sharing contact details.`

/** A detail the search needs is missing or out of bounds: ask the user, then search again. */
export const detailsStep = (surface: Surface, issues: ReadonlyArray<string>) =>
  `Nothing is booked. Ask the user for the details named in issues (${issues.map((issue) => issue.split(":")[0]).join(", ")}) and search again (${surface.search}) with the corrected values.`
const priceNotes: Record<PriceKind, string> = {
  fixed: "a price_type avg_fixed amount is the exact price of the described work",
  starting:
    'a price_type starting_price amount is a from-price: say "from" and that the provider sets the final price on site',
  unit: "a unit price (price_type avg_unit or avg_recurring) covers the quantity and unit stated in the option"
}

/** How to say the options' deductions: both figures and the condition, never the lower one as a promise. */
const deductionNote = (deductions: ReadonlyArray<TaxDeductionAnswer>) => {
  const claimed = deductions.filter((d) => d.kind !== "none")
  const names = [...new Set(claimed.map((d) => d.kind.toUpperCase()))].join(" or ")
  const withFigures =
    claimed.length === 0
      ? ""
      : ` Where price.tax_deduction has kind rut or rot, say both figures and the condition, as its conditions_en words them: "X SEK, or Y SEK after ${names} if you are eligible and have room under this year's cap; the provider deducts it on the invoice". Never give the after-deduction figure alone or as certain, keep "from" on a starting price's figures, and do not ask for or pass on any identity number: the provider collects the details it needs.`
  const without = deductions.some((d) => d.kind === "none")
    ? " Where price.tax_deduction has kind none, say the price without a deduction and promise none."
    : ""
  return withFigures + without
}

/**
 * Said first when the time text gave no window of its own (not understood, passed or too far
 * ahead): the options are from the general window, not at a time the user chose.
 */
export const timeNotSearchedNote =
  "The time the user gave could not be searched as given (the window's label says why); these are free times in the window searched instead: say so, and ask which suits or for another time. "

/** Which options a step is about: the window's own, or the nearest free times outside it. */
export type OfferedOptions = "options" | "alternative_options"

/**
 * The options' prices worded by kind, so no starting price is ever repeated as exact. The step
 * depends only on the surface, which options it offers, the price kinds and the deduction kinds
 * in their order, and whether an option has none (see deductionNote): a few combinations, each
 * worded once.
 */
export const optionsStep = (
  surface: Surface,
  kinds: ReadonlySet<PriceKind>,
  deductions: ReadonlyArray<TaxDeductionAnswer>,
  offered: OfferedOptions = "options"
) => {
  const claimed = new Set(deductions.flatMap((d) => (d.kind === "none" ? [] : [d.kind])))
  const key = `${offered}|${[...kinds].join(" ")}|${[...claimed].join(" ")}|${deductions.some((d) => d.kind === "none")}`
  let steps = optionsSteps.get(surface)
  if (steps === undefined) {
    steps = new Map()
    optionsSteps.set(surface, steps)
  }
  const cached = steps.get(key)
  if (cached !== undefined) return cached
  const step =
    offered === "options" ? optionsStepOf(surface, kinds, deductions) : alternativesStepOf(surface, kinds, deductions)
  if (steps.size >= 100) steps.delete(steps.keys().next().value!)
  steps.set(key, step)
  return step
}

const optionsSteps = new WeakMap<Surface, Map<string, string>>()

const howToOffer = (surface: Surface, kinds: ReadonlySet<PriceKind>, deductions: ReadonlyArray<TaxDeductionAnswer>) =>
  `Prices: ${[...kinds].map((kind) => priceNotes[kind]).join("; ")}; amount_sek is the price before any tax deduction.${deductionNote(deductions)} When the user picks one, hold its time first with ${surface.hold} (nothing is booked; other partners cannot take it while the hold lives), then ask for their contact details and consent, and only then confirm it with ${surface.confirm} before the hold's expires_at (without a hold, before the option's expires_at). Nothing is booked until that confirmation succeeds.`

const optionsStepOf = (
  surface: Surface,
  kinds: ReadonlySet<PriceKind>,
  deductions: ReadonlyArray<TaxDeductionAnswer>
) => `Show the user each option's provider, price, time and terms. ${howToOffer(surface, kinds, deductions)}`

/** The requested time is full: its nearest free times come first, the follow-up request only if none suits. */
const alternativesStepOf = (
  surface: Surface,
  kinds: ReadonlySet<PriceKind>,
  deductions: ReadonlyArray<TaxDeductionAnswer>
) =>
  `No provider has a free slot in the requested time (requested_time_window), and nothing is booked. alternative_options holds the nearest free times outside it: tell the user none of them is at the time they asked for, and offer them with each option's provider, price, time and terms. ${howToOffer(surface, kinds, deductions)} If none of these times suits the user, offer to send the job to providers as a follow-up request (${surface.createRequest}) once the user consents to sharing contact details.`

export const unavailableStep =
  "Search is unavailable because the database does not answer. A search never books anything, so nothing was booked. Retry the same search in a moment."
