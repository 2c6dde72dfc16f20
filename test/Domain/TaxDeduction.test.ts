import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import type { PriceFacts } from "../../src/Domain/Pricing.js"
import { type DeductionFigures, deductionStep, type TaxDeduction, taxDeduction } from "../../src/Domain/TaxDeduction.js"
import { deductionRules, nextRuleWithin, ruleInForce, stockholmDate } from "../../src/Domain/TaxDeductionRules.js"
import { graphOf } from "../support/ImportGraph.js"

const fixed: PriceFacts = { amountSek: 1990, pricingModel: "flat", priceType: "avg_fixed" }
const starting: PriceFacts = { amountSek: 2495, pricingModel: "starting_price", priceType: "starting_price" }
const perSqm: PriceFacts = {
  amountSek: 4940,
  pricingModel: "per_sqm",
  priceType: "avg_unit",
  unitPriceSek: 65,
  quantity: 76
}
const hourlyRecurring: PriceFacts = {
  amountSek: 880,
  pricingModel: "per_hour",
  priceType: "avg_recurring",
  unitPriceSek: 440,
  quantity: 2
}

const march2026 = "2026-03-10T09:00:00+01:00"

const figures = (result: TaxDeduction): DeductionFigures => {
  if (result.kind === "none") throw new Error(`expected figures, got ${result.conditions_en}`)
  return result
}

describe("the rules table", () => {
  it("holds for each kind one rule per day, with no gaps from 2024 on", () => {
    for (const kind of ["rut", "rot"] as const) {
      const rules = deductionRules.filter((rule) => rule.kind === kind)
      for (let day = Date.parse("2024-01-01"); day <= Date.parse("2027-12-31"); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10)
        const inForce = rules.filter(
          (rule) => rule.valid_from <= date && (rule.valid_to === null || date <= rule.valid_to)
        )
        expect(inForce, `${kind} ${date}`).toHaveLength(1)
      }
    }
  })

  it("says what Skatteverket publishes: RUT 50 %, ROT 30 % (50 % from 12 May to 31 December 2025), caps 75 000 / 50 000", () => {
    expect(ruleInForce("rut", "2026-06-01")).toMatchObject({ rate: 0.5, yearly_cap_sek: 75_000 })
    expect(ruleInForce("rot", "2026-06-01")).toMatchObject({
      rate: 0.3,
      yearly_cap_sek: 50_000,
      combined_yearly_cap_sek: 75_000
    })
    expect(ruleInForce("rot", "2025-05-11")?.rate).toBe(0.3)
    expect(ruleInForce("rot", "2025-05-12")?.rate).toBe(0.5)
    expect(ruleInForce("rot", "2025-12-31")?.rate).toBe(0.5)
    expect(ruleInForce("rot", "2026-01-01")?.rate).toBe(0.3)
    expect(ruleInForce("rot", "2024-09-01")?.yearly_cap_sek).toBe(75_000)
    expect(ruleInForce("rot", "2023-12-31")).toBeUndefined()
    for (const rule of deductionRules) expect(rule.sources.length).toBeGreaterThan(0)
  })

  it("reads a slot's date in Stockholm, not in UTC", () => {
    expect(stockholmDate("2025-12-31T23:30:00Z")).toBe("2026-01-01")
    expect(stockholmDate("2025-05-11T22:00:00Z")).toBe("2025-05-12")
    expect(stockholmDate("2025-05-11T21:59:59Z")).toBe("2025-05-11")
    expect(stockholmDate(Date.parse("2026-07-01T00:15:00+02:00"))).toBe("2026-07-01")
    expect(stockholmDate(new Date("2026-06-30T22:15:00Z"))).toBe("2026-07-01")
    expect(ruleInForce("rot", stockholmDate("2025-12-31T23:00:00Z"))?.valid_from).toBe("2026-01-01")
  })

  it("refuses a date-time without an offset, which names no instant", () => {
    expect(() => stockholmDate("2026-01-01T00:30:00")).toThrow(RangeError)
    expect(() => stockholmDate("soon+01:00")).toThrow(RangeError)
    expect(() => ruleInForce("rut", "1 May 2026")).toThrow(RangeError)
  })

  it("finds the next rule taking effect within a window", () => {
    expect(nextRuleWithin("rot", "2025-12-15", 60)?.valid_from).toBe("2026-01-01")
    expect(nextRuleWithin("rot", "2025-10-15", 60)).toBeUndefined()
    expect(nextRuleWithin("rut", "2025-12-15", 60)).toBeUndefined()
  })
})

