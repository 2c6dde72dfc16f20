import { Context, Duration, Effect, Layer, Schedule, Schema, SubscriptionRef } from "effect"
import { AppConfig } from "../AppConfig.js"

import { Catalog } from "../Catalog/Catalog.js"
import {
  agentSafeNextStep,
  authRules,
  bookingChangeRules,
  bookingLifecycle,
  Capabilities,
  emergencyRule,
  eventRules,
  forbiddenClaims,
  geographicScope,
  idempotencyRules,
  personalDataRules,
  priceTypes,
  requestLifecycle,
  requestsSpecVersion,
  requiredFields,
  taxDeductionRules,
  truthRules
} from "../Domain/Capabilities.js"
import type { VerticalId } from "../Domain/Catalog.js"
import { quantityBounds, quantityKeys } from "../Domain/Pricing.js"
import { emergencyAdvice, isEmergency } from "../Domain/Safety.js"
import { webhookEventTypes } from "../Domain/WebhookEvents.js"
import { type Document, etagOf, makeDocument } from "../Http/DocumentCache.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import { idempotencyRetentionDays } from "../Shared/Idempotency.js"
import { Supply } from "../Supply/Supply.js"
import { publicEndpoints } from "./Endpoints.js"

const endpoints = publicEndpoints()

export const buildCapabilities = (input: {
  readonly catalog: Catalog["Service"]
  readonly counts: ReadonlyMap<VerticalId, number>
  readonly personalDataRetentionDays: number
}): Capabilities =>
  Capabilities.make({
    ok: true,
    spec_version: requestsSpecVersion,
    endpoints,
    lifecycle: requestLifecycle,
    booking_lifecycle: bookingLifecycle,
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
    auth: authRules,
    events: { types: [...webhookEventTypes], ...eventRules },
    idempotency: {
      ...idempotencyRules,
      retention_hours: idempotencyRetentionDays * 24
    },
    agent_contract: {
      consent_required_before_pii_submission: true,
      required_fields: requiredFields,
      forbidden_claims: forbiddenClaims,
      safe_next_step: agentSafeNextStep,
      truth_rules: truthRules,
      booking_changes: bookingChangeRules,
      emergencies: {
        job_type_ids: input.catalog.verticals.flatMap((vertical) =>
          vertical.job_types.filter(isEmergency).map((jobType) => jobType.job_type_id)
        ),
        rule: emergencyRule,
        advice_sv: emergencyAdvice.sv,
        advice_en: emergencyAdvice.en
      },
      price_types: priceTypes,
      quantity_bounds: quantityBounds,
      tax_deduction: taxDeductionRules,
      personal_data: { retention_days: input.personalDataRetentionDays, ...personalDataRules }
    },
    required_fields: requiredFields,
    geographic_scope: geographicScope
  })

const encodeCapabilities = Schema.encodeSync(Capabilities)

export const encodeDocument = (capabilities: Capabilities): Uint8Array =>
  new TextEncoder().encode(JSON.stringify(encodeCapabilities(capabilities)))

/**
 * The capabilities response, encoded and compressed once. The service counts come from the
 * supply index, so CapabilitiesRefreshLive re-reads them and swaps the document only when they
 * change (supply import).
 */
export class CapabilitiesDocument extends Context.Service<CapabilitiesDocument>()("Booking/CapabilitiesDocument", {
  make: Effect.gen(function* () {
    const catalog = yield* Catalog
    const supply = yield* Supply
    const config = yield* AppConfig
    const build = supply
      .fixedPriceServiceCounts()
      .pipe(
        Effect.map((counts) =>
          encodeDocument(
            buildCapabilities({ catalog, counts, personalDataRetentionDays: config.personalDataRetentionDays })
          )
        )
      )
    const current = yield* SubscriptionRef.make<Document>(
      makeDocument(yield* build.pipe(Effect.orDie), "application/json")
    )
    // Compressed again only when the content changed.
    const refresh = build.pipe(
      Effect.flatMap((body) =>
        SubscriptionRef.update(current, (old) =>
          old.etag === etagOf(body) ? old : makeDocument(body, "application/json")
        )
      ),
      Effect.catchCause((cause) => logFailureWarning("capabilities refresh failed", cause))
    )
    return { current: SubscriptionRef.get(current), refresh }
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([Catalog.Default, Supply.Default]))
}

/** Re-reads the service counts every 30 seconds, for as long as the server runs. */
export const CapabilitiesRefreshLive = Layer.effectDiscard(
  Effect.flatMap(CapabilitiesDocument, (document) =>
    document.refresh.pipe(Effect.repeat(Schedule.spaced(Duration.seconds(30))), Effect.forkScoped)
  )
).pipe(Layer.provide(CapabilitiesDocument.Default))
