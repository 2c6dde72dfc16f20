import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { vi } from "vitest"
import { makeDatabase } from "../support/Database.js"
import { customer, paths, searchBody, shortConfirmBody } from "../support/Http.js"
import { webhookReceiver } from "../support/Receivers.js"
import { expectJsonLines, servingPort, spawnServer, testEnv } from "../support/Server.js"

interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: number | string
}
interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }>
}
interface Export {
  readonly contentType: string | undefined
  readonly body: {
    readonly resourceSpans: ReadonlyArray<{
      readonly resource: { readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }> }
      readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<OtlpSpan> }>
    }>
  }
  readonly text: string
}

/** A local OTLP/HTTP receiver: every POST /v1/traces, parsed as the OTLP JSON it must be. */
const otlpReceiver = Effect.acquireRelease(
  Effect.callback<{ readonly url: string; readonly exports: Array<Export>; readonly close: () => void }>((resume) => {
    const exports: Array<Export> = []
    const server = createServer((request, response) => {
      let text = ""
      request.setEncoding("utf8")
      request.on("data", (chunk: string) => {
        text += chunk
      })
      request.on("end", () => {
        if (request.method === "POST" && request.url === "/v1/traces") {
          exports.push({ contentType: request.headers["content-type"], body: JSON.parse(text), text })
        }
        response.setHeader("content-type", "application/json")
        response.end("{}")
      })
    })
    server.listen(0, "127.0.0.1", () =>
      resume(
        Effect.succeed({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          exports,
          close: () => {
            server.closeAllConnections()
            server.close()
          }
        })
      )
    )
  }),
  ({ close }) => Effect.sync(close)
)

const spansOf = (exports: ReadonlyArray<Export>) =>
  exports.flatMap((e) => e.body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))

const attr = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue))
}

const token = "partner-traced-token-0123456789abcdef"
const hex = (length: number) => Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join("")

