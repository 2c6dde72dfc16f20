import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { AppConfig } from "../../src/AppConfig.js"
import { WebhookOutbox } from "../../src/Delivery/Outbox.js"
import { Unauthorized } from "../../src/Domain/Errors.js"
import { maxWebhooksPerPartner, WebhookDeliveryNotFound, WebhookNotFound } from "../../src/Domain/Webhook.js"
import { bookingCancelled, bookingRescheduled } from "../../src/Domain/WebhookEvents.js"
import { Webhooks } from "../../src/Webhooks/Webhooks.js"
import { giveUpCustomerMessageNow, webhookDrift } from "../support/Fixtures.js"
import {
  apiClient,
  confirmAnswer,
  get,
  registerWebhook,
  requestAnswer,
  retryDelivery,
  searchBodyFor,
  searchOptions,
  deliveriesOf as webhookDeliveries,
  withStatus
} from "../support/Http.js"
import {
  type Answer,
  answerStatus,
  hang,
  inTurn,
  type ReceivedDelivery,
  verifyAt,
  webhookReceiver
} from "../support/Receivers.js"
import { TestServer, type TestServerLoops } from "../support/Server.js"
import { expectSwedishStamps, waitFor } from "../support/Time.js"

const token = "partner-webhooks-token-0123456789"
const otherToken = "partner-webhooks-other-0123456789"
const sandboxToken = "partner-webhooks-sandbox-012345678"
const auth = { authorization: `Bearer ${token}` }
const env = {
  SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}`,
  SANDBOX_API_TOKENS: sandboxToken,
  WEBHOOK_TIMEOUT_MS: "300"
}

const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }
const street = "Drottninggatan 12"
const personalData = [customer.name, customer.phone, customer.email, street, "Lindqvist", "astrid"]

const search = (asToken: string = token) => searchOptions(searchBodyFor("nästa vecka"), asToken)

let key = 0
const confirm = (option: any, asToken: string = token) =>
  confirmAnswer(
    {
      booking_option_id: option.booking_option_id,
      customer,
      service_location: { country_code: "SE", address: street, postcode: "111 22" },
      user_consent_confirmed: true,
      booking_terms_accepted: true,
      booking_terms_version: option.terms.version,
      booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
      idempotency_key: `webhooks-${++key}`
    },
    asToken
  )

/** webhook.test for the partner's webhook, typed: 202 and the delivery queued. */
const sendTest = (webhookId: string) =>
  Effect.flatMap(apiClient(token), (client) =>
    withStatus(client.webhooks.test({ params: { webhook_id: webhookId }, responseMode: "decoded-and-response" }))
  )

type Scripted = "ok" | "fail" | "hang" | "gone"

const scripted: Record<Scripted, Answer> = {
  ok: answerStatus(204, ""),
  fail: answerStatus(500, ""),
  hang,
  gone: answerStatus(410, "")
}

/**
 * The webhook receiver answering its deliveries in the order of `answers` (then 204): 500, no
 * answer at all, or 410; or, given a function, as it says for each delivery (with every delivery
 * so far, this one last). On `port` when given, so a test can bring up a receiver that was down.
 */
const receiver = (
  answers: ReadonlyArray<Scripted> | ((received: ReadonlyArray<ReceivedDelivery>) => Scripted) = [],
  port = 0
) =>
  webhookReceiver(
    typeof answers === "function"
      ? (request, response, received) => scripted[answers(received)](request, response, received)
      : inTurn(
          answers.map((answer) => scripted[answer]),
          scripted.ok
        ),
    { port }
  )

/** A port nothing listens on (a receiver that is down). */
const freePort = Effect.scoped(Effect.map(receiver(), ({ port }) => port))

const register = (url: string, asToken: string = token, events?: ReadonlyArray<string>) =>
  registerWebhook(asToken, url, events)

const deliveriesOf = (webhookId: string) => webhookDeliveries(token, webhookId)

/** The partner's webhooks, through the typed client. */
const webhooksOf = (asToken: string = token) =>
  Effect.flatMap(apiClient(asToken), (client) => client.webhooks.list()).pipe(
    Effect.map((list) => list.webhooks as Array<any>)
  )

/** `waitFor`, answering the value that passed. */
const until = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => void) =>
  Effect.andThen(waitFor(effect, check), effect)

/** Another instance's dispatcher on the app's database and configuration, whose passes a test runs itself. */
const dispatcherOf = (context: Context.Context<SqlClient.SqlClient | AppConfig>) =>
  Layer.build(Webhooks.Default.pipe(Layer.provide(Layer.succeedContext(context)))).pipe(
    Effect.map(Context.get(Webhooks))
  )

const withApp = (extra: Record<string, string> = {}, loops: TestServerLoops = "all") =>
  Effect.gen(function* () {
    // Every loop by default: webhook events follow outbox deliveries that the dispatcher gives up.
    const context = yield* Layer.build(TestServer({ env: { ...env, ...extra }, loops }))
    const dispatcher = yield* dispatcherOf(Context.pick(SqlClient.SqlClient, AppConfig)(context))
    return {
      context,
      run: <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>,
      /**
       * The clock moved on by `later`, then one pass. The server's own dispatcher may wake during
       * the move at a time in between; a pass run after it sees the time the test means.
       */
      dispatch: (later = 0) => Effect.andThen(TestClock.adjust(later), dispatcher.deliverDue())
    }
  })

describe("webhook subscriptions", () => {
  it.effect("a partner manages its own: the secret once, defaults, refusals by name, the limit, others' are 404", () =>
    Effect.gen(function* () {
      const { run } = yield* withApp()
      const created = yield* run(register("http://127.0.0.1:9/hooks"))
      expect(created.status).toBe(201)
      expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/)
      expect(created.body.webhook).toMatchObject({
        url: "http://127.0.0.1:9/hooks",
        status: "enabled",
        events: [
          "booking.confirmed",
          "booking.cancelled",
          "booking.rescheduled",
          "booking.confirmation_failed",
          "request.created",
          "request.handoff_changed",
          "request.withdrawn",
          "webhook.test"
        ]
      })
      const id = created.body.webhook.id as string
      // Raw: the secret must be absent from the list's body as sent, not only from what decodes.
      const listed = yield* run(get("/api/public/webhooks", auth))
      expect(listed.body.webhooks.map((webhook: any) => webhook.id)).toEqual([id])
      expect(JSON.stringify(listed.body)).not.toContain(created.body.secret)

      const unknown = yield* run(register("http://127.0.0.1:9/hooks", token, ["booking.confirmed", "booking.deleted"]))
      expect(unknown.status).toBe(400)
      expect(unknown.body).toMatchObject({ ok: false, error: "invalid_request" })
      expect(unknown.body.issues.join(" ")).toContain('"booking.deleted"')
      const ftp = yield* run(register("ftp://127.0.0.1/hooks"))
      expect(ftp.status).toBe(400)
      expect(ftp.body.issues[0]).toMatch(/^url: /)

      // Another partner sees none of it: its list is empty and every path with the id is 404.
      expect(yield* run(webhooksOf(otherToken))).toEqual([])
      const client = yield* run(apiClient(token))
      const otherClient = yield* run(apiClient(otherToken))
      const params = { webhook_id: id }
      for (const refused of [
        yield* run(Effect.flip(otherClient.webhooks.remove({ params }))),
        yield* run(Effect.flip(otherClient.webhooks.rotateSecret({ params }))),
        yield* run(Effect.flip(otherClient.webhooks.test({ params }))),
        yield* run(Effect.flip(otherClient.webhooks.deliveries({ params, query: {} }))),
        yield* run(Effect.flip(otherClient.webhooks.retry({ params: { ...params, delivery_id: "msg_x" } })))
      ]) {
        expect(refused).toBeInstanceOf(WebhookNotFound)
      }
      const noDelivery = yield* run(
        Effect.flip(client.webhooks.retry({ params: { ...params, delivery_id: "msg_unknown" } }))
      )
      expect(noDelivery).toBeInstanceOf(WebhookDeliveryNotFound)
      const anonymous = yield* run(apiClient())
      expect(yield* run(Effect.flip(anonymous.webhooks.list()))).toBeInstanceOf(Unauthorized)

      for (let n = 1; n < maxWebhooksPerPartner; n++)
        expect((yield* run(register(`http://127.0.0.1:9/${n}`))).status).toBe(201)
      const over = yield* run(register("http://127.0.0.1:9/17"))
      expect(over.status).toBe(409)
      expect(over.body.error).toBe("webhook_limit_reached")

      const deleted = yield* run(client.webhooks.remove({ params }))
      expect(deleted).toEqual({ ok: true, deleted: true, webhook_id: id })
      expect(yield* run(Effect.flip(client.webhooks.deliveries({ params, query: {} })))).toBeInstanceOf(WebhookNotFound)
    }).pipe(Effect.scoped)
  )

  it.effect(
    "in production a webhook must be https to a public address: loopback, private and metadata are refused",
    () =>
      Effect.gen(function* () {
        const { run } = yield* withApp({
          APP_ENV: "production",
          PUBLIC_BASE_URL: "https://api.example.se",
          DATABASE_URL: "postgres://u@h/d"
        })
        for (const url of [
          "http://hooks.example.se/booking",
          "https://127.0.0.1/hooks",
          "https://10.1.2.3/hooks",
          "https://192.168.0.10/hooks",
          "https://169.254.169.254/latest/meta-data",
          "https://[::1]/hooks",
          "https://[::ffff:10.0.0.1]/hooks"
        ]) {
          const refused = yield* run(register(url))
          expect(refused.status, url).toBe(400)
          expect(refused.body.issues[0], url).toMatch(/^url: /)
        }
        expect(yield* run(webhooksOf())).toEqual([])
      }).pipe(Effect.scoped)
  )
})

