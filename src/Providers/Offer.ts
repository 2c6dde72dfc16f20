import { randomUUID } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { Catalog } from "../Catalog/Catalog.js"
import { keysetAfter, positionColumn } from "../Database/Keyset.js"
import { rowsOf } from "../Database/Rows.js"
import { policyOfSupply } from "../Domain/CancellationPolicy.js"
import { consumerInformationId } from "../Domain/ConsumerInformation.js"
import { InvalidRequest } from "../Domain/Errors.js"
import {
  type AreasRequest,
  type AreasResponse,
  type ChangesQuery,
  type FieldChange,
  type OfferChange,
  type OfferPreview,
  type PolicyRequest,
  type PolicyResponse,
  type ServiceEditRequest,
  type ServiceEditResponse,
  ServiceNotFound
} from "../Domain/Offer.js"
import { providerSpecVersion } from "../Domain/Provider.js"
import { postcodeNumber } from "../Domain/Supply.js"
import { formatStamp } from "../Domain/Zone.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { changeUnavailable, readUnavailable } from "../Shared/Unavailable.js"
import {
  areaOf,
  fieldChanges,
  mergedRanges,
  offerServiceOf,
  ServiceRow,
  serviceColumns,
  serviceRowOf,
  termsVersionAfter
} from "../Supply/OfferRows.js"
import { serviceProblems } from "../Supply/SupplyCheck.js"
import { policyColumns } from "../Supply/SupplyTerms.js"

/** Who changes the offer: the provider, and the token it came with. */
export interface OfferEditor {
  readonly id: string
  readonly tokenPrefix: string
}

const AreaRow = Schema.Struct({ lo: Schema.Int, hi: Schema.Int })
const ChangeRow = Schema.Struct({
  id: Schema.String,
  changedAt: Schema.Date,
  changedBy: Schema.String,
  subject: Schema.Literals(["service", "areas", "cancellation_policy"]),
  serviceId: Schema.NullOr(Schema.String),
  changes: Schema.Array(Schema.Struct({ field: Schema.String, before: Schema.Unknown, after: Schema.Unknown })),
  termsVersionBefore: Schema.NullOr(Schema.String),
  termsVersionAfter: Schema.NullOr(Schema.String),
  positionAt: Schema.String
})

const notChanged = "Nothing was changed: the database did not answer. Send the same request again in a moment."
const steps = {
  notChanged,
  unknown:
    "The database stopped answering while the change was being saved, so it may or may not stand: read it back (GET /api/provider/services, GET /api/provider/changes) and send it again if it is not there."
}
const readStep =
  "The offer could not be read because the database does not answer; nothing changed. Try again in a moment."

const dryRunStep = "Nothing was changed (dry_run). Send the same body without dry_run to make this the offer."
const appliedStep =
  "The change stands: every search on every instance answers with it from now on. Options searched before it are refused at confirm (409, option_refresh_required) with the new figures; bookings already made keep what they were booked at, and a partner's live hold keeps its price until it ends. GET /api/provider/changes lists it."

/**
 * The provider's own offer, through its token: its services (prices, scope, terms, deduction,
 * whether offered), the postcodes it serves and its cancellation policy. Every change is checked
 * by the supply import's rules (SupplyCheck.serviceProblems), made in one transaction with a new
 * terms version where an option's terms change, and written to the provider's change trail.
 */
