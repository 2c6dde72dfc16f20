import { describe, expect, it } from "@effect/vitest"
import { Context, Option, Tracer } from "effect"
import { summaryOf } from "../../src/Tracing/SqlSummary.js"
import { sampling } from "../../src/Tracing/Tracing.js"

const spanOf = (
  tracer: Tracer.Tracer,
  name: string,
  options: { readonly kind?: Tracer.SpanKind; readonly parent?: Tracer.AnySpan } = {}
) =>
  tracer.span({
    name,
    parent: Option.fromNullishOr(options.parent),
    annotations: Context.empty(),
    links: [],
    startTime: 0n,
    kind: options.kind ?? "internal",
    root: options.parent === undefined,
    sampled: true
  })

const external = (traceId: string, sampled: boolean): Tracer.ExternalSpan =>
  Tracer.externalSpan({ traceId, spanId: "00f067aa0ba902b7", sampled })

// A trace id whose last 14 hex digits are a small fraction (kept by 0.5) and one near 1 (dropped).
const low = "4bf92f3577b34da6a00000000000000a"
const high = "4bf92f3577b34da6affffffffffffff0"

describe("the sampler", () => {
  it("a trace starts at a request or at a delivery, e-mail or calendar fetch; a loop's poll is not kept", () => {
    const tracer = sampling(Tracer.nativeTracer, { parentBased: true, ratio: 1 })
    expect(spanOf(tracer, "POST /api/public/bookings", { kind: "server" }).sampled).toBe(true)
    for (const root of ["Webhooks.attempt", "Email.send", "Calendar.fetch"])
      expect(spanOf(tracer, root).sampled).toBe(true)
    expect(spanOf(tracer, "postgres", { kind: "client" }).sampled).toBe(false)
    const request = spanOf(tracer, "GET /readyz", { kind: "server" })
    expect(spanOf(tracer, "SELECT bookings", { kind: "client", parent: request }).sampled).toBe(true)
  })

  it("parentbased follows the caller's sampled flag; traceidratio decides by the trace id; always_off keeps nothing", () => {
    const parentBased = sampling(Tracer.nativeTracer, { parentBased: true, ratio: 0.5 })
    expect(spanOf(parentBased, "GET /x", { kind: "server", parent: external(high, true) }).sampled).toBe(true)
    expect(spanOf(parentBased, "GET /x", { kind: "server", parent: external(low, false) }).sampled).toBe(false)
    const ratio = sampling(Tracer.nativeTracer, { parentBased: false, ratio: 0.5 })
    expect(spanOf(ratio, "GET /x", { kind: "server", parent: external(low, false) }).sampled).toBe(true)
    expect(spanOf(ratio, "GET /x", { kind: "server", parent: external(high, true) }).sampled).toBe(false)
    const off = sampling(Tracer.nativeTracer, { parentBased: false, ratio: 0 })
    expect(spanOf(off, "GET /x", { kind: "server" }).sampled).toBe(false)
    const unsampled = spanOf(off, "GET /x", { kind: "server" })
    expect(spanOf(off, "SELECT bookings", { kind: "client", parent: unsampled }).sampled).toBe(false)
  })

  it("a statement's summary is its operation and first table, read off the text alone", () => {
    expect(summaryOf("SELECT id FROM bookings WHERE id = $1")).toEqual({
      operation: "SELECT",
      summary: "SELECT bookings"
    })
    expect(summaryOf("\n  INSERT INTO webhook_deliveries (id) VALUES ($1)").summary).toBe("INSERT webhook_deliveries")
    expect(summaryOf("UPDATE webhook_endpoints SET status = $1").summary).toBe("UPDATE webhook_endpoints")
    expect(summaryOf("BEGIN").summary).toBe("BEGIN")
  })
})
