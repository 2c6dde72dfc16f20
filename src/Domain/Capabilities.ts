import { Schema } from "effect"
import { FixedPriceFit, FixedPriceSeed, RoutingMode, VerticalId } from "./Catalog.js"
import { quantityBounds } from "./Pricing.js"

export const requestsSpecVersion = "public_requests_api_v1"
export const bookingsSpecVersion = "public_bookings_api_v1" as const

/** The fixed parts of the capabilities document: the server sends them, the OpenAPI example shows them. */
export const capabilityEndpoints = {
  search_booking_options: { method: "POST", path: "/api/public/booking-options" },
  confirm_booking: { method: "POST", path: "/api/public/bookings" },
  booking_status: { method: "GET", path: "/api/public/bookings/{booking_id}" },
  create_request: { method: "POST", path: "/api/public/requests" },
  capabilities: { method: "GET", path: "/api/public/requests/capabilities" },
  cancel_booking: { method: "POST", path: "/api/public/bookings/{booking_id}/cancel" },
  reschedule_booking: { method: "POST", path: "/api/public/bookings/{booking_id}/reschedule" },
  request_status: { method: "GET", path: "/api/public/requests/{request_id}" }
} as const

/**
 * The names capabilities.endpoints gives operations (by operation id, `group.endpoint`): section
 * 2.1's five first, in its order, then those published beside them. Every other public operation
 * is named by its operation id in snake_case (`webhooks.rotateSecret` is `webhooks_rotate_secret`).
 */
const namedEndpoints: Readonly<Record<string, keyof typeof capabilityEndpoints>> = {
  "search.search": "search_booking_options",
  "bookings.confirm": "confirm_booking",
  "bookings.status": "booking_status",
  "requests.create": "create_request",
  "capabilities.capabilities": "capabilities",
  "bookings.cancel": "cancel_booking",
  "bookings.reschedule": "reschedule_booking",
  "requests.status": "request_status"
}

export const endpointNameOf = (operationId: string): string =>
  namedEndpoints[operationId] ?? operationId.replace(".", "_").replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

export const forbiddenClaims = [
  "Do not say a booking exists unless booking_created, availability_checked and provider_selected are all true and booking.status is confirmed.",
  "Do not let a notification status (sent, skipped, failed) decide whether a booking exists; it only reports delivery.",
  "Do not claim availability from this capabilities document; only a search response with direct_booking_available true proves it.",
  "Do not quote a price as booked unless it is the exact price in the confirmed booking response.",
  "Do not say a held time is booked: a hold (POST /api/public/holds) only keeps the time from others until it runs out; booking_created is false until confirm.",
  "Do not say a booking is cancelled unless a cancel answer has cancelled true, nor that its time changed unless a reschedule answer shows the new slot; a dry run changes nothing.",
  "Do not say a follow-up request is a booking, a reserved time, a selected provider or an agreed price.",
  "Do not use the service for emergencies, safety-critical triage, DIY repair instructions, or requests outside Sweden."
] as const

