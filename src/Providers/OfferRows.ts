import { createHash } from "node:crypto"
import { Schema } from "effect"
import { consumerInformationId } from "../Domain/ConsumerInformation.js"
import type { FieldChange, OfferService } from "../Domain/Offer.js"
import { formatPostcode } from "../Domain/Supply.js"
import type { DeductionDeclaration } from "../Domain/TaxDeduction.js"
import { formatStamp } from "../Domain/Zone.js"

/** A `provider_services` row as the provider API reads and writes it. */
export const ServiceRow = Schema.Struct({
  serviceId: Schema.String,
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  labelSv: Schema.String,
  labelEn: Schema.NullOr(Schema.String),
  pricingModel: Schema.String,
  priceType: Schema.String,
  amountSek: Schema.NullOr(Schema.Int),
  unitPriceSek: Schema.NullOr(Schema.Int),
  unit: Schema.NullOr(Schema.String),
  durationMinutes: Schema.Int,
  scope: Schema.Record(Schema.String, Schema.Array(Schema.String)),
  termsVersion: Schema.String,
  termsUrl: Schema.String,
  termsSections: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
  termsSourceUrls: Schema.Array(Schema.String),
  taxDeduction: Schema.NullOr(Schema.Unknown),
  freeCancellationHours: Schema.Int,
  lateFeeSek: Schema.Int,
  changeHours: Schema.Int,
  active: Schema.Boolean,
  editedByProviderAt: Schema.NullOr(Schema.Date)
})
export type ServiceRow = typeof ServiceRow.Type

/** The columns a row has: every select of the provider API reads these. */
export const serviceColumns = `s.service_id, s.vertical_id, s.job_type_id, s.label_sv, s.label_en, s.pricing_model,
  s.price_type, s.amount_sek, s.unit_price_sek, s.unit, s.duration_minutes, s.scope, s.terms_version, s.terms_url,
  s.terms_sections, s.terms_source_urls, s.tax_deduction, s.free_cancellation_hours, s.late_fee_sek, s.change_hours,
  s.active, s.edited_by_provider_at`

/** The service's own sections: the consumer information is the service's to write, from the provider's identity. */
const ownSections = (row: ServiceRow) => row.termsSections.filter((section) => section.id !== consumerInformationId)

export const offerServiceOf = (row: ServiceRow): OfferService => ({
  service_id: row.serviceId,
  vertical_id: row.verticalId,
  job_type_id: row.jobTypeId,
  label_sv: row.labelSv,
  ...(row.labelEn === null ? {} : { label_en: row.labelEn }),
  pricing_model: row.pricingModel,
  price_type: row.priceType,
  ...(row.amountSek === null ? {} : { amount_sek: row.amountSek }),
  ...(row.unitPriceSek === null ? {} : { unit_price_sek: row.unitPriceSek }),
  ...(row.unit === null ? {} : { unit: row.unit }),
  duration_minutes: row.durationMinutes,
  scope: row.scope,
  terms: {
    version: row.termsVersion,
    url: row.termsUrl,
    sections: ownSections(row),
    source_urls: row.termsSourceUrls
  },
  tax_deduction: row.taxDeduction as DeductionDeclaration | null,
  cancellation_policy: {
    free_cancellation_hours: row.freeCancellationHours,
    late_fee_sek: row.lateFeeSek,
    change_hours: row.changeHours
  },
  active: row.active,
  edited_by_provider_at: row.editedByProviderAt === null ? null : formatStamp(row.editedByProviderAt)
})

/** JSON with every object's keys in order: jsonb gives them back in its own order, a body in the sender's. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, inner: unknown) =>
    typeof inner === "object" && inner !== null && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner
  )

/** What an option of the service states and a booking keeps: everything but whether it is offered. */
const termsContent = (row: ServiceRow) =>
  canonical([
    row.verticalId,
    row.jobTypeId,
    row.labelSv,
    row.labelEn,
    row.pricingModel,
    row.priceType,
    row.amountSek,
    row.unitPriceSek,
    row.unit,
    row.durationMinutes,
    row.scope,
    row.termsUrl,
    row.termsSections,
    row.termsSourceUrls,
    row.taxDeduction,
    row.freeCancellationHours,
    row.lateFeeSek,
    row.changeHours
  ])

const consumerSuffix = /\+ki-[0-9a-f]{8}$/
const editMark = /\+p-[0-9a-f]{10}$/
const maxVersionLength = 240

/**
 * The terms version of `after`, a provider's edit of `before`: unchanged when nothing an option
 * states changed, else the version's own part with the fingerprint of the new terms, before the
 * consumer information's. The same terms always make the same version, so a change undone makes
 * the version it undid, whose options state exactly these terms again.
 */
export const termsVersionAfter = (before: ServiceRow, after: ServiceRow) => {
  if (termsContent(before) === termsContent(after)) return before.termsVersion
  const ki = consumerSuffix.exec(before.termsVersion)?.[0] ?? ""
  const own = before.termsVersion.slice(0, before.termsVersion.length - ki.length).replace(editMark, "")
  const mark = `+p-${createHash("sha256").update(termsContent(after)).digest("hex").slice(0, 10)}`
  return `${own.slice(0, maxVersionLength - mark.length - ki.length)}${mark}${ki}`
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b)

/** Field by field, what the provider changed; nested fields are named with dots (`cancellation_policy.late_fee_sek`). */
export const fieldChanges = (before: OfferService, after: OfferService): Array<FieldChange> => {
  const changes: Array<FieldChange> = []
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]) as Set<keyof OfferService>
  for (const key of keys) {
    if (key === "edited_by_provider_at") continue
    const [b, a] = [before[key], after[key]]
    if (key === "terms" || key === "cancellation_policy") {
      const inner = new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])
      for (const field of inner) {
        const [bi, ai] = [(b as Record<string, unknown>)[field], (a as Record<string, unknown>)[field]]
        if (!same(bi, ai)) changes.push({ field: `${key}.${field}`, before: bi ?? null, after: ai ?? null })
      }
    } else if (!same(b, a)) changes.push({ field: key, before: b ?? null, after: a ?? null })
  }
  return changes
}

/** Postcode ranges as the table holds them, merged where they touch or overlap, in order. */
export const mergedRanges = (ranges: ReadonlyArray<readonly [number, number]>) => {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: Array<[number, number]> = []
  for (const [lo, hi] of sorted) {
    const last = merged.at(-1)
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi)
    else merged.push([lo, hi])
  }
  return merged
}

export const areaOf = ([lo, hi]: readonly [number, number]) => ({ from: formatPostcode(lo), to: formatPostcode(hi) })
