import { randomUUID } from "node:crypto"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Cause, Context, Effect, Metric, Option } from "effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import { tracedRequest } from "../Tracing/RequestSpan.js"
import { LogFields, setRequestId } from "./Logging.js"
import { httpDuration, httpRequests } from "./Metrics.js"
import { pathOf, type Route } from "./Routes.js"

/** Route labels are the Api's own templates, a closed set, so they cannot grow without bound. */
export const routeLabeller = (routes: ReadonlyArray<Route>) => (url: string) => {
  const path = pathOf(url)
  return routes.find((route) => route.pattern.test(path))?.template ?? "unmatched"
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

/** nginx's code for a request whose client closed the connection before the answer. */
export const clientClosedRequest = 499

/**
 * The status a request that ended without a response of its own is counted and logged with: the
 * one the platform answers (499 when it saw the client leave, carried as a defect), or for a
 * bare interruption 499 when the client's connection is gone (a body read cut short) and 503
 * when the server stopped it; 500 only for what is left.
 */
const failedStatus = (cause: Cause.Cause<unknown>, request: HttpServerRequest.HttpServerRequest) => {
  if (!Cause.hasInterruptsOnly(cause)) return HttpServerError.causeResponseStripped(cause)[0].status
  const clientLeft =
    Option.isSome(Context.getOption(Cause.annotations(cause), HttpServerError.ClientAbort)) ||
    NodeHttpServerRequest.toIncomingMessage(request).socket?.destroyed === true
  return clientLeft ? clientClosedRequest : 503
}

/**
 * Every request gets an id (the caller's X-Request-Id when it is a plain token, else a new
 * one), returned as X-Request-Id (src/Http.ts) and named by every log line of the request
 * (see jsonLogger). One access line per request names route, method, status and duration: never
 * the query string or body, so no personal data reaches the log.
 *
 * It writes nothing to the request's fiber: the id is kept against the request's source
 * (Logging.ts), where the header and the loggers find it, and the access line's fields are its
 * own (LogFields), since a fiber-ref write copies every fiber ref the request has.
 *
 * `traced` (tracing is on) gives each request a server span (Tracing/RequestSpan.ts) and the
 * access line its `trace_id`; off, none of that code is on the request's path.
 */
export const requestObservability = (routes: ReadonlyArray<Route>, options?: { readonly traced?: boolean }) => {
  const routeOf = routeLabeller(routes)
  // The tagged metrics of each route, method and status, made once: tagging hashes the labels.
  // Methods are the client's to choose, so only a bounded number of combinations is kept.
  const tagged = new Map<
    string,
    { readonly requests: Metric.Counter<number>; readonly duration: Metric.Histogram<number> }
  >()
  const metricsOf = (route: string, method: string, status: number) => {
    const key = `${route} ${method} ${status}`
    let metrics = tagged.get(key)
    if (metrics === undefined) {
      metrics = {
        requests: Metric.withAttributes(httpRequests, { route, method, status: String(status) }),
        duration: Metric.withAttributes(httpDuration, { route, method })
      }
      if (tagged.size < 1000) tagged.set(key, metrics)
    }
    return metrics
  }
  const observe = <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
    request: HttpServerRequest.HttpServerRequest,
    route: string,
    finish?: (status: number) => string
    // The platform's middleware type leaves what a middleware requires open, as Effect.contextWith does.
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, any> => {
    const started = performance.now()
    return Effect.onExit(app, (exit) =>
      Effect.contextWith((context: Context.Context<any>) => {
        const status = exit._tag === "Success" ? exit.value.status : failedStatus(exit.cause, request)
        const seconds = (performance.now() - started) / 1000
        const { requests, duration } = metricsOf(route, request.method, status)
        // Updated in place, as Metric.update does: two effects per request fewer.
        requests.updateUnsafe(1, context)
        duration.updateUnsafe(seconds, context)
        const fields = { method: request.method, route, status, duration_ms: Math.round(seconds * 1000) }
        return Effect.logInfo(
          "request",
          new LogFields(finish === undefined ? fields : { ...fields, trace_id: finish(status) })
        )
      })
    )
  }
  return HttpMiddleware.make((app) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const incoming = request.headers["x-request-id"]
      setRequestId(request, incoming !== undefined && requestIdPattern.test(incoming) ? incoming : randomUUID())
      const route = routeOf(request.url)
      return options?.traced
        ? tracedRequest(request, route, app, (traced, finish) => observe(traced, request, route, finish))
        : observe(app, request, route)
    })
  )
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

