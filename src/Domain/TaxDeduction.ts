import { monthNames } from "./Months.js"
import {
  kronorEn,
  kronorSv,
  type PriceFacts,
  type PriceKind,
  priceKind,
  quantityEn,
  type quantityKeys,
  quantitySv,
  unitWords
} from "./Pricing.js"
import {
  type DeductionKind,
  type DeductionRule,
  nextRuleWithin,
  ruleInForce,
  stockholmDate
} from "./TaxDeductionRules.js"

/** How much of a service's price is labour: whole kronor (per unit for a unit price), or a share of it. */
export type LabourPart = { readonly amount_sek: number } | { readonly share: number }

/** What a provider declares for a service in its supply file. */
export type DeductionDeclaration =
  | { readonly kind: "none" }
  | { readonly kind: DeductionKind; readonly labour: LabourPart }

/** A unit price's figures per unit; `exact` says whether they multiply back to the total. */
export interface PerUnitFigures {
  readonly unit_price_sek: number
  readonly unit_price_after_deduction_sek: number
  readonly exact: boolean
}

/** The figures if the buyer pays once the next rule is in force (Skatteverket applies the rule of the payment). */
export interface IfPaidFrom {
  readonly date: string
  readonly rate: number
  readonly max_deduction_sek: number
  readonly price_after_deduction_sek: number
}

/**
 * A price with the deduction the provider would make on the invoice. For a starting price every
 * figure is a from-figure; for a unit price they are for the stated quantity.
 */
export interface DeductionFigures {
  readonly kind: DeductionKind
  readonly price_kind: PriceKind
  readonly rate: number
  readonly amount_sek: number
  readonly labour_sek: number
  readonly max_deduction_sek: number
  readonly price_after_deduction_sek: number
  readonly yearly_cap_sek: number
  readonly combined_yearly_cap_sek: number
  readonly rule_valid_from: string
  readonly rule_valid_to: string | null
  readonly per_unit?: PerUnitFigures
  readonly if_paid_from?: IfPaidFrom
  readonly conditions_sv: string
  readonly conditions_en: string
}

/**
 * The price stands without a deduction: the service claims none, its provider has not declared
 * whether one applies (a service or booking from before declarations), or no rule is known for the date.
 */
export interface NoDeduction {
  readonly kind: "none"
  readonly reason: "not_claimed" | "not_declared" | "no_rule_for_date"
  readonly price_kind: PriceKind
  readonly amount_sek: number
  readonly conditions_sv: string
  readonly conditions_en: string
}

export type TaxDeduction = DeductionFigures | NoDeduction

/** Invoices are paid some weeks after the work; a rule change within this many days is worth saying. */
export const paymentWindowDays = 60

// toFixed first: 0.3 × 1990 is 596.9999999999999 in binary, and must be 597.
const settle = (x: number) => Number(x.toFixed(6))

/**
 * Whole kronor, rounded down: Skatteverket takes the requested amount in whole kronor and refuses
 * one above the rate's share of the labour, so a provider's invoice never deducts a part krona.
 */
export const wholeKronorDown = (x: number) => Math.floor(settle(x))

const ore = (x: number) => Math.round(settle(x) * 100) / 100

type UnitModel = keyof typeof quantityKeys

const perUnitWords: Record<UnitModel, { readonly sv: string; readonly en: string }> = {
  per_sqm: { sv: "kvm", en: "m²" },
  per_window: { sv: "fönster", en: "window" },
  per_hour: { sv: "timme", en: "hour" },
  per_item: { sv: "st", en: "item" }
}

const names: Record<DeductionKind, string> = { rut: "RUT", rot: "ROT" }

const dateWords = (date: string) => {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  const name = monthNames[month - 1]
  return { sv: `${day} ${name?.sv} ${year}`, en: `${day} ${name?.en} ${year}` }
}

