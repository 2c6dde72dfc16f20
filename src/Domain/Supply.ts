import { Effect, Schema } from "effect"
import { CancellationPolicySchema, SupplyCancellationPolicy } from "./CancellationPolicy.js"
import { PriceType, PricingModel, VerticalId } from "./Catalog.js"
import { ConsumerInformationSection, consumerTermsSuffixLength } from "./ConsumerInformation.js"
import { ProviderId, ServiceId } from "./Ids.js"
import { matching, NonEmptyTrimmedString, optional } from "./Input.js"
import { DeductionDeclaration } from "./TaxDeductionSchema.js"

/** Swedish postcode: three digits, an optional single space, two digits ("111 22", "11122"). */
export const Postcode = Schema.String.check(
  matching(/^\d{3}\s?\d{2}$/, {
    message: "must be a Swedish postcode: three digits, an optional space, two digits (NNN NN)"
  })
)

/** "111 22" and "11122" are one postcode: 11122. */
export const postcodeNumber = (postcode: string): number => Number(postcode.replace(/\s/g, ""))

export const formatPostcode = (postcode: number): string => {
  const digits = String(postcode).padStart(5, "0")
  return `${digits.slice(0, 3)} ${digits.slice(3)}`
}

const LocalTime = Schema.String.check(matching(/^([01]\d|2[0-3]):[0-5]\d$/, { message: "must be a local time HH:MM" }))

const Sv = Schema.Array(NonEmptyTrimmedString)

export const ServiceScope = Schema.Struct({
  included_sv: optional(Sv),
  excluded_sv: optional(Sv),
  customer_requirements_sv: optional(Sv),
  price_adjustment_triggers_sv: optional(Sv),
  quote_triggers_sv: optional(Sv)
})
export type ServiceScope = typeof ServiceScope.Type

export const HttpsUrl = Schema.String.check(
  Schema.makeFilter(
    (s) => {
      try {
        return ["https:", "http:"].includes(new URL(s).protocol)
      } catch {
        return false
      }
    },
    { message: "must be an absolute http(s) URL" }
  )
)

export const Terms = Schema.Struct({
  version: Schema.String.check(Schema.isMinLength(8), Schema.isMaxLength(240)),
  url: HttpsUrl,
  sections: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
  source_urls: Schema.Array(HttpsUrl)
})
export type Terms = typeof Terms.Type

/** Terms as a supply file states them: room is left in the version for the consumer information's fingerprint. */
export const SupplyTerms = Terms.mapFields((fields) => ({
  ...fields,
  version: Schema.String.check(Schema.isMinLength(8), Schema.isMaxLength(240 - consumerTermsSuffixLength))
}))

/** A Swedish organisation (or personal identity) number, NNNNNN-NNNN, whose last digit checks the rest (Luhn). */
const OrganisationNumber = Schema.String.check(
  matching(/^\d{6}-\d{4}$/, { message: "must be an organisation number NNNNNN-NNNN" }),
  Schema.makeFilter((s) => luhnHolds(s.replace("-", "")) || "must be an organisation number whose check digit holds")
)

const luhnHolds = (digits: string) =>
  [...digits].reduce((sum, digit, i) => {
    const d = Number(digit) * (i % 2 === 0 ? 2 : 1)
    return sum + (d > 9 ? d - 9 : d)
  }, 0) %
    10 ===
  0

export const unitPricedModels = [
  "per_item",
  "per_hour",
  "per_sqm",
  "per_window"
] as const satisfies ReadonlyArray<PricingModel>

/** A unit-priced service states its unit price and unit; any other its amount: the import's rule and the provider API's. */
export const pricedService = () =>
  Schema.makeFilter(
    (service: {
      readonly pricing_model: string
      readonly amount_sek?: number | undefined
      readonly unit_price_sek?: number | undefined
      readonly unit?: string | undefined
    }) =>
      (unitPricedModels as ReadonlyArray<string>).includes(service.pricing_model)
        ? service.unit_price_sek !== undefined && service.unit !== undefined
          ? true
          : { path: ["unit_price_sek"], issue: `a ${service.pricing_model} service needs unit_price_sek and unit` }
        : service.amount_sek !== undefined
          ? true
          : { path: ["amount_sek"], issue: `a ${service.pricing_model} service needs amount_sek` }
  )

export const ProviderService = Schema.Struct({
  service_id: Schema.String.check(matching(/^[a-z][a-z0-9_]{2,119}$/)),
  vertical_id: VerticalId,
  job_type_id: Schema.String,
  label_sv: NonEmptyTrimmedString,
  label_en: optional(NonEmptyTrimmedString),
  pricing_model: PricingModel,
  price_type: PriceType,
  amount_sek: optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  unit_price_sek: optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  // A booking option carries the unit as a claim of at most 256 characters (Domain/BookingOption.ts).
  unit: optional(NonEmptyTrimmedString.check(Schema.isMaxLength(120))),
  duration_minutes: Schema.Int.check(Schema.isBetween({ minimum: 15, maximum: 1440 })),
  scope: ServiceScope,
  terms: SupplyTerms,
  /**
   * `{ kind: "none" }` or `{ kind: "rut" | "rot", labour: { share } | { amount_sek } }`. Checked by
   * the supply import (TaxDeductionSupply.declarationProblems), whose messages name the service.
   */
  tax_deduction: Schema.optional(Schema.Unknown),
  /** Overrides the provider's; without either, no fee and both deadlines at the start. */
  cancellation_policy: optional(SupplyCancellationPolicy),
  active: Schema.Boolean.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(true)))
}).check(pricedService())
export type ProviderService = typeof ProviderService.Type

