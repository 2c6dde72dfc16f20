import { describe, expect, it } from "@effect/vitest"
import type { PriceFacts } from "../../src/Domain/Pricing.js"
import { type DeductionDeclaration, type TaxDeduction, taxDeduction } from "../../src/Domain/TaxDeduction.js"
import { ruleInForce, stockholmDate } from "../../src/Domain/TaxDeductionRules.js"
import { fc, propSettings } from "../support/Props.js"

const { parameters, timeout } = propSettings("tax deduction", { quick: 300, deep: 5000 }, 5)

const HOUR = 3_600_000

const unitModels = [
  { pricingModel: "per_sqm", sv: "kvm", en: "m²" },
  { pricingModel: "per_window", sv: "fönster", en: "windows" },
  { pricingModel: "per_hour", sv: "timmar", en: "hours" },
  { pricingModel: "per_item", sv: "st", en: "items" }
] as const

const anyFixed: fc.Arbitrary<PriceFacts> = fc
  .integer({ min: 0, max: 500_000 })
  .map((amountSek) => ({ amountSek, pricingModel: "flat", priceType: "avg_fixed" }))

const anyStarting: fc.Arbitrary<PriceFacts> = fc
  .integer({ min: 0, max: 500_000 })
  .map((amountSek) => ({ amountSek, pricingModel: "starting_price", priceType: "starting_price" }))

const anyUnit: fc.Arbitrary<PriceFacts> = fc
  .record({
    model: fc.constantFrom(...unitModels),
    unitPriceSek: fc.integer({ min: 1, max: 200_000 }).map((tenths) => tenths / 10),
    quantity: fc.integer({ min: 1, max: 1000 }),
    priceType: fc.constantFrom("avg_unit", "avg_recurring")
  })
  .map(({ model, unitPriceSek, quantity, priceType }) => ({
    amountSek: Math.floor(Number((unitPriceSek * quantity).toFixed(6)) + 0.5),
    pricingModel: model.pricingModel,
    priceType,
    unitPriceSek,
    quantity
  }))

const anyPrice = fc.oneof(anyFixed, anyStarting, anyUnit)

const anyDeclaration = (price: PriceFacts): fc.Arbitrary<DeductionDeclaration> => {
  const measure = price.unitPriceSek ?? price.amountSek
  return fc.record({
    kind: fc.constantFrom("rut" as const, "rot" as const),
    labour: fc.oneof(
      fc.double({ min: Number.MIN_VALUE, max: 1, noNaN: true }).map((share) => ({ share })),
      fc.constantFrom({ share: 1 }, { share: 0.5 }, { share: 0.3 }),
      fc.integer({ min: 0, max: Math.round(measure * 100) }).map((ore) => ({ amount_sek: ore / 100 }))
    )
  })
}

/** Any instant of 2024–2027, and instants within a day and a half of each rate change. */
const anySlot = fc.oneof(
  fc.integer({ min: Date.parse("2024-01-01T00:00:00+01:00"), max: Date.parse("2027-12-31T23:59:59+01:00") }),
  fc.integer({ min: -36 * HOUR, max: 36 * HOUR }).map((offset) => Date.parse("2025-05-12T00:00:00+02:00") + offset),
  fc.integer({ min: -36 * HOUR, max: 36 * HOUR }).map((offset) => Date.parse("2026-01-01T00:00:00+01:00") + offset),
  fc.integer({ min: -120, max: 120 }).map((minutes) => Date.parse("2025-12-31T23:00:00Z") + minutes * 60_000),
  fc.integer({ min: -120, max: 120 }).map((minutes) => Date.parse("2025-05-12T00:00:00Z") + minutes * 60_000)
)

const anyCase = anyPrice.chain((price) =>
  fc.record({ price: fc.constant(price), declaration: anyDeclaration(price), slot: anySlot })
)

const law = <A>(name: string, arbitrary: fc.Arbitrary<A>, check: (value: A) => void) =>
  it(
    name,
    () => {
      fc.assert(fc.property(arbitrary, check), parameters)
    },
    timeout
  )

// Stockholm is UTC+2 from the last Sunday of March to the last Sunday of October, else UTC+1;
// every instant drawn near a change is far from those Sundays.
const stockholmOffsetHours = (instant: number) => {
  const year = new Date(instant).getUTCFullYear()
  const lastSunday = (month: number) => {
    const last = new Date(Date.UTC(year, month + 1, 0))
    return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1)
  }
  return instant >= lastSunday(2) && instant < lastSunday(9) ? 2 : 1
}
const localDate = (instant: number) =>
  new Date(instant + stockholmOffsetHours(instant) * HOUR).toISOString().slice(0, 10)

const figuresOf = (result: TaxDeduction) => {
  if (result.kind === "none") throw new Error(`no figures: ${result.conditions_en}`)
  return result
}

