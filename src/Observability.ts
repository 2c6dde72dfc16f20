import { randomUUID } from "node:crypto"
import { Effect, Metric, type MetricKey, MetricKeyType, MetricLabel, MetricState, Option } from "effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { LogFields, requestIdOf, setRequestId } from "./Logging.js"
import { httpDuration, httpRequests } from "./Metrics.js"
import { pathOf, type Route } from "./Routes.js"

/** Route labels are the Api's own templates, a closed set, so they cannot grow without bound. */
export const routeLabeller = (routes: ReadonlyArray<Route>) => (url: string) => {
  const path = pathOf(url)
  return routes.find((route) => route.pattern.test(path))?.template ?? "unmatched"
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

const noLabels: ReadonlyArray<MetricLabel.MetricLabel> = []

/** X-Request-Id on every answer: the id requestObservability gave the request. */
export const requestIdHeader = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
) => {
  const requestId = requestIdOf(request)
  return Effect.succeed(
    requestId === undefined ? response : HttpServerResponse.setHeader(response, "x-request-id", requestId)
  )
}

/**
 * Every request gets an id (the caller's X-Request-Id when it is a plain token, else a new
 * one), returned as X-Request-Id (`requestIdHeader`) and named by every log line of the request
 * (see jsonLogger). One access line per request names route, method, status and duration: never
 * the query string or body, so no personal data reaches the log.
 *
 * It writes nothing to the request's fiber: the id is kept against the request's source
 * (Logging.ts), where the header and the loggers find it, and the access line's fields are its
 * own (LogFields), since a fiber-ref write copies every fiber ref the request has.
 */
export const requestObservability = (routes: ReadonlyArray<Route>) => {
  const routeOf = routeLabeller(routes)
  // The tagged metrics of each route, method and status, made once: tagging hashes the labels.
  // Methods are the client's to choose, so only a bounded number of combinations is kept.
  const tagged = new Map<
    string,
    { readonly requests: Metric.Metric.Counter<number>; readonly duration: Metric.Metric.Histogram<number> }
  >()
  const metricsOf = (route: string, method: string, status: number) => {
    const key = `${route} ${method} ${status}`
    let metrics = tagged.get(key)
    if (metrics === undefined) {
      const labels = [MetricLabel.make("route", route), MetricLabel.make("method", method)]
      metrics = {
        requests: Metric.taggedWithLabels(httpRequests, [...labels, MetricLabel.make("status", String(status))]),
        duration: Metric.taggedWithLabels(httpDuration, labels)
      }
      if (tagged.size < 1000) tagged.set(key, metrics)
    }
    return metrics
  }
  return HttpMiddleware.make((app) =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const incoming = request.headers["x-request-id"]
      setRequestId(request, incoming !== undefined && requestIdPattern.test(incoming) ? incoming : randomUUID())
      const route = routeOf(request.url)
      const started = performance.now()
      return Effect.onExit(app, (exit) => {
        const status = exit._tag === "Success" ? exit.value.status : 500
        const seconds = (performance.now() - started) / 1000
        const { requests, duration } = metricsOf(route, request.method, status)
        // Updated in place, as Metric.increment and Metric.update would with no fiber labels set
        // (none are): three effects per request fewer.
        requests.unsafeUpdate(1, noLabels)
        duration.unsafeUpdate(seconds, noLabels)
        return Effect.logInfo(
          "request",
          new LogFields({ method: request.method, route, status, duration_ms: Math.round(seconds * 1000) })
        )
      })
    })
  )
}

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

const labelText = (
  labels: ReadonlyArray<MetricLabel.MetricLabel>,
  extra: ReadonlyArray<readonly [string, string]> = []
) => {
  const all = [...labels.map((label) => [label.key, label.value] as const), ...extra]
  return all.length === 0 ? "" : `{${all.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(",")}}`
}

/** Effect's fiber lifetimes: a histogram in milliseconds with 32 buckets, of no use to an operator. */
const leftOut = new Set(["effect_fiber_lifetimes"])

/**
 * How Prometheus names an Effect metric: a counter that only goes up ends in `_total`, one that
 * goes both ways (effect_fiber_active) is a gauge.
 */
const exposedAs = (key: MetricKey.MetricKey.Untyped, state: MetricState.MetricState.Untyped) => {
  if (MetricState.isHistogramState(state)) return { name: key.name, type: "histogram" }
  if (MetricState.isCounterState(state) && MetricKeyType.isCounterKey(key.keyType) && key.keyType.incremental) {
    return { name: key.name.endsWith("_total") ? key.name : `${key.name}_total`, type: "counter" }
  }
  return { name: key.name, type: "gauge" }
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

/** The Prometheus text exposition format (0.0.4) of every metric of this process. */
export const prometheusText = Effect.zipWith(Metric.snapshot, processMetrics, (pairs, lines) => {
  const byName = new Map<string, Array<(typeof pairs)[number]>>()
  for (const pair of pairs) {
    if (leftOut.has(pair.metricKey.name)) continue
    const list = byName.get(pair.metricKey.name) ?? []
    list.push(pair)
    byName.set(pair.metricKey.name, list)
  }
  for (const list of [...byName.values()].sort(([a], [b]) => a!.metricKey.name.localeCompare(b!.metricKey.name))) {
    const first = list[0]!
    const { name, type } = exposedAs(first.metricKey, first.metricState)
    const help = Option.getOrElse(first.metricKey.description, () => name)
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
    for (const { metricKey, metricState } of list) {
      if (MetricState.isCounterState(metricState))
        lines.push(`${name}${labelText(metricKey.tags)} ${metricState.count}`)
      else if (MetricState.isGaugeState(metricState))
        lines.push(`${name}${labelText(metricKey.tags)} ${metricState.value}`)
      else if (MetricState.isHistogramState(metricState)) {
        for (const [boundary, count] of metricState.buckets) {
          const le = Number.isFinite(boundary) ? String(boundary) : "+Inf"
          lines.push(`${name}_bucket${labelText(metricKey.tags, [["le", le]])} ${count}`)
        }
        if (!metricState.buckets.some(([boundary]) => !Number.isFinite(boundary))) {
          lines.push(`${name}_bucket${labelText(metricKey.tags, [["le", "+Inf"]])} ${metricState.count}`)
        }
        lines.push(`${name}_sum${labelText(metricKey.tags)} ${metricState.sum}`)
        lines.push(`${name}_count${labelText(metricKey.tags)} ${metricState.count}`)
      }
    }
  }
  return `${lines.join("\n")}\n`
})
