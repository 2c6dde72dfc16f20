import type { PricingModel } from "./Catalog.js"

/** The `details` key a unit-priced service reads its quantity from, by pricing model. */
export const quantityKeys = {
  per_sqm: ["area_sqm", "home_size_sqm"],
  per_window: ["window_count"],
  per_hour: ["hours"],
  per_item: ["item_count"]
} as const satisfies Partial<Record<PricingModel, ReadonlyArray<string>>>

/**
 * The quantities a real single visit can have; outside them a search is refused (400) rather
 * than priced. An hour count is also bounded by one working day.
 */
export const quantityBounds = {
  area_sqm: { min: 5, max: 1000, integer: false, unit: "m²" },
  home_size_sqm: { min: 5, max: 1000, integer: false, unit: "m²" },
  window_count: { min: 1, max: 200, integer: true, unit: "windows" },
  hours: { min: 1, max: 12, integer: false, unit: "hours" },
  item_count: { min: 1, max: 100, integer: true, unit: "items" },
  boxes: { min: 0, max: 1000, integer: true, unit: "boxes" }
} as const satisfies Record<string, { min: number; max: number; integer: boolean; unit: string }>

/**
 * How much work a unit-priced service's own duration covers. Above it the visit lasts
 * proportionally longer (rounded up to a quarter of an hour), so the slot follows the work.
 */
export const referenceQuantity = { per_sqm: 60, per_window: 20, per_item: 6 } as const

export interface PricedService {
  readonly pricingModel: string
  readonly amountSek: number | null
  readonly unitPriceSek: number | null
  readonly unit: string | null
  readonly durationMinutes: number
}

export interface Quote {
  readonly amountSek: number
  readonly unitPriceSek?: number
  readonly unit?: string
  readonly quantity?: number
  readonly durationMinutes: number
}

export type QuoteResult =
  | { readonly _tag: "Quoted"; readonly quote: Quote }
  | { readonly _tag: "MissingQuantity"; readonly keys: ReadonlyArray<string> }

const isUnitPriced = (model: string): model is keyof typeof quantityKeys => model in quantityKeys

/**
 * A flat or starting price is the amount. A unit price is multiplied by the quantity from
 * `details` and rounded half up to whole kronor (SEK incl. moms). An hourly service is booked
 * for at least its own duration, and its slot is as long as the hours billed (rounded up to
 * a quarter of an hour).
 */
export const quote = (service: PricedService, details: Readonly<Record<string, unknown>> | undefined): QuoteResult => {
  if (!isUnitPriced(service.pricingModel)) return priceFor(service, undefined)
  const keys = quantityKeys[service.pricingModel]
  const given = keys
    .map((key) => details?.[key])
    .find((value): value is number => typeof value === "number" && value > 0)
  return given === undefined ? { _tag: "MissingQuantity", keys } : priceFor(service, given)
}

const quarterHours = (minutes: number) => Math.ceil(minutes / 15 - 1e-9) * 15

const durationFor = (model: keyof typeof quantityKeys, ownMinutes: number, quantity: number) => {
  if (model === "per_hour") return quarterHours(quantity * 60)
  const reference = referenceQuantity[model]
  return quantity <= reference ? ownMinutes : quarterHours((ownMinutes * quantity) / reference)
}

/** The price of a service for a given quantity (ignored by flat and starting prices). */
export const priceFor = (service: PricedService, given: number | undefined): QuoteResult => {
  if (!isUnitPriced(service.pricingModel)) {
    return { _tag: "Quoted", quote: { amountSek: service.amountSek ?? 0, durationMinutes: service.durationMinutes } }
  }
  const keys = quantityKeys[service.pricingModel]
  if (given === undefined || !(given > 0) || service.unitPriceSek === null) return { _tag: "MissingQuantity", keys }
  const quantity = service.pricingModel === "per_hour" ? Math.max(given, service.durationMinutes / 60) : given
  const durationMinutes = durationFor(service.pricingModel, service.durationMinutes, quantity)
  return {
    _tag: "Quoted",
    quote: {
      // toFixed first: 45 × 64.1 is 2884.4999999999995 in binary, and must round to 2885.
      amountSek: Math.floor(Number((service.unitPriceSek * quantity).toFixed(6)) + 0.5),
      unitPriceSek: service.unitPriceSek,
      ...(service.unit === null ? {} : { unit: service.unit }),
      quantity,
      durationMinutes
    }
  }
}

export interface PriceFacts {
  readonly amountSek: number
  readonly pricingModel: string
  readonly priceType: string
  readonly unitPriceSek?: number | undefined
  readonly quantity?: number | undefined
}

export type PriceKind = "fixed" | "starting" | "unit"

/** A starting price is a minimum; a unit price covers a stated quantity; anything else is fixed. */
export const priceKind = (price: Pick<PriceFacts, "pricingModel" | "priceType">): PriceKind =>
  price.priceType === "starting_price" || price.pricingModel === "starting_price"
    ? "starting"
    : isUnitPriced(price.pricingModel)
      ? "unit"
      : "fixed"

export const unitWords: Record<keyof typeof quantityKeys, { readonly sv: string; readonly en: string }> = {
  per_sqm: { sv: "kvm", en: "m²" },
  per_window: { sv: "fönster", en: "windows" },
  per_hour: { sv: "timmar", en: "hours" },
  per_item: { sv: "st", en: "items" }
}

// Built once: constructing an Intl.NumberFormat costs far more than formatting with it, and every
// confirmation words its price twice.
const kronorSvFormat = new Intl.NumberFormat("sv-SE")
const kronorEnFormat = new Intl.NumberFormat("en-GB")
const quantitySvFormat = new Intl.NumberFormat("sv-SE", { maximumFractionDigits: 2 })
const quantityEnFormat = new Intl.NumberFormat("en-GB", { maximumFractionDigits: 2 })

export const kronorSv = (amount: number) => kronorSvFormat.format(amount).replace(/\s/g, " ")
export const kronorEn = (amount: number) => kronorEnFormat.format(amount)
export const quantitySv = (q: number) => quantitySvFormat.format(q)
export const quantityEn = (q: number) => quantityEnFormat.format(q)

/**
 * The price as a person should hear it, by its kind (truth rule 4): a fixed price is the exact
 * price, a starting price is "from" with the final price set on site, a unit price names its
 * quantity and unit price.
 */
export const priceWording = (price: PriceFacts): { readonly sv: string; readonly en: string } => {
  const sv = `${kronorSv(price.amountSek)} kr inkl. moms`
  const en = `SEK ${kronorEn(price.amountSek)} incl. VAT`
  switch (priceKind(price)) {
    case "starting":
      return {
        sv: `från ${sv} (startpris: slutpriset bestäms på plats av utföraren)`,
        en: `from ${en} (a starting price: the provider sets the final price on site)`
      }
    case "fixed":
      return { sv: `fast pris ${sv}`, en: `a fixed price of ${en}` }
    case "unit": {
      const words = unitWords[price.pricingModel as keyof typeof quantityKeys]
      const quantity = price.quantity ?? 0
      const unitPrice = price.unitPriceSek ?? 0
      const recurring = price.priceType === "avg_recurring"
      return {
        sv: `${sv} för ${quantitySv(quantity)} ${words.sv} à ${kronorSv(unitPrice)} kr${recurring ? " (första besöket i ett återkommande uppdrag)" : ""}`,
        en: `${en} for ${quantityEn(quantity)} ${words.en} at SEK ${kronorEn(unitPrice)} each${recurring ? " (the first visit of a recurring service)" : ""}`
      }
    }
  }
}
