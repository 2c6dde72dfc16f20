import { Context, Effect, Layer, Option, Random, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import { keysetAfter, positionColumn } from "../Database/Keyset.js"
import { rowsOf } from "../Database/Rows.js"
import type { PagePosition } from "../Domain/ListPage.js"
import type { Partner } from "../Domain/Partner.js"
import { maxWebhooksPerPartner, WebhookEventType } from "../Domain/Webhook.js"
import { eventBody, type WebhookEvent } from "../Domain/WebhookEvents.js"
import { currentTraceparent } from "../Tracing/Tracing.js"
import { nextAttempt, shouldDisableEndpoint } from "./Schedule.js"
import type { AttemptResult } from "./Send.js"

const EndpointStatus = Schema.Literals(["enabled", "disabled"])

export const EndpointRow = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  status: EndpointStatus,
  disabledReason: Schema.NullOr(Schema.Literals(["gone", "failing"])),
  failingSince: Schema.NullOr(Schema.Date),
  previousSecretUntil: Schema.NullOr(Schema.Date),
  sandbox: Schema.Boolean,
  createdAt: Schema.Date
})
export type EndpointRow = typeof EndpointRow.Type

export const DeliveryRow = Schema.Struct({
  id: Schema.String,
  eventType: WebhookEventType,
  status: Schema.Literals(["pending", "delivered", "failed"]),
  attempts: Schema.Int,
  lastStatusCode: Schema.NullOr(Schema.Int),
  lastError: Schema.NullOr(Schema.String),
  nextAttemptAt: Schema.Date,
  createdAt: Schema.Date,
  endpointStatus: EndpointStatus
})
export type DeliveryRow = typeof DeliveryRow.Type
const ListedDelivery = Schema.Struct({ ...DeliveryRow.fields, positionAt: Schema.String })

export const ClaimedRow = Schema.Struct({
  id: Schema.String,
  endpointId: Schema.String,
  eventType: Schema.String,
  body: Schema.String,
  attempts: Schema.Int,
  url: Schema.String,
  secret: Schema.String,
  previousSecret: Schema.NullOr(Schema.String),
  previousSecretUntil: Schema.NullOr(Schema.Date),
  traceparent: Schema.NullOr(Schema.String)
})
export type ClaimedRow = typeof ClaimedRow.Type

const CountRow = Schema.Struct({ count: Schema.Int })
const IdRow = Schema.Struct({ id: Schema.String })
const FailingSinceRow = Schema.Struct({ failingSince: Schema.Date })

/** Longer than an attempt can take (its timeout is at most 30 s), so no delivery is sent twice at once. */
const LEASE_SECONDS = 60
const BATCH_SIZE = 20

const endpointColumns = `id, url, events, status, disabled_reason, failing_since, previous_secret_until, sandbox, created_at`
const deliveryColumns = `d.id, d.event_type, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at,
  d.created_at, e.status AS endpoint_status`