describe("taxDeduction", () => {
  it("deducts the rate of the labour, rounded down to whole kronor, and says both prices", () => {
    const rot = figures(taxDeduction(fixed, { kind: "rot", labour: { share: 0.9 } }, march2026))
    expect(rot).toMatchObject({
      kind: "rot",
      price_kind: "fixed",
      rate: 0.3,
      amount_sek: 1990,
      labour_sek: 1791,
      max_deduction_sek: 537,
      price_after_deduction_sek: 1453
    })
    expect(rot.conditions_sv).toContain(
      "1 990 kr, eller 1 453 kr efter ROT-avdrag om du har rätt till avdraget och har utrymme kvar under årets tak; utföraren drar av det på fakturan."
    )
    expect(rot.conditions_en).toContain(
      "SEK 1,990, or SEK 1,453 after the ROT deduction if you are eligible and have room under this year's cap; the provider deducts it on the invoice."
    )
    expect(rot.conditions_sv).toContain("bostad som du äger")
  })

  it("takes 0.3 × 1990 as the 597 it is, not 596", () => {
    const whole = figures(taxDeduction(fixed, { kind: "rot", labour: { amount_sek: 1990 } }, march2026))
    expect(whole.max_deduction_sek).toBe(597)
  })

  it("never counts more labour than the price, nor deducts more than the kind's yearly cap", () => {
    const over = figures(taxDeduction(fixed, { kind: "rut", labour: { amount_sek: 5000 } }, march2026))
    expect(over.labour_sek).toBe(1990)
    expect(over.price_after_deduction_sek).toBe(995)
    const big: PriceFacts = { amountSek: 400_000, pricingModel: "flat", priceType: "avg_fixed" }
    const capped = figures(taxDeduction(big, { kind: "rot", labour: { share: 1 } }, march2026))
    expect(capped.max_deduction_sek).toBe(50_000)
    expect(capped.price_after_deduction_sek).toBe(350_000)
  })

  it("follows the slot's Stockholm date across the rate changes, also around midnight UTC", () => {
    const rotRate = (slot: string) => figures(taxDeduction(fixed, { kind: "rot", labour: { share: 1 } }, slot)).rate
    expect(rotRate("2025-05-11T21:59:59Z")).toBe(0.3)
    expect(rotRate("2025-05-11T22:00:00Z")).toBe(0.5)
    expect(rotRate("2025-05-12T00:30:00+02:00")).toBe(0.5)
    expect(rotRate("2025-12-31T22:59:59Z")).toBe(0.5)
    expect(rotRate("2025-12-31T23:00:00Z")).toBe(0.3)
    expect(rotRate("2025-12-31T23:30:00Z")).toBe(0.3)
    expect(rotRate("2026-01-01T00:30:00+01:00")).toBe(0.3)
    const rutRate = (slot: string) => figures(taxDeduction(fixed, { kind: "rut", labour: { share: 1 } }, slot)).rate
    expect(rutRate("2025-05-11T21:59:59Z")).toBe(0.5)
    expect(rutRate("2025-12-31T23:30:00Z")).toBe(0.5)
  })

  it("says what the figures become when the invoice is paid after a rate change", () => {
    const december = figures(taxDeduction(fixed, { kind: "rot", labour: { share: 1 } }, "2025-12-20T10:00:00+01:00"))
    expect(december.price_after_deduction_sek).toBe(995)
    expect(december.if_paid_from).toEqual({
      date: "2026-01-01",
      rate: 0.3,
      max_deduction_sek: 597,
      price_after_deduction_sek: 1393
    })
    expect(december.conditions_sv).toContain("betalar du den 1 januari 2026 eller senare är ROT-avdraget 30 %")
    expect(december.conditions_en).toContain("if you pay on or after 1 January 2026, the ROT deduction is 30%")
    expect(figures(taxDeduction(fixed, { kind: "rot", labour: { share: 1 } }, march2026)).if_paid_from).toBeUndefined()
  })

  it("says a service without a deduction claims none, and the price stands", () => {
    const result = taxDeduction(fixed, { kind: "none" }, march2026)
    expect(result).toEqual({
      kind: "none",
      reason: "not_claimed",
      price_kind: "fixed",
      amount_sek: 1990,
      conditions_sv:
        "Priset (1 990 kr) gäller utan avdrag: utföraren gör inget RUT- eller ROT-avdrag för den här tjänsten.",
      conditions_en:
        "The price (SEK 1,990) stands without a deduction: the provider claims no RUT or ROT deduction for this service."
    })
    expect(deductionStep(result)).toContain("claims no RUT or ROT deduction")
    expect(deductionStep(result)).toContain("do not mention or promise one")
  })

  it("words a no-deduction step by price kind, never with a deduction in it", () => {
    const from = deductionStep(taxDeduction(starting, { kind: "none" }, march2026))
    expect(from).toContain('say "from"')
    expect(from).not.toMatch(/the deduction on it|figures/)
    const unit = deductionStep(taxDeduction(perSqm, { kind: "none" }, march2026))
    expect(unit).toContain("It covers the stated quantity")
  })

  it("gives no figures for a date the rules table does not cover", () => {
    const result = taxDeduction(fixed, { kind: "rut", labour: { share: 1 } }, "2023-06-01T10:00:00+02:00")
    expect(result).toMatchObject({ kind: "none", reason: "no_rule_for_date", amount_sek: 1990 })
  })

  it("words a starting price's figures as from-figures", () => {
    const result = figures(taxDeduction(starting, { kind: "rot", labour: { amount_sek: 2000 } }, march2026))
    expect(result.price_after_deduction_sek).toBe(1895)
    expect(result.conditions_sv).toMatch(/^Från 2 495 kr, eller från 1 895 kr efter ROT-avdrag/)
    expect(result.conditions_en).toMatch(/^From SEK 2,495, or from SEK 1,895 after the ROT deduction/)
    expect(result.conditions_sv).toContain("slutpriset, och avdraget på det, på plats")
    expect(deductionStep(result)).toContain("Every figure is a from-figure")
  })

  it("words a unit price's figures for the stated quantity, and per unit", () => {
    const result = figures(taxDeduction(perSqm, { kind: "rut", labour: { share: 1 } }, march2026))
    expect(result).toMatchObject({
      price_kind: "unit",
      price_after_deduction_sek: 2470,
      per_unit: { unit_price_sek: 65, unit_price_after_deduction_sek: 32.5, exact: true }
    })
    expect(result.conditions_sv).toMatch(/^4 940 kr för 76 kvm, eller 2 470 kr \(32,50 kr per kvm\) efter RUT-avdrag/)
    expect(result.conditions_en).toMatch(
      /^SEK 4,940 for 76 m², or SEK 2,470 \(SEK 32.50 per m²\) after the RUT deduction/
    )
    expect(deductionStep(result)).toContain("for the stated quantity")
  })

  it("reads a labour amount of a unit price per unit, and marks a per-unit figure that does not multiply back", () => {
    const windows: PriceFacts = {
      amountSek: 1045,
      pricingModel: "per_window",
      priceType: "avg_unit",
      unitPriceSek: 95,
      quantity: 11
    }
    const result = figures(taxDeduction(windows, { kind: "rut", labour: { amount_sek: 85 } }, march2026))
    expect(result.labour_sek).toBe(935)
    expect(result.max_deduction_sek).toBe(467)
    expect(result.per_unit).toEqual({ unit_price_sek: 95, unit_price_after_deduction_sek: 52.5, exact: false })
    expect(result.conditions_sv).toContain("(ca 52,50 kr per fönster)")
    expect(result.conditions_en).toContain("(about SEK 52.50 per window)")
  })

  it("says a recurring service's figures are for the first visit", () => {
    const result = figures(taxDeduction(hourlyRecurring, { kind: "rut", labour: { share: 1 } }, march2026))
    expect(result.conditions_sv).toContain("880 kr för 2 timmar, eller 440 kr (220 kr per timme) efter RUT-avdrag")
    expect(result.conditions_sv).toContain("Beloppen gäller första besöket")
    expect(result.conditions_en).toContain("The figures are for the first visit")
  })

  it("tells the user the provider collects the identity details, and never asks for them", () => {
    const result = taxDeduction(fixed, { kind: "rut", labour: { share: 1 } }, march2026)
    expect(result.conditions_sv).toContain("Utföraren tar in de identitetsuppgifter som behövs")
    expect(result.conditions_en).toContain("The provider collects the identity details it needs")
    expect(deductionStep(result)).toContain("Do not ask for, store or pass on any identity number")
  })

  it("words the assistant's step from the conditions, never the lower figure alone", () => {
    const result = taxDeduction(fixed, { kind: "rut", labour: { share: 1 } }, march2026)
    const step = deductionStep(result)
    expect(step).toContain(`"${result.conditions_en}"`)
    expect(step).toContain("Never give the after-deduction figure alone or as certain")
  })
})

