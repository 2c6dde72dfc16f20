import { policyTerms } from "../Domain/CancellationPolicy.js"
import * as Contract from "../Domain/Capabilities.js"
import { quantityBounds } from "../Domain/Pricing.js"
import { emergencyAdvice } from "../Domain/Safety.js"
import { taxDeduction } from "../Domain/TaxDeduction.js"
import { deductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { webhookEventTypes } from "../Webhooks/Events.js"

/**
 * Example bodies of the OpenAPI document: the README's "Try it" flow, as the server answered it
 * (test/Client.test.ts runs the same flow; long lists are cut to their first entries).
 */

/** The README flow's option's ROT deduction (the demo's 90 % labour share), as search and confirm state it. */
const taxDeductionExample = deductionAnswer(
  taxDeduction(
    { amountSek: 2190, pricingModel: "flat", priceType: "avg_fixed" },
    { kind: "rot", labour: { share: 0.9 } },
    "2026-11-30T08:00:00+01:00"
  )
)

/** The README flow's option's policy: free until 12 hours before, SEK 495 after, changes until 6 hours before. */
const policyExample = policyTerms(
  { freeCancellationHours: 12, lateFeeSek: 495, changeHours: 6 },
  Date.parse("2026-11-30T08:00:00+01:00"),
  "Europe/Stockholm"
)

const cancellationExample = {
  cancelled_at: "2026-11-24T10:15:00+01:00",
  cancelled_by: "customer",
  reason: "Kunden har redan fått hjälp",
  fee_sek: 0,
  within_free_period: true,
  free_until: policyExample.free_until
}

/** The README flow's booking, as confirm and the status lookup both show it. */
const bookingExample = {
  id: "37139717-8780-4eec-be4e-9dafc536edbf",
  status: "confirmed",
  provider_id: "norrmalms-ror-sthlm",
  provider_name: "Norrmalms Rör & Värme AB",
  service_id: "vvs_install_faucet_standard",
  slot_start_at: "2026-11-30T08:00:00+01:00",
  slot_end_at: "2026-11-30T10:00:00+01:00",
  slot_label: "måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm",
  price_sek: 2190,
  currency: "SEK",
  pricing_model: "flat",
  price_type: "avg_fixed",
  confirmed_at: "2026-11-23T09:00:00+01:00",
  terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3-rot90pct",
  version: 1,
  customer_confirmation_status: "skipped",
  provider_confirmation_status: "skipped"
}

const deliveryExample = {
  customer: {
    status: "skipped",
    channel: "none",
    attempts: 0,
    will_retry: false
  },
  provider: {
    status: "skipped",
    channel: "none",
    attempts: 0,
    will_retry: false
  }
}

/** What confirm and the status lookup both say of the README flow's booking. */
const bookingFactsExample = {
  request_id: "bkg_XElF0uX8k_aVvxcQsnoB",
  booking: bookingExample,
  provider_selected: true,
  availability_checked: true,
  booking_created: true,
  confirmation_delivery: deliveryExample,
  tax_deduction: taxDeductionExample,
  tax_deduction_requested: true,
  cancellation_policy: policyExample
}

const confirmedStepExample =
  'The booking is confirmed: Norrmalms Rör & Värme AB, måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm, a fixed price of SEK 2,190 incl. VAT (terms norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3-rot90pct). Tell the user exactly this. price_sek is the price before any deduction. Say the ROT deduction as tax_deduction.conditions_en words it ("X SEK, or Y SEK after ROT if you are eligible and have room under this year\'s cap; the provider deducts it on the invoice"), never the lower figure alone or as certain. The user asked for it: the provider will collect the identity details it needs; do not ask for them. Confirmation messages are reported separately and do not change the booking.'

/** A created request, as creation and the lookup show it. */
const requestExample = {
  id: "00577a56-5746-487b-84d4-f43c3757e092",
  session_id: "req_eMTkx7r7cFBixfh4294J",
  status: "ready_to_send",
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  taxonomy_confidence: "medium",
  customer_next_step: "contact_me",
  booking_mode: "request_only",
  candidate_provider_count: 3,
  provider_candidates: [
    {
      id: "ekstrom-ror-sthlm",
      name: "Rörmokare Ekström & Son AB",
      can_receive_request: false,
      direct_booking: false
    },
    {
      id: "norrmalms-ror-sthlm",
      name: "Norrmalms Rör & Värme AB",
      can_receive_request: false,
      direct_booking: false
    },
    {
      id: "soderlunds-vvs-sthlm",
      name: "Söderlunds VVS AB",
      can_receive_request: false,
      direct_booking: false
    }
  ],
  persistence_status: "stored",
  persistence_backend: "postgresql",
  handoff: {
    status: "not_sent",
    providers_reached: 0,
    providers_pending: 0,
    reason: "no_reachable_candidates"
  }
}

const webhookExample = {
  id: "5d0c6a4e-8b7f-4f3e-9a2d-1c0b9e8f7a6d",
  url: "https://partner.example.se/hooks/booking",
  events: ["booking.confirmed", "booking.cancelled"],
  status: "enabled",
  sandbox: false,
  created_at: "2026-11-23T08:00:00.000Z"
}

const webhookDeliveryExample = {
  id: "msg_9f8e7d6c5b4a49382716a5b4c3d2e1f0",
  event_type: "booking.confirmed",
  status: "delivered",
  attempts: 1,
  last_status_code: 204,
  created_at: "2026-11-23T08:00:00.000Z"
}

const providerBookingExample = {
  id: "6f1c2a9e-4b7d-4c1e-9a55-2f3b8d0e7a41",
  request_id: "bk_2026_11_23_7KQ9",
  status: "confirmed",
  service_id: "vvs_install_faucet_standard",
  service_label_sv: "Byte av blandare",
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  slot_start_at: "2026-11-23T11:00:00+01:00",
  slot_end_at: "2026-11-23T12:30:00+01:00",
  slot_label: "måndag 23 november 11:00–12:30",
  price_sek: 1950,
  currency: "SEK",
  pricing_model: "fixed",
  price_type: "fixed",
  terms_version: "soderlunds-vvs-2026-11",
  terms_url: "https://example.se/villkor",
  scope: {},
  customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" },
  service_location: { address: "Drottninggatan 12, 3 tr", postcode: "111 22", country_code: "SE" },
  confirmed_at: "2026-11-23T09:00:00+01:00",
  version: 1,
  cancellation_policy: policyTerms(
    { freeCancellationHours: 24, lateFeeSek: 395, changeHours: 24 },
    Date.parse("2026-11-23T11:00:00+01:00"),
    "Europe/Stockholm"
  )
}

const blockExample = {
  id: "0b7c4f7e-2d2a-4d8e-8f3e-5c8a1e6f9b10",
  start_at: "2026-11-25T12:00:00+01:00",
  end_at: "2026-11-25T15:00:00+01:00",
  note: "Tandläkare",
  created_at: "2026-11-23T09:00:00+01:00"
}

const deletedExample = (step: string) => ({
  ok: true,
  spec_version: "provider_api_v1",
  deleted: true,
  safe_next_step: step
})

const workingHoursExample = {
  ok: true,
  spec_version: "provider_api_v1",
  time_zone: "Europe/Stockholm",
  weekly_hours: [1, 2, 3, 4, 5].map((day) => ({ iso_weekday: day, opens: "08:00", closes: "17:00" })),
  dates_off: ["2026-12-24", "2026-12-31"],
  safe_next_step:
    "Saved: searches and confirms use these hours and dates off from now on. Bookings already made stand; a later supply import no longer changes your hours."
}

const feedExample = {
  ok: true,
  spec_version: "provider_api_v1",
  feed_url: "https://booking.partner-api.se/calendar-feeds/q3J0mYfV1xk8c2Wn5d7RZbLhE4tPaUo9sGiK6yN1wQe.ics",
  created_at: "2026-11-23T09:00:00+01:00",
  last_fetched_at: null,
  safe_next_step:
    "Subscribe to feed_url in your calendar app. Keep it secret: anyone with it sees your jobs' times. Rotate it (POST /api/provider/calendar-feed/rotate) if it leaks."
}

const importExample = {
  ok: true,
  spec_version: "provider_api_v1",
  url: "https://calendar.example.com/private-3f9a/basic.ics",
  last_synced_at: "2026-11-23T09:00:00+01:00",
  last_error: null,
  busy_intervals: 12,
  next_fetch_at: "2026-11-23T09:10:00+01:00",
  safe_next_step:
    "Imported: 12 busy interval(s) from your calendar, as of 2026-11-23T09:00:00+01:00; searches and confirms treat them as taken. It is fetched again every 10 minutes."
}

export const operationExamples: Readonly<Record<string, { readonly request?: unknown; readonly response: unknown }>> = {
  "capabilities.capabilities": {
    response: {
      ok: true,
      spec_version: Contract.requestsSpecVersion,
      endpoints: Contract.capabilityEndpoints,
      lifecycle: Contract.requestLifecycle,
      booking_lifecycle: Contract.bookingLifecycle,
      supported_verticals: [
        {
          vertical_id: "vvs",
          label_sv: "VVS",
          label_en: "Plumbing",
          agent_status: "booking_and_request_supported",
          agent_summary:
            "Plumbing in Swedish homes: leaks, blocked drains, toilets, hot water, water pressure and installation of taps, toilets and appliance connections. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request.",
          safe_next_step:
            "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request.",
          provider_supply: "indexed",
          direct_booking_supply: "search_required",
          fixed_price_service_count: 9,
          job_types: [
            {
              job_type_id: "leak_visible",
              label_sv: "Synligt vattenläckage",
              label_en: "Visible water leak",
              routing_mode: "standardized",
              fixed_price_fit: "medium",
              required_signals: ["leak_source_known", "leak_activity_known"]
            },
            {
              job_type_id: "leak_hidden",
              label_sv: "Dolt läckage eller misstänkt fuktskada",
              label_en: "Hidden leak or suspected water damage",
              routing_mode: "needs_clarification",
              fixed_price_fit: "low",
              required_signals: ["hidden_damage_context_known"]
            }
          ]
        },
        {
          vertical_id: "electrician",
          label_sv: "Elektriker",
          label_en: "Electrician",
          agent_status: "booking_and_request_supported",
          agent_summary:
            "Electrical work in Swedish homes by authorised electricians: faults, fuse boxes, sockets and switches, lighting, EV chargers, appliances and inspections. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request, and never give DIY electrical instructions.",
          safe_next_step:
            "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request. For burning smells, sparks or other immediate danger, tell the user to contact emergency services instead.",
          provider_supply: "indexed",
          direct_booking_supply: "search_required",
          fixed_price_service_count: 6,
          job_types: [
            {
              job_type_id: "electrical_emergency",
              label_sv: "Akut elfel",
              label_en: "Electrical emergency",
              routing_mode: "emergency",
              fixed_price_fit: "low",
              required_signals: ["safety_risk_known", "power_scope_known"]
            },
            {
              job_type_id: "electrical_hidden_fault",
              label_sv: "Felsökning av dolt elfel",
              label_en: "Troubleshoot a hidden electrical fault",
              routing_mode: "needs_clarification",
              fixed_price_fit: "low",
              required_signals: ["symptom_known", "power_scope_known"]
            }
          ]
        }
      ],
      unavailable_verticals: [
        {
          vertical_id: "painting",
          label_sv: "Målning",
          label_en: "Painting",
          agent_status: "not_bookable_yet",
          reason: "not_bookable_yet",
          safe_next_step:
            "Painting is not bookable yet through this service: do not search for it and do not submit it to request creation. Suggest that the user contacts a painter directly."
        },
        {
          vertical_id: "carpentry",
          label_sv: "Snickeri",
          label_en: "Carpentry",
          agent_status: "not_bookable_yet",
          reason: "not_bookable_yet",
          safe_next_step:
            "Carpentry is not bookable yet through this service: do not search for it and do not submit it to request creation. Suggest that the user contacts a carpenter directly."
        }
      ],
      auth: { ...Contract.authRules, token_required_for: Contract.authRules.token_required_for.slice(0, 2) },
      events: { types: [...webhookEventTypes], ...Contract.eventRules },
      idempotency: { ...Contract.idempotencyRules, retention_hours: 168 },
      agent_contract: {
        consent_required_before_pii_submission: true,
        required_fields: Contract.requiredFields.slice(0, 2),
        forbidden_claims: Contract.forbiddenClaims.slice(0, 2),
        safe_next_step: Contract.agentSafeNextStep,
        truth_rules: Contract.truthRules.slice(0, 2),
        booking_changes: Contract.bookingChangeRules.slice(0, 2),
        emergencies: {
          job_type_ids: ["electrical_emergency"],
          rule: Contract.emergencyRule,
          advice_sv: emergencyAdvice.sv,
          advice_en: emergencyAdvice.en
        },
        price_types: Contract.priceTypes,
        quantity_bounds: quantityBounds,
        tax_deduction: Contract.taxDeductionRules
      },
      required_fields: Contract.requiredFields.slice(0, 2),
      geographic_scope: Contract.geographicScope
    }
  },
  "search.search": {
    request: {
      vertical_id: "vvs",
      job_type_id: "install_faucet",
      description: "Byta köksblandaren, den nya finns på plats",
      location: {
        country_code: "SE",
        postcode: "111 22"
      },
      timing: {
        preferred_time_text: "nästa vecka förmiddag"
      }
    },
    response: {
      ok: true,
      spec_version: "public_bookings_api_v1",
      availability_checked: true,
      provider_selected: false,
      booking_created: false,
      direct_booking_available: true,
      option_count: 1,
      options: [
        {
          booking_option_id:
            "o1.test-1.eyJwcm92aWRlcklkIjoibm9ycm1hbG1zLXJvci1zdGhsbSIsInNlcnZpY2VJZCI6InZ2c19pbnN0YWxsX2ZhdWNldF9zdGFuZGFyZCIsInZlcnRpY2FsSWQiOiJ2dnMiLCJqb2JUeXBlSWQiOiJpbnN0YWxsX2ZhdWNldCIsImFtb3VudFNlayI6MjE5MCwicHJpY2luZ01vZGVsIjoiZmxhdCIsInByaWNlVHlwZSI6ImF2Z19maXhlZCIsInNsb3RTdGFydCI6MTc5NjAyMjAwMDAwMCwic2xvdEVuZCI6MTc5NjAyOTIwMDAwMCwidGVybXNWZXJzaW9uIjoibm9ycm1hbG1zLXJvci1zdGhsbS92dnNfaW5zdGFsbF9mYXVjZXRfc3RhbmRhcmQvMjAyNi0xMC0wMS52MyIsIm9yaWdpblBvc3Rjb2RlIjoxMTEyMiwidGltZVpvbmUiOiJFdXJvcGUvU3RvY2tob2xtIiwiZXhwaXJlc0F0IjoxNzk1NDIxNzAwMDAwLCJub25jZSI6IlE2bWhSVHY1bUtJNDA5YlUifQ.84BFzHYGCs7aWzpvzSigxUwSMc16LernCjk3dx4Zyoo",
          expires_at: "2026-11-23T09:15:00+01:00",
          provider: {
            id: "norrmalms-ror-sthlm",
            name: "Norrmalms Rör & Värme AB",
            city: "Stockholm",
            rating_label: "4,9 av 5 (168 omdömen)"
          },
          service: {
            service_id: "vvs_install_faucet_standard",
            vertical_id: "vvs",
            job_type_id: "install_faucet",
            label_sv: "Byte av blandare inkl. montering",
            label_en: "Replace mixer tap incl. installation"
          },
          slot: {
            start_at: "2026-11-30T08:00:00+01:00",
            end_at: "2026-11-30T10:00:00+01:00",
            label: "måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm"
          },
          price: {
            amount_sek: 2190,
            currency: "SEK",
            pricing_model: "flat",
            price_type: "avg_fixed",
            tax_deduction: taxDeductionExample
          },
          scope: {
            included_sv: [
              "Demontering av befintlig blandare",
              "Montering och inkoppling av ny blandare",
              "Täthetskontroll och provkörning",
              "Bortforsling av den gamla blandaren"
            ],
            excluded_sv: ["Blandare", "Byte av avstängningsventiler"],
            customer_requirements_sv: [
              "Ny blandare finns på plats",
              "Fri åtkomst till anslutningarna under diskhon eller handfatet"
            ],
            price_adjustment_triggers_sv: [
              "Rostiga eller fastsittande anslutningar",
              "Avstängningsventilerna fungerar inte och behöver bytas"
            ],
            quote_triggers_sv: ["Byte av rör i vägg"]
          },
          terms: {
            version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3-rot90pct",
            url: "https://villkor.norrmalms-ror-sthlm.example/vvs_install_faucet_standard/2026-11-01",
            sections: [
              {
                id: "cancellation",
                text_sv:
                  "Kostnadsfri avbokning senast 12 timmar före starttid. Vid senare avbokning får vi ta ut en avgift på 495 kr inkl. moms. Tiden kan ändras senast 6 timmar före starttid.",
                title_sv: "Avbokning"
              },
              {
                id: "payment",
                text_sv: "Betalning med faktura eller Swish efter utfört arbete.",
                title_sv: "Betalning"
              },
              {
                id: "price",
                text_sv:
                  "Fast pris inklusive moms för arbetet som beskrivs i omfattningen. Tilläggsarbete och material som inte ingår debiteras bara efter ditt godkännande.",
                title_sv: "Pris och tillägg"
              },
              {
                id: "warranty",
                text_sv: "Två års garanti på utfört arbete. Reklamation enligt konsumenttjänstlagen.",
                title_sv: "Garanti"
              }
            ],
            source_urls: [
              "https://villkor.norrmalms-ror-sthlm.example/vvs_install_faucet_standard/2026-11-01",
              "https://www.konsumentverket.se/"
            ]
          },
          cancellation_policy: policyExample
        }
      ],
      requested_time_window: {
        start_at: "2026-11-30T08:00:00+01:00",
        end_at: "2026-12-06T12:00:00+01:00",
        label: "nästa vecka förmiddag (next week morning)"
      },
      safe_next_step:
        'Show the user each option\'s provider, price, time and terms. Prices: a price_type avg_fixed amount is the exact price of the described work; amount_sek is the price before any tax deduction. Where price.tax_deduction has kind rut or rot, say both figures and the condition, as its conditions_en words them: "X SEK, or Y SEK after ROT if you are eligible and have room under this year\'s cap; the provider deducts it on the invoice". Never give the after-deduction figure alone or as certain, keep "from" on a starting price\'s figures, and do not ask for or pass on any identity number: the provider collects the details it needs. Only after the user picks one and consents to sharing contact details, confirm it with POST /api/public/bookings before expires_at. Nothing is booked until that confirmation succeeds.'
    }
  },
  "bookings.confirm": {
    request: {
      booking_option_id:
        "o1.test-1.eyJwcm92aWRlcklkIjoibm9ycm1hbG1zLXJvci1zdGhsbSIsInNlcnZpY2VJZCI6InZ2c19pbnN0YWxsX2ZhdWNldF9zdGFuZGFyZCIsInZlcnRpY2FsSWQiOiJ2dnMiLCJqb2JUeXBlSWQiOiJpbnN0YWxsX2ZhdWNldCIsImFtb3VudFNlayI6MjE5MCwicHJpY2luZ01vZGVsIjoiZmxhdCIsInByaWNlVHlwZSI6ImF2Z19maXhlZCIsInNsb3RTdGFydCI6MTc5NjAyMjAwMDAwMCwic2xvdEVuZCI6MTc5NjAyOTIwMDAwMCwidGVybXNWZXJzaW9uIjoibm9ycm1hbG1zLXJvci1zdGhsbS92dnNfaW5zdGFsbF9mYXVjZXRfc3RhbmRhcmQvMjAyNi0xMC0wMS52MyIsIm9yaWdpblBvc3Rjb2RlIjoxMTEyMiwidGltZVpvbmUiOiJFdXJvcGUvU3RvY2tob2xtIiwiZXhwaXJlc0F0IjoxNzk1NDIxNzAwMDAwLCJub25jZSI6IlE2bWhSVHY1bUtJNDA5YlUifQ.84BFzHYGCs7aWzpvzSigxUwSMc16LernCjk3dx4Zyoo",
      customer: {
        name: "Astrid Lindqvist",
        phone: "+46 70 123 45 67",
        email: "astrid@example.se"
      },
      service_location: {
        country_code: "SE",
        address: "Drottninggatan 12",
        postcode: "111 22"
      },
      user_consent_confirmed: true,
      booking_terms_accepted: true,
      booking_terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3-rot90pct",
      booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
      idempotency_key: "chat-4711-confirm",
      tax_deduction_requested: true
    },
    response: {
      ok: true,
      spec_version: "public_bookings_api_v1",
      ...bookingFactsExample,
      idempotent_replay: false,
      safe_next_step: confirmedStepExample
    }
  },
  "bookings.cancel": {
    request: { idempotency_key: "chat-4711-cancel", reason: "Kunden har redan fått hjälp", dry_run: true },
    response: {
      ok: true,
      spec_version: "public_bookings_api_v1",
      booking_id: bookingExample.id,
      request_id: "bkg_XElF0uX8k_aVvxcQsnoB",
      cancelled: true,
      booking_active: false,
      cancellation: cancellationExample,
      confirmation_delivery: deliveryExample,
      idempotent_replay: false,
      safe_next_step:
        "The booking is cancelled: Norrmalms Rör & Värme AB, måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm (request_id bkg_XElF0uX8k_aVvxcQsnoB). Nothing is booked under it now and the time is released. It was cancelled within the free period: the provider's terms allow no fee for it. Tell the user exactly this. Messages to the customer and provider are reported in confirmation_delivery and do not change the cancellation."
    }
  },
  "bookings.reschedule": {
    request: {
      booking_option_id: "o1.test-1.<a booking_option_id of the same provider and service from a new search>",
      booking_terms_accepted: true,
      booking_terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3-rot90pct",
      booking_terms_accepted_at: "2026-11-24T10:14:00+01:00",
      idempotency_key: "chat-4711-move",
      expected_version: 1
    },
    response: {
      ok: true,
      spec_version: "public_bookings_api_v1",
      ...bookingFactsExample,
      booking: {
        ...bookingExample,
        slot_start_at: "2026-12-01T08:00:00+01:00",
        slot_end_at: "2026-12-01T10:00:00+01:00",
        slot_label: "tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm",
        version: 2
      },
      cancellation_policy: policyTerms(
        { freeCancellationHours: 12, lateFeeSek: 495, changeHours: 6 },
        Date.parse("2026-12-01T08:00:00+01:00"),
        "Europe/Stockholm"
      ),
      idempotent_replay: false,
      previous_slot: { start_at: bookingExample.slot_start_at, end_at: bookingExample.slot_end_at },
      safe_next_step:
        "The booking has been moved and is confirmed at its new time: Norrmalms Rör & Värme AB, tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm (terms norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3-rot90pct, request_id bkg_XElF0uX8k_aVvxcQsnoB, version 2). The earlier time (måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm) is released. Tell the user exactly this. Messages are reported in confirmation_delivery and do not change the booking."
    }
  },
  "bookings.status": {
    response: {
      ok: true,
      spec_version: "public_bookings_api_v1",
      found: true,
      ...bookingFactsExample,
      safe_next_step: confirmedStepExample
    }
  },
  "requests.create": {
    request: {
      vertical_id: "vvs",
      job_type_id: "leak_hidden",
      description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
      user_consent_confirmed: true,
      customer: {
        name: "Karin Berg",
        phone: "+46 70 765 43 21",
        email: "karin.berg@example.se"
      },
      location: {
        address: "Sveavägen 44",
        postcode: "111 34"
      },
      timing: {
        preferred_time_text: "så snart som möjligt"
      }
    },
    response: {
      ok: true,
      spec_version: "public_requests_api_v1",
      request: requestExample,
      booking_created: false,
      availability_checked: false,
      provider_selected: false,
      idempotent_replay: false,
      safe_next_step:
        "Tell the user plainly: nothing is booked, and no time, provider or price is confirmed. Nobody has received this request: the providers found for this area cannot receive requests through this service right now. The request is stored but will not be forwarded, and nobody will contact the user about it. Suggest the user contacts a local provider directly. Keep request.id (00577a56-5746-487b-84d4-f43c3757e092) to look the request up later with GET /api/public/requests/00577a56-5746-487b-84d4-f43c3757e092."
    }
  },
  "requests.status": {
    response: {
      ok: true,
      spec_version: "public_requests_api_v1",
      request: requestExample,
      booking_created: false,
      availability_checked: false,
      provider_selected: false,
      safe_next_step:
        "Tell the user plainly: nothing is booked, and no time, provider or price is confirmed. Nobody has received this request: the providers found for this area cannot receive requests through this service right now. The request is stored but will not be forwarded, and nobody will contact the user about it. Suggest the user contacts a local provider directly. Keep request.id (00577a56-5746-487b-84d4-f43c3757e092) to look the request up later with GET /api/public/requests/00577a56-5746-487b-84d4-f43c3757e092."
    }
  },
  "webhooks.create": {
    request: { url: "https://partner.example.se/hooks/booking", events: ["booking.confirmed", "booking.cancelled"] },
    response: { ok: true, webhook: webhookExample, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ9r8GKYo=" }
  },
  "webhooks.list": { response: { ok: true, webhooks: [webhookExample] } },
  "webhooks.remove": { response: { ok: true, deleted: true, webhook_id: webhookExample.id } },
  "webhooks.rotateSecret": {
    response: {
      ok: true,
      webhook: { ...webhookExample, previous_secret_expires_at: "2026-11-24T08:00:00.000Z" },
      secret: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD+nN4IPnmcE8=",
      previous_secret_expires_at: "2026-11-24T08:00:00.000Z"
    }
  },
  "webhooks.test": {
    response: {
      ok: true,
      delivery: {
        id: "msg_2b7c0e4f9a1d4c6e8f0a1b2c3d4e5f60",
        event_type: "webhook.test",
        status: "pending",
        attempts: 0,
        next_attempt_at: "2026-11-23T08:00:00.000Z",
        created_at: "2026-11-23T08:00:00.000Z"
      }
    }
  },
  "webhooks.deliveries": { response: { ok: true, deliveries: [webhookDeliveryExample] } },
  "webhooks.retry": {
    response: {
      ok: true,
      delivery: {
        ...webhookDeliveryExample,
        status: "pending",
        attempts: 0,
        next_attempt_at: "2026-11-23T09:00:00.000Z"
      }
    }
  },
  "health.healthz": {
    response: {
      ok: true
    }
  },
  "health.readyz": {
    response: {
      ok: true,
      database: "up",
      warnings: []
    }
  },
  "health.metrics": {
    response:
      "# HELP bookings_confirmed_total Bookings confirmed\n# TYPE bookings_confirmed_total counter\nbookings_confirmed_total 1\n"
  },
  "docs.openapi": {
    response: {
      openapi: "3.1.0",
      info: { title: "Home-service booking API (Sweden)", version: "public_bookings_api_v1 / public_requests_api_v1" },
      paths: {}
    }
  },
  "docs.page": {
    response:
      '<!doctype html><html lang="en"><head><title>Home-service booking API (Sweden)</title></head><body>…</body></html>'
  },
  "provider.bookings": {
    response: {
      ok: true,
      spec_version: "provider_api_v1",
      provider_id: "soderlunds-vvs-sthlm",
      from: "2026-11-23T09:00:00+01:00",
      to: "2026-12-23T09:00:00+01:00",
      bookings: [providerBookingExample]
    }
  },
  "provider.cancelBooking": {
    request: { reason: "Sjuk, kan inte ta jobbet", idempotency_key: "prov-cancel-6f1c2a9e" },
    response: {
      ok: true,
      spec_version: "provider_api_v1",
      booking_id: providerBookingExample.id,
      request_id: providerBookingExample.request_id,
      cancelled: true,
      cancellation: {
        cancelled_at: "2026-11-23T09:30:00+01:00",
        cancelled_by: "provider",
        fee_sek: 0,
        within_free_period: false,
        free_until: "2026-11-22T11:00:00+01:00"
      },
      confirmation_delivery: {
        customer: { status: "sent", channel: "email", attempts: 1, will_retry: false },
        provider: { status: "sent", channel: "email", attempts: 1, will_retry: false }
      },
      idempotent_replay: false,
      safe_next_step: `The booking is cancelled (request_id ${providerBookingExample.request_id}). The customer is told (confirmation_delivery.customer shows how far that got; it is retried) and pays no cancellation fee; the partner who booked it sees it cancelled by you. Its time is free again, so searches may offer it to other customers: if you cannot work then, block the time (POST /api/provider/blocks).`
    }
  },
  "provider.createBlock": {
    request: { start_at: "2026-11-25T12:00:00+01:00", end_at: "2026-11-25T15:00:00+01:00", note: "Tandläkare" },
    response: {
      ok: true,
      spec_version: "provider_api_v1",
      block: blockExample,
      safe_next_step:
        "The time from 2026-11-25T12:00:00+01:00 to 2026-11-25T15:00:00+01:00 is blocked: searches no longer offer it and no booking can take it. Delete the block to free it."
    }
  },
  "provider.blocks": { response: { ok: true, spec_version: "provider_api_v1", blocks: [blockExample] } },
  "provider.deleteBlock": {
    response: deletedExample("The block is deleted: its time is free again within your working hours.")
  },
  "provider.workingHours": { response: workingHoursExample },
  "provider.setWorkingHours": {
    request: { weekly_hours: workingHoursExample.weekly_hours, dates_off: workingHoursExample.dates_off },
    response: workingHoursExample
  },
  "provider.calendarFeed": { response: feedExample },
  "provider.rotateCalendarFeed": { response: feedExample },
  "provider.revokeCalendarFeed": {
    response: deletedExample(
      "The feed address no longer works. Ask for the feed again (GET /api/provider/calendar-feed) for a new address."
    )
  },
  "provider.setCalendarImport": {
    request: { url: "https://calendar.example.com/private-3f9a/basic.ics" },
    response: importExample
  },
  "provider.calendarImport": { response: importExample },
  "provider.removeCalendarImport": {
    response: deletedExample(
      "Your calendar is no longer imported, and the busy times read from it no longer block searches."
    )
  }
}