export const WorkingHours = Schema.Struct({
  iso_weekday: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 })),
  opens: LocalTime,
  closes: LocalTime
}).check(Schema.makeFilter((h) => h.opens < h.closes || { path: ["closes"], issue: "must be after opens" }))

/** Swedish postcodes run from 100 00; the wire pattern alone would also let 012 34 through. */
export const AreaPostcode = Postcode.check(
  Schema.makeFilter((p) => postcodeNumber(p) >= 10000 || "must be 100 00 or above")
)

export const PostcodeArea = Schema.Struct({ from: AreaPostcode, to: AreaPostcode }).check(
  Schema.makeFilter(
    (a) => postcodeNumber(a.from) <= postcodeNumber(a.to) || { path: ["to"], issue: "must not be before from" }
  )
)

export const Provider = Schema.Struct({
  id: Schema.String.check(matching(/^[a-z0-9][a-z0-9_-]{1,63}$/)),
  name: NonEmptyTrimmedString,
  /** The provider's identity a consumer must be told before booking (2005:59, 2 kap. 2 §). */
  organisation_number: OrganisationNumber,
  contact: Schema.Struct({
    email: Schema.String.check(matching(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { message: "must be an e-mail address" })),
    phone: NonEmptyTrimmedString.check(Schema.isMaxLength(40)),
    address: NonEmptyTrimmedString.check(Schema.isMaxLength(200))
  }),
  city: NonEmptyTrimmedString,
  rating_label: optional(NonEmptyTrimmedString),
  active: Schema.Boolean.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(true))),
  notify: Schema.Struct({
    email: optional(Schema.String.check(matching(/^[^@\s]+@[^@\s]+\.[^@\s]+$/))),
    webhook_url: optional(HttpsUrl),
    webhook_secret: optional(Schema.String.check(Schema.isMinLength(16)))
  }).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed({}))),
  areas: Schema.NonEmptyArray(PostcodeArea),
  working_hours: Schema.Array(WorkingHours),
  /** The policy of the provider's services that state none of their own. */
  cancellation_policy: optional(SupplyCancellationPolicy),
  services: Schema.Array(ProviderService)
})
export type Provider = typeof Provider.Type

export const SupplyFile = Schema.Struct({
  providers: Schema.Array(Provider)
})
export type SupplyFile = typeof SupplyFile.Type

/** Working hours as the slot rules read them from the database: local "HH:MM" on an ISO weekday. */
export const OpeningHours = Schema.Struct({
  isoWeekday: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 })),
  opens: LocalTime,
  closes: LocalTime
})

/** The columns of an active service that an option shows and prices, read back from `provider_services`. */
const offeredService = {
  serviceId: ServiceId,
  labelSv: Schema.String,
  labelEn: Schema.NullOr(Schema.String),
  pricingModel: PricingModel,
  priceType: PriceType,
  amountSek: Schema.NullOr(Schema.Int),
  unitPriceSek: Schema.NullOr(Schema.Int),
  unit: Schema.NullOr(Schema.String),
  durationMinutes: Schema.Int,
  scope: ServiceScope,
  termsVersion: Terms.fields.version,
  termsUrl: Terms.fields.url,
  taxDeduction: Schema.NullOr(DeductionDeclaration)
}

/** A provider's active fixed-price service for a job, as a search offers it. */
export const OfferedService = Schema.Struct({
  providerId: ProviderId,
  providerName: Schema.String,
  city: Schema.String,
  ratingLabel: Schema.NullOr(Schema.String),
  ...offeredService,
  termsSections: Terms.fields.sections,
  termsSourceUrls: Schema.Array(Schema.String),
  hours: Schema.Array(OpeningHours),
  cancellationPolicy: CancellationPolicySchema
})
export type OfferedService = typeof OfferedService.Type

/** A provider and one of its services as they are now (the service's columns are null when it has no such service). */
export const CurrentOffer = Schema.Struct({
  providerActive: Schema.Boolean,
  providerName: Schema.String,
  notifyEmail: Schema.NullOr(Schema.String),
  notifyWebhookUrl: Schema.NullOr(Schema.String),
  serviceActive: Schema.NullOr(Schema.Boolean),
  labelSv: Schema.NullOr(offeredService.labelSv),
  labelEn: offeredService.labelEn,
  pricingModel: Schema.NullOr(PricingModel),
  priceType: Schema.NullOr(PriceType),
  amountSek: offeredService.amountSek,
  unitPriceSek: offeredService.unitPriceSek,
  unit: offeredService.unit,
  durationMinutes: Schema.NullOr(Schema.Int),
  scope: Schema.NullOr(ServiceScope),
  termsVersion: Schema.NullOr(offeredService.termsVersion),
  termsUrl: Schema.NullOr(offeredService.termsUrl),
  taxDeduction: offeredService.taxDeduction,
  servesPostcode: Schema.Boolean,
  servesDestination: Schema.Boolean,
  hours: Schema.Array(OpeningHours),
  cancellationPolicy: Schema.NullOr(CancellationPolicySchema),
  /** The consumer information the service's terms carry; null for a service imported before it was stated. */
  consumerInformation: Schema.NullOr(ConsumerInformationSection)
})
export type CurrentOffer = typeof CurrentOffer.Type