describe("no personal identity number", () => {
  const named = /person(?:nummer|al.?(?:id|number))|national.?id|\bssn\b/i

  it("names no field of the modules' sources after one", () => {
    for (const file of ["TaxDeduction.ts", "TaxDeductionRules.ts", "TaxDeductionSupply.ts"]) {
      const source = readFileSync(new URL(`../../src/Domain/${file}`, import.meta.url), "utf8")
      expect(source, file).not.toMatch(named)
    }
  })
})

describe("the modules' imports", () => {
  it("load no package at all: plain TypeScript, whichever Effect the project is on", () => {
    for (const file of ["TaxDeduction.ts", "TaxDeductionRules.ts", "TaxDeductionSupply.ts"])
      expect(graphOf(`src/Domain/${file}`).external, file).toEqual([])
  })
})

describe("a service without a declaration", () => {
  it("is stated as not declared, never guessed either way", () => {
    const result = taxDeduction(fixed, undefined, march2026)
    expect(result).toMatchObject({ kind: "none", reason: "not_declared", amount_sek: 1990 })
    expect(result.conditions_en).toBe(
      "The price (SEK 1,990) stands without a deduction: the provider has not stated whether a RUT or ROT deduction applies; ask the provider."
    )
    expect(deductionStep(result)).toContain("say the price without a deduction, and that the provider answers")
  })
})

