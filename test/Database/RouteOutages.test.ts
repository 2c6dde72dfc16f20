import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Redacted } from "effect"
import { HttpClientRequest } from "effect/http"
import { TestClock } from "effect/testing"
import { pgClientLayer } from "../../src/Database/Database.js"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { addressOf, DatabaseProxy, FaultyDatabaseLive, freezableProxy, makeDatabase } from "../support/Database.js"
import { call, confirmAnswer, searchBody, searchOptions, shortConfirmBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const partnerToken = "route-outage-partner-token-0123"
const providerId = "soderlunds-vvs-sthlm"
const env = { SERVICE_REQUESTS_API_TOKENS: partnerToken }

interface Ids {
  readonly webhook: string
  readonly delivery: string
  readonly block: string
  readonly booking: string
}

/** What an answer may say: a read changes nothing; a change says it did not happen, or that it is not known. */
interface Route {
  readonly name: string
  readonly method: "GET" | "POST" | "PUT" | "DELETE"
  readonly path: (ids: Ids) => string
  readonly body?: unknown
  readonly who: "partner" | "provider"
  readonly error?: string
  readonly said: ReadonlyArray<RegExp>
}

const read = /could not be read; nothing was changed/
const unknown = /it is not known whether/

const routes: ReadonlyArray<Route> = [
  {
    name: "webhooks.create",
    method: "POST",
    path: () => "/api/public/webhooks",
    body: { url: "http://127.0.0.1:9/hook" },
    who: "partner",
    said: [/nothing was registered/, /not known whether the webhook was registered.*list your webhooks/]
  },
  { name: "webhooks.list", method: "GET", path: () => "/api/public/webhooks", who: "partner", said: [read] },
  {
    name: "webhooks.remove",
    method: "DELETE",
    path: (ids) => `/api/public/webhooks/${ids.webhook}`,
    who: "partner",
    said: [/nothing was deleted/, /not known whether webhook .* was deleted/]
  },
  {
    name: "webhooks.rotateSecret",
    method: "POST",
    path: (ids) => `/api/public/webhooks/${ids.webhook}/rotate-secret`,
    who: "partner",
    said: [/secret was not rotated/, /not known whether the secret was rotated.*rotate again/]
  },
  {
    name: "webhooks.test",
    method: "POST",
    path: (ids) => `/api/public/webhooks/${ids.webhook}/test`,
    who: "partner",
    said: [/no test delivery was queued/, /not known whether a test delivery was queued/]
  },
  {
    name: "webhooks.deliveries",
    method: "GET",
    path: (ids) => `/api/public/webhooks/${ids.webhook}/deliveries`,
    who: "partner",
    said: [read]
  },
  {
    name: "webhooks.retry",
    method: "POST",
    path: (ids) => `/api/public/webhooks/${ids.webhook}/deliveries/${ids.delivery}/retry`,
    who: "partner",
    said: [/delivery was not made due again/, /not known whether the delivery was made due again/]
  },
  { name: "provider.bookings", method: "GET", path: () => "/api/provider/bookings", who: "provider", said: [read] },
  {
    name: "provider.cancelBooking",
    method: "POST",
    path: (ids) => `/api/provider/bookings/${ids.booking}/cancel`,
    body: { reason: "Sjuk", idempotency_key: "outage-cancel" },
    who: "provider",
    error: "booking_unavailable",
    said: [/nothing was cancelled/, /cannot confirm that the booking is cancelled/]
  },
  {
    name: "provider.createBlock",
    method: "POST",
    path: () => "/api/provider/blocks",
    body: { start_at: "2026-12-02T12:00:00+01:00", end_at: "2026-12-02T13:00:00+01:00" },
    who: "provider",
    said: [/nothing was blocked/, /not known whether the time was blocked.*list your blocks/]
  },
  { name: "provider.blocks", method: "GET", path: () => "/api/provider/blocks", who: "provider", said: [read] },
  {
    name: "provider.deleteBlock",
    method: "DELETE",
    path: (ids) => `/api/provider/blocks/${ids.block}`,
    who: "provider",
    said: [/nothing was deleted/, /not known whether block .* was deleted/]
  },
  {
    name: "provider.workingHours",
    method: "GET",
    path: () => "/api/provider/working-hours",
    who: "provider",
    said: [read]
  },
  {
    name: "provider.setWorkingHours",
    method: "PUT",
    path: () => "/api/provider/working-hours",
    body: { weekly_hours: [{ iso_weekday: 1, opens: "08:00", closes: "16:00" }], dates_off: [] },
    who: "provider",
    said: [/working hours were not changed/, /not known whether your new working hours were saved.*twice is safe/]
  },
  {
    name: "provider.calendarFeed",
    method: "GET",
    path: () => "/api/provider/calendar-feed",
    who: "provider",
    said: [/feed address could not be read; nothing was changed/, /Ask again .*your one feed address/]
  },
  {
    name: "provider.rotateCalendarFeed",
    method: "POST",
    path: () => "/api/provider/calendar-feed/rotate",
    who: "provider",
    said: [/feed was not rotated/, /not known whether the feed was rotated/]
  },
  {
    name: "provider.revokeCalendarFeed",
    method: "DELETE",
    path: () => "/api/provider/calendar-feed",
    who: "provider",
    said: [/nothing was revoked/, /not known whether the feed address was revoked/]
  },
  {
    name: "provider.setCalendarImport",
    method: "PUT",
    path: () => "/api/provider/calendar-import",
    body: { url: "http://127.0.0.1:9/private.ics" },
    who: "provider",
    said: [/address was not registered/, /not known whether the address was registered.*twice is safe/]
  },
  {
    name: "provider.calendarImport",
    method: "GET",
    path: () => "/api/provider/calendar-import",
    who: "provider",
    said: [read]
  },
  {
    name: "provider.removeCalendarImport",
    method: "DELETE",
    path: () => "/api/provider/calendar-import",
    who: "provider",
    said: [/nothing was stopped or freed/, /not known whether the import was stopped/]
  }
]

const send = (route: Route, ids: Ids, tokens: { readonly provider: string }) => {
  const token = route.who === "partner" ? partnerToken : tokens.provider
  const path = route.path(ids)
  const base =
    route.method === "GET"
      ? HttpClientRequest.get(path)
      : route.method === "POST"
        ? HttpClientRequest.post(path)
        : route.method === "PUT"
          ? HttpClientRequest.put(path)
          : HttpClientRequest.delete(path)
  return call(
    base.pipe(
      HttpClientRequest.setHeaders({ authorization: `Bearer ${token}` }),
      route.body === undefined ? (request) => request : HttpClientRequest.bodyJsonUnsafe(route.body)
    )
  )
}

/** The contract's 503: its error body, Retry-After, and a step that is one of the route's true statements. */
const expectOutageAnswer = (route: Route, answer: { status: number; body: any; headers: any }) => {
  expect(answer.status, `${route.name}: ${JSON.stringify(answer.body)}`).toBe(503)
  expect(answer.body).toMatchObject({ ok: false, status: 503, error: route.error ?? "database_unavailable" })
  expect(answer.headers["retry-after"]).toMatch(/^\d+$/)
  const step: string = answer.body.safe_next_step
  expect(
    route.said.some((statement) => statement.test(step)),
    `${route.name}: ${step}`
  ).toBe(true)
}

/** What every route is about, made while the database answers: a webhook and its delivery, a booking, a block. */
const setUp = Effect.gen(function* () {
  const { token } = yield* Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(providerId)).pipe(
    Effect.provide(ProviderTokens.Default),
    Effect.orDie
  )
  const partner = { authorization: `Bearer ${partnerToken}` }
  const provider = { authorization: `Bearer ${token}` }
  const webhook = yield* call(
    HttpClientRequest.post("/api/public/webhooks").pipe(
      HttpClientRequest.setHeaders(partner),
      HttpClientRequest.bodyJsonUnsafe({ url: "http://127.0.0.1:9/hook" })
    )
  )
  expect(webhook.status).toBe(201)
  const tested = yield* call(
    HttpClientRequest.post(`/api/public/webhooks/${webhook.body.webhook.id}/test`).pipe(
      HttpClientRequest.setHeaders(partner)
    )
  )
  expect(tested.status).toBe(202)
  const block = yield* call(
    HttpClientRequest.post("/api/provider/blocks").pipe(
      HttpClientRequest.setHeaders(provider),
      HttpClientRequest.bodyJsonUnsafe({ start_at: "2026-12-03T12:00:00+01:00", end_at: "2026-12-03T13:00:00+01:00" })
    )
  )
  expect(block.status).toBe(201)
  yield* TestClock.setTime(testNow)
  const options = (yield* searchOptions(searchBody)).filter((option) => option.provider.id === providerId)
  const booked = yield* confirmAnswer(shortConfirmBody(options[0], "route-outage-booking"), partnerToken)
  expect(booked.status).toBe(201)
  const ids: Ids = {
    webhook: webhook.body.webhook.id,
    delivery: tested.body.delivery.id,
    block: block.body.block.id,
    booking: booked.body.booking.id
  }
  return { ids, tokens: { provider: token } }
})

