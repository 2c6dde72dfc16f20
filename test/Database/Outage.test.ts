import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { DatabaseProxy, FaultyDatabaseLive } from "../support/Database.js"
import {
  apiClient,
  confirmAnswer,
  get,
  postJson,
  searchBody,
  searchOptions,
  shortConfirmBody
} from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "outage-partner-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

const request = {
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
  user_consent_confirmed: true,
  customer: { name: "Karin Berg", phone: "+46 70 765 43 21", email: "karin.berg@example.se" },
  location: { postcode: "111 34" },
  timing: { preferred_time_text: "så snart som möjligt" }
}

let keys = 0
const confirmBody = (option: any, key = `outage-${++keys}`) => shortConfirmBody(option, key)

/** Raw, for the 503s: their Retry-After header is part of the answer. */
const search = Effect.andThen(TestClock.setTime(testNow), postJson("/api/public/booking-options", searchBody))
const options = Effect.andThen(TestClock.setTime(testNow), searchOptions(searchBody))
const confirm = (body: unknown) => confirmAnswer(body, token)
const bookingStatus = (id: string) =>
  Effect.flatMap(apiClient(token), (client) => client.bookings.status({ params: { booking_id: id } }))

/** What no answer during an outage may ever say. */
const neverClaimsNothingBooked = (response: { readonly body: any }) => {
  expect(response.body.safe_next_step).not.toMatch(/^Nothing was booked\./)
  expect(response.body.safe_next_step).not.toMatch(/nothing (is|was) booked\. Retry/i)
}

const bookingCount = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ n: number }>`SELECT count(*)::int AS n FROM bookings`.pipe(Effect.map((rows) => rows[0]!.n))
)

/** Every log line of the app, as the JSON logger prints it: failures must not quote personal data. */
const lines: Array<string> = []
const collector = Logger.layer([
  Logger.map(Logger.formatJson, (line) => {
    lines.push(line)
  })
])
const personalData = /Astrid|Lindqvist|Karin|Berg\b|123 45 67|765 43 21|example\.se|Drottninggatan/

const expectNoPersonalDataLogged = () => {
  expect(
    lines.some((line) => /booking persistence failed|request persistence failed|search could not/.test(line))
  ).toBe(true)
  expect(lines.join("\n")).not.toMatch(personalData)
}

describe("database outages: outcomes are never claimed without knowing them", () => {
  it.layer(
    TestServer({ database: FaultyDatabaseLive, env: { SERVICE_REQUESTS_API_TOKENS: token } }).pipe(
      Layer.provide(collector)
    )
  )((it) => {
    it.effect("search, status, replay and request creation answer 503 with the error body and Retry-After", () =>
      Effect.gen(function* () {
        const faults = yield* DatabaseProxy
        const [option] = yield* options
        const created = yield* confirm(confirmBody(option, "made-before-outage"))
        expect(created.status).toBe(201)

        yield* faults.outage
        const searched = yield* search
        expect(searched.status).toBe(503)
        expect(searched.body).toMatchObject({ ok: false, error: "database_unavailable", status: 503 })
        expect(searched.headers["retry-after"]).toMatch(/^\d+$/)
        expect(searched.body.safe_next_step).toMatch(/A search never books anything/)

        const status = yield* get(`/api/public/bookings/${created.body.request_id}`, auth)
        expect(status.status).toBe(503)
        expect(status.headers["retry-after"]).toMatch(/^\d+$/)
        expect(status.body).toMatchObject({ ok: false, error: "booking_unavailable", status: 503 })
        expect(status.body.safe_next_step).toMatch(/says nothing about whether the booking exists/)
        neverClaimsNothingBooked(status)

        const replay = yield* confirm(confirmBody(option, "made-before-outage"))
        expect(replay.status).toBe(503)
        expect(replay.body.safe_next_step).toMatch(
          /if an earlier attempt with the same idempotency_key succeeded, that booking stands/
        )
        neverClaimsNothingBooked(replay)

        const requested = yield* postJson("/api/public/requests", request, auth)
        expect(requested.status).toBe(503)
        expect(requested.headers["retry-after"]).toMatch(/^\d+$/)
        expect(requested.body.safe_next_step).not.toMatch(/has been sent|was delivered/)

        yield* faults.restore
        const recovered = yield* bookingStatus(created.body.request_id)
        expect(recovered.found).toBe(true)
        expect(yield* options).not.toHaveLength(0)
        expectNoPersonalDataLogged()
      })
    )

    it.effect(
      "a write whose answer was lost after PostgreSQL carried it out is reported as unknown; the same key returns the booking",
      () =>
        Effect.gen(function* () {
          const faults = yield* DatabaseProxy
          const [, option] = yield* options
          const body = confirmBody(option)
          const before = yield* bookingCount
          yield* faults.loseNextWrite("after_write")
          const lost = yield* confirm(body)
          expect(lost.status, JSON.stringify(lost.body)).toBe(503)
          expect(lost.body.error).toBe("booking_unavailable")
          expect(lost.body.safe_next_step).toMatch(/^The outcome is unknown/)
          neverClaimsNothingBooked(lost)
          expect(yield* bookingCount).toBe(before + 1)

          const requestId = /GET \/api\/public\/bookings\/(bkg_[A-Za-z0-9_-]+)/.exec(lost.body.safe_next_step)?.[1]
          expect(requestId).toBeDefined()
          const looked = yield* bookingStatus(requestId!)
          expect(looked.found).toBe(true)

          const retried = yield* confirm(body)
          expect(retried.status).toBe(200)
          expect(retried.body.idempotent_replay).toBe(true)
          expect(retried.body.request_id).toBe(requestId)
          expect(yield* bookingCount).toBe(before + 1)
        })
    )

    it.effect(
      "a write lost before it reached PostgreSQL is reported as unknown too; the same key then books once",
      () =>
        Effect.gen(function* () {
          const faults = yield* DatabaseProxy
          const all = yield* options
          const body = confirmBody(all[all.length - 1])
          const before = yield* bookingCount
          yield* faults.loseNextWrite("before_write")
          const lost = yield* confirm(body)
          expect(lost.status).toBe(503)
          expect(lost.body.safe_next_step).toMatch(/^The outcome is unknown/)
          expect(yield* bookingCount).toBe(before)
          const retried = yield* confirm(body)
          expect(retried.status).toBe(201)
          expect(yield* confirm(body)).toMatchObject({ status: 200 })
          expect(yield* bookingCount).toBe(before + 1)
        })
    )
  })
})
