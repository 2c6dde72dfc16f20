import { Effect, Schema } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import { decodedAs, rowsOf } from "../Database/Rows.js"
import type { FieldChange } from "../Domain/Offer.js"
import { formatStamp } from "../Domain/Zone.js"
import { areaOf, fieldChanges, mergedRanges, offerServiceOf, ServiceRow, serviceColumns } from "./OfferRows.js"

const EditedServiceRow = Schema.Struct({
  providerId: Schema.String,
  serviceId: Schema.String,
  editedByProviderAt: Schema.Date
})

/** A provider's service as the table holds it, with its provider. */
export const StoredService = Schema.Struct({ providerId: Schema.String, ...ServiceRow.fields })
export type StoredService = typeof StoredService.Type

const StoredArea = Schema.Struct({ providerId: Schema.String, lo: Schema.Int, hi: Schema.Int })

type Ranges = ReadonlyArray<readonly [number, number]>

const keyOf = (row: { readonly providerId: string; readonly serviceId: string }) => `${row.providerId}/${row.serviceId}`

/** A change that touches nothing an option states but the policy (and so its terms version) is the policy's. */
const subjectOf = (changes: ReadonlyArray<FieldChange>) =>
  changes.every((change) => change.field.startsWith("cancellation_policy.") || change.field === "terms.version") &&
  changes.some((change) => change.field.startsWith("cancellation_policy."))
    ? "cancellation_policy"
    : "service"

/**
 * What an import changes in the offer, as the provider's trail holds it: each service it creates,
 * changes or deactivates and each provider's postcodes it replaces, field by field under the
 * names the provider API gives them, with the values before and after. Nothing that stays as it
 * was is on it, so an unchanged import records nothing.
 */
export const importChanges = (input: {
  /** The services of the file's providers as they stand before the import. */
  readonly stored: ReadonlyArray<StoredService>
  /** The rows the import writes. */
  readonly written: ReadonlyArray<StoredService>
  /** Whether the import deactivates a stored service missing from `written`. */
  readonly deactivates: (row: StoredService) => boolean
  /** The postcodes of each provider whose postcodes the import replaces, before and after. */
  readonly areas: ReadonlyArray<{ readonly providerId: string; readonly before: Ranges; readonly after: Ranges }>
  /** Providers whose own postcodes the import overwrites. */
  readonly overwrittenAreas: ReadonlyArray<string>
}) => {
  const stored = new Map(input.stored.map((row) => [keyOf(row), row]))
  const written = new Map(input.written.map((row) => [keyOf(row), row]))
  const services = [...new Set([...stored.keys(), ...written.keys()])].flatMap((key) => {
    const before = stored.get(key)
    const after =
      written.get(key) ??
      (before !== undefined && input.deactivates(before)
        ? { ...before, active: false, editedByProviderAt: null }
        : before!)
    const changes = fieldChanges(before === undefined ? undefined : offerServiceOf(before), offerServiceOf(after))
    if (before?.editedByProviderAt != null && after.editedByProviderAt === null)
      changes.push({ field: "edited_by_provider_at", before: formatStamp(before.editedByProviderAt), after: null })
    return changes.length === 0
      ? []
      : [
          {
            provider_id: after.providerId,
            subject: subjectOf(changes),
            service_id: after.serviceId,
            changes,
            terms_version_before: before?.termsVersion ?? null,
            terms_version_after: after.termsVersion
          }
        ]
  })
  const areas = input.areas.flatMap(({ providerId, before, after }) => {
    const [was, now] = [mergedRanges(before).map(areaOf), mergedRanges(after).map(areaOf)]
    const changes: Array<FieldChange> = [
      ...(JSON.stringify(was) === JSON.stringify(now) ? [] : [{ field: "areas", before: was, after: now }]),
      ...(input.overwrittenAreas.includes(providerId)
        ? [{ field: "areas_set_by_provider", before: true, after: false }]
        : [])
    ]
    return changes.length === 0
      ? []
      : [
          {
            provider_id: providerId,
            subject: "areas",
            service_id: null,
            changes,
            terms_version_before: null,
            terms_version_after: null
          }
        ]
  })
  return [...services, ...areas]
}

