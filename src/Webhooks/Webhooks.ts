import { Context, DateTime, Duration, Effect, FiberSet, Layer, Option, Random, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { keysetAfter, positionColumn } from "../Database/Keyset.js"
import { rowsOf } from "../Database/Rows.js"
import { nextAttempt, shouldDisableEndpoint } from "../Delivery/Schedule.js"
import type { AttemptResult } from "../Delivery/Send.js"
import { sendAttempt } from "../Delivery/Send.js"
import { newSecret, signedHeaders } from "../Delivery/Signing.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { isUuid } from "../Domain/Ids.js"
import type { DeliveryListQuery } from "../Domain/ListPage.js"
import type { Partner } from "../Domain/Partner.js"
import {
  maxWebhooksPerPartner,
  rotationOverlapHours,
  type Webhook,
  type WebhookCreate,
  type WebhookDelivery,
  WebhookDeliveryNotFound,
  WebhookEventType,
  WebhookLimitReached,
  WebhookNotFound
} from "../Domain/Webhook.js"
import { eventBody, isWebhookEventType, webhookEventTypes, webhookTest } from "../Domain/WebhookEvents.js"
import { formatStamp } from "../Domain/Zone.js"
import { checkDestination, checkUrl, lookupWithin } from "../Shared/Destination.js"
import { logFailure } from "../Shared/FailureSummary.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { changeUnavailable, readUnavailable } from "../Shared/Unavailable.js"
import { currentTraceparent, parentOf, TracingOn } from "../Tracing/Tracing.js"
import { deliveriesUnread, outageSteps, queuedUnread, webhooksUnread } from "./OutageSteps.js"

const EndpointStatus = Schema.Literals(["enabled", "disabled"])

const EndpointRow = Schema.Struct({
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
type EndpointRow = typeof EndpointRow.Type

const DeliveryRow = Schema.Struct({
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
type DeliveryRow = typeof DeliveryRow.Type
const ListedDelivery = Schema.Struct({ ...DeliveryRow.fields, positionAt: Schema.String })

const ClaimedRow = Schema.Struct({
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
type ClaimedRow = typeof ClaimedRow.Type

const CountRow = Schema.Struct({ count: Schema.Int })
const IdRow = Schema.Struct({ id: Schema.String })
const FailingSinceRow = Schema.Struct({ failingSince: Schema.Date })

/** Longer than an attempt can take (its timeout is at most 30 s), so no delivery is sent twice at once. */
const LEASE_SECONDS = 60
const BATCH_SIZE = 20

const endpointColumns = `id, url, events, status, disabled_reason, failing_since, previous_secret_until, sandbox, created_at`

const toWebhook = (row: EndpointRow, now: Date): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  status: row.status,
  ...(row.disabledReason === null ? {} : { disabled_reason: row.disabledReason }),
  ...(row.failingSince === null ? {} : { failing_since: formatStamp(row.failingSince) }),
  ...(row.previousSecretUntil !== null && row.previousSecretUntil > now
    ? { previous_secret_expires_at: formatStamp(row.previousSecretUntil) }
    : {}),
  sandbox: row.sandbox,
  created_at: formatStamp(row.createdAt)
})

/** A pending delivery of a disabled endpoint waits for no time: it is sent only once the endpoint is on again. */
const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  event_type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  ...(row.lastStatusCode === null ? {} : { last_status_code: row.lastStatusCode }),
  ...(row.lastError === null ? {} : { last_error: row.lastError }),
  ...(row.status === "pending" && row.endpointStatus === "enabled"
    ? { next_attempt_at: formatStamp(row.nextAttemptAt) }
    : {}),
  created_at: formatStamp(row.createdAt)
})

const notFound = (id: string) =>
  new WebhookNotFound({
    issues: [`webhook_id: no webhook ${id} exists for your token`],
    safe_next_step: "List your webhooks with GET /api/public/webhooks and use one of their ids."
  })

const deliveryNotFound = (webhookId: string, id: string) =>
  new WebhookDeliveryNotFound({
    issues: [`delivery_id: webhook ${webhookId} has no delivery ${id}`],
    safe_next_step: `List the webhook's deliveries with GET /api/public/webhooks/${webhookId}/deliveries and use one of their ids.`
  })

const invalid = (issues: ReadonlyArray<string>) =>
  new InvalidRequest({
    issues: [...issues],
    safe_next_step: "Nothing was registered. Correct the fields named in issues and send the request again."
  })

/**
 * Partner webhooks: subscriptions a partner manages with its own token, and the dispatcher that
 * delivers the webhook outbox (WebhookOutbox writes it) at least once, signed with Standard
 * Webhooks, on the standard's retry schedule.
 */
export class Webhooks extends Context.Service<Webhooks>()("Booking/Webhooks", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cursors = yield* ListCursor
    const config = yield* AppConfig
    const production = config.appEnv === "production"

    /** The partner's webhook, read before a change: if it cannot be read, nothing was changed. */
    const endpointOf = (partner: Partner["Service"], id: string, steps: { readonly notChanged: string }) =>
      isUuid(id)
        ? sql`SELECT ${sql.literal(endpointColumns)} FROM webhook_endpoints
            WHERE id = ${id} AND partner_id = ${partner.id}`.pipe(
            rowsOf(EndpointRow),
            Effect.catchTag("SchemaError", Effect.die),
            readUnavailable("webhook", steps.notChanged),
            Effect.flatMap((rows) => (rows[0] ? Effect.succeed(rows[0]) : Effect.fail(notFound(id))))
          )
        : Effect.fail(notFound(id))

    /** The URL's rules and, as at every send, where its host resolves to now. */
    const checkRegistration = (input: WebhookCreate) =>
      Effect.gen(function* () {
        const issues: Array<string> = []
        const unknown = (input.events ?? []).filter((type) => !isWebhookEventType(type))
        for (const type of new Set(unknown))
          issues.push(`events: unknown event type ${JSON.stringify(type)} (known: ${webhookEventTypes.join(", ")})`)
        const url = checkUrl(input.url, { production })
        if (!url.ok) issues.push(`url: ${url.message}`)
        else {
          // The partner waits for this answer: a name that does not resolve in 2 s is refused.
          const destination = yield* Effect.promise(() =>
            checkDestination(url.url, { production, lookup: lookupWithin(2000) })
          )
          if (!destination.ok) issues.push(`url: ${destination.message}`)
        }
        if (issues.length > 0) return yield* invalid(issues)
        const events = input.events === undefined ? [...webhookEventTypes] : [...new Set(input.events)]
        return { url: url.ok ? url.url.href : input.url, events: events as ReadonlyArray<typeof WebhookEventType.Type> }
      })

    const create = Effect.fn("Webhooks.create")(function* (input: WebhookCreate, partner: Partner["Service"]) {
      const { url, events } = yield* checkRegistration(input)
      const now = yield* DateTime.nowAsDate
      const secret = newSecret()
      const created = yield* Effect.gen(function* () {
        // Serialises one partner's registrations, so two at once cannot both pass the limit.
        yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${partner.id}`}))`
        const [count] = yield* sql`
          SELECT count(*)::int AS count FROM webhook_endpoints WHERE partner_id = ${partner.id}`.pipe(rowsOf(CountRow))
        if ((count?.count ?? 0) >= maxWebhooksPerPartner) return Option.none<EndpointRow>()
        const rows = yield* sql`
          INSERT INTO webhook_endpoints (id, partner_id, sandbox, url, events, secret, created_at)
          VALUES (gen_random_uuid(), ${partner.id}, ${partner.sandbox}, ${url},
            ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(events)}::jsonb)), ${secret}, ${now}::timestamptz)
          RETURNING ${sql.literal(endpointColumns)}`.pipe(rowsOf(EndpointRow))
        return Option.some(rows[0]!)
      }).pipe(
        sql.withTransaction,
        Effect.catchTag("SchemaError", Effect.die),
        changeUnavailable("webhook registration", outageSteps.create)
      )
      if (Option.isNone(created))
        return yield* new WebhookLimitReached({
          issues: [`a partner has at most ${maxWebhooksPerPartner} webhooks`],
          safe_next_step:
            "Nothing was registered. Delete a webhook you no longer use (DELETE /api/public/webhooks/{id}), then register again."
        })
      yield* Effect.logInfo("webhook registered").pipe(
        Effect.annotateLogs({ webhook_id: created.value.id, partner_id: partner.id })
      )
      return { ok: true as const, webhook: toWebhook(created.value, now), secret }
    })

    const list = Effect.fn("Webhooks.list")(function* (partner: Partner["Service"]) {
      const now = yield* DateTime.nowAsDate
      const rows = yield* sql`SELECT ${sql.literal(endpointColumns)} FROM webhook_endpoints
        WHERE partner_id = ${partner.id} ORDER BY created_at, id`.pipe(
        rowsOf(EndpointRow),
        Effect.catchTag("SchemaError", Effect.die),
        readUnavailable("webhooks", webhooksUnread)
      )
      return { ok: true as const, webhooks: rows.map((row) => toWebhook(row, now)) }
    })

    const remove = Effect.fn("Webhooks.remove")(function* (partner: Partner["Service"], id: string) {
      const steps = outageSteps.remove(id)
      yield* endpointOf(partner, id, steps)
      yield* sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND partner_id = ${partner.id}`.pipe(
        changeUnavailable("webhook deletion", steps)
      )
      return { ok: true as const, deleted: true as const, webhook_id: id }
    })

    const rotateSecret = Effect.fn("Webhooks.rotateSecret")(function* (partner: Partner["Service"], id: string) {
      yield* endpointOf(partner, id, outageSteps.rotateSecret)
      const now = yield* DateTime.nowAsDate
      const until = new Date(now.getTime() + rotationOverlapHours * 3_600_000)
      const secret = newSecret()
      const [row] = yield* sql`
        UPDATE webhook_endpoints SET previous_secret = secret, secret = ${secret}, previous_secret_until = ${until}::timestamptz
        WHERE id = ${id} AND partner_id = ${partner.id}
        RETURNING ${sql.literal(endpointColumns)}`.pipe(
        rowsOf(EndpointRow),
        Effect.catchTag("SchemaError", Effect.die),
        changeUnavailable("webhook secret rotation", outageSteps.rotateSecret)
      )
      if (row === undefined) return yield* notFound(id)
      return {
        ok: true as const,
        webhook: toWebhook(row, now),
        secret,
        previous_secret_expires_at: formatStamp(until)
      }
    })

    /** A delivery just queued, read back for the answer. */
    const readDelivery = (endpointId: string, id: string) =>
      sql`
        SELECT d.id, d.event_type, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at,
          d.created_at, e.status AS endpoint_status
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = ${id} AND d.endpoint_id = ${endpointId}`.pipe(
        rowsOf(DeliveryRow),
        Effect.catchTag("SchemaError", Effect.die),
        readUnavailable("webhook delivery", queuedUnread(endpointId, id))
      )

    /** A page of the webhook's deliveries, newest first by (created_at, id): keyset, as every list pages. */
    const deliveries = Effect.fn("Webhooks.deliveries")(function* (
      partner: Partner["Service"],
      id: string,
      query: DeliveryListQuery
    ) {
      yield* endpointOf(partner, id, { notChanged: deliveriesUnread })
      const { rows, nextCursor } = yield* cursors.page(
        `webhook-deliveries:${id}`,
        partner.id,
        { cursor: query.cursor, limit: query.limit },
        ({ after, limit }) =>
          sql`
        SELECT d.id, d.event_type, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at,
          d.created_at, e.status AS endpoint_status, ${positionColumn(sql, "d.created_at")}
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.endpoint_id = ${id}
          ${keysetAfter(sql, "d.created_at", { column: "d.id", type: "text" }, after)}
        ORDER BY d.created_at DESC, d.id DESC LIMIT ${limit + 1}`.pipe(
            rowsOf(ListedDelivery),
            Effect.catchTag("SchemaError", Effect.die),
            readUnavailable("webhook deliveries", deliveriesUnread)
          )
      )
      return { ok: true as const, deliveries: rows.map(toDelivery), next_cursor: nextCursor }
    })

    // Attempts a partner asks for run in the service's scope, not the request's: they outlive it.
    const runInBackground = yield* FiberSet.makeRuntime<never, void, never>()
    const tracing = yield* TracingOn
    // Traced, they stay in the trace of the request that asked for them.
    const inBackground = tracing
      ? (work: Effect.Effect<void>) =>
          Effect.flatMap(Effect.currentParentSpan.pipe(Effect.option), (parent) =>
            Effect.sync(() => runInBackground(Option.isSome(parent) ? Effect.withParentSpan(work, parent.value) : work))
          )
      : (work: Effect.Effect<void>) => Effect.sync(() => runInBackground(work))

    /** A partner's explicit test or retry is how a disabled endpoint is turned on again. */
    const enable = (endpointId: string) =>
      sql`UPDATE webhook_endpoints SET status = 'enabled', disabled_reason = NULL, failing_since = NULL
        WHERE id = ${endpointId} AND status = 'disabled'`

    const sendTest = Effect.fn("Webhooks.sendTest")(function* (partner: Partner["Service"], id: string) {
      const steps = outageSteps.test(id)
      const endpoint = yield* endpointOf(partner, id, steps)
      const now = yield* DateTime.nowAsDate
      const event = webhookTest({ id: endpoint.id, sandbox: endpoint.sandbox }, now)
      const [row] = yield* Effect.gen(function* () {
        yield* enable(endpoint.id)
        return yield* sql`
          INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body, status, next_attempt_at, created_at)
          VALUES ('msg_' || replace(gen_random_uuid()::text, '-', ''), ${endpoint.id}, ${event.type}, ${eventBody(event)},
            'pending', ${now}::timestamptz, ${now}::timestamptz)
          RETURNING id`.pipe(rowsOf(IdRow))
      }).pipe(sql.withTransaction, Effect.catchTag("SchemaError", Effect.die), changeUnavailable("webhook test", steps))
      yield* inBackground(deliverDue(Option.some([row!.id])))
      const [delivery] = yield* readDelivery(endpoint.id, row!.id)
      return { ok: true as const, delivery: toDelivery(delivery!) }
    })

    /** Due again now, on a fresh schedule; the same webhook-id, so a receiver that has it drops it. */
    const retry = Effect.fn("Webhooks.retry")(function* (partner: Partner["Service"], id: string, deliveryId: string) {
      const endpoint = yield* endpointOf(partner, id, outageSteps.retry)
      const now = yield* DateTime.nowAsDate
      yield* Effect.gen(function* () {
        yield* enable(endpoint.id)
        return yield* sql`
          UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ${now}::timestamptz
          WHERE id = ${deliveryId} AND endpoint_id = ${endpoint.id}
          RETURNING id`.pipe(rowsOf(IdRow))
      }).pipe(
        Effect.flatMap((rows) => (rows.length === 0 ? Effect.fail(deliveryNotFound(id, deliveryId)) : Effect.void)),
        sql.withTransaction,
        Effect.catchTag("SchemaError", Effect.die),
        changeUnavailable("webhook retry", outageSteps.retry)
      )
      yield* inBackground(deliverDue(Option.some([deliveryId])))
      const [delivery] = yield* readDelivery(endpoint.id, deliveryId)
      return { ok: true as const, delivery: toDelivery(delivery!) }
    })

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

    /** One POST, checked against SSRF again (DNS may have changed) and signed with every live secret. */
    const send = (row: ClaimedRow, now: Date) =>
      Effect.flatMap(currentTraceparent, (traceparent) =>
        Effect.promise(async (): Promise<AttemptResult> => {
          const destination = await checkDestination(row.url, { production })
          if (!destination.ok) return { ok: false, gone: false, error: destination.message, durationMs: 0 }
          const secrets = [
            row.secret,
            ...(row.previousSecret !== null && row.previousSecretUntil !== null && row.previousSecretUntil > now
              ? [row.previousSecret]
              : [])
          ]
          const signed = signedHeaders({ id: row.id, at: now, body: row.body, secrets })
          if (!signed.ok) return { ok: false, gone: false, error: "the delivery could not be signed", durationMs: 0 }
          return sendAttempt({
            url: destination.url,
            address: destination.addresses[0]!,
            headers: signed.headers,
            body: row.body,
            timeoutMs: config.webhookTimeoutMs,
            ...(traceparent === undefined ? {} : { traceparent })
          })
        })
      )

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

    /**
     * Sends one claimed delivery and records the outcome; never fails, and logs no payload. Its
     * span is a child of the request that wrote the row when the row kept its trace context
     * (WebhookOutbox), whichever instance delivers it; else of the current span, if any.
     */
    const attempt = (row: ClaimedRow) => {
      const log = { delivery_id: row.id, webhook_id: row.endpointId, event_type: row.eventType }
      const parent = tracing ? parentOf(row.traceparent) : undefined
      return Effect.gen(function* () {
        const now = yield* DateTime.nowAsDate
        const result = yield* send(row, now)
        if (result.status !== undefined) yield* Effect.annotateCurrentSpan("http.response.status_code", result.status)
        const outcome = yield* record(row, result, yield* DateTime.nowAsDate)
        yield* Effect.annotateCurrentSpan("webhook.outcome", outcome)
        const line = {
          ...log,
          outcome,
          attempts: row.attempts + 1,
          ...(result.status ? { status: result.status } : {})
        }
        yield* outcome === "delivered"
          ? Effect.logInfo("webhook delivered").pipe(Effect.annotateLogs(line))
          : Effect.logWarning("webhook attempt failed").pipe(Effect.annotateLogs(line))
      }).pipe(
        Effect.catchCause((cause) =>
          logFailure("webhook outcome could not be recorded", cause).pipe(Effect.annotateLogs(log))
        ),
        Effect.withSpan("Webhooks.attempt", {
          kind: "client",
          attributes: log,
          ...(parent === undefined ? {} : { parent })
        })
      )
    }

    /** One pass: claim what is due and attempt it all at once. */
    const deliverDue = (ids: Option.Option<ReadonlyArray<string>> = Option.none()) =>
      DateTime.nowAsDate.pipe(
        Effect.flatMap((now) => claim(ids, now)),
        Effect.flatMap((rows) => Effect.forEach(rows, attempt, { concurrency: "unbounded", discard: true })),
        Effect.catchCause((cause) => logFailure("webhook deliveries could not be claimed", cause))
      )

    return { create, list, remove, rotateSecret, deliveries, sendTest, retry, deliverDue } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(ListCursor.Default))
}

/** The dispatcher: a pass every WEBHOOK_POLL_MS on the service's clock, for as long as the server runs. */
export const WebhookDispatcherLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    const config = yield* AppConfig
    yield* Effect.sleep(Duration.millis(config.webhookPollMs)).pipe(
      Effect.andThen(webhooks.deliverDue()),
      Effect.forever,
      Effect.forkScoped
    )
  })
).pipe(Layer.provide(Webhooks.Default))