/** The `webhook_endpoints` and `webhook_deliveries` tables: the one place that writes and reads them. */
export class WebhooksRepo extends Context.Service<WebhooksRepo>()("Booking/WebhooksRepo", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const endpoints = sql.literal(endpointColumns)
    const deliveries = sql.literal(deliveryColumns)

    /**
     * The `traceparent` column and its value for an INSERT: named only when a trace context is
     * given (null when tracing runs without one), so an untraced statement is as if the column did
     * not exist.
     */
    const traceColumn = (traceparent: string | null | undefined) =>
      traceparent === undefined
        ? { column: sql``, value: sql`` }
        : { column: sql`, traceparent`, value: sql`, ${traceparent}` }

    /**
     * An event's rows, one per subscribed, enabled endpoint of its owner: a data-modifying
     * statement with no trailing WITH, so Idempotency can run it as one of its CTEs. With a
     * `traceparent` (null when none runs) each row keeps it; without one the column is not named.
     */
    const eventInsertion = (
      owner: { readonly partnerId: string; readonly sandbox: boolean },
      event: WebhookEvent,
      now: Date,
      traceparent: string | null | undefined
    ): Statement.Fragment => {
      const trace = traceColumn(traceparent)
      return sql`
      INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body, status, next_attempt_at, created_at${trace.column})
      SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, ${event.type}, ${eventBody(event)}, 'pending',
        ${now}::timestamptz, ${now}::timestamptz${trace.value}
      FROM webhook_endpoints e
      WHERE e.partner_id = ${owner.partnerId} AND e.sandbox = ${owner.sandbox}::boolean
        AND e.status = 'enabled' AND ${event.type} = ANY (e.events)`
    }

    const endpoint = (partnerId: string, id: string) =>
      sql`SELECT ${endpoints} FROM webhook_endpoints WHERE id = ${id} AND partner_id = ${partnerId}`.pipe(
        rowsOf(EndpointRow),
        Effect.catchTag("SchemaError", Effect.die),
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      )

    /** None when the partner already has its most webhooks. */
    const register = (
      partner: Partner["Service"],
      url: string,
      events: ReadonlyArray<string>,
      secret: string,
      now: Date
    ) =>
      Effect.gen(function* () {
        // Serialises one partner's registrations, so two at once cannot both pass the limit.
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${partner.id}`}))`
        const [count] = yield* sql`
          SELECT count(*)::int AS count FROM webhook_endpoints WHERE partner_id = ${partner.id}`.pipe(rowsOf(CountRow))
        if ((count?.count ?? 0) >= maxWebhooksPerPartner) return Option.none<EndpointRow>()
        const rows = yield* sql`
          INSERT INTO webhook_endpoints (id, partner_id, sandbox, url, events, secret, created_at)
          VALUES (gen_random_uuid(), ${partner.id}, ${partner.sandbox}, ${url},
            ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(events)}::jsonb)), ${secret}, ${now}::timestamptz)
          RETURNING ${endpoints}`.pipe(rowsOf(EndpointRow))
        return Option.some(rows[0]!)
      }).pipe(sql.withTransaction, Effect.catchTag("SchemaError", Effect.die))

    const list = (partnerId: string) =>
      sql`SELECT ${endpoints} FROM webhook_endpoints WHERE partner_id = ${partnerId} ORDER BY created_at, id`.pipe(
        rowsOf(EndpointRow),
        Effect.catchTag("SchemaError", Effect.die)
      )

    const remove = (partnerId: string, id: string) =>
      sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND partner_id = ${partnerId}`

    const rotateSecret = (partnerId: string, id: string, secret: string, until: Date) =>
      sql`
        UPDATE webhook_endpoints SET previous_secret = secret, secret = ${secret}, previous_secret_until = ${until}::timestamptz
        WHERE id = ${id} AND partner_id = ${partnerId}
        RETURNING ${endpoints}`.pipe(
        rowsOf(EndpointRow),
        Effect.catchTag("SchemaError", Effect.die),
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      )

    /** A partner's explicit test or retry is how a disabled endpoint is turned on again. */
    const enable = (endpointId: string) =>
      sql`UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL, failing_since = NULL
        WHERE id = ${endpointId} AND status = 'disabled'`

    /**
     * Queues the test event to the endpoint, due now; answers the delivery's id. Traced, the row
     * keeps the asking request's trace context as an event's rows do, so its delivery joins that
     * trace whether the request's own pass or the dispatcher's loop sends it.
     */
    const queueTest = (endpointId: string, event: WebhookEvent, now: Date) =>
      Effect.flatMap(currentTraceparent, (traceparent) =>
        Effect.gen(function* () {
          yield* enable(endpointId)
          const trace = traceColumn(traceparent)
          return yield* sql`
            INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body, status, next_attempt_at, created_at${trace.column})
            VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), ${endpointId}, ${event.type}, ${eventBody(event)},
              'pending', ${now}::timestamptz, ${now}::timestamptz${trace.value})
            RETURNING id`.pipe(rowsOf(IdRow))
        }).pipe(
          sql.withTransaction,
          Effect.catchTag("SchemaError", Effect.die),
          Effect.map((rows) => rows[0]!.id)
        )
      )

    /**
     * Due again now, on a fresh schedule; when the endpoint has no such delivery, `missing` and
     * nothing changes. A row written untraced takes the asking request's trace context, so the
     * retry joins that trace whoever sends it; a row that has one keeps its event's.
     */
    const makeDue = <E>(endpointId: string, deliveryId: string, now: Date, missing: () => E) =>
      Effect.flatMap(currentTraceparent, (traceparent) =>
        Effect.gen(function* () {
          yield* enable(endpointId)
          return yield* sql`
            UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${now}::timestamptz${traceparent === undefined ? sql`` : sql`, traceparent = COALESCE(traceparent, ${traceparent})`}
            WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}
            RETURNING id`.pipe(rowsOf(IdRow))
        }).pipe(
          Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(missing()) : Effect.void)),
          sql.withTransaction,
          Effect.catchTag("SchemaError", Effect.die)
        )
      )

    const delivery = (endpointId: string, id: string) =>
      sql`
        SELECT ${deliveries} FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = ${id} AND d.endpoint_id = ${endpointId}`.pipe(
        rowsOf(DeliveryRow),
        Effect.catchTag("SchemaError", Effect.die)
      )

    /** Newest first by (created_at, id), a keyset page as every list pages. */
    const deliveryPage = (endpointId: string, after: PagePosition | undefined, limit: number) =>
      sql`
        SELECT ${deliveries}, ${positionColumn(sql, "d.created_at")}
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.endpoint_id = ${endpointId}
          ${keysetAfter(sql, "d.created_at", { column: "d.id", type: "text" }, after)}
        ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit + 1}`.pipe(
        rowsOf(ListedDelivery),
        Effect.catchTag("SchemaError", Effect.die)
      )

    /**
     * Takes due pending deliveries of enabled endpoints (only `ids` when given) and pushes them a
     * lease into the future in one statement; SKIP LOCKED and the lease keep two instances from
     * taking one delivery at the same time.
     */
    const claim = (ids: Option.Option<ReadonlyArray<string>>, now: Date) =>
      sql`
        WITH due AS (
          SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= ${now}::timestamptz AND e.status = 'enabled'
            ${Option.match(ids, { onNone: () => sql``, onSome: (list) => sql`AND d.id IN ${sql.in(list)}` })}
          ORDER BY d.next_attempt_at
          LIMIT ${Option.match(ids, { onNone: () => BATCH_SIZE, onSome: (list) => list.length })}
          FOR UPDATE OF d SKIP LOCKED
        )
        UPDATE webhook_deliveries d SET next_attempt_at = ${now}::timestamptz + make_interval(secs => ${LEASE_SECONDS})
        FROM due, webhook_endpoints e
        WHERE d.id = due.id AND e.id = d.endpoint_id
        RETURNING d.id, d.endpoint_id, d.event_type, d.body, d.attempts, e.url, e.secret, e.previous_secret,
          e.previous_secret_until, d.traceparent`.pipe(rowsOf(ClaimedRow))

    /** An attempt's outcome, with the endpoint's state: a gone endpoint, or one failing too long, is disabled. */
    const record = (row: ClaimedRow, result: AttemptResult, now: Date) =>
      Effect.gen(function* () {
        const status = result.status ?? null
        const error = result.error ?? null
        if (result.ok) {
          yield* sql`UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,
            last_status_code = ${status}, last_error = NULL, delivered_at = ${now}::timestamptz
            WHERE id = ${row.id} AND status = 'pending'`
          yield* sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${row.endpointId}`
          return "delivered" as const
        }
        if (result.gone) {
          yield* sql`UPDATE webhook_deliveries SET status = 'failed', attempts = attempts + 1,
            last_status_code = ${status}, last_error = ${error}
            WHERE id = ${row.id} AND status = 'pending'`
          yield* sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'gone'
            WHERE id = ${row.endpointId}`
          return "gone" as const
        }
        const draw = yield* Random.next
        const jittered = nextAttempt(row.attempts + 1, now, { random: () => draw })
        yield* sql`UPDATE webhook_deliveries SET attempts = attempts + 1, last_status_code = ${status},
            last_error = ${error},
            status = ${jittered.kind === "retry" ? "pending" : "failed"},
            next_attempt_at = ${jittered.kind === "retry" ? jittered.at : now}::timestamptz
          WHERE id = ${row.id} AND status = 'pending'`
        const [endpoint] = yield* sql`
          UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${now}::timestamptz)
          WHERE id = ${row.endpointId} RETURNING failing_since`.pipe(rowsOf(FailingSinceRow))
        if (endpoint !== undefined && shouldDisableEndpoint(endpoint.failingSince, now)) {
          yield* sql`UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = 'failing'
            WHERE id = ${row.endpointId} AND status = 'enabled'`
          return "disabled" as const
        }
        return jittered.kind === "retry" ? ("retry" as const) : ("failed" as const)
      }).pipe(sql.withTransaction)

    return {
      eventInsertion,
      endpoint,
      register,
      list,
      remove,
      rotateSecret,
      queueTest,
      makeDue,
      delivery,
      deliveryPage,
      claim,
      record
    }
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