describe("a deduction computed once per service and date", () => {
  it("is the same answer for every slot of a service on one date", () => {
    const rot = { kind: "rot", labour: { share: 0.9 } } as const
    const morning = taxDeduction(fixed, rot, "2026-03-10T08:00:00+01:00")
    expect(taxDeduction(fixed, rot, "2026-03-10T15:00:00+01:00")).toBe(morning)
    expect(taxDeduction({ ...fixed }, { kind: "rot", labour: { share: 0.9 } }, Date.parse(march2026))).toBe(morning)
    expect(taxDeduction(fixed, rot, "2026-03-11T08:00:00+01:00")).not.toBe(morning)
  })

  it("keeps at most a thousand, letting the oldest go first", () => {
    const rut = { kind: "rut", labour: { share: 1 } } as const
    const priced = (amountSek: number) => taxDeduction({ ...fixed, amountSek }, rut, march2026)
    const oldest = priced(100_000)
    for (let amount = 100_001; amount < 100_999; amount++) priced(amount)
    expect(priced(100_000)).toBe(oldest)
    for (let amount = 101_000; amount < 102_000; amount++) priced(amount)
    const again = priced(100_000)
    expect(again).not.toBe(oldest)
    expect(again).toEqual(oldest)
  })

  it("never lends one price's, declaration's or date's answer to another, whichever came first", async () => {
    const prices: ReadonlyArray<PriceFacts> = [
      fixed,
      { ...fixed, priceType: "starting_price" },
      starting,
      perSqm,
      { ...perSqm, quantity: 80 },
      { ...perSqm, unitPriceSek: 64 },
      { ...perSqm, unitPriceSek: undefined },
      hourlyRecurring,
      { ...hourlyRecurring, priceType: "avg_unit" }
    ]
    const declarations = [
      undefined,
      { kind: "none" },
      { kind: "rot", labour: { share: 0.9 } },
      { kind: "rot", labour: { share: 0.85 } },
      { kind: "rut", labour: { share: 0.9 } },
      { kind: "rut", labour: { amount_sek: 0.9 } },
      { kind: "rut", labour: { amount_sek: 400 } }
    ] as const
    const slots = ["2025-05-11T21:59:59Z", "2025-05-11T22:00:00Z", "2025-12-20T10:00:00+01:00", march2026]
    const inputs = prices.flatMap((price) =>
      declarations.flatMap((declaration) => slots.map((slot) => [price, declaration, slot] as const))
    )
    // A module of its own, with nothing computed yet, answers the same inputs in the reverse order:
    // two inputs sharing an answer they should not would get the first one asked in each.
    vi.resetModules()
    const fresh = (await import("../../src/Domain/TaxDeduction.js")).taxDeduction
    const forward = inputs.map(([price, declaration, slot]) => taxDeduction(price, declaration, slot))
    const backward = [...inputs].reverse().map(([price, declaration, slot]) => fresh(price, declaration, slot))
    expect(forward).toEqual([...backward].reverse())
    expect(fresh).not.toBe(taxDeduction)
  })

  it("dates every hour, and the last second of it, as Intl does in Stockholm, across both clock changes", () => {
    const intl = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/Stockholm", dateStyle: "short" })
    const start = Date.parse("2025-12-30T00:00:00Z")
    const mismatches: Array<string> = []
    for (let hour = start; hour < start + 366 * 86_400_000; hour += 3_600_000) {
      for (const instant of [hour + 3_599_999, hour, hour + 1_800_000]) {
        if (stockholmDate(instant) !== intl.format(instant)) mismatches.push(new Date(instant).toISOString())
      }
    }
    expect(mismatches).toEqual([])
    expect(stockholmDate("2026-03-29T00:59:59Z")).toBe("2026-03-29")
    expect(stockholmDate("2026-10-24T21:59:59Z")).toBe("2026-10-24")
    expect(stockholmDate("2026-10-24T22:00:00Z")).toBe("2026-10-25")
    expect(stockholmDate("2026-10-25T22:59:59Z")).toBe("2026-10-25")
    expect(stockholmDate("2026-10-25T23:00:00Z")).toBe("2026-10-26")
    expect(stockholmDate("1969-12-31T22:59:59Z")).toBe("1969-12-31")
    expect(stockholmDate("1969-12-31T23:00:00Z")).toBe("1970-01-01")
  })
})