/** Effect 4's TestClock does not list its sleepers: a little real time lets a request reach its next wait. */
const settle = Effect.gen(function* () {
  for (let i = 0; i < 10; i++) yield* TestClock.withLive(Effect.sleep("10 millis"))
})

/** The production bounds: a connection within 2 s, a statement within 3 s, a silent server given up 0.5 s later. */
const bounds = { connectTimeoutMs: 2000, statementTimeoutMs: 3000, maxConnections: 30 }

describe("webhook management and the provider API during a database outage", () => {
  it.effect(
    "while the database is frozen, every route answers 503 with the contract's body and a true step when the 5.5 s budget is spent",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const proxy = yield* freezableProxy(addressOf(url))
        const app = yield* Layer.build(
          TestServer({
            database: pgClientLayer(Redacted.make(proxy.urlFor(url)), bounds).pipe(
              Layer.orDie,
              Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue()))
            ),
            env,
            loops: "none"
          })
        )
        yield* Effect.addFinalizer(() => Effect.sync(proxy.thaw))
        yield* Effect.provide(
          Effect.gen(function* () {
            const { ids, tokens } = yield* setUp
            proxy.freeze()
            for (const [index, route] of routes.entries()) {
              const answering = yield* Effect.forkChild(send(route, ids, tokens))
              yield* settle
              if (index === 0) {
                // Unanswered until the budget is spent, not answered by a statement's own bound later.
                yield* TestClock.adjust("5499 millis")
                yield* settle
                expect(answering.pollUnsafe()).toBeUndefined()
                yield* TestClock.adjust("1 millis")
              } else yield* TestClock.adjust("5500 millis")
              const answer = yield* Fiber.join(answering).pipe(Effect.timeout("1 second"), TestClock.withLive)
              expectOutageAnswer(route, answer)
            }
          }),
          app
        )
      }).pipe(Effect.scoped),
    60_000
  )

  it.effect(
    "while PostgreSQL refuses every connection, every route answers 503 at once and says nothing was changed",
    () =>
      Effect.gen(function* () {
        const faults = yield* DatabaseProxy
        const { ids, tokens } = yield* setUp
        yield* faults.outage
        for (const route of routes) {
          const answer = yield* send(route, ids, tokens)
          expectOutageAnswer(route, answer)
          expect(answer.body.safe_next_step, route.name).not.toMatch(unknown)
        }
        yield* faults.restore
      }).pipe(Effect.provide(TestServer({ database: FaultyDatabaseLive, env, loops: "none" })), Effect.scoped),
    60_000
  )
})
