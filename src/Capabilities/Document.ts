import { Duration, Effect, Schedule, Schema, SubscriptionRef } from "effect"
import { AppConfig } from "../AppConfig.js"
import { Catalog } from "../Catalog.js"
import { type Document, etagOf, makeDocument } from "../Documents.js"
import { Capabilities, requestsSpecVersion } from "../Domain/Capabilities.js"
import type { VerticalId } from "../Domain/Catalog.js"
import { quantityBounds, quantityKeys } from "../Domain/Pricing.js"
import { emergencyAdvice, isEmergency } from "../Domain/Safety.js"
import { logFailureWarning } from "../Failure.js"
import { idempotencyRetentionDays } from "../Idempotency.js"
import { Supply } from "../Supply.js"

export const paths = {
  capabilities: "/api/public/requests/capabilities",
  searchBookingOptions: "/api/public/booking-options",
  confirmBooking: "/api/public/bookings",
  bookingStatus: "/api/public/bookings/{booking_id}",
  createRequest: "/api/public/requests"
} as const

export const forbiddenClaims = [
  "Do not say a booking exists unless booking_created, availability_checked and provider_selected are all true and booking.status is confirmed.",
  "Do not let a notification status (sent, skipped, failed) decide whether a booking exists; it only reports delivery.",
  "Do not claim availability from this capabilities document; only a search response with direct_booking_available true proves it.",
  "Do not quote a price as booked unless it is the exact price in the confirmed booking response.",
  "Do not say a follow-up request is a booking, a reserved time, a selected provider or an agreed price.",
  "Do not use the service for emergencies, safety-critical triage, DIY repair instructions, or requests outside Sweden."
]

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
]