/** What providers set through their token, for the import to leave alone, or to overwrite on purpose. */
export const providerEdits = (sql: SqlClient.SqlClient) => {
  /** What providers among `ids` set themselves: services they edited, and their postcodes. */
  const providerEditsOf = (ids: ReadonlyArray<string>) =>
    Effect.all({
      services: sql`SELECT provider_id, service_id, edited_by_provider_at FROM provider_services
      WHERE provider_id = ANY(${ids}) AND edited_by_provider_at IS NOT NULL
      ORDER BY provider_id, service_id`.pipe(rowsOf(EditedServiceRow)),
      areas: Effect.map(
        sql<{ readonly id: string }>`SELECT id FROM providers
        WHERE id = ANY(${ids}) AND areas_set_by_provider_at IS NOT NULL ORDER BY id`,
        (rows) => rows.map((row) => row.id)
      )
    })

  /** The services and postcodes of providers among `ids` as they stand, the services locked for the import. */
  const offersOf = (ids: ReadonlyArray<string>) =>
    Effect.all({
      services: sql`SELECT s.provider_id, ${sql.literal(serviceColumns)} FROM provider_services s
        WHERE s.provider_id = ANY(${ids}) ORDER BY s.provider_id, s.service_id FOR UPDATE`.pipe(rowsOf(StoredService)),
      areas: sql`SELECT provider_id, lower(postcodes) AS lo, upper(postcodes) - 1 AS hi FROM provider_areas
        WHERE provider_id = ANY(${ids}) ORDER BY provider_id, lower(postcodes)`.pipe(rowsOf(StoredArea))
    })

  /** The import's changes (importChanges) on each provider's trail, by `import`. */
  const recordImport = (changes: ReturnType<typeof importChanges>) =>
    changes.length === 0
      ? Effect.void
      : Effect.asVoid(sql`
      INSERT INTO provider_offer_changes (id, provider_id, changed_at, changed_by, subject, service_id, changes,
        terms_version_before, terms_version_after)
      SELECT gen_random_uuid(), provider_id, now(), 'import', subject, service_id, changes, terms_version_before,
        terms_version_after
      FROM jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) AS x(provider_id text, subject text,
        service_id text, changes jsonb, terms_version_before text, terms_version_after text)`)

  /** The operator overwrote the postcodes providers set: the import owns them again. */
  const releaseAreas = (ids: ReadonlyArray<string>) =>
    ids.length === 0
      ? Effect.void
      : Effect.asVoid(sql`UPDATE providers SET areas_set_by_provider_at = NULL WHERE id = ANY(${ids})`)
  return { providerEditsOf, offersOf, recordImport, releaseAreas } as const
}

const HoursRow = Schema.Struct({ isoWeekday: Schema.Int, opens: Schema.String, closes: Schema.String })
const DateOffRow = Schema.Struct({ date: Schema.String })

/** A provider's own weekly hours and dates off (Europe/Stockholm), which the import then leaves alone. */
export const providerHours = (sql: SqlClient.SqlClient) => {
  const read = (providerId: string) =>
    Effect.all({
      hours: sql`
        SELECT iso_weekday, to_char(opens, 'HH24:MI') AS opens, to_char(closes, 'HH24:MI') AS closes
        FROM provider_working_hours WHERE provider_id = ${providerId} ORDER BY iso_weekday, opens`.pipe(
        decodedAs(HoursRow)
      ),
      off: sql`
        SELECT to_char(date, 'YYYY-MM-DD') AS date FROM provider_dates_off
        WHERE provider_id = ${providerId} ORDER BY date`.pipe(decodedAs(DateOffRow))
    })

  /** Replaces them in one transaction and marks them the provider's. */
  const set = (
    providerId: string,
    weeklyHours: ReadonlyArray<{ readonly iso_weekday: number; readonly opens: string; readonly closes: string }>,
    datesOff: ReadonlyArray<string>,
    at: Date
  ) =>
    sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`UPDATE providers SET hours_set_by_provider_at = ${at} WHERE id = ${providerId}`
        yield* sql`DELETE FROM provider_working_hours WHERE provider_id = ${providerId}`
        yield* sql`
          INSERT INTO provider_working_hours (provider_id, iso_weekday, opens, closes)
          SELECT ${providerId}, iso_weekday, opens::time, closes::time
          FROM jsonb_to_recordset(${JSON.stringify(weeklyHours)}::jsonb) AS x(iso_weekday int, opens text, closes text)`
        yield* sql`DELETE FROM provider_dates_off WHERE provider_id = ${providerId}`
        yield* sql`
          INSERT INTO provider_dates_off (provider_id, date)
          SELECT ${providerId}, d::date FROM unnest(${datesOff}::text[]) AS d`
      })
    )
  return { read, set } as const
}
