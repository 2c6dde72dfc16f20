import { Context, Effect, Layer } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import type { WebhookEvent } from "../Domain/WebhookEvents.js"
import { runningTraceparent, TracingOn } from "../Tracing/Tracing.js"
import { WebhooksRepo } from "./WebhooksRepo.js"

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
    const repo = yield* WebhooksRepo

    /**
     * The event's statement (WebhooksRepo.eventInsertion). Traced, each row also keeps the trace
     * context of the code that builds the statement (the request's), so its delivery joins that
     * trace (Webhooks.attempt); untraced, the statement is the same as if the column did not exist.
     */
    const insertion = (owner: EventOwner, event: WebhookEvent, now: Date): Statement.Fragment =>
      repo.eventInsertion(owner, event, now, tracing ? (runningTraceparent() ?? null) : undefined)

    /** Writes the event's rows, inside the caller's transaction when there is one. */
    const emit = Effect.fn("WebhookOutbox.emit")(function* (owner: EventOwner, event: WebhookEvent, now: Date) {
      yield* sql`${insertion(owner, event, now)}`
    })

    return { insertion, emit } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(WebhooksRepo.Default))
}
