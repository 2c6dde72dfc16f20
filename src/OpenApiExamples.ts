import { policyTerms } from "./Domain/CancellationPolicy.js"
import * as Contract from "./Domain/Capabilities.js"
import { quantityBounds } from "./Domain/Pricing.js"
import { emergencyAdvice } from "./Domain/Safety.js"

/**
 * Example bodies of the OpenAPI document: the README's "Try it" flow, as the server answered it
 * (test/Client.test.ts runs the same flow; long lists are cut to their first entries).
 */

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
  terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3",
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
  cancellation_policy: policyExample
}

const confirmedStepExample =
  "The booking is confirmed: Norrmalms Rör & Värme AB, måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm, a fixed price of SEK 2,190 incl. VAT (terms norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3). Tell the user exactly this. Confirmation messages are reported separately and do not change the booking."

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
        quantity_bounds: quantityBounds
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
            price_type: "avg_fixed"
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
            version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3",
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
        "Show the user each option's provider, price, time and terms. Prices: a price_type avg_fixed amount is the exact price of the described work. Only after the user picks one and consents to sharing contact details, confirm it with POST /api/public/bookings before expires_at. Nothing is booked until that confirmation succeeds."
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
      booking_terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3",
      booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
      idempotency_key: "chat-4711-confirm"
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
      booking_terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3",
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
        "The booking has been moved and is confirmed at its new time: Norrmalms Rör & Värme AB, tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm (terms norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-11-01.v3, request_id bkg_XElF0uX8k_aVvxcQsnoB, version 2). The earlier time (måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm) is released. Tell the user exactly this. Messages are reported in confirmation_delivery and do not change the booking."
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
  }
}
