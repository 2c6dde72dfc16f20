import { Context, Effect, Layer } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import { eventBody, type WebhookEvent } from "../Domain/WebhookEvents.js"
import { runningTraceparent, TracingOn } from "../Tracing/Tracing.js"

/** Whose event it is: only this partner's subscriptions of the same kind (sandbox or live) hear it. */
export interface EventOwner {
  readonly partnerId: string
  readonly sandbox: boolean
}

/**
 * The webhook outbox's writer. An event is one row per subscribed, enabled endpoint of its
 * partner, written by the statement that makes the change it announces (or in its transaction),
 * so there is no event without its change and no change without its event. Each row's id is its
 * `webhook-id`, the same on every attempt.
 */
export class WebhookOutbox extends Context.Service<WebhookOutbox>()("Booking/WebhookOutbox", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tracing = yield* TracingOn

    /**
     * A data-modifying statement with no trailing WITH, so Idempotency can run it as one of its
     * CTEs. Traced, each row also keeps the trace context of the code that builds the statement
     * (the request's), so its delivery joins that trace (Webhooks.attempt); untraced, the
     * statement is the same as if the column did not exist.
     */
    const insertion = (owner: EventOwner, event: WebhookEvent, now: Date): Statement.Fragment => {
      const traceparent = tracing ? (runningTraceparent() ?? null) : undefined
      return sql`
      INSERT INTO webhook_deliveries (id, endpoint_id, event_type, body, status, next_attempt_at, created_at${traceparent === undefined ? sql`` : sql`, traceparent`})
      SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.id, ${event.type}, ${eventBody(event)}, 'pending',
        ${now}::timestamptz, ${now}::timestamptz${traceparent === undefined ? sql`` : sql`, ${traceparent}`}
      FROM webhook_endpoints e
      WHERE e.partner_id = ${owner.partnerId} AND e.sandbox = ${owner.sandbox}::boolean
        AND e.status = 'enabled' AND ${event.type} = ANY (e.events)`
    }

    /** Writes the event's rows, inside the caller's transaction when there is one. */
    const emit = Effect.fn("WebhookOutbox.emit")(function* (owner: EventOwner, event: WebhookEvent, now: Date) {
      yield* sql`${insertion(owner, event, now)}`
    })

    return { insertion, emit } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
