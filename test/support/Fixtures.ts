import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The one place a test writes to the app's tables: the states no endpoint reaches on purpose (a
 * provider's price changed after a search, a webhook failing for days, a row damaged on disk).
 * Tests set up everything else through the API or the owning service (`Supply.importFile`,
 * `Partners.create`), and read what they like. Each write names the state it makes, not its SQL.
 */
const write = <A>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.flatMap(SqlClient.SqlClient, statement).pipe(Effect.orDie)

interface Offer {
  readonly providerId: string
  readonly serviceId: string
}

/** Supply (owner: src/Supply): what a provider changes between a search and its confirm. */
export const supplyDrift = {
  shiftPrice: ({ providerId, serviceId }: Offer, bySek: number) =>
    write(
      (sql) =>
        sql`UPDATE provider_services SET amount_sek = amount_sek + ${bySek} WHERE provider_id = ${providerId} AND service_id = ${serviceId}`
    ),
  setPrice: (providerId: string, amountSek: number) =>
    write((sql) => sql`UPDATE provider_services SET amount_sek = ${amountSek} WHERE provider_id = ${providerId}`),
  setTermsVersion: ({ providerId, serviceId }: Offer, version: string) =>
    write(
      (sql) =>
        sql`UPDATE provider_services SET terms_version = ${version} WHERE provider_id = ${providerId} AND service_id = ${serviceId}`
    ),
  setProviderActive: (providerId: string, active: boolean) =>
    write((sql) => sql`UPDATE providers SET active = ${active} WHERE id = ${providerId}`),
  setServiceActive: (offer: Offer | { readonly providerId: string }, active: boolean) =>
    write((sql) =>
      "serviceId" in offer
        ? sql`UPDATE provider_services SET active = ${active} WHERE provider_id = ${offer.providerId} AND service_id = ${offer.serviceId}`
        : sql`UPDATE provider_services SET active = ${active} WHERE provider_id = ${offer.providerId}`
    ),
  clearRatingLabel: (providerId: string) =>
    write((sql) => sql`UPDATE providers SET rating_label = NULL WHERE id = ${providerId}`),
  /** Removes the provider's areas and returns them, for `restoreAreas`. */
  removeAreas: (providerId: string) =>
    write(
      (sql) => sql<{ providerId: string; postcodes: string }>`
        DELETE FROM provider_areas WHERE provider_id = ${providerId} RETURNING provider_id, postcodes::text`
    ),
  restoreAreas: (areas: ReadonlyArray<{ readonly providerId: string; readonly postcodes: string }>) =>
    write((sql) =>
      Effect.forEach(
        areas,
        (a) =>
          sql`INSERT INTO provider_areas (provider_id, postcodes) VALUES (${a.providerId}, ${a.postcodes}::int4range)`
      )
    ),
  setHours: (providerId: string, opens: string, closes: string) =>
    write(
      (sql) =>
        sql`UPDATE provider_working_hours SET opens = ${opens}, closes = ${closes} WHERE provider_id = ${providerId}`
    ),
  /** A stored value the service's schema refuses: what a bad migration or hand edit would leave. */
  damagePricingModel: (providerId: string) =>
    write((sql) => sql`UPDATE provider_services SET pricing_model = 'by_mood' WHERE provider_id = ${providerId}`)
}

/** The providers' notification channels (owner: src/Supply), all providers unless one is named. */
export const setProviderChannels = (channels: {
  readonly webhookUrl: string
  readonly webhookSecret: string
  readonly email?: string
  readonly providerId?: string
}) =>
  write((sql) =>
    channels.providerId === undefined
      ? sql`UPDATE providers SET notify_webhook_url = ${channels.webhookUrl},
          notify_webhook_secret = ${channels.webhookSecret}, notify_email = coalesce(${channels.email ?? null}, notify_email)`
      : sql`UPDATE providers SET notify_webhook_url = ${channels.webhookUrl},
          notify_webhook_secret = ${channels.webhookSecret}, notify_email = coalesce(${channels.email ?? null}, notify_email)
          WHERE id = ${channels.providerId}`
  )

/** A slot taken in the no-overlap calendar (owner: src/Shared/Calendar) without a booking behind it. */
export const takeSlot = (providerId: string, serviceId: string, startAt: string, endAt: string) =>
  write(
    (sql) => sql`INSERT INTO calendar_bookings (id, provider_id, service_id, during)
      VALUES (gen_random_uuid(), ${providerId}, ${serviceId}, tstzrange(${startAt}::timestamptz, ${endAt}::timestamptz))`
  )

