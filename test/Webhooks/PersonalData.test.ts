import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { AppConfig } from "../../src/AppConfig.js"
import { jsonLogger } from "../../src/Http/Logging.js"
import { Webhooks } from "../../src/Webhooks/Webhooks.js"
import {
  confirmAnswer,
  deliveriesOf,
  registerWebhook,
  requestAnswer,
  requestStatusOf,
  retryDelivery,
  searchOptions
} from "../support/Http.js"
import { type Answer, answerStatus, verifyAt, webhookReceiver } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const token = "partner-personal-data-0123456789"
const customer = { name: "Märta Lundgren", phone: "+46 70 864 20 86", email: "marta.lundgren@example.se" }
const street = "Götgatan 67"
const freeText = "portkod 4711"
const personalData = [
  customer.name,
  "Märta",
  "Lundgren",
  customer.phone,
  "864 20 86",
  customer.email,
  street,
  "Götgatan",
  freeText
]

/** Fails the first delivery of each webhook-id (or provider message) with 500, then answers 2xx. */
const failFirst = (): Answer => {
  const seen = new Map<string, number>()
  return (request, response) => {
    const id = String(request.headers["webhook-id"])
    const count = (seen.get(id) ?? 0) + 1
    seen.set(id, count)
    answerStatus(count === 1 ? 500 : 204)(request, response)
  }
}

/** `waitFor`, answering the value that passed. */
const until = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => void) =>
  Effect.andThen(waitFor(effect, check), effect)

describe("no personal data in logs or payloads", () => {
  it.effect(
    "a booking, a request, a failed delivery and its retries log no customer's name, contact, address or free text, and no payload carries one",
    () =>
      Effect.gen(function* () {
        const lines: Array<string> = []
        const collector = Logger.layer([Logger.map(jsonLogger, (line) => void lines.push(line))])
        const partner = yield* webhookReceiver(failFirst())
        const providers = yield* webhookReceiver(failFirst())
        const context = yield* Layer.build(
          TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token, NOTIFY_POLL_MS: "600000" }, loops: "all" }).pipe(
            Layer.provide(collector)
          )
        )
        const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
        const sql = Context.get(context, SqlClient.SqlClient)
        yield* sql`UPDATE providers SET notify_webhook_url = ${providers.url},
          notify_webhook_secret = 'whsec-personal-provider-0123456789'`
        const created = yield* run(registerWebhook(token, partner.url))
        const webhookId = created.body.webhook.id as string

        const [option] = yield* run(
          searchOptions(
            {
              vertical_id: "vvs",
              job_type_id: "install_faucet",
              description: `Byta köksblandaren, ${freeText}`,
              location: { country_code: "SE", postcode: "118 25" },
              timing: { preferred_time_text: "nästa vecka" }
            },
            token
          )
        )
        const booked = yield* run(
          confirmAnswer(
            {
              booking_option_id: option.booking_option_id,
              customer,
              service_location: { country_code: "SE", address: street, postcode: "118 25" },
              user_consent_confirmed: true,
              booking_terms_accepted: true,
              booking_terms_version: option.terms.version,
              booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
              idempotency_key: "personal-booking"
            },
            token
          )
        )
        expect(booked.status).toBe(201)
        const requested = yield* run(
          requestAnswer(
            {
              vertical_id: "vvs",
              job_type_id: "leak_hidden",
              description: `Fuktfläck i taket, ${freeText}. Ring ${customer.name} på ${customer.phone}.`,
              user_consent_confirmed: true,
              customer,
              location: { address: street, postcode: "118 25" },
              timing: { preferred_time_text: "så snart som möjligt" },
              idempotency_key: "personal-request"
            },
            token
          )
        )
        expect(requested.status).toBe(201)

        // A dispatcher's passes the test runs, logging to the same capture: first attempts fail, retries succeed.
        const dispatcher = yield* Layer.build(
          Webhooks.Default.pipe(
            Layer.provide(Layer.succeedContext(Context.pick(SqlClient.SqlClient, AppConfig)(context)))
          )
        ).pipe(Effect.map(Context.get(Webhooks)))
        const deliveries = run(deliveriesOf(token, webhookId))
        const passFailingThenRetried = Effect.gen(function* () {
          yield* dispatcher.deliverDue().pipe(Effect.provide(collector))
          yield* TestClock.adjust("6 seconds")
          yield* dispatcher.deliverDue().pipe(Effect.provide(collector))
          return yield* until(deliveries, (list) => {
            for (const delivery of list) expect(delivery.status).toBe("delivered")
          })
        })
        const [first] = yield* passFailingThenRetried
        expect(first.attempts).toBe(2)
        // A partner's explicit retry, run by the server itself.
        const retried = yield* run(retryDelivery(token, webhookId, first.id))
        expect(retried.status).toBe(202)
        yield* waitFor(
          Effect.sync(() => partner.received.filter((d) => d.headers["webhook-id"] === first.id).length),
          (n) => expect(n).toBe(3)
        )
        // The providers' copies failed once and are retried by the notifier's own pass: hand-off events follow.
        yield* TestClock.adjust("10 minutes")
        yield* waitFor(run(requestStatusOf(token, requested.body.request.id)), (status) =>
          expect(status.request.handoff.providers_pending).toBe(0)
        )
        yield* passFailingThenRetried

        const types = new Set(
          partner.received.map(
            (delivery) =>
              (verifyAt(created.body.secret, delivery, Number(delivery.headers["webhook-timestamp"]) * 1000) as any)
                .type
          )
        )
        expect([...types].sort()).toEqual(["booking.confirmed", "request.created", "request.handoff_changed"])
        for (const delivery of partner.received)
          for (const text of personalData) expect(delivery.body, text).not.toContain(text)

        const log = lines.join("\n")
        // The capture saw the paths this test means: failed and retried deliveries of both kinds.
        for (const message of [
          '"msg":"webhook attempt failed"',
          '"msg":"webhook delivered"',
          '"msg":"notification attempt failed"',
          '"msg":"notification sent"'
        ])
          expect(log).toContain(message)
        for (const text of personalData) expect(log, text).not.toContain(text)
        expect(log).not.toContain(created.body.secret)
      }).pipe(Effect.scoped)
  )
})
