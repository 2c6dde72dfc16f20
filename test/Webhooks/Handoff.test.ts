import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { AppConfig } from "../../src/AppConfig.js"
import { Webhooks } from "../../src/Webhooks/Webhooks.js"
import { registerWebhook, requestAnswer, requestStatusOf } from "../support/Http.js"
import { answerStatus, verifyAt, webhookReceiver } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"
import { expectSwedishStamps, waitFor } from "../support/Time.js"

const token = "partner-handoff-token-0123456789"
const customer = { name: "Ingrid Sjöberg", phone: "+46 70 246 80 24", email: "ingrid.sjoberg@example.se" }
const street = "Folkungagatan 90"
const personalData = [customer.name, "Sjöberg", customer.phone, customer.email, street, "Folkungagatan"]

/** Verified as a receiver would have at the time it was sent (the test clock moves on between attempts). */
const signedAt = (delivery: { readonly headers: Record<string, string> }) =>
  Number(delivery.headers["webhook-timestamp"]) * 1000

const request = (key: string) =>
  requestAnswer(
    {
      vertical_id: "vvs",
      job_type_id: "leak_hidden",
      description: `Fuktfläck i taket. Ring ${customer.name} på ${customer.phone}.`,
      user_consent_confirmed: true,
      customer,
      location: { address: street, postcode: "111 22" },
      timing: { preferred_time_text: "så snart som möjligt" },
      idempotency_key: key
    },
    token
  )

/**
 * The app with every provider's request hand-off going to `providerUrl` (a signed webhook), a
 * partner subscribed to request events at `partnerUrl`, and a dispatcher whose passes the test runs.
 */
const withProvidersAt = (providerUrl: URL, partnerUrl: URL) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(
      TestServer({
        env: { SERVICE_REQUESTS_API_TOKENS: token, NOTIFY_WAIT_MS: "5000", NOTIFY_POLL_MS: "600000" },
        loops: "all"
      })
    )
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    const sql = Context.get(context, SqlClient.SqlClient)
    yield* sql`UPDATE providers SET notify_webhook_url = ${providerUrl.href},
      notify_webhook_secret = 'whsec-handoff-provider-0123456789'`
    const created = yield* run(registerWebhook(token, partnerUrl.href, ["request.created", "request.handoff_changed"]))
    expect(created.status).toBe(201)
    const dispatcher = yield* Layer.build(
      Webhooks.Default.pipe(Layer.provide(Layer.succeedContext(Context.pick(SqlClient.SqlClient, AppConfig)(context))))
    ).pipe(Effect.map(Context.get(Webhooks)))
    return { run, sql, secret: created.body.secret as string, webhookId: created.body.webhook.id as string, dispatcher }
  })