const orePriceSv = new Intl.NumberFormat("sv-SE", { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const orePriceEn = new Intl.NumberFormat("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })
const unitPriceSv = (x: number) => (Number.isInteger(x) ? kronorSv(x) : orePriceSv.format(x).replace(/\s/g, " "))
const unitPriceEn = (x: number) => (Number.isInteger(x) ? kronorEn(x) : orePriceEn.format(x))

const percentSv = (rate: number) => `${settle(rate * 100)} %`
const percentEn = (rate: number) => `${settle(rate * 100)}%`

/** The labour part of the price in whole kronor (rounded down), never above the price. */
export const labourSek = (price: PriceFacts, labour: LabourPart): number => {
  const raw =
    "share" in labour
      ? labour.share * price.amountSek
      : priceKind(price) === "unit"
        ? labour.amount_sek * (price.quantity ?? 0)
        : labour.amount_sek
  if (!Number.isFinite(raw) || raw <= 0) return 0
  return Math.min(wholeKronorDown(raw), wholeKronorDown(price.amountSek))
}

const figuresUnder = (rule: DeductionRule, labour: number, amount: number) => {
  const maxDeduction = Math.min(wholeKronorDown(rule.rate * labour), rule.yearly_cap_sek)
  return { max_deduction_sek: maxDeduction, price_after_deduction_sek: amount - maxDeduction }
}

/** What the price is, worded by its kind, without any deduction. */
const pricePhrase = (price: PriceFacts, kind: PriceKind) => {
  switch (kind) {
    case "fixed":
      return { sv: `${kronorSv(price.amountSek)} kr`, en: `SEK ${kronorEn(price.amountSek)}` }
    case "starting":
      return { sv: `från ${kronorSv(price.amountSek)} kr`, en: `from SEK ${kronorEn(price.amountSek)}` }
    case "unit": {
      const words = unitWords[price.pricingModel as UnitModel]
      const quantity = price.quantity ?? 0
      return {
        sv: `${kronorSv(price.amountSek)} kr för ${quantitySv(quantity)} ${words.sv}`,
        en: `SEK ${kronorEn(price.amountSek)} for ${quantityEn(quantity)} ${words.en}`
      }
    }
  }
}

const perUnitFigures = (
  price: PriceFacts,
  labour: LabourPart,
  rule: DeductionRule,
  priceAfter: number
): PerUnitFigures | undefined => {
  const unitPrice = price.unitPriceSek
  const quantity = price.quantity
  if (unitPrice === undefined || quantity === undefined || !(unitPrice > 0)) return undefined
  const unitLabour = "share" in labour ? labour.share * unitPrice : Math.min(labour.amount_sek, unitPrice)
  const after = ore(unitPrice - rule.rate * Math.max(unitLabour, 0))
  return {
    unit_price_sek: unitPrice,
    unit_price_after_deduction_sek: after,
    exact: ore(after * quantity) === priceAfter
  }
}

const capWords = (rule: DeductionRule) => {
  const name = names[rule.kind]
  return rule.yearly_cap_sek === rule.combined_yearly_cap_sek
    ? {
        sv: `högst ${kronorSv(rule.yearly_cap_sek)} kr per person och år för RUT och ROT tillsammans`,
        en: `at most SEK ${kronorEn(rule.yearly_cap_sek)} per person a year for RUT and ROT together`
      }
    : {
        sv: `högst ${kronorSv(rule.yearly_cap_sek)} kr ${name} per person och år (RUT och ROT tillsammans högst ${kronorSv(rule.combined_yearly_cap_sek)} kr)`,
        en: `at most SEK ${kronorEn(rule.yearly_cap_sek)} of ${name} per person a year (RUT and ROT together at most SEK ${kronorEn(rule.combined_yearly_cap_sek)})`
      }
}

const sentences = (...parts: ReadonlyArray<string | undefined>) =>
  parts.filter((part): part is string => part !== undefined).join(" ")

const conditions = (
  price: PriceFacts,
  kind: PriceKind,
  rule: DeductionRule,
  labour: number,
  after: number,
  perUnit: PerUnitFigures | undefined,
  ifPaid: IfPaidFrom | undefined
) => {
  const name = names[rule.kind]
  const from = kind === "starting"
  const phrase = pricePhrase(price, kind)
  const afterSv = `${from ? "från " : ""}${kronorSv(after)} kr`
  const afterEn = `${from ? "from " : ""}SEK ${kronorEn(after)}`
  const unit = kind === "unit" ? perUnitWords[price.pricingModel as UnitModel] : undefined
  const perUnitSv =
    perUnit && unit
      ? ` (${perUnit.exact ? "" : "ca "}${unitPriceSv(perUnit.unit_price_after_deduction_sek)} kr per ${unit.sv})`
      : ""
  const perUnitEn =
    perUnit && unit
      ? ` (${perUnit.exact ? "" : "about "}SEK ${unitPriceEn(perUnit.unit_price_after_deduction_sek)} per ${unit.en})`
      : ""
  const cap = capWords(rule)
  const paidDate = ifPaid ? dateWords(ifPaid.date) : undefined
  const recurring = price.priceType === "avg_recurring"
  const sv = sentences(
    `${phrase.sv}, eller ${afterSv}${perUnitSv} efter ${name}-avdrag om du har rätt till avdraget och har utrymme kvar under årets tak; utföraren drar av det på fakturan.`,
    `${name}-avdraget är ${percentSv(rule.rate)} av arbetskostnaden inklusive moms (här ${from ? "från " : ""}${kronorSv(labour)} kr; material och resor ger inget avdrag), ${cap.sv}.`,
    from ? "Det är ett startpris: utföraren bestämmer slutpriset, och avdraget på det, på plats." : undefined,
    recurring ? "Beloppen gäller första besöket; varje besök räknas mot årets tak." : undefined,
    rule.kind === "rot" ? "ROT-avdrag gäller bara arbete i en bostad som du äger." : undefined,
    ifPaid && paidDate
      ? `Avdraget följer reglerna när du betalar: betalar du den ${paidDate.sv} eller senare är ${name}-avdraget ${percentSv(ifPaid.rate)} och priset efter avdrag ${from ? "från " : ""}${kronorSv(ifPaid.price_after_deduction_sek)} kr.`
      : undefined,
    "Avdraget förutsätter att arbetet har utförts och att du betalar elektroniskt (inte kontant), och det följer reglerna den dag du betalar; en avbokningsavgift ger inget avdrag.",
    "Utföraren tar in de identitetsuppgifter som behövs och begär avdraget hos Skatteverket; medger Skatteverket inte avdraget betalar du resten."
  )
  const en = sentences(
    `${capitalise(phrase.en)}, or ${afterEn}${perUnitEn} after the ${name} deduction if you are eligible and have room under this year's cap; the provider deducts it on the invoice.`,
    `The ${name} deduction is ${percentEn(rule.rate)} of the labour cost including VAT (here ${from ? "from " : ""}SEK ${kronorEn(labour)}; materials and travel give no deduction), ${cap.en}.`,
    from ? "This is a starting price: the provider sets the final price, and the deduction on it, on site." : undefined,
    recurring ? "The figures are for the first visit; every visit counts towards this year's cap." : undefined,
    rule.kind === "rot" ? "The ROT deduction applies only to work in a home you own." : undefined,
    ifPaid && paidDate
      ? `The deduction follows the rules in force when you pay: if you pay on or after ${paidDate.en}, the ${name} deduction is ${percentEn(ifPaid.rate)} and the price after it ${from ? "from " : ""}SEK ${kronorEn(ifPaid.price_after_deduction_sek)}.`
      : undefined,
    "The deduction needs the work to have been performed and paid for electronically (not in cash), and it follows the rules of the day you pay; a cancellation fee gives no deduction.",
    "The provider collects the identity details it needs and claims the deduction from Skatteverket; if Skatteverket refuses it, you pay the rest."
  )
  return { sv: capitalise(sv), en }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

const noDeduction = (price: PriceFacts, kind: PriceKind, reason: NoDeduction["reason"]): NoDeduction => {
  const phrase = pricePhrase(price, kind)
  const why =
    reason === "not_claimed"
      ? {
          sv: "utföraren gör inget RUT- eller ROT-avdrag för den här tjänsten.",
          en: "the provider claims no RUT or ROT deduction for this service."
        }
      : reason === "not_declared"
        ? {
            sv: "utföraren har inte angett om RUT- eller ROT-avdrag gäller; fråga utföraren.",
            en: "the provider has not stated whether a RUT or ROT deduction applies; ask the provider."
          }
        : {
            sv: "det finns inga kända avdragsregler för den dagen; fråga utföraren om RUT- eller ROT-avdrag.",
            en: "no deduction rules are known for that day; ask the provider about a RUT or ROT deduction."
          }
  return {
    kind: "none",
    reason,
    price_kind: kind,
    amount_sek: price.amountSek,
    conditions_sv: `Priset (${phrase.sv}) gäller utan avdrag: ${why.sv}`,
    conditions_en: `The price (${phrase.en}) stands without a deduction: ${why.en}`
  }
}

/**
 * The deduction a service's declaration allows on a price, under the rule in force on the
 * Stockholm date of the slot's start: `max_deduction_sek = min(rate × labour, yearly cap)` in
 * whole kronor rounded down, and `price_after_deduction_sek = amount_sek − max_deduction_sek`.
 */
export const taxDeduction = (
  price: PriceFacts,
  declaration: DeductionDeclaration | undefined,
  slotStart: Date | number | string
): TaxDeduction => {
  const claimed = declaration !== undefined && declaration.kind !== "none"
  // Only a claimed deduction reads the date (an instant that names no date throws here).
  const date = claimed ? stockholmDate(slotStart) : undefined
  // The answer depends on the price, the declaration and the date only, and searches keep offering
  // the same services on the same few dates: each is computed and worded once, not once per option.
  const key = JSON.stringify([
    declaration ?? "undefined",
    String(price.amountSek),
    price.pricingModel,
    price.priceType,
    String(price.unitPriceSek),
    String(price.quantity),
    date ?? ""
  ])
  const cached = deductions.get(key)
  if (cached !== undefined) return cached
  const deduction = deductionOn(price, declaration, date ?? "")
  // About 2 KB each: the oldest goes first beyond a thousand, more than the dates and services a busy hour offers.
  if (deductions.size >= 1000) deductions.delete(deductions.keys().next().value!)
  deductions.set(key, deduction)
  return deduction
}

/** Computed deductions by their inputs (see taxDeduction), shared by every answer: never changed in place. */
const deductions = new Map<string, TaxDeduction>()

const deductionOn = (price: PriceFacts, declaration: DeductionDeclaration | undefined, date: string): TaxDeduction => {
  const kind = priceKind(price)
  if (declaration === undefined) return noDeduction(price, kind, "not_declared")
  if (declaration.kind === "none") return noDeduction(price, kind, "not_claimed")
  const rule = ruleInForce(declaration.kind, date)
  if (rule === undefined) return noDeduction(price, kind, "no_rule_for_date")
  const labour = labourSek(price, declaration.labour)
  const figures = figuresUnder(rule, labour, price.amountSek)
  const capped = wholeKronorDown(rule.rate * labour) > rule.yearly_cap_sek
  const perUnit =
    kind === "unit" && !capped
      ? perUnitFigures(price, declaration.labour, rule, figures.price_after_deduction_sek)
      : undefined
  const next = nextRuleWithin(declaration.kind, date, paymentWindowDays)
  const nextFigures = next === undefined ? undefined : figuresUnder(next, labour, price.amountSek)
  const ifPaid =
    next !== undefined && nextFigures !== undefined && nextFigures.max_deduction_sek !== figures.max_deduction_sek
      ? { date: next.valid_from, rate: next.rate, ...nextFigures }
      : undefined
  const text = conditions(price, kind, rule, labour, figures.price_after_deduction_sek, perUnit, ifPaid)
  return {
    kind: declaration.kind,
    price_kind: kind,
    rate: rule.rate,
    amount_sek: price.amountSek,
    labour_sek: labour,
    ...figures,
    yearly_cap_sek: rule.yearly_cap_sek,
    combined_yearly_cap_sek: rule.combined_yearly_cap_sek,
    rule_valid_from: rule.valid_from,
    rule_valid_to: rule.valid_to,
    ...(perUnit === undefined ? {} : { per_unit: perUnit }),
    ...(ifPaid === undefined ? {} : { if_paid_from: ifPaid }),
    conditions_sv: text.sv,
    conditions_en: text.en
  }
}

const quantityNote = (d: TaxDeduction) => {
  const deduction = d.kind !== "none"
  switch (d.price_kind) {
    case "starting":
      return deduction
        ? " Every figure is a from-figure: the provider sets the final price, and the deduction on it, on site; never say either as exact."
        : ' It is a starting price: say "from" and that the provider sets the final price on site.'
    case "unit":
      return deduction
        ? " The figures are for the stated quantity; another quantity gives other figures, so search again rather than scale them."
        : " It covers the stated quantity; another quantity gives another price, so search again rather than scale it."
    case "fixed":
      return ""
  }
}

/**
 * The assistant's instruction (English, for `safe_next_step`) on how to say a price and its
 * deduction: both figures with the condition, never the lower one alone or as certain.
 */
export const deductionStep = (d: TaxDeduction): string => {
  if (d.kind === "none")
    return d.reason === "not_claimed"
      ? `This service claims no RUT or ROT deduction: say the price as it stands, with no deduction, and do not mention or promise one.${quantityNote(d)}`
      : d.reason === "not_declared"
        ? `The provider has not stated whether a RUT or ROT deduction applies: say the price without a deduction, and that the provider answers whether one applies; promise none.${quantityNote(d)}`
        : `No RUT or ROT rules are known for this date: say the price without a deduction and let the provider answer questions about one.${quantityNote(d)}`
  const name = names[d.kind]
  return `This price is set with the ${name} deduction in mind. Say both figures and the condition, in the user's language: "${d.conditions_en}" Never give the after-deduction figure alone or as certain: it holds only if the user is eligible and has room under this year's cap, and the provider deducts it on the invoice.${quantityNote(d)} Do not ask for, store or pass on any identity number: the provider collects the identity details it needs.`
}
