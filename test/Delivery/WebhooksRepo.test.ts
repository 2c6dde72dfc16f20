import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema, type Tracer } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { WebhooksRepo } from "../../src/Delivery/WebhooksRepo.js"
import { webhookTest } from "../../src/Domain/WebhookEvents.js"
import { TracingOn } from "../../src/Tracing/Tracing.js"
import { TestDatabaseLive } from "../support/Database.js"

const partner = { id: "partner-trace", name: "Trace partner", sandbox: false }
const at = new Date("2026-12-04T10:00:00Z")
const TraceRow = Schema.Struct({ traceparent: Schema.NullOr(Schema.String) })
const contextOf = (span: Tracer.Span) => `00-${span.traceId}-${span.spanId}-01`

describe("WebhooksRepo: the trace context a delivery row keeps", () => {
  it.layer(WebhooksRepo.Default.pipe(Layer.provideMerge(TestDatabaseLive)))((it) => {
    // The dispatcher's loop may send the row before the asking request's own pass does: the
    // attempt's span then has only the row's context to join the request's trace by.
    it.effect(
      "a test event's row keeps the asking request's trace context when traced, and a retry gives one to a row without",
      () =>
        Effect.gen(function* () {
          const repo = yield* WebhooksRepo
          const sql = yield* SqlClient.SqlClient
          const endpoint = Option.getOrThrow(
            yield* repo.register(partner, "https://hooks.example/a", ["webhook.test"], "s", at)
          )
          const event = webhookTest({ id: endpoint.id, sandbox: false }, at)
          const traceparentOf = (id: string) =>
            sql`SELECT traceparent FROM webhook_deliveries WHERE id = ${id}`.pipe(
              Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(TraceRow))),
              Effect.map((rows) => rows[0]?.traceparent)
            )

          const traced = yield* Effect.gen(function* () {
            const span = yield* Effect.currentSpan
            const id = yield* repo.queueTest(endpoint.id, event, at)
            return { id, span }
          }).pipe(
            Effect.withSpan("POST /api/public/webhooks/{webhook_id}/test"),
            Effect.provideService(TracingOn, true)
          )
          expect(yield* traceparentOf(traced.id)).toBe(contextOf(traced.span))

          const untraced = yield* repo
            .queueTest(endpoint.id, event, at)
            .pipe(Effect.withSpan("untraced"), Effect.provideService(TracingOn, false))
          expect(yield* traceparentOf(untraced)).toBeNull()

          // A retry asked for while traced: the untraced row joins the asking request's trace, the
          // traced one keeps its own; untraced, the retry changes neither.
          const retry = (id: string, tracing: boolean) =>
            Effect.gen(function* () {
              const span = yield* Effect.currentSpan
              yield* repo.makeDue(endpoint.id, id, at, () => "missing" as const)
              return contextOf(span)
            }).pipe(
              Effect.withSpan("POST /api/public/webhooks/{webhook_id}/deliveries/{delivery_id}/retry"),
              Effect.provideService(TracingOn, tracing)
            )
          yield* retry(untraced, false)
          expect(yield* traceparentOf(untraced)).toBeNull()
          const retried = yield* retry(untraced, true)
          expect(yield* traceparentOf(untraced)).toBe(retried)
          yield* retry(traced.id, true)
          expect(yield* traceparentOf(traced.id)).toBe(contextOf(traced.span))
        })
    )
  })
})