describe("request.handoff_changed", () => {
  it.effect(
    "each provider reached is an event to the partner, the last telling the hand-off as the request's status does",
    () =>
      Effect.gen(function* () {
        const providers = yield* webhookReceiver(answerStatus(200))
        const partner = yield* webhookReceiver(answerStatus(204))
        const app = yield* withProvidersAt(providers.urlAt(), partner.urlAt())
        const created = yield* app.run(request("handoff-sent"))
        expect(created.status).toBe(201)
        const requestId = created.body.request.id as string
        const reachable = created.body.request.provider_candidates.length as number
        // Three in the demo supply: the events must count them one by one.
        expect(reachable).toBeGreaterThan(1)
        // Tried at once after the commit; whether the create call's own answer already says so depends on the machine.
        yield* waitFor(app.run(requestStatusOf(token, requestId)), (response) =>
          expect(response.request.handoff.providers_reached).toBe(reachable)
        )
        expect(new Set(providers.received.map((delivery) => delivery.headers["webhook-id"])).size).toBe(reachable)

        yield* app.dispatcher.deliverDue()
        yield* waitFor(
          Effect.sync(() => partner.received.length),
          (n) => expect(n).toBe(1 + reachable)
        )
        const now = yield* Clock.currentTimeMillis
        const events = partner.received.map((delivery) => verifyAt(app.secret, delivery, now) as any)
        for (const delivery of partner.received)
          for (const text of personalData) expect(delivery.body).not.toContain(text)
        // The partners' events and the providers' own notifications tell their times one way.
        for (const event of events) expect(expectSwedishStamps(event), event.type).toBeGreaterThan(0)
        for (const delivery of providers.received) expectSwedishStamps(JSON.parse(delivery.body))
        expect(events.find((event) => event.type === "request.created").data.handoff).toEqual({
          status: "queued",
          providers_reached: 0,
          providers_pending: reachable
        })
        const changes = events
          .filter((event) => event.type === "request.handoff_changed")
          .sort((a, b) => a.data.handoff.providers_reached - b.data.handoff.providers_reached)
        // One event per provider reached, in order: reached counts up, pending counts down.
        expect(changes.map((event) => event.data.handoff.providers_reached)).toEqual(
          Array.from({ length: reachable }, (_, n) => n + 1)
        )
        expect(changes[0].data).toMatchObject({
          request_id: requestId,
          previous_handoff_status: "queued",
          sandbox: false
        })
        const last = changes.at(-1)
        expect(last.data.handoff).toEqual({ status: "sent", providers_reached: reachable, providers_pending: 0 })
        const status = yield* app.run(requestStatusOf(token, requestId))
        expect(status.request.handoff).toEqual(last.data.handoff)
      }).pipe(Effect.scoped)
  )

  it.effect(
    "a hand-off given up for every provider ends in an event saying not_sent, as the request's status does",
    () =>
      Effect.gen(function* () {
        const providers = yield* webhookReceiver(answerStatus(500))
        const partner = yield* webhookReceiver(answerStatus(204))
        const app = yield* withProvidersAt(providers.urlAt(), partner.urlAt())
        const created = yield* app.run(request("handoff-given-up"))
        expect(created.status).toBe(201)
        const requestId = created.body.request.id as string
        const reachable = created.body.request.provider_candidates.length as number
        expect(created.body.request.handoff).toEqual({
          status: "queued",
          providers_reached: 0,
          providers_pending: reachable
        })
        // Nothing has changed yet: a failed attempt that will be retried is no change of the hand-off.
        yield* app.dispatcher.deliverDue()
        yield* waitFor(
          Effect.sync(() => partner.received.length),
          (n) => expect(n).toBe(1)
        )

        // The give-up time has come: the next failed attempt of each row gives it up.
        yield* app.sql`UPDATE notification_outbox SET give_up_at = created_at, next_attempt_at = created_at
          WHERE subject_id = ${requestId}`
        yield* TestClock.adjust("10 minutes")
        yield* waitFor(app.run(requestStatusOf(token, requestId)), (response) =>
          expect(response.request.handoff.providers_pending).toBe(0)
        )
        yield* app.dispatcher.deliverDue()
        yield* waitFor(
          Effect.sync(() => partner.received.length),
          (n) => expect(n).toBe(1 + reachable)
        )
        const changes = partner.received
          .map((delivery) => verifyAt(app.secret, delivery, signedAt(delivery)) as any)
          .filter((event) => event.type === "request.handoff_changed")
        expect(changes.map((event) => event.data.handoff.providers_pending).sort()).toEqual(
          Array.from({ length: reachable }, (_, n) => n)
        )
        for (const event of changes) expect(event.data.handoff.providers_reached).toBe(0)
        const last = changes.find((event) => event.data.handoff.providers_pending === 0)
        expect(last.data.handoff).toEqual({ status: "not_sent", providers_reached: 0, providers_pending: 0 })
        expect(last.data.previous_handoff_status).toBe("queued")
        const status = yield* app.run(requestStatusOf(token, requestId))
        expect(status.request.handoff).toEqual(last.data.handoff)
        for (const delivery of partner.received)
          for (const text of personalData) expect(delivery.body).not.toContain(text)
      }).pipe(Effect.scoped)
  )
})