/** The caller's own trace context, as a W3C traceparent (sampled). */
const callerContext = () => {
  const traceId = hex(32)
  const spanId = hex(16)
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` }
}

const call = (base: string, method: string, path: string, body?: unknown, traceparent?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        ...(traceparent === undefined ? {} : { traceparent })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as any }
  })

/** Each span's ancestors up to the first one of another process (the caller's span id). */
const ancestorsOf = (span: OtlpSpan, byId: ReadonlyMap<string, OtlpSpan>) => {
  const chain: Array<OtlpSpan> = []
  let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined
  while (parent !== undefined) {
    chain.push(parent)
    parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined
  }
  return chain
}

describe("traces over OTLP/HTTP", () => {
  it.live(
    "a request's trace arrives with its SQL and webhook delivery children, continues the caller's traceparent, carries no personal data, and names its trace id in the access line",
    () =>
      Effect.gen(function* () {
        const otlp = yield* otlpReceiver
        const hooks = yield* webhookReceiver()
        const { url: databaseUrl } = yield* makeDatabase()
        const dataDir = mkdtempSync(join(tmpdir(), "booking-traces-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        const server = spawnServer({
          ...testEnv,
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDir,
          PORT: "0",
          LOG_FORMAT: "json",
          SERVICE_REQUESTS_API_TOKENS: token,
          WEBHOOK_POLL_MS: "100",
          OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
          OTEL_SERVICE_NAME: "booking-traces-test",
          OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test,service.namespace=booking",
          OTEL_BSP_SCHEDULE_DELAY: "50"
        })
        yield* Effect.addFinalizer(() =>
          Effect.promise(() => {
            server.child.kill("SIGTERM")
            return server.exited
          })
        )
        const base = `http://127.0.0.1:${yield* Effect.promise(() => servingPort(server))}`

        const registered = yield* call(base, "POST", "/api/public/webhooks", { url: hooks.url })
        expect(registered.status).toBe(201)
        const webhookId: string = registered.body.webhook.id

        const search = yield* call(base, "POST", paths.search, searchBody)
        expect(search.status).toBe(200)
        const confirmer = callerContext()
        const confirmed = yield* call(
          base,
          "POST",
          paths.confirm,
          shortConfirmBody(search.body.options[0], "traced-confirm-1", customer),
          confirmer.traceparent
        )
        expect(confirmed.status).toBe(201)

        const tester = callerContext()
        const tested = yield* call(
          base,
          "POST",
          `/api/public/webhooks/${webhookId}/test`,
          undefined,
          tester.traceparent
        )
        expect(tested.status).toBe(202)

        // The test event and the booking's confirmation both delivered, and their spans exported.
        yield* Effect.promise(() =>
          vi.waitFor(
            () => {
              expect(hooks.received.map((hook) => JSON.parse(hook.body).type).sort()).toEqual([
                "booking.confirmed",
                "webhook.test"
              ])
              const exported = spansOf(otlp.exports)
              expect(exported.filter((span) => span.name === "Webhooks.attempt")).toHaveLength(2)
              // The delivery can be done before the request that asked for it has answered.
              expect(exported.some((span) => span.traceId === tester.traceId && span.kind === 2)).toBe(true)
              expect(server.stdout()).toContain('"route":"/api/public/webhooks/{webhook_id}/test"')
            },
            { timeout: 20_000, interval: 50 }
          )
        )

        expect(otlp.exports.every((e) => e.contentType === "application/json")).toBe(true)
        const resource = otlp.exports[0]!.body.resourceSpans[0]!.resource.attributes
        expect(Object.fromEntries(resource.map((a) => [a.key, a.value.stringValue]))).toMatchObject({
          "service.name": "booking-traces-test",
          "deployment.environment": "test",
          "service.namespace": "booking"
        })

        const spans = spansOf(otlp.exports)
        const byId = new Map(spans.map((span) => [span.spanId, span]))

        // The test request: its server span continues the caller's trace.
        const testTrace = spans.filter((span) => span.traceId === tester.traceId)
        const request = testTrace.find((span) => span.kind === 2)!
        expect(request).toMatchObject({
          name: "POST /api/public/webhooks/{webhook_id}/test",
          parentSpanId: tester.spanId
        })
        expect(attr(request, "http.route")).toBe("/api/public/webhooks/{webhook_id}/test")
        expect(attr(request, "http.response.status_code")).toBe(202)
        expect(attr(request, "partner.id")).toEqual(expect.any(String))
        // Its SQL statements and the delivery it asked for are its descendants.
        const statements = testTrace.filter((span) => attr(span, "db.query.summary") !== undefined)
        expect(statements.map((span) => attr(span, "db.query.summary"))).toEqual(
          expect.arrayContaining(["SELECT webhook_endpoints", "INSERT webhook_deliveries"])
        )
        for (const span of statements) {
          expect(span.kind).toBe(3)
          expect(span.name).toBe(attr(span, "db.query.summary"))
          expect(attr(span, "db.operation.name")).toEqual(expect.any(String))
        }
        const delivery = testTrace.find((span) => span.name === "Webhooks.attempt")!
        expect(ancestorsOf(delivery, byId)).toContainEqual(request)
        expect(attr(delivery, "http.response.status_code")).toBe(200)
        expect(attr(delivery, "webhook.outcome")).toBe("delivered")
        // The delivery's outcome is recorded by statements of its own.
        expect(
          testTrace.some((span) => ancestorsOf(span, byId).includes(delivery) && attr(span, "db.query.text"))
        ).toBe(true)
        // The delivery went out with the delivery span's own trace context.
        const testHook = hooks.received.find((hook) => JSON.parse(hook.body).type === "webhook.test")!
        expect((testHook.headers as IncomingHttpHeaders).traceparent).toBe(`00-${tester.traceId}-${delivery.spanId}-01`)
        // The confirm request: a server span in the caller's trace, its statements under it.
        const confirmTrace = spans.filter((span) => span.traceId === confirmer.traceId)
        const confirmSpan = confirmTrace.find((span) => span.kind === 2)!
        expect(confirmSpan.name).toBe("POST /api/public/bookings")
        expect(attr(confirmSpan, "http.response.status_code")).toBe(201)
        const confirmStatements = confirmTrace.filter(
          (span) => attr(span, "db.query.text") !== undefined && ancestorsOf(span, byId).includes(confirmSpan)
        )
        expect(confirmStatements.length).toBeGreaterThan(0)
        // The booking.confirmed row was written by the confirm and delivered later by the
        // dispatcher's loop: its delivery is still a child of the confirm, through the trace
        // context the outbox row kept, and its own statements (the outcome) are under it.
        const confirmedDelivery = confirmTrace.find((span) => span.name === "Webhooks.attempt")!
        expect(confirmedDelivery).toBeDefined()
        expect(confirmedDelivery.kind).toBe(3)
        expect(ancestorsOf(confirmedDelivery, byId)).toContainEqual(confirmSpan)
        expect(attr(confirmedDelivery, "event_type")).toBe("booking.confirmed")
        expect(attr(confirmedDelivery, "webhook.outcome")).toBe("delivered")
        expect(
          confirmTrace.some(
            (span) => ancestorsOf(span, byId).includes(confirmedDelivery) && attr(span, "db.query.text") !== undefined
          )
        ).toBe(true)
        // And the receiver was sent that delivery span's context.
        const confirmedHook = hooks.received.find((hook) => JSON.parse(hook.body).type === "booking.confirmed")!
        expect(confirmedHook.headers.traceparent).toBe(`00-${confirmer.traceId}-${confirmedDelivery.spanId}-01`)

        // No personal data in anything exported: the customer's name, phone, e-mail and address.
        const exported = otlp.exports.map((e) => e.text).join("\n")
        for (const personal of [customer.name, customer.phone, customer.email, "Drottninggatan", "Lindqvist"]) {
          expect(exported).not.toContain(personal)
        }

        // Every access line names its trace; the test request's is the caller's.
        const access = expectJsonLines(server.stdout()).filter((line) => line.msg === "request")
        expect(access.length).toBeGreaterThanOrEqual(4)
        for (const line of access) expect(line.trace_id).toMatch(/^[0-9a-f]{32}$/)
        expect(access.find((line) => line.route === "/api/public/webhooks/{webhook_id}/test")?.trace_id).toBe(
          tester.traceId
        )
      }),
    120_000
  )
})