/** How an assistant cancels or moves a booking: preview, tell, ask, act on a yes. */
export const bookingChangeRules = [
  "Every option and confirmed booking carries cancellation_policy. The user has a statutory 14-day right of withdrawal (lag (2005:59) om distansavtal, 2 kap. 10 §), counted from the booking's confirmation and ending at withdrawal_until: a cancel before the start and before withdrawal_until costs nothing, whatever late_fee_sek says. After it, cancelling is free until free_until under the provider's terms, and after that the provider may charge late_fee_sek (0: never), a term under konsumenttjänstlagen that holds only if reasonable. Time changes are possible until change_until. It is stated as it stands at the time of the answer: free_cancellation_available and change_available say whether cancelling is free and changing possible now, and a passed deadline is worded as passed; never offer free cancellation when free_cancellation_available is false. Say it in its own words (summary_sv, summary_en): a fee is what the provider may charge, never a sum the user owes us. Never tell the user there is no right of withdrawal.",
  "Before the user confirms, tell them what every option's terms carry in the section with id consumer_information: who the provider is (a business, with organisation number and contact), the 14-day right of withdrawal and how to use it (cancel here before the start, or tell the provider, for example with the standard withdrawal form at withdrawal_form_url), what an early start means, and that disputes can go to Allmänna reklamationsnämnden (ARN).",
  "Early start: when the slot starts before the withdrawal period would end (within 14 days of booking; the option's cancellation_policy.withdrawal_until is after its slot.start_at), ask the user explicitly, never pre-ticked or assumed, whether they want the work to start within the withdrawal period, and tell them what it means: if they withdraw after the work has begun they pay for the part already done, and once the work is fully performed the right of withdrawal ends. Send early_start_requested: true only on their yes, with early_start_statement in the words they agreed to. Without it the booking is still made, and a withdrawal within the period then owes nothing, even for work done; the booking's early_start says which holds.",
  "To cancel or move a booking, first call the endpoint with dry_run true: it changes nothing and returns the fee that would apply now (cancel) or the new time, its price (new_price, with its tax_deduction), the difference to the current price (price_difference_sek) and its policy (reschedule). Tell the user the fee and the deadline, and act only on their explicit yes.",
  "Send an idempotency_key with each cancel or reschedule and reuse it on retries: a retry returns the same answer with idempotent_replay true and never acts twice.",
  "A booking is moved only to another time of the same provider and service, keeping its id and request_id; booking.version goes up by one. slot_taken on a reschedule means the booking at its old time still stands.",
  "A cancelled booking is never returned as a booking: its status lookup answers found false with its cancellation (when, by whom, the fee the provider may charge); tell the user nothing is booked."
] as const

export const requiredFields = [
  "vertical_id",
  "job_type_id",
  "description",
  "customer.name or customer.first_name + customer.last_name",
  "customer.phone",
  "customer.email",
  "location.input or location.address/location.postcode",
  "timing.preferred_time_text or timing.urgency",
  "user_consent_confirmed=true",
  "idempotency_key (recommended)"
] as const

export const requestLifecycle = {
  creates: "network_visit_request",
  request_status: "ready_to_send",
  booking_created: false,
  availability_checked: false,
  provider_selected: false,
  note: "A created request is a structured follow-up request handed to providers. It never proves a booking, availability, a provider, a slot or a price."
} as const

export const bookingLifecycle = {
  search:
    "POST /api/public/booking-options with the job and postcodes only (no personal data) returns short-lived booking options: provider, fixed price, free slot and terms version.",
  hold: "POST /api/public/holds with the chosen booking_option_id (and an idempotency_key) holds its time for hold_seconds (60 to 1800, default 600) without any personal data: other partners' searches no longer offer it and their confirms, holds and reschedules onto it answer 409 slot_taken. Hold after the user picks an option and before asking for their details and consent; nothing is booked until confirm. While the hold lives, this partner's confirm (or reschedule) with the same option succeeds even after the option's own expires_at, and the hold becomes confirmed with the booking's id; once it ran out (GET /api/public/holds/{hold_id} says expired) the confirm books only if the time is still free. DELETE /api/public/holds/{hold_id} releases it at once. At most HOLD_MAX_ACTIVE_PER_PARTNER live holds per partner (20 unless the operator set it) and one per slot, else 429 too_many_holds; holds count against the confirm rate limit.",
  confirm:
    "POST /api/public/bookings with one booking_option_id, the customer's details and explicit consent revalidates the option and writes the booking atomically.",
  confirmed_contract: {
    booking_created: true,
    availability_checked: true,
    provider_selected: true,
    booking_status: "confirmed"
  },
  fallback:
    "When a search returns direct_booking_available false, offer a follow-up request (POST /api/public/requests); it is not a booking.",
  availability_truth:
    "Only a search response with direct_booking_available true proves availability; this document describes supported code paths, not current inventory. An option's time is free in our calendar (bookings, provider blocks, working hours, dates off) and in the busy times imported from the provider's own calendar as of that calendar's last sync: an appointment the provider added there after that sync is not known yet."
} as const