describe("webhook deliveries", () => {
  it.effect(
    "a confirmed booking and a request reach the receiver signed, verified by standardwebhooks, without personal data",
    () =>
      Effect.gen(function* () {
        const hooks = yield* receiver()
        const { run, dispatch } = yield* withApp()
        const created = yield* run(register(hooks.url))
        const secret = created.body.secret as string
        const [option] = yield* run(search())
        const booked = yield* run(confirm(option))
        expect(booked.status).toBe(201)
        const request = yield* run(
          requestAnswer(
            {
              vertical_id: "vvs",
              job_type_id: "leak_hidden",
              description: `Fuktfläck i taket. Ring ${customer.name} på ${customer.phone}, nyckel under mattan.`,
              user_consent_confirmed: true,
              user_consent_statement: "Användaren godkände att uppgifterna skickas till hantverkare.",
              consent_collected_at: "2026-11-23T08:55:00+01:00",
              customer,
              location: { address: street, postcode: "111 22" },
              timing: { preferred_time_text: "så snart som möjligt" },
              idempotency_key: "webhooks-request-1"
            },
            token
          )
        )
        expect(request.status).toBe(201)
        yield* dispatch()
        yield* waitFor(
          Effect.sync(() => hooks.received.length),
          (n) => expect(n).toBeGreaterThanOrEqual(2)
        )
        const now = yield* Clock.currentTimeMillis
        const events = hooks.received.map((delivery) => verifyAt(secret, delivery, now) as any)
        const confirmed = events.find((event) => event.type === "booking.confirmed")
        expect(confirmed.data).toMatchObject({
          booking_id: booked.body.booking.id,
          provider_id: option.provider.id,
          status: "confirmed",
          price_sek: booked.body.booking.price_sek,
          currency: "SEK",
          sandbox: false
        })
        for (const event of events) expect(expectSwedishStamps(event), event.type).toBeGreaterThan(0)
        expect(expectSwedishStamps([booked.body, request.body, created.body])).toBeGreaterThan(0)
        const createdEvent = events.find((event) => event.type === "request.created")
        expect(createdEvent.data).toMatchObject({ request_id: request.body.request.id, status: "ready_to_send" })
        for (const delivery of hooks.received) {
          for (const text of personalData) expect(delivery.body).not.toContain(text)
          expect(() => verifyAt("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", delivery, now)).toThrow()
        }
        const list = yield* run(deliveriesOf(created.body.webhook.id))
        expect(expectSwedishStamps(list)).toBeGreaterThanOrEqual(list.length)
        expect(list.every((delivery) => delivery.status === "delivered" && delivery.attempts === 1)).toBe(true)
        expect(list.map((delivery) => delivery.id).sort()).toEqual(
          hooks.received.map((delivery) => delivery.headers["webhook-id"]).sort()
        )
      }).pipe(Effect.scoped)
  )

  it.effect("a receiver that is down, fails, then hangs gets the event later with the same webhook-id", () =>
    Effect.gen(function* () {
      const port = yield* freePort
      // Only the test's passes send: a hanging attempt is in flight on the real clock while the
      // test clock moves past its lease, and a server pass woken mid-move would send it again.
      const { run, dispatch } = yield* withApp({}, "all but the webhook dispatcher")
      const created = yield* run(register(`http://127.0.0.1:${port}/hooks`, token, ["booking.confirmed"]))
      const webhookId = created.body.webhook.id as string
      const [option] = yield* run(search())
      expect((yield* run(confirm(option))).status).toBe(201)

      // Down: the connection is refused, and the next attempt waits its 5 s (plus up to a tenth).
      yield* dispatch()
      const [down] = yield* until(run(deliveriesOf(webhookId)), ([d]) => expect(d.attempts).toBe(1))
      expect(down).toMatchObject({ status: "pending", event_type: "booking.confirmed" })
      expect(Date.parse(down.next_attempt_at) - (yield* Clock.currentTimeMillis)).toBeGreaterThanOrEqual(5_000)

      const hooks = yield* receiver(["fail", "hang"], port)
      yield* dispatch(5_500)
      yield* waitFor(run(deliveriesOf(webhookId)), ([d]) => expect(d.attempts).toBe(2))
      expect((yield* run(deliveriesOf(webhookId)))[0]).toMatchObject({ status: "pending", last_status_code: 500 })
      yield* dispatch(5.5 * 60_000)
      yield* waitFor(run(deliveriesOf(webhookId)), ([d]) => expect(d.attempts).toBe(3))
      expect((yield* run(deliveriesOf(webhookId)))[0].last_error).toMatch(/no answer within 300 ms/)
      yield* dispatch(33 * 60_000)
      const [delivered] = yield* until(run(deliveriesOf(webhookId)), ([d]) => expect(d.status).toBe("delivered"))
      expect(delivered).toMatchObject({ attempts: 4, last_status_code: 204 })
      expect(delivered.next_attempt_at).toBeUndefined()

      const ids = hooks.received.map((delivery) => delivery.headers["webhook-id"])
      expect(ids).toEqual([delivered.id, delivered.id, delivered.id])
      const now = yield* Clock.currentTimeMillis
      expect(verifyAt(created.body.secret, hooks.received[2]!, now)).toMatchObject({ type: "booking.confirmed" })
      // Each attempt is signed at its own time; the event's timestamp stays when it happened.
      const stamps = hooks.received.map((delivery) => Number(delivery.headers["webhook-timestamp"]))
      expect(new Set(stamps).size).toBe(3)
    }).pipe(Effect.scoped)
  )

  it.effect(
    "a 410 disables the endpoint at once, visibly; nothing more is sent until the partner's test turns it on",
    () =>
      Effect.gen(function* () {
        const hooks = yield* receiver(["gone"])
        const { run, dispatch } = yield* withApp()
        const created = yield* run(register(hooks.url))
        const webhookId = created.body.webhook.id as string
        const [first, second] = yield* run(search())
        yield* run(confirm(first))
        yield* dispatch()
        yield* waitFor(run(webhooksOf()), (webhooks) =>
          expect(webhooks[0]).toMatchObject({ status: "disabled", disabled_reason: "gone" })
        )
        const [gone] = yield* run(deliveriesOf(webhookId))
        expect(gone).toMatchObject({ status: "failed", attempts: 1, last_status_code: 410 })
        // A disabled endpoint is not written to: the next booking's event is not queued for it.
        yield* run(confirm(second))
        yield* dispatch(60_000)
        expect(yield* run(deliveriesOf(webhookId))).toHaveLength(1)
        expect(hooks.received).toHaveLength(1)

        const test = yield* run(sendTest(webhookId))
        expect(test.status).toBe(202)
        expect(test.body.delivery).toMatchObject({ event_type: "webhook.test" })
        yield* waitFor(
          Effect.sync(() => hooks.received.length),
          (n) => expect(n).toBe(2)
        )
        expect(verifyAt(created.body.secret, hooks.received[1]!, yield* Clock.currentTimeMillis)).toMatchObject({
          type: "webhook.test",
          data: { endpoint_id: webhookId, sandbox: false }
        })
        expect((yield* run(webhooksOf()))[0].status).toBe("enabled")
        // The failed delivery is sent again on request, with its own webhook-id.
        const retried = yield* run(retryDelivery(token, webhookId, gone.id))
        expect(retried.status).toBe(202)
        yield* waitFor(
          Effect.sync(() => hooks.received.length),
          (n) => expect(n).toBe(3)
        )
        expect(hooks.received[2]!.headers["webhook-id"]).toBe(gone.id)
        expect(hooks.received[2]!.body).toBe(hooks.received[0]!.body)
      }).pipe(Effect.scoped)
  )

  it.effect("an endpoint failing for 5 days is disabled; a rotated secret signs beside the new one for 24 h", () =>
    Effect.gen(function* () {
      const hooks = yield* receiver(["fail", "fail"])
      // No loops: each test send delivers itself, and a 25-hour move would run every loop's passes.
      const { run } = yield* withApp({}, "none")
      const created = yield* run(register(hooks.url))
      const webhookId = created.body.webhook.id as string
      const client = yield* run(apiClient(token))
      const rotated = yield* run(
        withStatus(
          client.webhooks.rotateSecret({ params: { webhook_id: webhookId }, responseMode: "decoded-and-response" })
        )
      )
      expect(rotated.status).toBe(200)
      expect(rotated.body.secret).not.toBe(created.body.secret)
      const now = yield* Clock.currentTimeMillis
      expect(Date.parse(rotated.body.previous_secret_expires_at)).toBe(now + 24 * 3_600_000)

      yield* run(sendTest(webhookId))
      yield* waitFor(run(deliveriesOf(webhookId)), ([d]) => expect(d.attempts).toBe(1))
      const signedAt = yield* Clock.currentTimeMillis
      for (const secret of [created.body.secret, rotated.body.secret])
        expect(verifyAt(secret, hooks.received[0]!, signedAt)).toMatchObject({ type: "webhook.test" })
      const [failing] = yield* run(webhooksOf())
      expect(failing.status).toBe("enabled")
      expect(Date.parse(failing.failing_since)).toBe(signedAt)
      expect(expectSwedishStamps([failing, rotated.body])).toBe(6)

      // Failing since five days ago: the next failure disables it, and the list says so.
      yield* run(webhookDrift.failingSinceEarlier(webhookId, 5))
      yield* run(sendTest(webhookId))
      const [answered] = yield* until(run(webhooksOf()), (webhooks) => expect(webhooks[0].status).toBe("disabled"))
      expect(answered).toMatchObject({ disabled_reason: "failing" })
      expect(hooks.received).toHaveLength(2)
      // After the overlap only the new secret signs (the partner's test turns the endpoint on again).
      yield* TestClock.adjust("25 hours")
      const after = yield* run(sendTest(webhookId))
      expect(after.status).toBe(202)
      yield* waitFor(
        Effect.sync(() => hooks.received.length),
        (n) => expect(n).toBe(3)
      )
      const last = hooks.received[2]!
      const at = yield* Clock.currentTimeMillis
      expect(verifyAt(rotated.body.secret, last, at)).toMatchObject({ type: "webhook.test" })
      expect(() => verifyAt(created.body.secret, last, at)).toThrow()
    }).pipe(Effect.scoped)
  )

  it.effect("a sandbox partner's subscriptions carry only its sandbox events, marked sandbox", () =>
    Effect.gen(function* () {
      const live = yield* receiver()
      const sandbox = yield* receiver()
      const { run, dispatch } = yield* withApp()
      const liveHook = yield* run(register(live.url))
      const sandboxHook = yield* run(register(sandbox.url, sandboxToken))
      expect(sandboxHook.body.webhook.sandbox).toBe(true)
      const [option] = yield* run(search(sandboxToken))
      expect((yield* run(confirm(option, sandboxToken))).status).toBe(201)
      yield* dispatch()
      yield* waitFor(
        Effect.sync(() => sandbox.received.length),
        (n) => expect(n).toBe(1)
      )
      const event = verifyAt(sandboxHook.body.secret, sandbox.received[0]!, yield* Clock.currentTimeMillis) as any
      expect(event).toMatchObject({ type: "booking.confirmed", data: { sandbox: true } })
      expect(live.received).toHaveLength(0)
      expect(yield* run(deliveriesOf(liveHook.body.webhook.id))).toEqual([])
    }).pipe(Effect.scoped)
  )

  it.effect("a customer confirmation given up is booking.confirmation_failed, written with the give-up", () =>
    Effect.gen(function* () {
      const hooks = yield* receiver()
      const smtpPort = yield* freePort
      // The outbox's own dispatcher gives the e-mail up; only the test's pass sends the event (a
      // server pass woken mid-move would claim it, and the test's pass send it again past the lease).
      const { run, dispatch } = yield* withApp(
        { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, NOTIFY_WAIT_MS: "5000" },
        "all but the webhook dispatcher"
      )
      const created = yield* run(register(hooks.url, token, ["booking.confirmation_failed"]))
      const [option] = yield* run(search())
      const booked = yield* run(confirm(option))
      expect(booked.body.confirmation_delivery.customer).toMatchObject({ status: "failed", will_retry: true })
      // The give-up time has come: the next failed attempt gives the e-mail up.
      yield* run(giveUpCustomerMessageNow(booked.body.booking.id))
      const gaveUpFrom = yield* Clock.currentTimeMillis
      yield* TestClock.adjust("10 minutes")
      yield* waitFor(run(deliveriesOf(created.body.webhook.id)), (list) => expect(list).toHaveLength(1))
      yield* dispatch()
      yield* waitFor(
        Effect.sync(() => hooks.received.length),
        (n) => expect(n).toBe(1)
      )
      // The server's own loop may give the e-mail up at any time the clock passes through during
      // the move: verify at the time the event was signed, which lies in that span.
      const signedAt = Number(hooks.received[0]!.headers["webhook-timestamp"]) * 1000
      expect(signedAt).toBeGreaterThanOrEqual(Math.floor(gaveUpFrom / 1000) * 1000)
      expect(signedAt).toBeLessThanOrEqual(yield* Clock.currentTimeMillis)
      const event = verifyAt(created.body.secret, hooks.received[0]!, signedAt) as any
      expect(event).toMatchObject({
        type: "booking.confirmation_failed",
        data: { booking_id: booked.body.booking.id, recipient: "customer", status: "confirmed" }
      })
      expect(expectSwedishStamps(event)).toBe(3)
      expect(booked.body.confirmation_delivery.customer.next_attempt_at).toBeDefined()
      expect(expectSwedishStamps(booked.body)).toBeGreaterThan(0)
      const client = yield* run(apiClient(token))
      const status: any = yield* run(client.bookings.status({ params: { booking_id: booked.body.booking.id } }))
      expect(status.confirmation_delivery.customer).toMatchObject({ status: "failed", will_retry: false })
    }).pipe(Effect.scoped)
  )

  it.effect("two instances on one database deliver each event once per attempt", () =>
    Effect.gen(function* () {
      const events = 8
      // The first attempt of each event fails, whatever order they arrive in; every later one succeeds.
      const hooks = yield* receiver((received) => {
        const id = received.at(-1)!.headers["webhook-id"]
        return received.filter((delivery) => delivery.headers["webhook-id"] === id).length === 1 ? "fail" : "ok"
      })
      // An attempt cut short by its timeout on a loaded machine may or may not have reached the
      // receiver, which would make "once per attempt" uncountable: this test waits for every answer.
      const longTimeout = { WEBHOOK_TIMEOUT_MS: "30000" }
      const first = yield* withApp(longTimeout)
      const shared = Context.pick(SqlClient.SqlClient)(first.context)
      yield* Layer.build(TestServer({ database: Layer.succeedContext(shared), env: { ...env, ...longTimeout } }))
      const instances = yield* Effect.all(
        Array.from({ length: 3 }, () => dispatcherOf(Context.pick(SqlClient.SqlClient, AppConfig)(first.context)))
      )
      const created = yield* first.run(register(hooks.url))
      const webhookId = created.body.webhook.id as string
      for (let n = 0; n < events; n++) yield* first.run(sendTest(webhookId))
      // Every first attempt recorded, not only received: a retry is due only once its failure is written.
      const failed = yield* until(first.run(deliveriesOf(webhookId)), (list) => {
        expect(list).toHaveLength(events)
        for (const delivery of list) expect(delivery).toMatchObject({ status: "pending", attempts: 1 })
      })
      expect(hooks.received).toHaveLength(events)
      // Every instance's dispatcher (the two servers' and three more) passes at once when the last retry is due.
      // next_attempt_at is told to the second: the retry is due within the second it names.
      const due = Math.max(...failed.map((delivery) => Date.parse(delivery.next_attempt_at))) + 999
      yield* TestClock.adjust(due - (yield* Clock.currentTimeMillis))
      yield* Effect.all(
        instances.map((instance) => instance.deliverDue()),
        { concurrency: "unbounded" }
      )
      const delivered = yield* until(first.run(deliveriesOf(webhookId)), (list) =>
        expect(list.every((delivery) => delivery.status === "delivered")).toBe(true)
      )
      const counts = new Map<string, number>()
      for (const delivery of hooks.received)
        counts.set(delivery.headers["webhook-id"]!, (counts.get(delivery.headers["webhook-id"]!) ?? 0) + 1)
      expect(counts.size).toBe(events)
      expect([...counts.values()].every((count) => count === 2)).toBe(true)
      expect(delivered.every((delivery) => delivery.attempts === 2)).toBe(true)
    }).pipe(Effect.scoped)
  )

  it.effect(
    "the URL is checked again at each send: a destination that now points inside is refused, nothing sent",
    () =>
      Effect.gen(function* () {
        const hooks = yield* receiver()
        const { run } = yield* withApp()
        const created = yield* run(register(hooks.url))
        const webhookId = created.body.webhook.id as string
        // As if its name now resolved elsewhere: development allows plain http to this machine only.
        yield* run(webhookDrift.setUrl(webhookId, `http://10.0.0.7:${hooks.port}/hooks`))
        yield* run(sendTest(webhookId))
        const [refused] = yield* until(run(deliveriesOf(webhookId)), ([d]) => expect(d.attempts).toBe(1))
        expect(refused.status).toBe("pending")
        expect(refused.last_error).toMatch(/this machine/)
        expect(hooks.received).toHaveLength(0)
      }).pipe(Effect.scoped)
  )
})

