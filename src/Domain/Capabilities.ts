import { Schema } from "effect"
import { FixedPriceFit, FixedPriceSeed, RoutingMode, VerticalId } from "./Catalog.js"

export const requestsSpecVersion = "public_requests_api_v1"
export const bookingsSpecVersion = "public_bookings_api_v1"

const Endpoint = Schema.Struct({ method: Schema.Literal("GET", "POST"), path: Schema.String })
const FreeForm = Schema.Record({ key: Schema.String, value: Schema.Unknown })

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
  lifecycle: Schema.Struct(
    {
      creates: Schema.Literal("network_visit_request"),
      request_status: Schema.Literal("ready_to_send"),
      booking_created: Schema.Literal(false),
      availability_checked: Schema.Literal(false),
      provider_selected: Schema.Literal(false),
      note: Schema.String
    },
    FreeForm
  ),
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
  auth: FreeForm,
  idempotency: FreeForm,
  agent_contract: Schema.Struct(
    {
      consent_required_before_pii_submission: Schema.Literal(true),
      required_fields: Schema.Array(Schema.String),
      forbidden_claims: Schema.Array(Schema.String),
      safe_next_step: Schema.String
    },
    FreeForm
  ),
  required_fields: Schema.Array(Schema.String),
  geographic_scope: Schema.Struct(
    {
      country_code: Schema.Literal("SE"),
      country_name: Schema.String,
      bookable_only_in_country: Schema.Literal(true),
      note: Schema.String
    },
    FreeForm
  )
}) {}