describe("taxDeduction laws", () => {
  law(
    "price after deduction = amount − min(⌊rate × labour⌋, cap), never below the part that is not labour",
    anyCase,
    ({ price, declaration, slot }) => {
      const result = figuresOf(taxDeduction(price, declaration, slot))
      const rule = ruleInForce(result.kind, stockholmDate(slot))!
      expect(Number.isInteger(result.labour_sek)).toBe(true)
      expect(result.labour_sek).toBeGreaterThanOrEqual(0)
      expect(result.labour_sek).toBeLessThanOrEqual(price.amountSek)
      // Whole percent times whole kronor: integer arithmetic, no binary fractions.
      const deduction = Math.min(
        Math.floor((Math.round(rule.rate * 100) * result.labour_sek) / 100),
        rule.yearly_cap_sek
      )
      expect(result.rate).toBe(rule.rate)
      expect(result.max_deduction_sek).toBe(deduction)
      expect(result.price_after_deduction_sek).toBe(price.amountSek - deduction)
      expect(result.price_after_deduction_sek).toBeGreaterThanOrEqual(price.amountSek - result.labour_sek)
    }
  )

  law(
    "the labour is the declared share or amount, in whole kronor rounded down, capped at the price",
    anyCase,
    ({ price, declaration, slot }) => {
      const result = figuresOf(taxDeduction(price, declaration, slot))
      if (declaration.kind === "none") return
      const declared =
        "share" in declaration.labour
          ? declaration.labour.share * price.amountSek
          : declaration.labour.amount_sek * (price.quantity ?? 1)
      const expected = Math.min(declared, price.amountSek)
      expect(result.labour_sek).toBeLessThanOrEqual(expected + 1e-6)
      expect(result.labour_sek).toBeGreaterThan(expected - 1 - 1e-6)
    }
  )

  law(
    "the rate is the one in force on the slot's Stockholm date, also around midnight UTC",
    anyCase,
    ({ price, declaration, slot }) => {
      const result = figuresOf(taxDeduction(price, declaration, slot))
      const date = localDate(slot)
      const raisedRot = "2025-05-12" <= date && date <= "2025-12-31"
      expect(result.rate, `${new Date(slot).toISOString()} is ${date} in Stockholm`).toBe(
        result.kind === "rut" || raisedRot ? 0.5 : 0.3
      )
    }
  )

  law(
    "a service that declares no deduction gets no figures, and its price stands",
    fc.tuple(anyPrice, anySlot),
    ([price, slot]) => {
      const result = taxDeduction(price, { kind: "none" }, slot)
      expect(result.kind).toBe("none")
      expect(result.amount_sek).toBe(price.amountSek)
      expect(Object.keys(result).sort()).toEqual(
        ["amount_sek", "conditions_en", "conditions_sv", "kind", "price_kind", "reason"].sort()
      )
      expect(result.conditions_en).toContain("claims no RUT or ROT deduction")
    }
  )

  law(
    "a starting price's figures are all from-figures; a unit price's name their quantity",
    anyCase,
    ({ price, declaration, slot }) => {
      const result = figuresOf(taxDeduction(price, declaration, slot))
      const sv = new Intl.NumberFormat("sv-SE").format(result.price_after_deduction_sek).replace(/\s/g, " ")
      const en = new Intl.NumberFormat("en-GB").format(result.price_after_deduction_sek)
      if (result.price_kind === "starting") {
        expect(result.conditions_sv).toMatch(/^Från /)
        expect(result.conditions_sv).toContain(`eller från ${sv} kr efter`)
        expect(result.conditions_en).toMatch(/^From SEK /)
        expect(result.conditions_en).toContain(`or from SEK ${en}`)
      } else {
        expect(result.conditions_sv).not.toMatch(/från \d/)
        expect(result.conditions_en).not.toMatch(/from SEK/)
      }
      if (result.price_kind === "unit") {
        const model = unitModels.find((unit) => unit.pricingModel === price.pricingModel)!
        const quantity = price.quantity!
        const quantitySv = new Intl.NumberFormat("sv-SE").format(quantity)
        const quantityEn = new Intl.NumberFormat("en-GB").format(quantity)
        expect(result.conditions_sv).toContain(` kr för ${quantitySv} ${model.sv}, eller `)
        expect(result.conditions_en).toContain(` for ${quantityEn} ${model.en}, or `)
      }
    }
  )

  law("no field anywhere is named like a personal identity number", anyCase, ({ price, declaration, slot }) => {
    const keys = (value: unknown): Array<string> =>
      typeof value === "object" && value !== null
        ? Object.entries(value).flatMap(([key, inner]) => [key, ...keys(inner)])
        : []
    for (const result of [taxDeduction(price, declaration, slot), taxDeduction(price, { kind: "none" }, slot)])
      for (const key of keys(result)) expect(key).not.toMatch(/person|identity|national|ssn|social/i)
  })
})
