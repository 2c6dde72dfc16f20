import { Schema } from "effect"
import type { TaxDeduction } from "./TaxDeduction.js"

const Sek = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const Rate = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 }))

/** A service's declaration as stored, once the supply check (TaxDeductionSupply) has accepted it. */
export const DeductionDeclaration = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("none") }),
  Schema.Struct({
    kind: Schema.Literals(["rut", "rot"]),
    labour: Schema.Union([Schema.Struct({ share: Schema.Finite }), Schema.Struct({ amount_sek: Schema.Finite })])
  })
])

const conditions = {
  conditions_sv: Schema.String.annotate({
    description: "How to say the price and the deduction, in Swedish, with every condition"
  }),
  conditions_en: Schema.String.annotate({ description: "The same in English" })
}

export const TaxDeductionFigures = Schema.Struct({
  kind: Schema.Literals(["rut", "rot"]),
  rate: Rate.annotate({ description: "The share of the labour that may be deducted, as a fraction (0.5, 0.3)" }),
  labour_sek: Sek.annotate({ description: "The labour part of amount_sek: the only part that qualifies" }),
  max_deduction_sek: Sek.annotate({ description: "min(rate × labour_sek, yearly_cap_sek), in whole kronor" }),
  price_after_deduction_sek: Sek.annotate({
    description:
      "What the customer pays if eligible and under this year's cap: amount_sek − max_deduction_sek. A from-figure for a starting price; for the stated quantity for a unit price"
  }),
  yearly_cap_sek: Sek,
  combined_yearly_cap_sek: Sek,
  per_unit: Schema.optional(
    Schema.Struct({
      unit_price_sek: Schema.Finite,
      unit_price_after_deduction_sek: Schema.Finite,
      exact: Schema.Boolean.annotate({ description: "Whether the per-unit figure multiplies back to the total" })
    })
  ),
  if_paid_from: Schema.optional(
    Schema.Struct({
      date: Schema.String.annotate({ format: "date" }),
      rate: Rate,
      max_deduction_sek: Sek,
      price_after_deduction_sek: Sek
    }).annotate({
      description: "Skatteverket applies the rule in force when the customer pays: the figures if paid on or after date"
    })
  ),
  ...conditions
}).annotate({ identifier: "TaxDeductionFigures" })

export const NoTaxDeduction = Schema.Struct({
  kind: Schema.Literal("none"),
  reason: Schema.Literals(["not_claimed", "not_declared", "no_rule_for_date"]),
  ...conditions
}).annotate({ identifier: "NoTaxDeduction" })

/**
 * The RUT or ROT deduction the provider would make on the invoice, under the rule in force on the
 * slot's date; `kind: "none"` with the reason when the price stands without one.
 */
export const TaxDeductionAnswer = Schema.Union([TaxDeductionFigures, NoTaxDeduction]).annotate({
  identifier: "TaxDeduction"
})
export type TaxDeductionAnswer = typeof TaxDeductionAnswer.Type

/** The answer's fields of a computed deduction; the price's own facts stay in the price beside it. */
export const deductionAnswer = (d: TaxDeduction): TaxDeductionAnswer => {
  // taxDeduction shares one computed deduction among the options of a service and date, so its answer is shared too.
  const cached = answers.get(d)
  if (cached !== undefined) return cached
  // Frozen: shared by every answer, and an answer's encoder copies a frozen value's bytes once encoded.
  const answer = Object.freeze(answerOf(d))
  answers.set(d, answer)
  return answer
}

const answers = new WeakMap<TaxDeduction, TaxDeductionAnswer>()

const answerOf = (d: TaxDeduction): TaxDeductionAnswer =>
  d.kind === "none"
    ? { kind: "none", reason: d.reason, conditions_sv: d.conditions_sv, conditions_en: d.conditions_en }
    : {
        kind: d.kind,
        rate: d.rate,
        labour_sek: d.labour_sek,
        max_deduction_sek: d.max_deduction_sek,
        price_after_deduction_sek: d.price_after_deduction_sek,
        yearly_cap_sek: d.yearly_cap_sek,
        combined_yearly_cap_sek: d.combined_yearly_cap_sek,
        ...(d.per_unit === undefined ? {} : { per_unit: d.per_unit }),
        ...(d.if_paid_from === undefined ? {} : { if_paid_from: d.if_paid_from }),
        conditions_sv: d.conditions_sv,
        conditions_en: d.conditions_en
      }