describe("events for cancel and reschedule, written in the change's transaction", () => {
  it.effect(
    "booking.cancelled and booking.rescheduled are written with their transaction and gone with its rollback",
    () =>
      Effect.gen(function* () {
        const hooks = yield* receiver()
        const { run, context, dispatch } = yield* withApp()
        const sql = Context.get(context, SqlClient.SqlClient)
        const outbox = yield* Layer.build(
          WebhookOutbox.Default.pipe(Layer.provide(Layer.succeedContext(Context.pick(SqlClient.SqlClient)(context))))
        ).pipe(Effect.map(Context.get(WebhookOutbox)))
        const created = yield* run(register(hooks.url, token, ["booking.cancelled", "booking.rescheduled"]))
        const partnerId = (yield* sql<{ partnerId: string }>`SELECT partner_id FROM webhook_endpoints`)[0]!.partnerId
        const now = new Date(yield* Clock.currentTimeMillis)
        const booking = {
          id: "6f1c1d3e-0000-4000-8000-000000000001",
          requestId: "bk_test",
          partnerId,
          providerId: "p1",
          serviceId: "s1",
          slotStart: new Date("2026-11-24T09:00:00Z"),
          slotEnd: new Date("2026-11-24T10:00:00Z"),
          priceSek: 1990,
          sandbox: false,
          timeZone: "Europe/Stockholm"
        }
        const write = (fail: boolean) =>
          Effect.gen(function* () {
            const owner = { partnerId, sandbox: booking.sandbox }
            yield* sql`${outbox.insertion(owner, bookingCancelled(booking, "customer", now), now)}`
            yield* sql`${outbox.insertion(owner, bookingRescheduled(booking, { slotStart: now, slotEnd: now }, now), now)}`
            if (fail) return yield* Effect.fail("the cancel failed after its statements")
          }).pipe(sql.withTransaction)
        yield* Effect.flip(write(true))
        expect(yield* run(deliveriesOf(created.body.webhook.id))).toEqual([])
        yield* write(false)
        yield* dispatch()
        const events = hooks.received.map((delivery) => verifyAt(created.body.secret, delivery, now.getTime()) as any)
        expect(events.map((event) => event.type).sort()).toEqual(["booking.cancelled", "booking.rescheduled"])
        expect(events.find((event) => event.type === "booking.cancelled").data).toMatchObject({
          booking_id: booking.id,
          status: "cancelled",
          cancelled_by: "customer"
        })
        const previousSlot = events.find((event) => event.type === "booking.rescheduled").data.previous_slot
        expect(Date.parse(previousSlot.start_at)).toBe(Math.floor(now.getTime() / 1000) * 1000)
        for (const event of events) expectSwedishStamps(event)
      }).pipe(Effect.scoped)
  )
})
