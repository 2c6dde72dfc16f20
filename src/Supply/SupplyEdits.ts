import { Effect, Schema } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import { decodedAs, rowsOf } from "../Database/Rows.js"
import { formatStamp } from "../Domain/Zone.js"

const EditedServiceRow = Schema.Struct({
  providerId: Schema.String,
  serviceId: Schema.String,
  editedByProviderAt: Schema.Date
})

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

  /** The operator overwrote what providers set: each provider's trail says so. */
  const overwritten = (edits: Effect.Success<ReturnType<typeof providerEditsOf>>) =>
    Effect.gen(function* () {
      const rows = [
        ...edits.services.map((row) => ({
          provider_id: row.providerId,
          subject: "service",
          service_id: row.serviceId,
          changes: [{ field: "edited_by_provider_at", before: formatStamp(row.editedByProviderAt), after: null }]
        })),
        ...edits.areas.map((id) => ({
          provider_id: id,
          subject: "areas",
          service_id: null,
          changes: [{ field: "areas_set_by_provider", before: true, after: false }]
        }))
      ]
      if (rows.length === 0) return
      yield* sql`UPDATE providers SET areas_set_by_provider_at = NULL WHERE id = ANY(${edits.areas})`
      yield* sql`
      INSERT INTO provider_offer_changes (id, provider_id, changed_at, changed_by, subject, service_id, changes)
      SELECT gen_random_uuid(), provider_id, now(), 'import', subject, service_id, changes
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(provider_id text, subject text, service_id text, changes jsonb)`
    })
  return { providerEditsOf, overwritten } as const
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
