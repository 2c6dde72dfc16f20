import { Schema } from "effect"
import { FixedPriceFit, FixedPriceSeed, RoutingMode, VerticalId } from "./Catalog.js"
import { quantityBounds } from "./Pricing.js"

export const requestsSpecVersion = "public_requests_api_v1"
export const bookingsSpecVersion = "public_bookings_api_v1"

const Endpoint = Schema.Struct({ method: Schema.Literal("GET", "POST"), path: Schema.String })

/**
 * The contract calls auth, idempotency and geographic_scope free-form; they are spelled out here
 * all the same, so the OpenAPI document describes what is sent (an open index signature would
 * show up in generated examples as `"propertyName*": null`).
 */
const QuantityBound = Schema.Struct({
  min: Schema.Number,
  max: Schema.Number,
  integer: Schema.Boolean,
  unit: Schema.String
})

const QuantityBounds = Schema.Struct(
  Object.fromEntries(Object.keys(quantityBounds).map((key) => [key, QuantityBound])) as {
    readonly [K in keyof typeof quantityBounds]: typeof QuantityBound
  }
)

/** A seed as capabilities shows it: unit-priced seeds name the `details` key search needs. */
export const CapabilitySeed = Schema.Struct({
  ...FixedPriceSeed.fields,
  quantity_detail_keys: Schema.optional(Schema.Array(Schema.String))
})

export const CapabilityJobType = Schema.Struct({
  job_type_id: Schema.String,
  label_sv: Schema.String,
  label_en: Schema.String,
  routing_mode: Schema.optional(RoutingMode),
  fixed_price_fit: Schema.optional(FixedPriceFit),
  required_signals: Schema.optional(Schema.Array(Schema.String)),
  fixed_price_seed: Schema.optional(CapabilitySeed)
})

export const SupportedVertical = Schema.Struct({
  vertical_id: VerticalId,
  label_sv: Schema.String,
  label_en: Schema.String,
  agent_status: Schema.Literal("booking_and_request_supported"),
  agent_summary: Schema.String,
  safe_next_step: Schema.String,
  provider_supply: Schema.Literal("indexed"),
  direct_booking_supply: Schema.Literal("search_required"),
  fixed_price_service_count: Schema.Int.pipe(Schema.nonNegative()),
  job_types: Schema.Array(CapabilityJobType)
})

export const UnavailableVerticalCapability = Schema.Struct({
  vertical_id: Schema.String,
  label_sv: Schema.String,
  label_en: Schema.String,
  agent_status: Schema.Literal("not_bookable_yet"),
  reason: Schema.Literal("not_bookable_yet"),
  safe_next_step: Schema.String
})

export class Capabilities extends Schema.Class<Capabilities>("Capabilities")({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(requestsSpecVersion),
  endpoints: Schema.Struct({
    search_booking_options: Endpoint,
    confirm_booking: Endpoint,
    booking_status: Endpoint,
    create_request: Endpoint,
    capabilities: Endpoint
  }),
  lifecycle: Schema.Struct({
    creates: Schema.Literal("network_visit_request"),
    request_status: Schema.Literal("ready_to_send"),
    booking_created: Schema.Literal(false),
    availability_checked: Schema.Literal(false),
    provider_selected: Schema.Literal(false),
    note: Schema.String
  }),
  booking_lifecycle: Schema.Struct({
    search: Schema.String,
    confirm: Schema.String,
    confirmed_contract: Schema.Struct({
      booking_created: Schema.Literal(true),
      availability_checked: Schema.Literal(true),
      provider_selected: Schema.Literal(true),
      booking_status: Schema.Literal("confirmed")
    }),
    fallback: Schema.String,
    availability_truth: Schema.String
  }),
  supported_verticals: Schema.Array(SupportedVertical),
  unavailable_verticals: Schema.Array(UnavailableVerticalCapability),
  auth: Schema.Struct({
    production: Schema.String,
    development: Schema.String,
    sandbox: Schema.String,
    token_required_for: Schema.Array(Schema.String),
    token_not_required_for: Schema.Array(Schema.String)
  }),
  idempotency: Schema.Struct({
    scope: Schema.String,
    retention_hours: Schema.Int,
    same_key_same_request: Schema.String,
    same_key_different_request: Schema.String
  }),
  agent_contract: Schema.Struct({
    consent_required_before_pii_submission: Schema.Literal(true),
    required_fields: Schema.Array(Schema.String),
    forbidden_claims: Schema.Array(Schema.String),
    safe_next_step: Schema.String,
    truth_rules: Schema.Array(Schema.String),
    emergencies: Schema.Struct({
      job_type_ids: Schema.Array(Schema.String),
      rule: Schema.String,
      advice_sv: Schema.String,
      advice_en: Schema.String
    }),
    price_types: Schema.Struct({ fixed: Schema.String, starting: Schema.String, unit: Schema.String }),
    quantity_bounds: QuantityBounds
  }),
  required_fields: Schema.Array(Schema.String),
  geographic_scope: Schema.Struct({
    country_code: Schema.Literal("SE"),
    country_name: Schema.String,
    bookable_only_in_country: Schema.Literal(true),
    note: Schema.String
  })
}) {}
