import { Schema } from "effect"
import { matching, NonEmptyTrimmedString } from "./Input.js"

export const VerticalId = Schema.Literals(["vvs", "electrician", "moving", "cleaning"])
export type VerticalId = typeof VerticalId.Type

export const supportedVerticalIds: ReadonlyArray<VerticalId> = VerticalId.literals

export const RoutingMode = Schema.Literals(["standardized", "needs_clarification", "specialist", "emergency"])
export const FixedPriceFit = Schema.Literals(["high", "medium", "low"])

export const PricingModel = Schema.Literals(["flat", "starting_price", "per_item", "per_hour", "per_sqm", "per_window"])
export type PricingModel = typeof PricingModel.Type

export const PriceType = Schema.Literals(["avg_fixed", "avg_unit", "avg_recurring", "starting_price"])
export type PriceType = typeof PriceType.Type

export const FixedPriceSeed = Schema.Struct({
  service_id: NonEmptyTrimmedString,
  pricing_model: PricingModel,
  price_type: PriceType,
  currency: Schema.Literal("SEK"),
  booking_mode_when_qualified: Schema.Literals(["direct_job_candidate", "quote_or_visit", "recurring_service_start"]),
  direct_booking_fit: Schema.Literals(["high", "medium"]),
  provider_confirmation_required: Schema.Literal(true)
})
export type FixedPriceSeed = typeof FixedPriceSeed.Type

export const JobType = Schema.Struct({
  job_type_id: Schema.String.check(matching(/^[a-z][a-z0-9_]{0,119}$/)),
  label_sv: NonEmptyTrimmedString,
  label_en: NonEmptyTrimmedString,
  routing_mode: RoutingMode,
  fixed_price_fit: FixedPriceFit,
  required_signals: Schema.NonEmptyArray(Schema.String.check(matching(/^[a-z][a-z0-9_]*_known$/))),
  fixed_price_seed: Schema.optional(FixedPriceSeed)
})
export type JobType = typeof JobType.Type

export const Vertical = Schema.Struct({
  vertical_id: VerticalId,
  label_sv: NonEmptyTrimmedString,
  label_en: NonEmptyTrimmedString,
  agent_summary: NonEmptyTrimmedString,
  safe_next_step: NonEmptyTrimmedString,
  job_types: Schema.NonEmptyArray(JobType)
})
export type Vertical = typeof Vertical.Type

export const UnavailableVertical = Schema.Struct({
  vertical_id: Schema.String.check(matching(/^[a-z][a-z0-9_]*$/)),
  label_sv: NonEmptyTrimmedString,
  label_en: NonEmptyTrimmedString,
  safe_next_step: NonEmptyTrimmedString
})
export type UnavailableVertical = typeof UnavailableVertical.Type

const uniqueBy =
  <A>(key: (a: A) => string, what: string) =>
  (items: ReadonlyArray<A>): true | string => {
    const seen = new Set<string>()
    for (const item of items) {
      const k = key(item)
      if (seen.has(k)) return `duplicate ${what} ${k}`
      seen.add(k)
    }
    return true
  }

export const CatalogData = Schema.Struct({
  verticals: Schema.Array(Vertical).check(
    Schema.makeFilter(uniqueBy((v: Vertical) => v.vertical_id, "vertical_id")),
    Schema.makeFilter((verticals) =>
      uniqueBy((jt: JobType) => jt.job_type_id, "job_type_id")(verticals.flatMap((v) => v.job_types))
    ),
    Schema.makeFilter((verticals) =>
      uniqueBy(
        (seed: FixedPriceSeed) => seed.service_id,
        "service_id"
      )(verticals.flatMap((v) => v.job_types.flatMap((jt) => (jt.fixed_price_seed ? [jt.fixed_price_seed] : []))))
    )
  ),
  unavailable_verticals: Schema.Array(UnavailableVertical)
})
export type CatalogData = typeof CatalogData.Type
