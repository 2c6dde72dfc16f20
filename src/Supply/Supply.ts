import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { Context, Effect, Layer, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { AppConfig } from "../AppConfig.js"
import { Catalog } from "../Catalog/Catalog.js"
import { rowsOf } from "../Database/Rows.js"
import { decodedOnce } from "../Database/StoredJson.js"
import { policyOfSupply } from "../Domain/CancellationPolicy.js"
import { VerticalId } from "../Domain/Catalog.js"
import { consumerInformationId, supplyTermsVersion } from "../Domain/ConsumerInformation.js"
import { CurrentOffer, postcodeNumber } from "../Domain/Supply.js"
import { columnsOf, serviceRowOf } from "./OfferRows.js"
import { InvalidSupply, validateSupply } from "./SupplyCheck.js"
import { importChanges, providerEdits, type StoredService } from "./SupplyEdits.js"

export { InvalidSupply } from "./SupplyCheck.js"

import { consumerTermsOf, policyChangeProblems } from "./SupplyTerms.js"

const keyOf = (row: { readonly providerId: string; readonly serviceId: string }) => `${row.providerId}/${row.serviceId}`

/** Each distinct current-offer text decoded once (see decodedOnce): confirms of one service repeat it. */
const currentOfferOf = decodedOnce(CurrentOffer)
const decodeHeld = Schema.decodeUnknownSync(CurrentOffer)

/** Confirm's question: one provider's service as it is now, at the option's postcode (and destination). */
const OfferQuery = Schema.Struct({
  providerId: Schema.String,
  serviceId: Schema.String,
  postcode: Schema.Number,
  destinationPostcode: Schema.UndefinedOr(Schema.Number)
})

export const demoSupplyPath = fileURLToPath(new URL("../../supply/demo.json", import.meta.url))

/**
 * Providers, the postcodes they serve, their fixed-price services and working hours. Built with
 * the demo supply already imported when DEMO_SUPPLY asks, so whatever reads supply sees it.
 */
const ServiceCountRow = Schema.Struct({ verticalId: VerticalId, services: Schema.Int })

const ServiceTermsRow = Schema.Struct({
  providerId: Schema.String,
  serviceId: Schema.String,
  termsVersion: Schema.String
})

const CandidateProviderRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  notifyEmail: Schema.NullOr(Schema.String),
  notifyWebhookUrl: Schema.NullOr(Schema.String),
  directBooking: Schema.Boolean
})

