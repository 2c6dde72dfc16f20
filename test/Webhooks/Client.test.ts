import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { makeBookingClient } from "../../src/Client.js"
import { WebhookDeliveryNotFound, WebhookNotFound } from "../../src/Domain/Webhook.js"
import { answerStatus, verifyAt, webhookReceiver } from "../support/Receivers.js"
import { TestServer, testNow } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const token = "partner-client-webhooks-0123456789"
const otherToken = "partner-client-webhooks-other-0123"

/** The package's client over the test server's own HttpClient, which already prefixes the server's address. */
const partner = makeBookingClient({ baseUrl: "", token })
const otherPartner = makeBookingClient({ baseUrl: "", token: otherToken })

describe("the typed client's webhooks", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` } }), { timeout: 60_000 })(
    (it) => {
      it.effect(
        "create, list, test, deliveries, retry, rotate-secret and delete, typed; another partner's webhook is a typed 404",
        () =>
          Effect.gen(function* () {
            yield* TestClock.setTime(testNow)
            const receiver = yield* webhookReceiver(answerStatus(204))
            const client = yield* partner
            const other = yield* otherPartner

            const created = yield* client.webhooks.create({ url: receiver.url, events: ["webhook.test"] })
            expect(created.secret).toMatch(/^whsec_/)
            expect(created.webhook).toMatchObject({
              url: receiver.url,
              events: ["webhook.test"],
              status: "enabled"
            })
            const id = created.webhook.id
            expect((yield* client.webhooks.list()).webhooks.map((webhook) => webhook.id)).toEqual([id])

            const queued = yield* client.webhooks.test(id)
            expect(queued.delivery).toMatchObject({ event_type: "webhook.test" })
            yield* waitFor(client.webhooks.deliveries(id), ({ deliveries }) =>
              expect(deliveries[0]).toMatchObject({ id: queued.delivery.id, status: "delivered", attempts: 1 })
            )
            const signedAt = Number(receiver.received[0]!.headers["webhook-timestamp"]) * 1000
            expect(verifyAt(created.secret, receiver.received[0]!, signedAt)).toMatchObject({
              type: "webhook.test",
              data: { endpoint_id: id }
            })

            const retried = yield* client.webhooks.retry(id, queued.delivery.id)
            expect(retried.delivery.id).toBe(queued.delivery.id)
            yield* waitFor(
              Effect.sync(() => receiver.received.length),
              (n) => expect(n).toBe(2)
            )
            expect(receiver.received[1]!.headers["webhook-id"]).toBe(queued.delivery.id)

            const rotated = yield* client.webhooks.rotateSecret(id)
            expect(rotated.secret).not.toBe(created.secret)
            expect(rotated.webhook.previous_secret_expires_at).toBe(rotated.previous_secret_expires_at)

            // Another partner's client: the same id is not found, typed as the contract's error class.
            const notFound = yield* Effect.flip(other.webhooks.remove(id))
            expect(notFound).toBeInstanceOf(WebhookNotFound)
            expect(notFound).toMatchObject({ _tag: "webhook_not_found" })
            expect(yield* Effect.flip(other.webhooks.deliveries(id))).toBeInstanceOf(WebhookNotFound)
            expect(yield* Effect.flip(other.webhooks.test(id))).toBeInstanceOf(WebhookNotFound)
            expect(yield* Effect.flip(other.webhooks.rotateSecret(id))).toBeInstanceOf(WebhookNotFound)
            expect(yield* Effect.flip(other.webhooks.retry(id, queued.delivery.id))).toBeInstanceOf(WebhookNotFound)
            expect((yield* other.webhooks.list()).webhooks).toEqual([])
            expect(yield* Effect.flip(client.webhooks.retry(id, "msg_none"))).toBeInstanceOf(WebhookDeliveryNotFound)

            expect(yield* client.webhooks.remove(id)).toEqual({ ok: true, deleted: true, webhook_id: id })
            expect((yield* client.webhooks.list()).webhooks).toEqual([])
            expect(yield* Effect.flip(client.webhooks.deliveries(id))).toBeInstanceOf(WebhookNotFound)
          })
      )
    }
  )
})
