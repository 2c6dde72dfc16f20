import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Schema, Tracer } from "effect"
import { TestClock } from "effect/testing"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { jsonLogger } from "../../src/Http/Logging.js"
import { routeLabeller } from "../../src/Http/Observability.js"
import { servedRoutes } from "../../src/Http.js"
import {
  answer,
  apiClient,
  confirmAnswer,
  getText,
  payloadOf,
  postJson,
  requestAnswer,
  searchBodyFor
} from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "partner-observed-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

/** Every log line the app writes during the test, as LOG_FORMAT=json prints it. */
const lines: Array<string> = []
const collector = Logger.layer([
  Logger.map(jsonLogger, (line) => {
    lines.push(line)
  })
])

/**
 * The value of one series in a /metrics text, 0 when absent. Effect's metrics are one registry per
 * process, and test files share their fork, so a test counts what its own requests added to it.
 */
const seriesValue = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

/** The /metrics text before the flow of the first test, which the second one counts from. */
let metricsBefore = ""

const customer = { name: "Greta Gustafsson", phone: "+46 70 555 12 34", email: "greta.gustafsson@example.se" }
const street = "Hornsgatan 128"

/** /metrics through the typed client (with `bearer`, its token), read by `answer`. */
const metrics = (bearer?: string) =>
  Effect.flatMap(apiClient(bearer), (client) =>
    answer(Schema.String)(client.health.metrics({ responseMode: "decoded-and-response" }))
  )
const metricsText = () => Effect.flatMap(apiClient(), (client) => client.health.metrics())

