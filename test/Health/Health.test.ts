import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { Partners } from "../../src/Partners/Partners.js"
import { readyz } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const production = {
  APP_ENV: "production",
  // Required by the configuration; the test server's own database is what answers.
  DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
  PUBLIC_BASE_URL: "https://api.example.se"
}

const lines: Array<string> = []
const collector = Logger.layer([
  Logger.map(Logger.formatLogFmt, (line) => {
    lines.push(line)
  })
])

describe("readiness", () => {
  it.effect(
    "production with no signing key, no token and no SMTP is not ready: /readyz and the start log name each",
    () =>
      Effect.gen(function* () {
        const response = yield* readyz()
        expect(response.status).toBe(503)
        expect(response.body).toMatchObject({ ok: false, error: "not_ready", status: 503 })
        expect(response.body.issues).toEqual([
          expect.stringContaining("BOOKING_OPTION_SIGNING_KEYS is not set"),
          expect.stringContaining("no API token"),
          expect.stringContaining("SMTP_URL is not set")
        ])
        const said = lines.filter((line) => line.includes("not ready:"))
        expect(said).toHaveLength(1)
        for (const variable of ["BOOKING_OPTION_SIGNING_KEYS", "SERVICE_REQUESTS_API_TOKENS", "SMTP_URL"]) {
          expect(said[0]).toContain(variable)
        }
      }).pipe(
        Effect.provide(
          TestServer({ env: { ...production, BOOKING_OPTION_SIGNING_KEYS: "" } }).pipe(Layer.provide(collector))
        )
      )
  )

  it.effect("a partner token issued while it runs makes production ready, without a restart", () =>
    Effect.gen(function* () {
      const before = yield* readyz()
      expect(before.status).toBe(503)
      expect(before.body.issues).toEqual([expect.stringContaining("no API token")])
      const partners = yield* Effect.provide(Partners, Partners.Default)
      yield* partners.create("ready-partner", "Ready AB")
      yield* partners.issueToken("ready-partner")
      expect(yield* readyz()).toMatchObject({
        status: 200,
        body: { ok: true, database: "up", warnings: ["METRICS_TOKEN is not set: /metrics is not served"] }
      })
    }).pipe(Effect.provide(TestServer({ env: { ...production, SMTP_URL: "smtp://127.0.0.1:2525" } })))
  )
})