const labelText = (
  attributes: Metric.Metric.AttributeSet | undefined,
  extra: ReadonlyArray<readonly [string, string]> = []
) => {
  const all = [...Object.entries(attributes ?? {}).map(([key, value]) => [key, String(value)] as const), ...extra]
  return all.length === 0 ? "" : `{${all.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(",")}}`
}

/**
 * Effect counts its fibers as child_fibers_* (Metric.enableRuntimeMetrics); the series keep the
 * effect_fiber_* names dashboards and alerts read.
 */
const renamed: Readonly<Record<string, string>> = {
  child_fibers_active: "effect_fiber_active",
  child_fibers_started: "effect_fiber_started",
  child_fiber_successes: "effect_fiber_successes",
  child_fiber_failures: "effect_fiber_failures"
}

/** A counter that only goes up ends in `_total`; one that goes both ways is a gauge. */
const exposedAs = (snapshot: Metric.Metric.Snapshot) => {
  const name = renamed[snapshot.id] ?? snapshot.id
  const help = snapshot.id in renamed ? name : (snapshot.description ?? name)
  if (snapshot.type === "Histogram") return { name, help, type: "histogram" }
  if (snapshot.type === "Counter" && snapshot.state.incremental) {
    const counter = name.endsWith("_total") ? name : `${name}_total`
    return { name: counter, help: snapshot.id in renamed ? counter : help, type: "counter" }
  }
  return { name, help, type: "gauge" }
}

const startTimeSeconds = Math.round(Date.now() / 1000 - process.uptime())

/** The standard process metrics, as Prometheus's own client libraries name them. */
const processMetrics = Effect.sync(() => {
  const cpu = process.cpuUsage()
  return [
    "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds",
    "# TYPE process_cpu_seconds_total counter",
    `process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`,
    "# HELP process_resident_memory_bytes Resident memory size in bytes",
    "# TYPE process_resident_memory_bytes gauge",
    `process_resident_memory_bytes ${process.memoryUsage.rss()}`,
    "# HELP process_start_time_seconds Start time of the process since unix epoch in seconds",
    "# TYPE process_start_time_seconds gauge",
    `process_start_time_seconds ${startTimeSeconds}`
  ]
})

/**
 * The Prometheus text exposition format (0.0.4) of every metric of this process. Effect 4's own
 * writer (PrometheusMetrics.format) would name the fiber series child_fibers_* and leave out the
 * process_* series, so this one stays, reading Effect's snapshot.
 */
export const prometheusText = Effect.zipWith(Metric.snapshot, processMetrics, (snapshots, lines) => {
  const byName = new Map<string, Array<Metric.Metric.Snapshot>>()
  for (const snapshot of snapshots) {
    const list = byName.get(snapshot.id) ?? []
    list.push(snapshot)
    byName.set(snapshot.id, list)
  }
  const families = [...byName.values()].map((list) => ({ list, ...exposedAs(list[0]!) }))
  for (const { list, name, help, type } of families.sort((a, b) => a.name.localeCompare(b.name))) {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
    for (const snapshot of list) {
      if (snapshot.type === "Counter") lines.push(`${name}${labelText(snapshot.attributes)} ${snapshot.state.count}`)
      else if (snapshot.type === "Gauge") lines.push(`${name}${labelText(snapshot.attributes)} ${snapshot.state.value}`)
      else if (snapshot.type === "Histogram") {
        const { buckets, count, sum } = snapshot.state
        for (const [boundary, bucketCount] of buckets) {
          const le = Number.isFinite(boundary) ? String(boundary) : "+Inf"
          lines.push(`${name}_bucket${labelText(snapshot.attributes, [["le", le]])} ${bucketCount}`)
        }
        if (!buckets.some(([boundary]) => !Number.isFinite(boundary))) {
          lines.push(`${name}_bucket${labelText(snapshot.attributes, [["le", "+Inf"]])} ${count}`)
        }
        lines.push(`${name}_sum${labelText(snapshot.attributes)} ${sum}`)
        lines.push(`${name}_count${labelText(snapshot.attributes)} ${count}`)
      }
    }
  }
  return `${lines.join("\n")}\n`
})