export const authRules = {
  production: "Bearer token required: 'Authorization: Bearer <API_TOKEN>' or 'X-Service-Requests-Token: <API_TOKEN>'.",
  development:
    "A development server may run open (AUTH_MODE=open, or by default while no token was ever configured): a request without a token then passes as anonymous. A token that is sent is always checked: an unknown or revoked one is 401.",
  sandbox:
    "A sandbox token (SANDBOX_API_TOKENS, or a partner created with --sandbox) uses the same endpoints; its bookings and requests are marked sandbox: true, notify no one and say so (every delivery is skipped with channel and reason sandbox; a request's handoff is not_sent with reason sandbox) and never take a provider's real calendar time: each sandbox books in a calendar of its own, which its searches (sent with its token) take into account.",
  token_required_for: [
    "POST /api/public/bookings",
    "GET /api/public/bookings/{booking_id}",
    "POST /api/public/bookings/{booking_id}/cancel",
    "POST /api/public/bookings/{booking_id}/reschedule",
    "POST /api/public/holds",
    "GET /api/public/holds/{hold_id}",
    "DELETE /api/public/holds/{hold_id}",
    "POST /api/public/requests",
    "GET /api/public/requests/{request_id}",
    "GET /api/public/bookings/{booking_id}/personal-data",
    "DELETE /api/public/bookings/{booking_id}/personal-data",
    "GET /api/public/requests/{request_id}/personal-data",
    "DELETE /api/public/requests/{request_id}/personal-data"
  ],
  token_not_required_for: ["GET /api/public/requests/capabilities", "POST /api/public/booking-options"],
  optional_token:
    "POST /api/public/booking-options takes a token but needs none: a sandbox token's search leaves out slots its sandbox already booked; a token that is sent is checked (401 if wrong)."
} as const

/** What a partner can subscribe to: the types, and how deliveries are made. */
export const eventRules = {
  subscribe:
    "POST /api/public/webhooks {url, events?} with the partner token; the whsec_ secret is shown only in that answer. GET, DELETE /api/public/webhooks/{id}, POST .../rotate-secret, .../test, GET .../deliveries, POST .../deliveries/{delivery_id}/retry.",
  format:
    "Standard Webhooks: headers webhook-id, webhook-timestamp, webhook-signature (v1,<base64 HMAC-SHA256 of id.timestamp.body>); verify with the standardwebhooks package. Body {type, timestamp, data}.",
  delivery:
    "At least once, from an outbox written with the change: the same webhook-id on every attempt (drop repeats). Retried at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h; a 410 disables the webhook at once, 5 days of failures disable it.",
  payload:
    "Thin and free of personal data: ids, statuses, slot times, provider id, price, sandbox. Fetch details through the API. A sandbox token's webhooks carry only its sandbox events."
} as const

export const idempotencyRules = {
  scope: "per partner token and endpoint",
  same_request:
    "A confirm is the same booking request when it books the same option (provider, service, slot, price, terms) for the same customer (name, phone, e-mail) at the same service and destination addresses under the same accepted terms version, asking for the tax deduction (tax_deduction_requested true) or not; a follow-up request when it asks the same job (vertical, job type, description), for the same customer, at the same location and timing, with the same budget, details and next step. Time stamps (booking_terms_accepted_at, consent_collected_at), consent wording and source, source, external_reference and spec_version do not make a different request.",
  same_key_same_request: "200 with the stored result and idempotent_replay true (also after the option expired)",
  same_key_different_request:
    "409 idempotency_key_reused naming what the key holds (booking_id, request_id and existing_booking, or request_id and existing_request); nothing is written. Tell the user about that booking or request; use a new key only for a second, separate one.",
  same_option_new_key:
    "409 option_already_booked when this partner already booked the option for this customer under another key: it names the booking, and nothing new is booked."
} as const

export const agentSafeNextStep =
  "Search first without personal data. Ask for the user's explicit consent before sending name, phone, e-mail or address, and tell the user a booking exists only when the confirmation response says so."

export const truthRules = [
  "A booking exists only when booking_created, availability_checked and provider_selected are all true and booking.status is confirmed.",
  "Notification delivery is reported separately and never decides whether the booking exists.",
  "Availability is proven only by a search response with direct_booking_available true.",
  "A price is booked only if it is the exact price in the confirmed booking response.",
  "Do not use the service for emergencies, safety-critical triage, DIY repair instructions, or requests outside Sweden."
] as const

export const emergencyRule =
  "Search returns no options and no fallback for these job types, and request creation refuses them (400 emergency_not_supported). Relay the advice below; never book or request an emergency here."

export const priceTypes = {
  fixed: "price_type avg_fixed (pricing_model flat): the exact price of the described work.",
  starting:
    "price_type starting_price: a from-price. Tell the user the final price is set on site by the provider; never present it as the exact price.",
  unit: "price_type avg_unit or avg_recurring (pricing_model per_sqm, per_window, per_hour, per_item): unit price times the quantity sent in details; the amount covers that quantity (price.quantity, price.unit)."
} as const

