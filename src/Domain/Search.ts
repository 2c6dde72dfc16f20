import { Schema } from "effect"
import { CancellationPolicyTerms } from "./CancellationPolicy.js"
import { bookingsSpecVersion } from "./Capabilities.js"
import { VerticalId } from "./Catalog.js"
import { nestingDepth, optional, optionalWithDefault, strictInput, TimeZoneInput, text } from "./Input.js"
import { Postcode } from "./Supply.js"
import { TaxDeductionAnswer } from "./TaxDeductionSchema.js"
import { providerTimeZone } from "./Zone.js"

export const BookingSearchLocation = Schema.Struct({
  country_code: Schema.Literal("SE").annotate({ message: "must be SE: the service covers Sweden only" }),
  postcode: Postcode,
  city: optional(text(2, 120))
})
export type BookingSearchLocation = typeof BookingSearchLocation.Type

export const Timing = Schema.Struct({
  preferred_time_text: optional(text(2, 500)),
  urgency: optional(text(2, 240))
}).check(
  Schema.makeFilter((timing) =>
    timing.preferred_time_text !== undefined || timing.urgency !== undefined
      ? true
      : "must have preferred_time_text or urgency"
  )
)

/** Bounds of a free-form `details` object: nesting, keys per object and total size. */
export const detailsBounds = { depth: 4, keys: 50, jsonBytes: 8192 } as const

const tooManyKeys = (value: unknown): boolean =>
  value !== null &&
  typeof value === "object" &&
  (Object.keys(value).length > detailsBounds.keys || Object.values(value).some(tooManyKeys))

/**
 * Free-form job facts (spec 4.2), bounded so a search cannot carry a document. Search reads the
 * keys it knows (the moving facts and the quantities unit prices need) and ignores the rest;
 * it never stores or logs `details`.
 */
export const FreeFormDetails = Schema.Record(Schema.String, Schema.Unknown)
  .check(
    Schema.makeFilter(
      (details) =>
        nestingDepth(details, detailsBounds.depth) > detailsBounds.depth
          ? `must be nested at most ${detailsBounds.depth} levels deep`
          : tooManyKeys(details)
            ? `must have at most ${detailsBounds.keys} keys in each object`
            : Buffer.byteLength(JSON.stringify(details)) > detailsBounds.jsonBytes
              ? `must be at most ${detailsBounds.jsonBytes} bytes as JSON`
              : true,
      { toJsonSchema: () => ({ required: [], properties: {}, additionalProperties: true }) }
    )
  )
  .annotate({
    description: `Free-form job facts (at most ${detailsBounds.depth} levels, ${detailsBounds.keys} keys per object, ${detailsBounds.jsonBytes} bytes); unit prices read their quantity from here`,
    examples: [{ area_sqm: 76, floor: 3 }]
  })

/** A JSON object of any properties, said as such in the OpenAPI document. */
export const JsonObject = Schema.Record(Schema.String, Schema.Unknown).check(
  Schema.makeFilter(() => true, { toJsonSchema: () => ({ additionalProperties: true }) })
)

export const SearchDetails = FreeFormDetails
export type SearchDetails = typeof SearchDetails.Type

/** The job as a partner describes it, to a search and to a follow-up request alike. */
export const describedJob = {
  vertical_id: Schema.String,
  job_type_id: text(1, 120),
  description: text(10, 5000)
}

export const BookingSearchRequest = strictInput(
  Schema.Struct({
    spec_version: optional(Schema.Literal(bookingsSpecVersion)),
    ...describedJob,
    location: BookingSearchLocation,
    destination_location: optional(BookingSearchLocation),
    timing: Timing,
    details: optional(SearchDetails),
    locale: optionalWithDefault(text(2, 32), "sv-SE"),
    timezone: optionalWithDefault(TimeZoneInput, providerTimeZone)
  })
)
export type BookingSearchRequest = typeof BookingSearchRequest.Type

const DateTime = Schema.String.annotate({ format: "date-time" })
const Uri = Schema.String.annotate({ format: "uri" })

export const BookingOption = Schema.Struct({
  booking_option_id: Schema.String,
  expires_at: DateTime,
  provider: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    city: Schema.optional(Schema.String),
    rating_label: Schema.optional(Schema.String)
  }),
  service: Schema.Struct({
    service_id: Schema.String,
    vertical_id: VerticalId,
    job_type_id: Schema.String,
    label_sv: Schema.String,
    label_en: Schema.optional(Schema.String)
  }),
  slot: Schema.Struct({ start_at: DateTime, end_at: DateTime, label: Schema.String }),
  price: Schema.Struct({
    amount_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
    currency: Schema.Literal("SEK"),
    pricing_model: Schema.String,
    price_type: Schema.String,
    unit_price_sek: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
    unit: Schema.optional(Schema.String),
    quantity: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
    /** Beside the spec's fields: the RUT/ROT deduction on this price; amount_sek stays the price before it. */
    tax_deduction: TaxDeductionAnswer
  }),
  scope: Schema.Struct({
    included_sv: Schema.optional(Schema.Array(Schema.String)),
    excluded_sv: Schema.optional(Schema.Array(Schema.String)),
    customer_requirements_sv: Schema.optional(Schema.Array(Schema.String)),
    price_adjustment_triggers_sv: Schema.optional(Schema.Array(Schema.String)),
    quote_triggers_sv: Schema.optional(Schema.Array(Schema.String))
  }),
  terms: Schema.Struct({
    version: Schema.String,
    url: Uri,
    sections: Schema.Array(JsonObject),
    source_urls: Schema.Array(Uri)
  }),
  cancellation_policy: CancellationPolicyTerms
})
export type BookingOption = typeof BookingOption.Type

/** An option's price, as a reschedule preview states the new time's too. */
export const OptionPrice = BookingOption.fields.price
export type OptionPrice = typeof OptionPrice.Type

export const BookingSearchResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  availability_checked: Schema.Literal(true),
  provider_selected: Schema.Literal(false),
  booking_created: Schema.Literal(false),
  direct_booking_available: Schema.Boolean,
  option_count: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  options: Schema.Array(BookingOption),
  /** Beside the spec's fields: present only when the requested window has no free slot and times near it do. */
  alternative_options: Schema.optional(
    Schema.Array(BookingOption).annotate({
      description:
        "Present only when the requested window has no free slot (options empty, direct_booking_available false) and times near it are free: up to 4 booking options for the same job and area, the earliest from the window's start to 14 days after its end (at most 2 per provider, earliest first, ties by provider id), none of them at the requested time. Each is a full booking option, confirmable like an entry of options. Absent otherwise."
    })
  ),
  requested_time_window: Schema.optional(Schema.Struct({ start_at: DateTime, end_at: DateTime, label: Schema.String })),
  fallback: Schema.optional(
    Schema.Struct({
      type: Schema.Literal("provider_follow_up_request"),
      endpoint: Uri,
      reason: Schema.String
    })
  ),
  safe_next_step: Schema.String
})
export type BookingSearchResponse = typeof BookingSearchResponse.Type
