import type { PricingModel } from "./Catalog.js"

/** The `details` key a unit-priced service reads its quantity from, by pricing model. */
export const quantityKeys = {
  per_sqm: ["area_sqm", "home_size_sqm"],
  per_window: ["window_count"],
  per_hour: ["hours"],
  per_item: ["item_count"]
} as const satisfies Partial<Record<PricingModel, ReadonlyArray<string>>>

export type QuantityKey = (typeof quantityKeys)[keyof typeof quantityKeys][number]

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

/** The price of a service for a given quantity (ignored by flat and starting prices). */
export const priceFor = (service: PricedService, given: number | undefined): QuoteResult => {
  if (!isUnitPriced(service.pricingModel)) {
    return { _tag: "Quoted", quote: { amountSek: service.amountSek ?? 0, durationMinutes: service.durationMinutes } }
  }
  const keys = quantityKeys[service.pricingModel]
  if (given === undefined || !(given > 0) || service.unitPriceSek === null) return { _tag: "MissingQuantity", keys }
  const quantity = service.pricingModel === "per_hour" ? Math.max(given, service.durationMinutes / 60) : given
  const durationMinutes =
    service.pricingModel === "per_hour" ? Math.ceil((quantity * 60) / 15) * 15 : service.durationMinutes
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