describe("observability", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }).pipe(Layer.provide(collector)))((it) => {
    it.effect("a search, confirm and request flow logs with request ids and without any personal data", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        metricsBefore = yield* metricsText()
        lines.length = 0
        const search = yield* postJson("/api/public/booking-options", searchBodyFor("nästa vecka", "118 25"), {
          "x-request-id": "trace-4711"
        })
        expect(search.status).toBe(200)
        expect(search.headers["x-request-id"]).toBe("trace-4711")
        const option = search.body.options[0]
        const confirmBody = {
          booking_option_id: option.booking_option_id,
          customer,
          service_location: { country_code: "SE", address: street, postcode: "118 25" },
          user_consent_confirmed: true,
          booking_terms_accepted: true,
          booking_terms_version: option.terms.version,
          booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
          idempotency_key: "observed-1"
        }
        const confirm = yield* postJson("/api/public/bookings", confirmBody, auth)
        expect(confirm.status).toBe(201)
        expect(confirm.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/)
        const someoneElse = { name: "Bertil Holm", phone: "+46 70 555 12 12", email: "bertil.holm@example.se" }
        const taken = yield* confirmAnswer(
          { ...confirmBody, customer: someoneElse, idempotency_key: "observed-2" },
          token
        )
        expect(taken.body.error).toBe("slot_taken")
        const request = yield* requestAnswer(
          {
            vertical_id: "vvs",
            job_type_id: "leak_hidden",
            description: "Fuktfläck i taket under badrummet.",
            user_consent_confirmed: true,
            customer,
            location: { address: street, postcode: "118 25" },
            timing: { urgency: "snarast" }
          },
          token
        )
        expect(request.status).toBe(201)
        const refused = yield* postJson("/api/public/bookings", { customer }, auth)
        expect(refused.status).toBe(400)

        const log = lines.join("\n")
        const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
        for (const entry of entries) {
          expect(entry).toMatchObject({
            time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            level: expect.stringMatching(/^(debug|info|warn|error|fatal)$/),
            msg: expect.any(String)
          })
          for (const value of Object.values(entry)) expect(typeof value).not.toBe("object")
        }
        expect(entries).toContainEqual({
          time: expect.any(String),
          level: "info",
          msg: "request",
          request_id: "trace-4711",
          method: "POST",
          route: "/api/public/booking-options",
          status: 200,
          duration_ms: expect.any(Number)
        })
        expect(log).toContain('"route":"/api/public/bookings"')
        for (const secret of [
          "Greta",
          "Gustafsson",
          "555 12 34",
          "greta.gustafsson@example.se",
          "Hornsgatan",
          "Bertil"
        ]) {
          expect(log).not.toContain(secret)
        }
      })
    )

    it.effect("/metrics speaks the Prometheus text format with requests, latency, bookings and conflicts", () =>
      Effect.gen(function* () {
        const response = yield* getText("/metrics")
        expect(response.status).toBe(200)
        expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/)
        const text = response.text
        expect(text).toContain("# TYPE http_requests_total counter")
        expect(text).toContain("# TYPE http_request_duration_seconds histogram")
        const added = (series: string) => seriesValue(text, series) - seriesValue(metricsBefore, series)
        expect({
          confirmed: added('http_requests_total{route="/api/public/bookings",method="POST",status="201"}'),
          refused: added('http_requests_total{route="/api/public/bookings",method="POST",status="400"}'),
          searched: added(
            'http_request_duration_seconds_bucket{route="/api/public/booking-options",method="POST",le="+Inf"}'
          ),
          bookings: added("bookings_confirmed_total"),
          conflicts: added('booking_conflicts_total{code="slot_taken"}')
        }).toEqual({ confirmed: 1, refused: 1, searched: 1, bookings: 1, conflicts: 1 })
        // A label value is quoted and may hold braces (route="/api/public/bookings/{booking_id}").
        const label = String.raw`[a-z_]+="(?:[^"\\\n]|\\.)*"`
        const sample = new RegExp(String.raw`^[a-z_]+(\{${label}(,${label})*\})? [0-9.e+-]+$`)
        for (const line of text.split("\n").filter((l) => l.length > 0 && !l.startsWith("#"))) {
          expect(line).toMatch(sample)
        }
      })
    )
  })

  it.effect("every business counter is exported from the start, and only counters end in _total", () =>
    Effect.gen(function* () {
      const text = yield* metricsText()
      for (const series of [
        "bookings_confirmed_total",
        'booking_conflicts_total{code="slot_taken"}',
        'booking_conflicts_total{code="idempotency_key_reused"}',
        'notifications_total{channel="email",outcome="failed"}',
        'notifications_total{channel="none",outcome="skipped"}',
        'rate_limited_total{endpoint="requests"}',
        "rate_limit_store_failures_total",
        "process_resident_memory_bytes"
      ]) {
        expect(text).toMatch(new RegExp(`^${series.replace(/[{}]/g, "\\$&")} \\d`, "m"))
      }
      for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        expect(`${name} ${type}`).toMatch(type === "counter" ? /_total counter$/ : /(?<!_total) \w+$/)
      }
      expect(text).toContain("# TYPE effect_fiber_active gauge")
    }).pipe(Effect.provide(TestServer()))
  )

  it.effect(
    "with METRICS_TOKEN /metrics answers that bearer token only; production without it does not serve /metrics",
    () =>
      Effect.gen(function* () {
        const metricsToken = "metrics-token-0123456789abcdef"
        const statuses = yield* Effect.forEach([undefined, "wrong-token", metricsToken], (bearer) =>
          Effect.map(metrics(bearer), (response) => response.status)
        ).pipe(Effect.provide(TestServer({ env: { METRICS_TOKEN: metricsToken } })))
        expect(statuses).toEqual([401, 401, 200])
        const production = yield* metrics().pipe(
          Effect.provide(
            TestServer({
              env: {
                APP_ENV: "production",
                DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
                PUBLIC_BASE_URL: "https://api.example.se"
              }
            })
          )
        )
        expect(production).toMatchObject({ status: 404, body: { error: "not_found" } })
      })
  )

  it.effect("no span is recorded while serving: nothing exports them, so they are made as no-ops", () =>
    Effect.gen(function* () {
      const recorded: Array<string> = []
      const recording = Layer.unwrap(
        Effect.map(Tracer.Tracer, (native: Tracer.Tracer) =>
          Layer.succeed(
            Tracer.Tracer,
            Tracer.make({
              ...native,
              span: (options) => {
                recorded.push(options.name)
                return native.span(options)
              }
            })
          )
        )
      )
      const search = yield* Effect.suspend(() => {
        // Building the database and its migrations may record spans; serving is what counts.
        recorded.length = 0
        return Effect.flatMap(apiClient(token), (client) =>
          client.search.search({
            payload: payloadOf(BookingSearchRequest)({
              vertical_id: "vvs",
              job_type_id: "install_faucet",
              description: "Byta köksblandaren",
              location: { country_code: "SE", postcode: "118 25" },
              timing: { preferred_time_text: "nästa vecka" }
            })
          })
        )
      }).pipe(
        Effect.provide(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }).pipe(Layer.provide(recording)))
      )
      expect(search.option_count).toBeGreaterThan(0)
      expect(recorded).toEqual([])
    })
  )

  it("route labels are the Api's own templates, a closed set", () => {
    const routeOf = routeLabeller(servedRoutes)
    expect(routeOf("/api/public/bookings/0b6c3d4e-1f2a?x=1")).toBe("/api/public/bookings/{booking_id}")
    expect(routeOf("/api/public/booking-options")).toBe("/api/public/booking-options")
    expect(routeOf("/wp-admin/login.php")).toBe("unmatched")
    expect(routeOf("/metrics")).toBe("/metrics")
  })
})