/** How an assistant says a RUT or ROT deduction: both figures and the condition, never a promise. */
export const taxDeductionRules = {
  how_to_say:
    "Where an option's price.tax_deduction (or a booking's tax_deduction) has kind rut or rot, say both figures and the condition, in the user's language, as conditions_en/conditions_sv word them: \"X SEK, or Y SEK after RUT if you are eligible and have room under this year's cap; the provider applies it on the invoice\". Never give price_after_deduction_sek alone or as certain.",
  figures:
    "amount_sek (price_sek in a booking) is the price before any deduction, and the price the booking is made at. rate is a fraction of labour_sek, the labour part of the price; max_deduction_sek = min(rate × labour_sek, the yearly cap) in whole kronor, and price_after_deduction_sek = amount_sek − max_deduction_sek. The rate is the one in force on the slot's date; if_paid_from gives the figures if a rule change falls before the customer pays. For a starting price every figure is a from-figure; for a unit price the figures cover the stated quantity.",
  none: "kind none: the price stands without a deduction (reason not_claimed: the service claims none, e.g. work for a business, an office or a building's common areas; not_declared: the provider has not stated it; no_rule_for_date). Say the price without a deduction and promise none.",
  request:
    "Confirm takes tax_deduction_requested: true when the user wants the deduction made on the invoice: the provider is told, and collects the identity details it needs from the customer. Never ask for, send or store a personal identity number (personnummer) or property designation: no field of this API takes one. Asking for a deduction on an option whose kind is none is refused (400). A retry with the flag changed is a different request for the idempotency key."
} as const

/** A customer's personal data: how long it is kept, how to see and erase it, and what an erased booking says (GDPR art. 5(1)(e), 15, 17, 19). */
export const personalDataRules = {
  access:
    "GET /api/public/bookings/{booking_id}/personal-data (or /api/public/requests/{request_id}/personal-data) answers every personal value stored about the customer (stored: field and value), the providers who received it (recipients) and when it is erased (retention.erase_after), or that it was erased and when.",
  erasure:
    "DELETE the same path with an idempotency_key erases it at once for a booking whose slot has ended or that was cancelled (an active one is 409 booking_active: cancel first), or for a withdrawn follow-up request (an open one is 409 request_active: withdraw first); the providers who received it are told, without the values. Offer it when the user asks to be forgotten.",
  erased:
    "Erasure keeps the booking or request and removes only the personal values: status lookups and lists answer as before (they never carried personal data), the provider API's customer is null, its addresses keep only the postcode (address null) and personal_data_erased_at says when; GET .../personal-data answers status erased with stored empty. Tell the user what was erased, never that the booking is gone."
} as const

export const geographicScope = {
  country_code: "SE",
  country_name: "Sverige (Sweden)",
  bookable_only_in_country: true,
  note: "Only jobs at Swedish addresses (five-digit Swedish postcodes, NNN NN) can be searched, booked or requested."
} as const

const Endpoint = Schema.Struct({
  method: Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  path: Schema.String
})

/** A struct of one field per key, each of the same schema. */
const fieldsOf = <const K extends string, S extends Schema.Top>(keys: ReadonlyArray<K>, schema: S) =>
  Schema.Struct(Object.fromEntries(keys.map((key) => [key, schema])) as { readonly [P in K]: S })

/**
 * The contract calls auth, idempotency and geographic_scope free-form; they are spelled out here
 * all the same, so the OpenAPI document describes what is sent (an open index signature would
 * show up in generated examples as `"propertyName*": null`).
 */
const QuantityBound = Schema.Struct({
  min: Schema.Finite,
  max: Schema.Finite,
  integer: Schema.Boolean,
  unit: Schema.String
})

/** A seed as capabilities shows it: unit-priced seeds name the `details` key search needs. */
const CapabilitySeed = Schema.Struct({
  ...FixedPriceSeed.fields,
  quantity_detail_keys: Schema.optional(Schema.Array(Schema.String))
})

const CapabilityJobType = Schema.Struct({
  job_type_id: Schema.String,
  label_sv: Schema.String,
  label_en: Schema.String,
  routing_mode: Schema.optional(RoutingMode),
  fixed_price_fit: Schema.optional(FixedPriceFit),
  required_signals: Schema.optional(Schema.Array(Schema.String)),
  fixed_price_seed: Schema.optional(CapabilitySeed)
})