export class Supply extends Context.Service<Supply>()("Booking/Supply", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const catalog = yield* Catalog
    const config = yield* AppConfig

    /** Distinct fixed-price services per vertical that an active provider offers. */
    const fixedPriceServiceCounts = Effect.fn("Supply.fixedPriceServiceCounts")(function* () {
      const rows = yield* sql`
        SELECT s.vertical_id, count(DISTINCT s.service_id)::int AS services
        FROM provider_services s JOIN providers p ON p.id = s.provider_id
        WHERE s.active AND p.active
        GROUP BY s.vertical_id`.pipe(rowsOf(ServiceCountRow))
      return new Map(rows.map((row) => [row.verticalId, row.services]))
    })

    const validate = (input: unknown) => validateSupply(catalog, input)

    /**
     * Upserts the file's providers in one transaction with a fixed number of statements.
     * A provider's areas and hours become exactly the file's; services missing from the file
     * are deactivated, never deleted, because bookings keep referring to them.
     */
    const importFile = Effect.fn("Supply.importFile")(function* (
      input: unknown,
      options: { readonly overwriteProviderEdits?: boolean } = {}
    ) {
      const file = yield* validate(input)
      const overwrite = options.overwriteProviderEdits === true
      // Every service's terms carry the consumer information of its provider, and their version its fingerprint.
      const { informationOf, versionOf } = consumerTermsOf(file, config.publicBaseUrl)
      const providers = file.providers.map((p) => ({
        id: p.id,
        name: p.name,
        organisation_number: p.organisation_number,
        contact_email: p.contact.email,
        contact_phone: p.contact.phone,
        contact_address: p.contact.address,
        city: p.city,
        rating_label: p.rating_label ?? null,
        active: p.active,
        notify_email: p.notify.email ?? null,
        notify_webhook_url: p.notify.webhook_url ?? null,
        notify_webhook_secret: p.notify.webhook_secret ?? null
      }))
      const areas = file.providers.flatMap((p) =>
        p.areas.map((a) => ({ provider_id: p.id, lo: postcodeNumber(a.from), hi: postcodeNumber(a.to) }))
      )
      const hours = file.providers.flatMap((p) => p.working_hours.map((h) => ({ provider_id: p.id, ...h })))
      const allServices = file.providers.flatMap((p) =>
        p.services.map(
          (s): StoredService => ({
            providerId: p.id,
            ...serviceRowOf(s.service_id, s, {
              termsVersion: versionOf(p, s),
              termsSections: [
                ...s.terms.sections.filter((section) => section.id !== consumerInformationId),
                informationOf.get(p.id)!
              ],
              policy: policyOfSupply(s.cancellation_policy ?? p.cancellation_policy),
              editedByProviderAt: null
            })
          })
        )
      )
      const ids = providers.map((p) => p.id)
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          // The provider's own edits win: what it set through its token stays unless the operator overwrites it on purpose.
          const edits = yield* providerEditsOf(ids)
          const kept = overwrite ? [] : edits.services
          const keptKeys = new Set(kept.map((row) => `${row.providerId}/${row.serviceId}`))
          const written = allServices.filter((s) => !keptKeys.has(`${s.providerId}/${s.serviceId}`))
          const services = written.map(columnsOf)
          const keptAreas = overwrite ? [] : edits.areas

          // An option states its deduction under a terms version, and confirm revalidates that
          // version only: a declaration that changes under an unchanged version would let a
          // confirmation state other figures than the option did.
          const unversioned = yield* sql`
            SELECT s.provider_id, s.service_id, s.terms_version
            FROM provider_services s
            JOIN jsonb_to_recordset(${JSON.stringify(services)}::jsonb)
              AS x(provider_id text, service_id text, terms_version text, tax_deduction jsonb)
              ON x.provider_id = s.provider_id AND x.service_id = s.service_id
            WHERE x.terms_version = s.terms_version AND x.tax_deduction IS DISTINCT FROM s.tax_deduction
            ORDER BY s.provider_id, s.service_id`.pipe(rowsOf(ServiceTermsRow))
          if (unversioned.length > 0)
            return yield* new InvalidSupply({
              problems: unversioned.map(
                (row) =>
                  `${row.providerId}/${row.serviceId}: tax_deduction changed but terms.version is still ${supplyTermsVersion(row.termsVersion)}: give the terms a new version, so options already shown are refreshed`
              )
            })
          // A policy is part of the terms: the same terms version must keep meaning the same policy,
          // so a confirm's revalidation of the version also holds for the policy.
          const offers = yield* offersOf(ids)
          const policyProblems = policyChangeProblems(
            file,
            versionOf,
            offers.services.filter((row) => !keptKeys.has(keyOf(row)))
          )
          if (policyProblems.length > 0) return yield* new InvalidSupply({ problems: policyProblems })
          yield* sql`
            INSERT INTO providers (id, name, organisation_number, contact_email, contact_phone, contact_address, city,
              rating_label, active, notify_email, notify_webhook_url, notify_webhook_secret)
            SELECT id, name, organisation_number, contact_email, contact_phone, contact_address, city, rating_label,
              active, notify_email, notify_webhook_url, notify_webhook_secret
            FROM jsonb_to_recordset(${JSON.stringify(providers)}::jsonb) AS x(
              id text, name text, organisation_number text, contact_email text, contact_phone text,
              contact_address text, city text, rating_label text, active boolean,
              notify_email text, notify_webhook_url text, notify_webhook_secret text)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, organisation_number = excluded.organisation_number,
              contact_email = excluded.contact_email, contact_phone = excluded.contact_phone,
              contact_address = excluded.contact_address, city = excluded.city,
              rating_label = excluded.rating_label, active = excluded.active, notify_email = excluded.notify_email,
              notify_webhook_url = excluded.notify_webhook_url, notify_webhook_secret = excluded.notify_webhook_secret,
              updated_at = now()`
          const areaIds = ids.filter((id) => !keptAreas.includes(id))
          const writtenKeys = new Set(written.map(keyOf))
          yield* recordImport(
            importChanges({
              stored: offers.services,
              written,
              deactivates: (row) => !writtenKeys.has(keyOf(row)) && (overwrite || row.editedByProviderAt === null),
              areas: areaIds.map((id) => ({
                providerId: id,
                before: offers.areas.filter((a) => a.providerId === id).map((a) => [a.lo, a.hi] as const),
                after: areas.filter((a) => a.provider_id === id).map((a) => [a.lo, a.hi] as const)
              })),
              overwrittenAreas: overwrite ? edits.areas : []
            })
          )
          yield* sql`DELETE FROM provider_areas WHERE provider_id = ANY(${areaIds})`
          yield* sql`
            INSERT INTO provider_areas (provider_id, postcodes)
            SELECT provider_id, int4range(lo, hi, '[]')
            FROM jsonb_to_recordset(${JSON.stringify(areas.filter((a) => areaIds.includes(a.provider_id)))}::jsonb)
              AS x(provider_id text, lo int, hi int)
            ON CONFLICT DO NOTHING`
          // A provider that set its own hours (PUT /api/provider/working-hours) keeps them.
          yield* sql`DELETE FROM provider_working_hours h USING providers p
            WHERE h.provider_id = ANY(${ids}) AND p.id = h.provider_id AND p.hours_set_by_provider_at IS NULL`
          yield* sql`
            INSERT INTO provider_working_hours (provider_id, iso_weekday, opens, closes)
            SELECT provider_id, iso_weekday, opens::time, closes::time
            FROM jsonb_to_recordset(${JSON.stringify(hours)}::jsonb) AS x(provider_id text, iso_weekday int, opens text, closes text)
            WHERE provider_id IN (SELECT id FROM providers WHERE hours_set_by_provider_at IS NULL)`
          yield* sql`
            UPDATE provider_services SET active = false, edited_by_provider_at = NULL, updated_at = now()
            WHERE provider_id = ANY(${ids}) AND (${overwrite} OR edited_by_provider_at IS NULL)
              AND (provider_id, service_id) NOT IN (
              SELECT provider_id, service_id FROM jsonb_to_recordset(${JSON.stringify(services)}::jsonb)
                AS x(provider_id text, service_id text))`
          yield* sql`
            INSERT INTO provider_services (provider_id, service_id, vertical_id, job_type_id, label_sv, label_en,
              pricing_model, price_type, amount_sek, unit_price_sek, unit, duration_minutes, scope,
              terms_version, terms_url, terms_sections, terms_source_urls, tax_deduction, active, free_cancellation_hours,
              late_fee_sek, change_hours)
            SELECT provider_id, service_id, vertical_id, job_type_id, label_sv, label_en, pricing_model, price_type,
              amount_sek, unit_price_sek, unit, duration_minutes, scope, terms_version, terms_url, terms_sections,
              terms_source_urls, tax_deduction, active, free_cancellation_hours, late_fee_sek, change_hours
            FROM jsonb_to_recordset(${JSON.stringify(services)}::jsonb) AS x(provider_id text, service_id text,
              vertical_id text, job_type_id text, label_sv text, label_en text, pricing_model text, price_type text,
              amount_sek int, unit_price_sek int, unit text, duration_minutes int, scope jsonb, terms_version text,
              terms_url text, terms_sections jsonb, terms_source_urls jsonb, tax_deduction jsonb, active boolean,
              free_cancellation_hours int, late_fee_sek int, change_hours int)
            ON CONFLICT (provider_id, service_id) DO UPDATE SET vertical_id = excluded.vertical_id,
              job_type_id = excluded.job_type_id, label_sv = excluded.label_sv, label_en = excluded.label_en,
              pricing_model = excluded.pricing_model, price_type = excluded.price_type, amount_sek = excluded.amount_sek,
              unit_price_sek = excluded.unit_price_sek, unit = excluded.unit, duration_minutes = excluded.duration_minutes,
              scope = excluded.scope, terms_version = excluded.terms_version, terms_url = excluded.terms_url,
              terms_sections = excluded.terms_sections, terms_source_urls = excluded.terms_source_urls,
              tax_deduction = excluded.tax_deduction, active = excluded.active,
              free_cancellation_hours = excluded.free_cancellation_hours,
              late_fee_sek = excluded.late_fee_sek, change_hours = excluded.change_hours,
              edited_by_provider_at = NULL, updated_at = now()`
          if (overwrite) yield* releaseAreas(edits.areas)
          return {
            providers: providers.length,
            services: services.length,
            keptProviderEdits: [
              ...kept.map((row) => `${row.providerId}/${row.serviceId}`),
              ...keptAreas.map((id) => `${id} areas`)
            ]
          }
        })
      )
    })

    const { providerEditsOf, offersOf, recordImport, releaseAreas } = providerEdits(sql)

    /** SQL value: the cancellation policy of service `s`, keyed as `CancellationPolicySchema`. */
    const cancellationPolicyOfS = sql.literal(`json_build_object('freeCancellationHours', s.free_cancellation_hours,
      'lateFeeSek', s.late_fee_sek, 'changeHours', s.change_hours)`)

    /** SQL condition: provider `p` serves the postcode (a null postcode is served by no one). */
    const servesPostcodeOfP = (postcode: number | null) =>
      sql`EXISTS (SELECT 1 FROM provider_areas a WHERE a.provider_id = p.id AND a.postcodes @> ${postcode}::int)`

    /** SQL condition: provider `p` serves the destination, or there is none. */
    const servesDestinationOfP = (postcode: number | undefined) =>
      sql`(${postcode ?? null}::int IS NULL OR ${servesPostcodeOfP(postcode ?? null)})`

    /** SQL value: the working hours of provider `p`, as the slot rules read them. */
    const workingHoursOfP = sql.literal(`coalesce((
      SELECT json_agg(json_build_object('isoWeekday', h.iso_weekday,
        'opens', to_char(h.opens, 'HH24:MI'), 'closes', to_char(h.closes, 'HH24:MI')))
      FROM provider_working_hours h WHERE h.provider_id = p.id), '[]')`)

    /** The statement of `currentOffer`, for a confirm to read it with the partner's hold in one round trip. */
    const currentOfferStatement = (input: typeof OfferQuery.Type) =>
      sql<{ readonly offer: string }>`
        SELECT json_build_object('providerActive', p.active, 'providerName', p.name,
          'notifyEmail', p.notify_email, 'notifyWebhookUrl', p.notify_webhook_url,
          'serviceActive', s.active, 'labelSv', s.label_sv, 'labelEn', s.label_en,
          'pricingModel', s.pricing_model, 'priceType', s.price_type, 'amountSek', s.amount_sek,
          'unitPriceSek', s.unit_price_sek, 'unit', s.unit, 'durationMinutes', s.duration_minutes,
          'scope', s.scope, 'termsVersion', s.terms_version, 'termsUrl', s.terms_url,
          'taxDeduction', s.tax_deduction,
          'servesPostcode', ${servesPostcodeOfP(input.postcode)},
          'servesDestination', ${servesDestinationOfP(input.destinationPostcode)},
          'hours', ${workingHoursOfP},
          'cancellationPolicy', CASE WHEN s.service_id IS NULL THEN NULL ELSE ${cancellationPolicyOfS} END,
          'consumerInformation', (SELECT x FROM jsonb_array_elements(s.terms_sections) x
            WHERE x->>'id' = ${consumerInformationId} LIMIT 1))::text AS offer
        FROM providers p
        LEFT JOIN provider_services s ON s.provider_id = p.id AND s.service_id = ${input.serviceId}
        WHERE p.id = ${input.providerId}`

    /**
     * The provider and service as they are now, for confirm to compare with the signed option;
     * undefined when there is no such provider. The row is one JSON text keyed as `CurrentOffer`
     * is and in its order, so each distinct text is decoded once (currentOfferOf); a stored row
     * that does not decode is a bug or a damaged table, and its ParseError, thrown here, a defect.
     * Straight on the pool, as the search's availability read: every confirm runs it.
     */
    const currentOffer = (input: typeof OfferQuery.Type): Effect.Effect<CurrentOffer | undefined, SqlError> =>
      Effect.map(currentOfferStatement(input), (rows) =>
        rows[0] === undefined ? undefined : currentOfferOf(rows[0].offer)
      )

    /**
     * The offer as it was under the option's terms version, for a confirm through a live hold: what
     * the service offered then (kept by the database when the version changed), with whether it is
     * offered here now. The current offer when that version was never left.
     */
    const heldTerms = (
      option: { readonly providerId: string; readonly serviceId: string; readonly termsVersion: string },
      current: CurrentOffer
    ): Effect.Effect<CurrentOffer, SqlError> =>
      Effect.map(
        sql<{ readonly offer: unknown }>`SELECT offer FROM provider_service_versions
          WHERE provider_id = ${option.providerId} AND service_id = ${option.serviceId}
            AND terms_version = ${option.termsVersion}`,
        (rows) =>
          rows[0] === undefined
            ? current
            : decodeHeld({ ...current, ...(rows[0].offer as object), termsVersion: option.termsVersion })
      )

    /**
     * Providers that serve the postcode in the vertical, those offering the job type at a fixed
     * price first; the hand-off of a follow-up request goes to these.
     */
    const candidates = Effect.fn("Supply.candidates")(function* (input: {
      readonly verticalId: string
      readonly jobTypeId: string
      readonly postcode: number
      readonly limit: number
    }) {
      return yield* sql`
        SELECT p.id, p.name, p.notify_email, p.notify_webhook_url, bool_or(s.job_type_id = ${input.jobTypeId}) AS direct_booking
        FROM providers p
        JOIN provider_services s ON s.provider_id = p.id AND s.active AND s.vertical_id = ${input.verticalId}
        WHERE p.active AND ${servesPostcodeOfP(input.postcode)}
        GROUP BY p.id
        ORDER BY direct_booking DESC, p.id
        LIMIT ${input.limit}`.pipe(rowsOf(CandidateProviderRow))
    })

    // Development starts with the demo supply (an ordinary supply file); production never does.
    if (config.demoSupply) {
      const file = yield* Effect.promise(() => readFile(demoSupplyPath, "utf8").then(JSON.parse))
      const imported = yield* importFile(file).pipe(Effect.orDie)
      yield* Effect.logInfo(`demo supply loaded: ${imported.providers} providers, ${imported.services} services`)
      const demoProvider = (file as { providers: ReadonlyArray<{ id: string }> }).providers[0]?.id
      if (demoProvider !== undefined) {
        yield* Effect.logInfo(
          `provider API: get a demo provider's token with \`npm run provider -- token:issue ${demoProvider}\`, then call /api/provider/bookings with it (docs/providers.md)`
        )
      }
    }

    return {
      fixedPriceServiceCounts,
      validate,
      importFile,
      candidates,
      currentOffer,
      currentOfferStatement,
      currentOfferOf,
      heldTerms,
      servesPostcodeOfP,
      servesDestinationOfP,
      workingHoursOfP,
      cancellationPolicyOfS
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([Catalog.Default]))

  /** For the import tool and tests that write a supply of their own: never the demo supply. */
  static readonly WithoutDemo = Supply.Default.pipe(
    Layer.provide(
      Layer.effect(
        AppConfig,
        Effect.map(AppConfig, (config: AppConfig["Service"]) => AppConfig.of({ ...config, demoSupply: false }))
      )
    )
  )
}
