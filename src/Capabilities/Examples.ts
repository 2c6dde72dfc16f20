import * as Contract from "../Domain/Capabilities.js"
import { quantityBounds } from "../Domain/Pricing.js"
import { emergencyAdvice } from "../Domain/Safety.js"
import { webhookEventTypes } from "../Domain/WebhookEvents.js"
import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

export const capabilitiesExample: OperationExample = {
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
      tax_deduction: Contract.taxDeductionRules,
      personal_data: { retention_days: 180, ...Contract.personalDataRules }
    },
    required_fields: Contract.requiredFields.slice(0, 2),
    geographic_scope: Contract.geographicScope
  }
}
