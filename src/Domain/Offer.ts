import { Schema } from "effect"
import { SupplyCancellationPolicy } from "./CancellationPolicy.js"
import { ContractError } from "./Errors.js"
import { optional, strictInput } from "./Input.js"
import { nextCursorField, PageCursor, PageLimit } from "./ListPage.js"
import { providerSpecVersion } from "./Provider.js"
import { AreaPostcode, PostcodeArea, ProviderService, pricedService, SupplyTerms } from "./Supply.js"
import { DeductionDeclaration } from "./TaxDeductionSchema.js"

const { service_id: _serviceId, terms: _terms, ...editable } = ProviderService.fields

/** The provider's own terms: the version is the service's to make (a new one with every change). */
const EditableTerms = Schema.Struct({
  url: SupplyTerms.fields.url,
  sections: SupplyTerms.fields.sections,
  source_urls: SupplyTerms.fields.source_urls
})

const dryRun = optional(
  Schema.Boolean.annotate({
    description: "true: nothing is written; the answer shows what searches would offer after the change."
  })
)

/**
 * A service as the provider sends it: the supply file's service (one schema for both), its id from
 * the path and its terms version made by the service. Checked further by the import's own rules
 * (the catalog's job types and seeds, which job types may carry a fixed price, the RUT/ROT declaration).
 */
export const ServiceEditRequest = strictInput(
  Schema.Struct({
    ...editable,
    tax_deduction: Schema.optional(Schema.Unknown).annotate({
      description:
        'The RUT/ROT declaration: { "kind": "none" } or { "kind": "rut" | "rot", "labour": { "share": 0 < share ≤ 1 } | { "amount_sek": 0 ≤ amount ≤ price } }. Required.'
    }),
    terms: EditableTerms,
    dry_run: dryRun
  }).check(pricedService())
).annotate({ identifier: "ProviderServiceEditRequest" })
export type ServiceEditRequest = typeof ServiceEditRequest.Type

const PolicyOut = Schema.Struct({
  free_cancellation_hours: Schema.Number,
  late_fee_sek: Schema.Number,
  change_hours: Schema.Number
})

/** A service as the provider reads it back: what PUT takes, with its terms version and when the provider last edited it. */
export const OfferService = Schema.Struct({
  service_id: Schema.String,
  vertical_id: Schema.String,
  job_type_id: Schema.String,
  label_sv: Schema.String,
  label_en: optional(Schema.String),
  pricing_model: Schema.String,
  price_type: Schema.String,
  amount_sek: optional(Schema.Number),
  unit_price_sek: optional(Schema.Number),
  unit: optional(Schema.String),
  duration_minutes: Schema.Number,
  scope: Schema.Record(Schema.String, Schema.Array(Schema.String)),
  terms: Schema.Struct({
    version: Schema.String,
    url: Schema.String,
    sections: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
    source_urls: Schema.Array(Schema.String)
  }),
  tax_deduction: Schema.NullOr(DeductionDeclaration),
  cancellation_policy: PolicyOut,
  active: Schema.Boolean,
  edited_by_provider_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ProviderOfferService" })
export type OfferService = typeof OfferService.Type

/** One field's change: its dotted name, and the values before and after (null: none). */
export const FieldChange = Schema.Struct({
  field: Schema.String,
  before: Schema.Unknown,
  after: Schema.Unknown
}).annotate({ identifier: "ProviderOfferFieldChange" })
export type FieldChange = typeof FieldChange.Type

/** What searches answer for the service once the change stands: offered or not, and why not. */
export const OfferPreview = Schema.Struct({
  offered_in_searches: Schema.Boolean,
  reason: Schema.NullOr(Schema.String),
  service: OfferService,
  areas: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String }))
}).annotate({ identifier: "ProviderOfferPreview" })
export type OfferPreview = typeof OfferPreview.Type

export const ServicesResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  provider_id: Schema.String,
  services: Schema.Array(OfferService)
}).annotate({ identifier: "ProviderServicesResponse" })

export const ServicePath = Schema.Struct({ service_id: ProviderService.fields.service_id })

export const ServiceEditResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  dry_run: Schema.Boolean,
  changes: Schema.Array(FieldChange),
  terms_version_before: Schema.NullOr(Schema.String),
  terms_version_after: Schema.String,
  preview: OfferPreview,
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderServiceEditResponse" })
export type ServiceEditResponse = typeof ServiceEditResponse.Type

/** One postcode ("111 22") or a range of them. */
export const AreaInput = Schema.Union([PostcodeArea, AreaPostcode])

export const AreasRequest = strictInput(
  Schema.Struct({
    areas: Schema.Array(AreaInput).check(Schema.isMinLength(1), Schema.isMaxLength(500)),
    dry_run: dryRun
  })
).annotate({ identifier: "ProviderAreasRequest" })
export type AreasRequest = typeof AreasRequest.Type

export const AreasResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  dry_run: Schema.Boolean,
  areas: Schema.Array(Schema.Struct({ from: Schema.String, to: Schema.String })),
  changes: Schema.Array(FieldChange),
  /** Active services that searches would offer at these postcodes. */
  offered_services: Schema.Array(Schema.String),
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderAreasResponse" })
export type AreasResponse = typeof AreasResponse.Type

export const PolicyRequest = strictInput(
  Schema.Struct({
    cancellation_policy: SupplyCancellationPolicy,
    /** One service's policy; without it, every service of the provider's. */
    service_id: optional(ProviderService.fields.service_id),
    dry_run: dryRun
  })
).annotate({ identifier: "ProviderCancellationPolicyRequest" })
export type PolicyRequest = typeof PolicyRequest.Type

export const PolicyResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  dry_run: Schema.Boolean,
  services: Schema.Array(
    Schema.Struct({
      service_id: Schema.String,
      terms_version_before: Schema.String,
      terms_version_after: Schema.String,
      changes: Schema.Array(FieldChange),
      cancellation_policy: PolicyOut
    })
  ),
  safe_next_step: Schema.String
}).annotate({ identifier: "ProviderCancellationPolicyResponse" })
export type PolicyResponse = typeof PolicyResponse.Type

export const OfferChange = Schema.Struct({
  id: Schema.String,
  changed_at: Schema.String,
  /** The public prefix of the provider token that made it (`hsp_<prefix>`), or `import` for the operator's supply import. */
  changed_by: Schema.String,
  subject: Schema.Literals(["service", "areas", "cancellation_policy"]),
  service_id: Schema.NullOr(Schema.String),
  changes: Schema.Array(FieldChange),
  terms_version_before: Schema.NullOr(Schema.String),
  terms_version_after: Schema.NullOr(Schema.String)
}).annotate({ identifier: "ProviderOfferChange" })
export type OfferChange = typeof OfferChange.Type

export const ChangesQuery = Schema.Struct({ limit: optional(PageLimit), cursor: optional(PageCursor) })
export type ChangesQuery = typeof ChangesQuery.Type

export const ChangesResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(providerSpecVersion),
  changes: Schema.Array(OfferChange),
  next_cursor: nextCursorField
}).annotate({ identifier: "ProviderOfferChangesResponse" })

export class ServiceNotFound extends ContractError<ServiceNotFound>()(
  "service_not_found",
  404,
  "The provider has no service with this id",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "List your services (GET /api/provider/services) and use a service_id from there."
  }
) {}
