import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import pg from "pg"
import { pgClientLayer } from "../../src/Database/Database.js"
import { addressOf, freezableProxy, makeDatabase } from "../support/Database.js"
import {
  apiClient,
  confirmAnswer,
  deliveriesOf,
  registerWebhook,
  searchBodyFor,
  searchOptions,
  withStatus
} from "../support/Http.js"
import { answerStatus, webhookReceiver } from "../support/Receivers.js"
import { TestServer, testNow } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const searchBody = searchBodyFor("nästa vecka")

const confirmBody = (option: any, key: string) => ({
  booking_option_id: option.booking_option_id,
  customer: { name: "Karin Berg", phone: "0701234567", email: "karin@example.se" },
  service_location: { country_code: "SE", address: "Sveavägen 44", postcode: "111 22" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: key
})

/** The production bounds: a connection within 2 s, a statement within 3 s, a silent server given up 0.5 s later. */
const bounds = { connectTimeoutMs: 2000, statementTimeoutMs: 3000, maxConnections: 4 }

/** The app on a database reached through `url`, its pool on the real clock as the harness's is. */
const appOn = (url: string, env: Record<string, string> = {}) =>
  Layer.build(
    TestServer({
      database: pgClientLayer(Redacted.make(url), bounds).pipe(
        Layer.orDie,
        Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue()))
      ),
      env
    })
  )

/** Effect 4's TestClock does not list its sleepers: a little real time lets the request reach its next wait. */
const settle = Effect.gen(function* () {
  for (let i = 0; i < 10; i++) yield* TestClock.withLive(Effect.sleep("10 millis"))
})

const findOptions = Effect.andThen(TestClock.setTime(testNow), searchOptions(searchBody))

describe("one database budget per request", () => {
  it.effect(
    "a confirm during a freeze answers 503 when the budget (5.5 s) is spent, however many statements it had left, and says this attempt booked nothing",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const proxy = yield* freezableProxy(addressOf(url))
        const app = yield* appOn(proxy.urlFor(url))
        // Before the app closes its pool, whatever the test's outcome.
        yield* Effect.addFinalizer(() => Effect.sync(proxy.thaw))
        yield* Effect.provide(
          Effect.gen(function* () {
            // Several searches at once leave several idle connections in the pool, as under load.
            const [options] = yield* Effect.all([findOptions, findOptions, findOptions], { concurrency: "unbounded" })
            const option = options![0]

            proxy.freeze()
            const confirming = yield* Effect.forkChild(confirmAnswer(confirmBody(option, "frozen-1")))
            // The offer read reaches the frozen server: from here nothing answers. Its own bound (3.5 s)
            // ends on the real clock, where the driver waits for the socket to be given up; the budget
            // ends the request at 5.5 s whatever is still waiting, and the key look-up is not even sent.
            while (proxy.held() === 0) yield* TestClock.withLive(Effect.sleep("5 millis"))
            yield* TestClock.adjust("5499 millis")
            yield* settle
            expect(confirming.pollUnsafe()).toBeUndefined()
            yield* TestClock.adjust("1 millis")
            // Answered now, not when a statement's own bound (on the real clock too) runs out later.
            const answer = yield* Fiber.join(confirming).pipe(Effect.timeout("1 second"), TestClock.withLive)
            expect(answer.status).toBe(503)
            expect(answer.body).toMatchObject({ ok: false, error: "booking_unavailable" })
            expect(answer.body.safe_next_step).toMatch(
              /This attempt booked nothing; if an earlier attempt with the same idempotency_key succeeded, that booking stands/
            )
          }),
          app
        )
      }).pipe(Effect.scoped),
    30_000
  )

  it.effect(
    "a write still unanswered when the budget is spent is answered as unknown, and a retry under the same key returns the one booking",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        yield* Effect.provide(
          Effect.gen(function* () {
            const [option] = yield* findOptions
            // Another session holds the bookings table: the confirm's one writing statement waits on it.
            const holder = new pg.Client({ connectionString: url })
            yield* Effect.promise(async () => {
              await holder.connect()
              await holder.query("BEGIN")
              await holder.query("LOCK TABLE bookings IN ACCESS EXCLUSIVE MODE")
            })
            yield* Effect.addFinalizer(() => Effect.promise(() => holder.end()))
            const body = confirmBody(option, "locked-1")
            const confirming = yield* Effect.forkChild(confirmAnswer(body))
            yield* settle
            yield* TestClock.adjust("999 millis")
            yield* settle
            expect(confirming.pollUnsafe()).toBeUndefined()
            yield* TestClock.adjust("1 millis")
            const answer = yield* Fiber.join(confirming)
            expect(answer.status).toBe(503)
            expect(answer.body.safe_next_step).toMatch(/^The outcome is unknown/)
            expect(answer.body.safe_next_step).toMatch(/Retry the same request with the same idempotency_key/)

            yield* Effect.promise(() => holder.query("ROLLBACK"))
            // The statement let go may have committed once the lock was gone (it did here): the retry
            // returns that booking, or makes it; either way there is one.
            const retried = yield* confirmAnswer(body)
            expect([200, 201]).toContain(retried.status)
            const again = yield* confirmAnswer(body)
            expect(again.body).toMatchObject({ idempotent_replay: true, request_id: retried.body.request_id })
          }),
          yield* appOn(url, { DATABASE_REQUEST_BUDGET_MS: "1000" })
        )
      }).pipe(Effect.scoped),
    30_000
  )
})

describe("work a request starts that outlives it", () => {
  const token = "budget-background-token-0123456789"

  it.effect(
    "a webhook test's delivery records its outcome when the answer comes after the request's budget is spent",
    () =>
      Effect.gen(function* () {
        let answerNow = () => {}
        const held = new Promise<void>((resolve) => {
          answerNow = resolve
        })
        const receiver = yield* webhookReceiver(
          (request, response) => void held.then(() => answerStatus(204)(request, response))
        )
        yield* Effect.provide(
          Effect.gen(function* () {
            const created = yield* registerWebhook(token, receiver.url)
            const webhookId = created.body.webhook.id as string
            const client = yield* apiClient(token)
            const test = yield* withStatus(
              client.webhooks.test({ params: { webhook_id: webhookId }, responseMode: "decoded-and-response" })
            )
            expect(test.status).toBe(202)
            // The request has answered; the delivery it started waits for the receiver's answer.
            yield* waitFor(
              Effect.sync(() => receiver.received.length),
              (n) => expect(n).toBe(1)
            )
            // Far past that request's budget (100 ms), yet within the send's own timeout.
            yield* TestClock.adjust("1 second")
            answerNow()
            yield* waitFor(deliveriesOf(token, webhookId), ([delivery]) =>
              expect(delivery).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 204 })
            )
          }),
          TestServer({
            env: { SERVICE_REQUESTS_API_TOKENS: token, DATABASE_REQUEST_BUDGET_MS: "100" },
            loops: "none"
          })
        )
      }).pipe(Effect.scoped)
  )
})