export const buildCapabilities = (input: {
  readonly catalog: Catalog
  readonly counts: ReadonlyMap<VerticalId, number>
}): Capabilities =>
  Capabilities.make({
    ok: true,
    spec_version: requestsSpecVersion,
    endpoints: {
      search_booking_options: { method: "POST", path: paths.searchBookingOptions },
      confirm_booking: { method: "POST", path: paths.confirmBooking },
      booking_status: { method: "GET", path: paths.bookingStatus },
      create_request: { method: "POST", path: paths.createRequest },
      capabilities: { method: "GET", path: paths.capabilities }
    },
    lifecycle: {
      creates: "network_visit_request",
      request_status: "ready_to_send",
      booking_created: false,
      availability_checked: false,
      provider_selected: false,
      note: "A created request is a structured follow-up request handed to providers. It never proves a booking, availability, a provider, a slot or a price."
    },
    booking_lifecycle: {
      search:
        "POST /api/public/booking-options with the job and postcodes only (no personal data) returns short-lived booking options: provider, fixed price, free slot and terms version.",
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
        "Only a search response with direct_booking_available true proves availability; this document describes supported code paths, not current inventory."
    },
    supported_verticals: input.catalog.verticals.map((vertical) => ({
      vertical_id: vertical.vertical_id,
      label_sv: vertical.label_sv,
      label_en: vertical.label_en,
      agent_status: "booking_and_request_supported" as const,
      agent_summary: vertical.agent_summary,
      safe_next_step: vertical.safe_next_step,
      provider_supply: "indexed" as const,
      direct_booking_supply: "search_required" as const,
      fixed_price_service_count: input.counts.get(vertical.vertical_id) ?? 0,
      job_types: vertical.job_types.map((jobType) =>
        jobType.fixed_price_seed && jobType.fixed_price_seed.pricing_model in quantityKeys
          ? {
              ...jobType,
              fixed_price_seed: {
                ...jobType.fixed_price_seed,
                quantity_detail_keys: quantityKeys[jobType.fixed_price_seed.pricing_model as keyof typeof quantityKeys]
              }
            }
          : jobType
      )
    })),
    unavailable_verticals: input.catalog.unavailableVerticals.map((vertical) => ({
      ...vertical,
      agent_status: "not_bookable_yet" as const,
      reason: "not_bookable_yet" as const
    })),
    auth: {
      production:
        "Bearer token required: 'Authorization: Bearer <API_TOKEN>' or 'X-Service-Requests-Token: <API_TOKEN>'.",
      development:
        "A development server may run open (AUTH_MODE=open, or by default while no token was ever configured): a request without a token then passes as anonymous. A token that is sent is always checked: an unknown or revoked one is 401.",
      sandbox:
        "A sandbox token (SANDBOX_API_TOKENS, or a partner created with --sandbox) uses the same endpoints; its bookings and requests are marked sandbox: true, notify no one (confirmation_delivery shows channel sandbox) and never take a provider's real calendar time.",
      token_required_for: [
        "POST /api/public/bookings",
        "GET /api/public/bookings/{booking_id}",
        "POST /api/public/requests"
      ],
      token_not_required_for: ["GET /api/public/requests/capabilities", "POST /api/public/booking-options"]
    },
    idempotency: {
      scope: "per partner token and endpoint",
      retention_hours: idempotencyRetentionDays * 24,
      same_key_same_request: "200 with the stored result and idempotent_replay true (also after the option expired)",
      same_key_different_request: "409 idempotency_key_reused; nothing is written"
    },
    agent_contract: {
      consent_required_before_pii_submission: true,
      required_fields: requiredFields,
      forbidden_claims: forbiddenClaims,
      safe_next_step:
        "Search first without personal data. Ask for the user's explicit consent before sending name, phone, e-mail or address, and tell the user a booking exists only when the confirmation response says so.",
      truth_rules: [
        "A booking exists only when booking_created, availability_checked and provider_selected are all true and booking.status is confirmed.",
        "Notification delivery is reported separately and never decides whether the booking exists.",
        "Availability is proven only by a search response with direct_booking_available true.",
        "A price is booked only if it is the exact price in the confirmed booking response.",
        "Do not use the service for emergencies, safety-critical triage, DIY repair instructions, or requests outside Sweden."
      ],
      emergencies: {
        job_type_ids: input.catalog.verticals.flatMap((vertical) =>
          vertical.job_types.filter(isEmergency).map((jobType) => jobType.job_type_id)
        ),
        rule: "Search returns no options and no fallback for these job types, and request creation refuses them (400 emergency_not_supported). Relay the advice below; never book or request an emergency here.",
        advice_sv: emergencyAdvice.sv,
        advice_en: emergencyAdvice.en
      },
      price_types: {
        fixed: "price_type avg_fixed (pricing_model flat): the exact price of the described work.",
        starting:
          "price_type starting_price: a from-price. Tell the user the final price is set on site by the provider; never present it as the exact price.",
        unit: "price_type avg_unit or avg_recurring (pricing_model per_sqm, per_window, per_hour, per_item): unit price times the quantity sent in details; the amount covers that quantity (price.quantity, price.unit)."
      },
      quantity_bounds: quantityBounds
    },
    required_fields: requiredFields,
    geographic_scope: {
      country_code: "SE",
      country_name: "Sverige (Sweden)",
      bookable_only_in_country: true,
      note: "Only jobs at Swedish addresses (five-digit Swedish postcodes, NNN NN) can be searched, booked or requested."
    }
  })

const encodeCapabilities = Schema.encodeSync(Capabilities)

export const encodeDocument = (capabilities: Capabilities): Uint8Array =>
  new TextEncoder().encode(JSON.stringify(encodeCapabilities(capabilities)))

/**
 * The capabilities response, encoded and compressed once. The service counts come from the
 * supply index, so a background fiber re-reads them and swaps the document only when they change
 * (supply import).
 */
export class CapabilitiesDocument extends Effect.Service<CapabilitiesDocument>()("Booking/CapabilitiesDocument", {
  scoped: Effect.gen(function* () {
    const catalog = yield* Catalog
    const supply = yield* Supply
    yield* AppConfig
    const build = supply
      .fixedPriceServiceCounts()
      .pipe(Effect.map((counts) => encodeDocument(buildCapabilities({ catalog, counts }))))
    const current = yield* SubscriptionRef.make<Document>(
      makeDocument(yield* build.pipe(Effect.orDie), "application/json")
    )
    // Compressed again only when the content changed.
    yield* build.pipe(
      Effect.flatMap((body) =>
        SubscriptionRef.update(current, (old) =>
          old.etag === etagOf(body) ? old : makeDocument(body, "application/json")
        )
      ),
      Effect.catchAllCause((cause) => logFailureWarning("capabilities refresh failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.seconds(30))),
      Effect.forkScoped
    )
    return { current: SubscriptionRef.get(current) }
  }),
  dependencies: [Catalog.Default, Supply.Default]
}) {}
