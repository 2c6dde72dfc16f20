import { Context, DateTime, Duration, Effect, FiberSet, Layer, Option } from "effect"
import { AppConfig } from "../AppConfig.js"
import type { AttemptResult } from "../Delivery/Send.js"
import { sendAttempt } from "../Delivery/Send.js"
import { newSecret, signedHeaders } from "../Delivery/Signing.js"
import { type ClaimedRow, type DeliveryRow, type EndpointRow, WebhooksRepo } from "../Delivery/WebhooksRepo.js"
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
  type WebhookEventType,
  WebhookLimitReached,
  WebhookNotFound
} from "../Domain/Webhook.js"
import { isWebhookEventType, webhookEventTypes, webhookTest } from "../Domain/WebhookEvents.js"
import { formatStamp } from "../Domain/Zone.js"
import { checkDestination, checkUrl, lookupWithin } from "../Shared/Destination.js"
import { logFailure } from "../Shared/FailureSummary.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { changeUnavailable, readUnavailable } from "../Shared/Unavailable.js"
import { currentTraceparent, parentOf, TracingOn } from "../Tracing/Tracing.js"
import { deliveriesUnread, outageSteps, queuedUnread, webhooksUnread } from "./OutageSteps.js"

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
    const repo = yield* WebhooksRepo
    const cursors = yield* ListCursor
    const config = yield* AppConfig
    const production = config.appEnv === "production"

    /** The partner's webhook, read before a change: if it cannot be read, nothing was changed. */
    const endpointOf = (partner: Partner["Service"], id: string, steps: { readonly notChanged: string }) =>
      isUuid(id)
        ? repo
            .endpoint(partner.id, id)
            .pipe(
              readUnavailable("webhook", steps.notChanged),
              Effect.flatMap(Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))
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
      const created = yield* repo
        .register(partner, url, events, secret, now)
        .pipe(changeUnavailable("webhook registration", outageSteps.create))
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
      const rows = yield* repo.list(partner.id).pipe(readUnavailable("webhooks", webhooksUnread))
      return { ok: true as const, webhooks: rows.map((row) => toWebhook(row, now)) }
    })

    const remove = Effect.fn("Webhooks.remove")(function* (partner: Partner["Service"], id: string) {
      const steps = outageSteps.remove(id)
      yield* endpointOf(partner, id, steps)
      yield* repo.remove(partner.id, id).pipe(changeUnavailable("webhook deletion", steps))
      return { ok: true as const, deleted: true as const, webhook_id: id }
    })

    const rotateSecret = Effect.fn("Webhooks.rotateSecret")(function* (partner: Partner["Service"], id: string) {
      yield* endpointOf(partner, id, outageSteps.rotateSecret)
      const now = yield* DateTime.nowAsDate
      const until = new Date(now.getTime() + rotationOverlapHours * 3_600_000)
      const secret = newSecret()
      const row = yield* repo
        .rotateSecret(partner.id, id, secret, until)
        .pipe(changeUnavailable("webhook secret rotation", outageSteps.rotateSecret))
      if (Option.isNone(row)) return yield* notFound(id)
      return {
        ok: true as const,
        webhook: toWebhook(row.value, now),
        secret,
        previous_secret_expires_at: formatStamp(until)
      }
    })

    /** A delivery just queued, read back for the answer. */
    const readDelivery = (endpointId: string, id: string) =>
      repo.delivery(endpointId, id).pipe(readUnavailable("webhook delivery", queuedUnread(endpointId, id)))

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
          repo.deliveryPage(id, after, limit).pipe(readUnavailable("webhook deliveries", deliveriesUnread))
      )
      return { ok: true as const, deliveries: rows.map(toDelivery), next_cursor: nextCursor }
    })

    // Attempts a partner asks for run in the service's scope, not the request's: they outlive it.
    const runInBackground = yield* FiberSet.makeRuntime<never, void, never>()
    // Traced, they stay in the trace of the request that asked for them.
    const tracing = yield* TracingOn
    const inBackground = tracing
      ? (work: Effect.Effect<void>) =>
          Effect.flatMap(Effect.currentParentSpan.pipe(Effect.option), (parent) =>
            Effect.sync(() => runInBackground(Option.isSome(parent) ? Effect.withParentSpan(work, parent.value) : work))
          )
      : (work: Effect.Effect<void>) => Effect.sync(() => runInBackground(work))

    const sendTest = Effect.fn("Webhooks.sendTest")(function* (partner: Partner["Service"], id: string) {
      const steps = outageSteps.test(id)
      const endpoint = yield* endpointOf(partner, id, steps)
      const now = yield* DateTime.nowAsDate
      const event = webhookTest({ id: endpoint.id, sandbox: endpoint.sandbox }, now)
      const queued = yield* repo.queueTest(endpoint.id, event, now).pipe(changeUnavailable("webhook test", steps))
      yield* inBackground(deliverDue(Option.some([queued])))
      const [delivery] = yield* readDelivery(endpoint.id, queued)
      return { ok: true as const, delivery: toDelivery(delivery!) }
    })

    /** Due again now, on a fresh schedule; the same webhook-id, so a receiver that has it drops it. */
    const retry = Effect.fn("Webhooks.retry")(function* (partner: Partner["Service"], id: string, deliveryId: string) {
      const endpoint = yield* endpointOf(partner, id, outageSteps.retry)
      const now = yield* DateTime.nowAsDate
      yield* repo
        .makeDue(endpoint.id, deliveryId, now, () => deliveryNotFound(id, deliveryId))
        .pipe(changeUnavailable("webhook retry", outageSteps.retry))
      yield* inBackground(deliverDue(Option.some([deliveryId])))
      const [delivery] = yield* readDelivery(endpoint.id, deliveryId)
      return { ok: true as const, delivery: toDelivery(delivery!) }
    })

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

    /** Sends one claimed delivery and records the outcome; never fails, and logs no payload. */
    const attempt = (row: ClaimedRow) => {
      const log = { delivery_id: row.id, webhook_id: row.endpointId, event_type: row.eventType }
      const parent = tracing ? parentOf(row.traceparent) : undefined
      return Effect.gen(function* () {
        const now = yield* DateTime.nowAsDate
        const result = yield* send(row, now)
        if (result.status !== undefined) yield* Effect.annotateCurrentSpan("http.response.status_code", result.status)
        const outcome = yield* repo.record(row, result, yield* DateTime.nowAsDate)
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
        Effect.flatMap((now) => repo.claim(ids, now)),
        Effect.flatMap((rows) => Effect.forEach(rows, attempt, { concurrency: "unbounded", discard: true })),
        Effect.catchCause((cause) => logFailure("webhook deliveries could not be claimed", cause))
      )

    return { create, list, remove, rotateSecret, deliveries, sendTest, retry, deliverDue } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([ListCursor.Default, WebhooksRepo.Default])
  )
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