const SupportedVertical = Schema.Struct({
  vertical_id: VerticalId,
  label_sv: Schema.String,
  label_en: Schema.String,
  agent_status: Schema.Literal("booking_and_request_supported"),
  agent_summary: Schema.String,
  safe_next_step: Schema.String,
  provider_supply: Schema.Literal("indexed"),
  direct_booking_supply: Schema.Literal("search_required"),
  fixed_price_service_count: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  job_types: Schema.Array(CapabilityJobType)
})

const UnavailableVerticalCapability = Schema.Struct({
  vertical_id: Schema.String,
  label_sv: Schema.String,
  label_en: Schema.String,
  agent_status: Schema.Literal("not_bookable_yet"),
  reason: Schema.Literal("not_bookable_yet"),
  safe_next_step: Schema.String
})

const Strings = Schema.Array(Schema.String)

export class Capabilities extends Schema.Class<Capabilities>("Capabilities")({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(requestsSpecVersion),
  endpoints: Schema.StructWithRest(
    fieldsOf(Object.keys(capabilityEndpoints) as Array<keyof typeof capabilityEndpoints>, Endpoint),
    [Schema.Record(Schema.String, Endpoint)]
  ),
  lifecycle: Schema.Struct({
    creates: Schema.Literal("network_visit_request"),
    request_status: Schema.Literal("ready_to_send"),
    booking_created: Schema.Literal(false),
    availability_checked: Schema.Literal(false),
    provider_selected: Schema.Literal(false),
    note: Schema.String
  }),
  booking_lifecycle: Schema.Struct({
    ...fieldsOf(["search", "hold", "confirm"], Schema.String).fields,
    confirmed_contract: Schema.Struct({
      booking_created: Schema.Literal(true),
      availability_checked: Schema.Literal(true),
      provider_selected: Schema.Literal(true),
      booking_status: Schema.Literal("confirmed")
    }),
    ...fieldsOf(["fallback", "availability_truth"], Schema.String).fields
  }),
  supported_verticals: Schema.Array(SupportedVertical),
  unavailable_verticals: Schema.Array(UnavailableVerticalCapability),
  auth: Schema.Struct({
    ...fieldsOf(["production", "development", "sandbox"], Schema.String).fields,
    token_required_for: Strings,
    token_not_required_for: Strings,
    optional_token: Schema.String
  }),
  idempotency: Schema.Struct({
    scope: Schema.String,
    retention_hours: Schema.Int,
    ...fieldsOf(
      Object.keys(idempotencyRules).slice(1) as Array<Exclude<keyof typeof idempotencyRules, "scope">>,
      Schema.String
    ).fields
  }),
  agent_contract: Schema.Struct({
    consent_required_before_pii_submission: Schema.Literal(true),
    required_fields: Strings,
    forbidden_claims: Strings,
    safe_next_step: Schema.String,
    truth_rules: Strings,
    booking_changes: Strings,
    emergencies: Schema.Struct({
      job_type_ids: Strings,
      ...fieldsOf(["rule", "advice_sv", "advice_en"], Schema.String).fields
    }),
    price_types: fieldsOf(Object.keys(priceTypes) as Array<keyof typeof priceTypes>, Schema.String),
    quantity_bounds: fieldsOf(Object.keys(quantityBounds) as Array<keyof typeof quantityBounds>, QuantityBound),
    tax_deduction: fieldsOf(Object.keys(taxDeductionRules) as Array<keyof typeof taxDeductionRules>, Schema.String),
    personal_data: Schema.Struct({
      retention_days: Schema.Int,
      ...fieldsOf(Object.keys(personalDataRules) as Array<keyof typeof personalDataRules>, Schema.String).fields
    })
  }),
  required_fields: Strings,
  events: Schema.Struct({
    types: Strings,
    ...fieldsOf(Object.keys(eventRules) as Array<keyof typeof eventRules>, Schema.String).fields
  }),
  geographic_scope: Schema.Struct({
    country_code: Schema.Literal("SE"),
    country_name: Schema.String,
    bookable_only_in_country: Schema.Literal(true),
    note: Schema.String
  })
}) {}
