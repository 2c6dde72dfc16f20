import { createHash } from "node:crypto"
import { Schema, String as Str } from "effect"
import type { CancellationPolicy } from "../Domain/CancellationPolicy.js"
import { consumerInformationId } from "../Domain/ConsumerInformation.js"
import type { FieldChange, OfferService } from "../Domain/Offer.js"
import { formatPostcode, type ProviderService } from "../Domain/Supply.js"
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

/** A service as the supply file and the provider's PUT both state it: its terms version is the service's to make. */
export type StatedService = Omit<ProviderService, "service_id" | "terms" | "cancellation_policy" | "active"> & {
  readonly active: boolean
  readonly terms: Omit<ProviderService["terms"], "version">
}

/**
 * The row a stated service is stored as, for the import and the provider API alike: with the terms
 * version, the terms sections (the service's own and the consumer information) and the policy that
 * the caller settled.
 */
export const serviceRowOf = (
  serviceId: string,
  service: StatedService,
  stored: {
    readonly termsVersion: string
    readonly termsSections: ServiceRow["termsSections"]
    readonly policy: CancellationPolicy
    readonly editedByProviderAt: Date | null
  }
): ServiceRow => ({
  serviceId,
  verticalId: service.vertical_id,
  jobTypeId: service.job_type_id,
  labelSv: service.label_sv,
  labelEn: service.label_en ?? null,
  pricingModel: service.pricing_model,
  priceType: service.price_type,
  amountSek: service.amount_sek ?? null,
  unitPriceSek: service.unit_price_sek ?? null,
  unit: service.unit ?? null,
  durationMinutes: service.duration_minutes,
  scope: service.scope,
  termsVersion: stored.termsVersion,
  termsUrl: service.terms.url,
  termsSections: stored.termsSections,
  termsSourceUrls: service.terms.source_urls,
  taxDeduction: service.tax_deduction ?? null,
  freeCancellationHours: stored.policy.freeCancellationHours,
  lateFeeSek: stored.policy.lateFeeSek,
  changeHours: stored.policy.changeHours,
  active: service.active,
  editedByProviderAt: stored.editedByProviderAt
})

/** A row keyed by its columns' names, for a statement to read it with jsonb_to_recordset. */
export const columnsOf = (row: ServiceRow) =>
  Object.fromEntries(Object.entries(row).map(([key, value]) => [Str.camelToSnake(key), value]))

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

/**
 * Field by field, what changed (from nothing, for a new service); nested fields are named with dots
 * (`cancellation_policy.late_fee_sek`), as the API names them.
 */
export const fieldChanges = (before: OfferService | undefined, after: OfferService): Array<FieldChange> => {
  const changes: Array<FieldChange> = []
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]) as Set<keyof OfferService>
  for (const key of keys) {
    if (key === "edited_by_provider_at") continue
    const [b, a] = [before?.[key], after[key]]
    if (key === "terms" || key === "cancellation_policy") {
      const inner = new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])
      for (const field of inner) {
        const [bi, ai] = [(b as Record<string, unknown> | undefined)?.[field], (a as Record<string, unknown>)[field]]
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
