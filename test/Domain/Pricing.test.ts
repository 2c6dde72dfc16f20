import { describe, expect, it } from "@effect/vitest"
import { type PricedService, quote } from "../../src/Domain/Pricing.js"

const flat: PricedService = {
  pricingModel: "flat",
  amountSek: 1990,
  unitPriceSek: null,
  unit: null,
  durationMinutes: 120
}

const unitPriced = (
  pricingModel: string,
  unitPriceSek: number,
  unit: string,
  durationMinutes = 240
): PricedService => ({
  pricingModel,
  amountSek: null,
  unitPriceSek,
  unit,
  durationMinutes
})

const perSqm = unitPriced("per_sqm", 45, "kvm")
const perWindow = unitPriced("per_window", 65, "fönster", 120)
const perItem = unitPriced("per_item", 495, "st", 180)
const perHour = unitPriced("per_hour", 450, "timme", 120)

describe("quote", () => {
  describe("flat and starting prices", () => {
    it("a flat service costs its amount, whatever the details say", () => {
      expect(quote(flat, undefined)).toEqual({ _tag: "Quoted", quote: { amountSek: 1990, durationMinutes: 120 } })
      expect(quote(flat, { area_sqm: 80, hours: 5 })).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 1990, durationMinutes: 120 }
      })
    })

    it("a starting price is its amount", () => {
      const starting = { ...flat, pricingModel: "starting_price", amountSek: 2490, durationMinutes: 90 }
      expect(quote(starting, {})).toEqual({ _tag: "Quoted", quote: { amountSek: 2490, durationMinutes: 90 } })
    })
  })

  describe("unit prices", () => {
    it("per_sqm reads area_sqm", () => {
      expect(quote(perSqm, { area_sqm: 50 })).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 2250, unitPriceSek: 45, unit: "kvm", quantity: 50, durationMinutes: 240 }
      })
    })

    it("the slot follows the work: above the reference quantity the visit lasts proportionally longer", () => {
      // 240 minutes cover 60 m²; 80 m² take 320 minutes, booked as 330 (quarter hours, rounded up); 150 m² 600.
      expect(quote(perSqm, { area_sqm: 60 })).toMatchObject({ quote: { durationMinutes: 240 } })
      expect(quote(perSqm, { area_sqm: 80 })).toMatchObject({ quote: { amountSek: 3600, durationMinutes: 330 } })
      expect(quote(perSqm, { area_sqm: 150 })).toMatchObject({ quote: { durationMinutes: 600 } })
      expect(quote(perWindow, { window_count: 50 })).toMatchObject({ quote: { durationMinutes: 300 } })
      expect(quote(perItem, { item_count: 7 })).toMatchObject({ quote: { durationMinutes: 210 } })
      expect(quote(perItem, { item_count: 2 })).toMatchObject({ quote: { durationMinutes: 180 } })
    })

    it("per_sqm reads home_size_sqm when there is no area_sqm", () => {
      expect(quote(perSqm, { home_size_sqm: 62 })).toMatchObject({
        _tag: "Quoted",
        quote: { amountSek: 2790, quantity: 62 }
      })
    })

    it("per_sqm prefers area_sqm over home_size_sqm", () => {
      expect(quote(perSqm, { area_sqm: 40, home_size_sqm: 62 })).toMatchObject({ quote: { quantity: 40 } })
    })

    it("per_window reads window_count", () => {
      expect(quote(perWindow, { window_count: 12 })).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 780, unitPriceSek: 65, unit: "fönster", quantity: 12, durationMinutes: 120 }
      })
    })

    it("per_item reads item_count", () => {
      expect(quote(perItem, { item_count: 6 })).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 2970, unitPriceSek: 495, unit: "st", quantity: 6, durationMinutes: 180 }
      })
    })

    it("a unit-priced service without a unit has no unit in the quote", () => {
      const result = quote({ ...perItem, unit: null }, { item_count: 2 })
      expect(result).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 990, unitPriceSek: 495, quantity: 2, durationMinutes: 180 }
      })
    })
  })

  describe("hourly services", () => {
    it("bill at least the service's own duration: 1 h asked of a 2 h service bills 2 h", () => {
      expect(quote(perHour, { hours: 1 })).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 900, unitPriceSek: 450, unit: "timme", quantity: 2, durationMinutes: 120 }
      })
    })

    it("bill the hours asked beyond it, and the slot is as long: 3.5 h is 210 minutes", () => {
      expect(quote(perHour, { hours: 3.5 })).toEqual({
        _tag: "Quoted",
        quote: { amountSek: 1575, unitPriceSek: 450, unit: "timme", quantity: 3.5, durationMinutes: 210 }
      })
    })

    it("round the slot up to a quarter of an hour: 2.1 h is a 135-minute slot", () => {
      expect(quote(perHour, { hours: 2.1 })).toMatchObject({
        _tag: "Quoted",
        quote: { amountSek: 945, quantity: 2.1, durationMinutes: 135 }
      })
    })

    it("a quarter-hour request keeps its exact length: 2.25 h is 135 minutes", () => {
      expect(quote(perHour, { hours: 2.25 })).toMatchObject({ quote: { durationMinutes: 135 } })
    })
  })

  describe("rounding to whole kronor", () => {
    const billed = (pricingModel: "per_sqm" | "per_hour", unitPriceSek: number, quantity: number) =>
      quote(unitPriced(pricingModel, unitPriceSek, "unit", 120), {
        [pricingModel === "per_sqm" ? "area_sqm" : "hours"]: quantity
      })

    it.each([
      { model: "per_sqm", price: 45, quantity: 72.5, amountSek: 3263 },
      { model: "per_sqm", price: 65, quantity: 0.3, amountSek: 20 },
      { model: "per_sqm", price: 45, quantity: 72.2, amountSek: 3249 },
      { model: "per_sqm", price: 45, quantity: 72.51, amountSek: 3263 },
      { model: "per_sqm", price: 45, quantity: 72.49, amountSek: 3262 },
      { model: "per_hour", price: 475, quantity: 2.3, amountSek: 1093 }
    ] as const)(
      "$price kr x $quantity ($model) is billed $amountSek, half up",
      ({ model, price, quantity, amountSek }) => {
        expect(billed(model, price, quantity)).toMatchObject({ _tag: "Quoted", quote: { amountSek } })
      }
    )

    // 45 x 64.1 is 2884.5 kronor, but the floating-point product is 2884.4999999999995.
    it.each([
      { model: "per_sqm", price: 45, quantity: 64.1, amountSek: 2885 },
      { model: "per_sqm", price: 55, quantity: 64.1, amountSek: 3526 },
      { model: "per_hour", price: 495, quantity: 4.1, amountSek: 2030 },
      { model: "per_hour", price: 450, quantity: 2.01, amountSek: 905 }
    ] as const)(
      "$price kr x $quantity ($model) is billed $amountSek, half up although the float product is just under",
      ({ model, price, quantity, amountSek }) => {
        expect(billed(model, price, quantity)).toMatchObject({ _tag: "Quoted", quote: { amountSek } })
      }
    )
  })

  describe("missing quantities", () => {
    it.each([
      { model: "per_sqm", service: perSqm, keys: ["area_sqm", "home_size_sqm"] },
      { model: "per_window", service: perWindow, keys: ["window_count"] },
      { model: "per_item", service: perItem, keys: ["item_count"] },
      { model: "per_hour", service: perHour, keys: ["hours"] }
    ])("a $model service without details asks for $keys", ({ service, keys }) => {
      expect(quote(service, undefined)).toEqual({ _tag: "MissingQuantity", keys })
      expect(quote(service, {})).toEqual({ _tag: "MissingQuantity", keys })
    })

    it.each([
      ["0", 0],
      ["-3", -3],
      ['the string "80"', "80"],
      ["null", null],
      ["NaN", Number.NaN]
    ])("a quantity of %s is missing", (_shown, value) => {
      expect(quote(perSqm, { area_sqm: value })).toEqual({
        _tag: "MissingQuantity",
        keys: ["area_sqm", "home_size_sqm"]
      })
      expect(quote(perWindow, { window_count: value })).toEqual({ _tag: "MissingQuantity", keys: ["window_count"] })
    })

    it("a quantity under another model's key is missing", () => {
      expect(quote(perWindow, { item_count: 4 })).toEqual({ _tag: "MissingQuantity", keys: ["window_count"] })
    })
  })
})