export const freeSlots = (providerId: string) =>
  write((sql) => sql`DELETE FROM calendar_bookings WHERE provider_id = ${providerId}`)

/** An empty calendar: no bookings, their slots, their outbox, and (with `keys`) no idempotency keys. */
export const clearBookings = (options: { readonly keys: boolean }) =>
  write((sql) =>
    Effect.gen(function* () {
      yield* sql`DELETE FROM notification_outbox`
      yield* sql`DELETE FROM booking_changes`
      yield* sql`DELETE FROM bookings`
      yield* sql`DELETE FROM booking_holds`
      yield* sql`DELETE FROM calendar_bookings`
      if (options.keys) yield* sql`DELETE FROM idempotency_keys`
    })
  )

/** Webhook endpoints (owner: src/Webhooks): time passing, and a name that now resolves elsewhere. */
export const webhookDrift = {
  failingSinceEarlier: (webhookId: string, days: number) =>
    write(
      (sql) =>
        sql`UPDATE webhook_endpoints SET failing_since = failing_since - make_interval(days => ${days}) WHERE id = ${webhookId}`
    ),
  setUrl: (webhookId: string, url: string) =>
    write((sql) => sql`UPDATE webhook_endpoints SET url = ${url} WHERE id = ${webhookId}`)
}

/** The outbox (owner: src/Notifications): a customer message whose give-up time has come. */
export const giveUpCustomerMessageNow = (bookingId: string) =>
  write(
    (sql) => sql`UPDATE notification_outbox SET give_up_at = created_at, next_attempt_at = created_at
      WHERE subject_id = ${bookingId} AND recipient_role = 'customer'`
  )

/** MCP sessions (owner: src/Mcp): none left from an earlier test. */
export const clearMcpSessions = write((sql) => sql`DELETE FROM mcp_sessions`)

/**
 * Bookings (owner: src/Bookings): `count` more bookings of the partner that made `templateId`,
 * each a copy of it with its own id, request id and slot (day i after the template's), last
 * changed `changedAt(i)`; too many to confirm one by one in a test. Every column is copied from
 * a real confirm, so each copy is a row the service itself could have written.
 */
export const copyBooking = (templateId: string, count: number, changedAt: (i: number) => Date) =>
  write((sql) =>
    Effect.gen(function* () {
      const copies = JSON.stringify(
        Array.from({ length: count }, (_, n) => ({ i: n + 1, updated_at: changedAt(n + 1).toISOString() }))
      )
      const ids = yield* sql<{ id: string }>`
        WITH n AS (
          SELECT x.i, x.updated_at, gen_random_uuid() AS id
          FROM jsonb_to_recordset(${copies}::jsonb) AS x(i int, updated_at timestamptz)
        ), slots AS (
          INSERT INTO calendar_bookings
          SELECT (jsonb_populate_record(c, jsonb_build_object('id', n.id, 'booking_id', n.id,
            'during', tstzrange(lower(c.during) + n.i * interval '1 day', upper(c.during) + n.i * interval '1 day', '[)')))).*
          FROM calendar_bookings c, n WHERE c.id = ${templateId}::uuid
          RETURNING id
        )
        SELECT n.id::text AS id FROM n JOIN slots USING (id) ORDER BY n.i`
      yield* sql`
        WITH n AS (
          SELECT x.i, x.updated_at, c.id, lower(c.during) AS slot_start, upper(c.during) AS slot_end
          FROM jsonb_to_recordset(${copies}::jsonb) AS x(i int, updated_at timestamptz)
          JOIN LATERAL (SELECT ${JSON.stringify(ids.map((row) => row.id))}::jsonb ->> (x.i - 1) AS id) k ON true
          JOIN calendar_bookings c ON c.id = k.id::uuid
        )
        INSERT INTO bookings
        SELECT (jsonb_populate_record(b, jsonb_build_object('id', n.id, 'request_id', b.request_id || '-copy-' || n.i,
          'slot_start', n.slot_start, 'slot_end', n.slot_end, 'updated_at', n.updated_at, 'notice_subject_id', NULL))).*
        FROM bookings b, n WHERE b.id = ${templateId}::uuid`
      return ids.map((row) => row.id)
    })
  )

/** Busy times (owner: src/Providers): an import from the provider's own calendar marks a time busy. */
export const importedBusyTime = (providerId: string, start: string, end: string) =>
  write(
    (sql) =>
      sql`INSERT INTO provider_busy_times (provider_id, during) VALUES (${providerId}, tstzrange(${new Date(start)}, ${new Date(end)}, '[)'))`
  )