export class ProviderOffer extends Context.Service<ProviderOffer>()("Booking/ProviderOffer", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const catalog = yield* Catalog
    const cursors = yield* ListCursor

    const servicesOf = (providerId: string, serviceId?: string, lock = false) =>
      sql`SELECT ${sql.literal(serviceColumns)} FROM provider_services s
        WHERE s.provider_id = ${providerId} ${serviceId === undefined ? sql`` : sql`AND s.service_id = ${serviceId}`}
        ORDER BY s.service_id ${lock ? sql`FOR UPDATE` : sql``}`.pipe(
        rowsOf(ServiceRow),
        Effect.catchTag("SchemaError", Effect.die)
      )

    const areasOf = (providerId: string) =>
      sql`SELECT lower(postcodes) AS lo, upper(postcodes) - 1 AS hi FROM provider_areas
        WHERE provider_id = ${providerId} ORDER BY lower(postcodes)`.pipe(
        rowsOf(AreaRow),
        Effect.catchTag("SchemaError", Effect.die),
        Effect.map((rows) => rows.map((row) => [row.lo, row.hi] as const))
      )

    const providerActive = (providerId: string) =>
      Effect.map(
        sql<{ readonly active: boolean }>`SELECT active FROM providers WHERE id = ${providerId}`,
        (rows) => rows[0]?.active === true
      )

    const record = (
      editor: OfferEditor,
      change: {
        readonly subject: OfferChange["subject"]
        readonly serviceId: string | null
        readonly changes: ReadonlyArray<FieldChange>
        readonly before: string | null
        readonly after: string | null
      }
    ) =>
      sql`INSERT INTO provider_offer_changes (id, provider_id, changed_at, changed_by, subject, service_id, changes,
          terms_version_before, terms_version_after)
        VALUES (${randomUUID()}::uuid, ${editor.id}, clock_timestamp(), ${`hsp_${editor.tokenPrefix}`}, ${change.subject},
          ${change.serviceId}, ${JSON.stringify(change.changes)}::jsonb, ${change.before}, ${change.after})`

    const writeService = (providerId: string, row: ServiceRow) =>
      sql`UPDATE provider_services SET vertical_id = ${row.verticalId}, job_type_id = ${row.jobTypeId},
          label_sv = ${row.labelSv}, label_en = ${row.labelEn}, pricing_model = ${row.pricingModel},
          price_type = ${row.priceType}, amount_sek = ${row.amountSek}, unit_price_sek = ${row.unitPriceSek},
          unit = ${row.unit}, duration_minutes = ${row.durationMinutes}, scope = ${JSON.stringify(row.scope)}::jsonb,
          terms_version = ${row.termsVersion}, terms_url = ${row.termsUrl},
          terms_sections = ${JSON.stringify(row.termsSections)}::jsonb,
          terms_source_urls = ${JSON.stringify(row.termsSourceUrls)}::jsonb,
          tax_deduction = ${JSON.stringify(row.taxDeduction)}::jsonb, active = ${row.active},
          free_cancellation_hours = ${row.freeCancellationHours}, late_fee_sek = ${row.lateFeeSek},
          change_hours = ${row.changeHours}, edited_by_provider_at = clock_timestamp(), updated_at = now()
        WHERE provider_id = ${providerId} AND service_id = ${row.serviceId}`

    /** What searches answer for the service as `row` has it, at the provider's postcodes. */
    const previewOf = (
      row: ServiceRow,
      areas: ReadonlyArray<readonly [number, number]>,
      active: boolean
    ): OfferPreview => ({
      offered_in_searches: active && row.active && areas.length > 0,
      reason: !active
        ? "the provider is not active: the operator deactivated it"
        : !row.active
          ? "the service is not active: searches never offer it and confirms refuse it"
          : areas.length === 0
            ? "the provider serves no postcodes"
            : null,
      service: offerServiceOf(row),
      areas: areas.map(areaOf)
    })

    const services = Effect.fn("ProviderOffer.services")(function* (providerId: string) {
      const rows = yield* servicesOf(providerId)
      return {
        ok: true as const,
        spec_version: providerSpecVersion,
        provider_id: providerId,
        services: rows.map(offerServiceOf)
      }
    })

    const notFound = (serviceId: string) =>
      new ServiceNotFound({
        issues: [`service_id: you have no service ${serviceId}`],
        safe_next_step: "List your services (GET /api/provider/services) and use a service_id from there."
      })

    const editService = Effect.fn("ProviderOffer.editService")(function* (
      editor: OfferEditor,
      serviceId: string,
      request: ServiceEditRequest
    ) {
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const [before] = yield* servicesOf(editor.id, serviceId, true)
          if (before === undefined) return yield* notFound(serviceId)
          const { dry_run, ...service } = request
          const issues = serviceProblems(catalog, { service_id: serviceId, ...service }, "")
          request.terms.sections.forEach((section, i) => {
            if (section.id === consumerInformationId)
              issues.push(
                `terms.sections.${i}.id: ${consumerInformationId} is written by the service from your identity; leave it out`
              )
          })
          if (issues.length > 0) return yield* new InvalidRequest({ issues })
          const { cancellation_policy, ...stated } = service
          const edited = serviceRowOf(serviceId, stated, {
            termsVersion: before.termsVersion,
            termsSections: [
              ...request.terms.sections,
              ...before.termsSections.filter((section) => section.id === consumerInformationId)
            ],
            policy: cancellation_policy === undefined ? before : policyOfSupply(cancellation_policy),
            editedByProviderAt: before.editedByProviderAt
          })
          const after: ServiceRow = { ...edited, termsVersion: termsVersionAfter(before, edited) }
          const changes = fieldChanges(offerServiceOf(before), offerServiceOf(after))
          if (dry_run !== true && changes.length > 0) {
            yield* writeService(editor.id, after)
            yield* record(editor, {
              subject: "service",
              serviceId,
              changes,
              before: before.termsVersion,
              after: after.termsVersion
            })
          }
          const [stored] = dry_run === true || changes.length === 0 ? [after] : yield* servicesOf(editor.id, serviceId)
          const response: ServiceEditResponse = {
            ok: true,
            spec_version: providerSpecVersion,
            dry_run: dry_run === true,
            changes,
            terms_version_before: before.termsVersion,
            terms_version_after: after.termsVersion,
            preview: previewOf(stored ?? after, yield* areasOf(editor.id), yield* providerActive(editor.id)),
            safe_next_step:
              dry_run === true
                ? dryRunStep
                : changes.length === 0
                  ? "Nothing changed: the service already is so."
                  : after.termsVersion !== before.termsVersion
                    ? appliedStep
                    : after.active
                      ? "The service is active again, under the same terms version: searches on every instance offer it wherever preview.offered_in_searches says so. GET /api/provider/changes lists it."
                      : "The change stands: no search on any instance offers the service from now on, and a confirm of an option searched before is refused (409 provider_unavailable, option_refresh_required). Bookings already made stand. GET /api/provider/changes lists it."
          }
          return response
        })
      )
    })

    const setAreas = Effect.fn("ProviderOffer.setAreas")(function* (editor: OfferEditor, request: AreasRequest) {
      const ranges = mergedRanges(
        request.areas.map((area) =>
          typeof area === "string"
            ? ([postcodeNumber(area), postcodeNumber(area)] as const)
            : ([postcodeNumber(area.from), postcodeNumber(area.to)] as const)
        )
      )
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`SELECT id FROM providers WHERE id = ${editor.id} FOR UPDATE`
          const before = yield* areasOf(editor.id)
          const [was, now] = [before.map(areaOf), ranges.map(areaOf)]
          const changes: Array<FieldChange> =
            JSON.stringify(was) === JSON.stringify(now) ? [] : [{ field: "areas", before: was, after: now }]
          if (request.dry_run !== true && changes.length > 0) {
            const rows = JSON.stringify(ranges.map(([lo, hi]) => ({ lo, hi })))
            yield* sql`DELETE FROM provider_areas WHERE provider_id = ${editor.id}`
            yield* sql`INSERT INTO provider_areas (provider_id, postcodes)
              SELECT ${editor.id}, int4range(lo, hi, '[]') FROM jsonb_to_recordset(${rows}::jsonb) AS x(lo int, hi int)`
            yield* sql`UPDATE providers SET areas_set_by_provider_at = clock_timestamp(), updated_at = now()
              WHERE id = ${editor.id}`
            yield* record(editor, { subject: "areas", serviceId: null, changes, before: null, after: null })
          }
          const active = yield* providerActive(editor.id)
          const offered = active ? (yield* servicesOf(editor.id)).filter((row) => row.active) : []
          const response: AreasResponse = {
            ok: true,
            spec_version: providerSpecVersion,
            dry_run: request.dry_run === true,
            areas: now,
            changes,
            offered_services: offered.map((row) => row.serviceId),
            safe_next_step:
              request.dry_run === true
                ? dryRunStep
                : changes.length === 0
                  ? "Nothing changed: you already serve exactly these postcodes."
                  : "The change stands: every search on every instance offers your active services at exactly these postcodes from now on, and a confirm of an option at a postcode you no longer serve is refused (409 provider_unavailable). Bookings already made stand."
          }
          return response
        })
      )
    })

    const setPolicy = Effect.fn("ProviderOffer.setPolicy")(function* (editor: OfferEditor, request: PolicyRequest) {
      const columns = policyColumns(request.cancellation_policy)
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          const rows = yield* servicesOf(editor.id, request.service_id, true)
          if (request.service_id !== undefined && rows.length === 0) return yield* notFound(request.service_id)
          const results: Array<PolicyResponse["services"][number]> = []
          for (const before of rows) {
            const edited: ServiceRow = {
              ...before,
              freeCancellationHours: columns.free_cancellation_hours,
              lateFeeSek: columns.late_fee_sek,
              changeHours: columns.change_hours
            }
            const after: ServiceRow = { ...edited, termsVersion: termsVersionAfter(before, edited) }
            const changes = fieldChanges(offerServiceOf(before), offerServiceOf(after))
            if (request.dry_run !== true && changes.length > 0) {
              yield* writeService(editor.id, after)
              yield* record(editor, {
                subject: "cancellation_policy",
                serviceId: before.serviceId,
                changes,
                before: before.termsVersion,
                after: after.termsVersion
              })
            }
            results.push({
              service_id: before.serviceId,
              terms_version_before: before.termsVersion,
              terms_version_after: after.termsVersion,
              changes,
              cancellation_policy: request.cancellation_policy
            })
          }
          const response: PolicyResponse = {
            ok: true,
            spec_version: providerSpecVersion,
            dry_run: request.dry_run === true,
            services: results,
            safe_next_step:
              request.dry_run === true
                ? dryRunStep
                : results.every((result) => result.changes.length === 0)
                  ? "Nothing changed: the policy already is so."
                  : appliedStep
          }
          return response
        })
      )
    })

    const changes = Effect.fn("ProviderOffer.changes")(function* (providerId: string, query: ChangesQuery) {
      const { rows, nextCursor } = yield* cursors.page(
        "provider-offer-changes",
        providerId,
        { cursor: query.cursor, limit: query.limit },
        ({ after, limit }) =>
          sql`SELECT id::text, changed_at, changed_by, subject, service_id, changes, terms_version_before,
              terms_version_after, ${positionColumn(sql, "changed_at")}
            FROM provider_offer_changes WHERE provider_id = ${providerId}
              ${keysetAfter(sql, "changed_at", { column: "id", type: "uuid" }, after)}
            ORDER BY changed_at DESC, id DESC LIMIT ${limit + 1}`.pipe(
            rowsOf(ChangeRow),
            Effect.catchTag("SchemaError", Effect.die)
          )
      )
      return {
        ok: true as const,
        spec_version: providerSpecVersion,
        changes: rows.map(
          (row): OfferChange => ({
            id: row.id,
            changed_at: formatStamp(row.changedAt),
            changed_by: row.changedBy,
            subject: row.subject,
            service_id: row.serviceId,
            changes: row.changes,
            terms_version_before: row.termsVersionBefore,
            terms_version_after: row.termsVersionAfter
          })
        ),
        next_cursor: nextCursor
      }
    })

    return {
      services: (providerId: string) => services(providerId).pipe(readUnavailable("the offer", readStep)),
      editService: (editor: OfferEditor, serviceId: string, request: ServiceEditRequest) =>
        editService(editor, serviceId, request).pipe(changeUnavailable("the service change", steps)),
      setAreas: (editor: OfferEditor, request: AreasRequest) =>
        setAreas(editor, request).pipe(changeUnavailable("the areas change", steps)),
      setPolicy: (editor: OfferEditor, request: PolicyRequest) =>
        setPolicy(editor, request).pipe(changeUnavailable("the policy change", steps)),
      changes: (providerId: string, query: ChangesQuery) =>
        changes(providerId, query).pipe(readUnavailable("the change trail", readStep))
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([Catalog.Default, ListCursor.Default]))
}
