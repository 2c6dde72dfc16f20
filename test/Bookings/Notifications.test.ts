import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Layer } from "effect"
import { setProviderChannels } from "../support/Fixtures.js"
import { apiClient, confirmAnswer, searchBodyFor, searchOptions, shortConfirmBody } from "../support/Http.js"
import { closingServer, smtpServer, verifyAt, webhookReceiver } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"

const token = "partner-notify-token-0123456789"

const search = searchOptions(searchBodyFor("nästa vecka"))

let key = 0
const confirm = (option: any) => confirmAnswer(shortConfirmBody(option, `notify-${++key}`), token)

/** The app with real SMTP on loopback, and one provider switched to a local signed webhook. */
const withSmtp = (smtpPort: number) =>
  TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token, SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } })

describe("booking confirmations", () => {
  it.effect("go out by e-mail to the customer and by signed webhook to the provider, and the response says sent", () =>
    Effect.gen(function* () {
      const smtp = yield* smtpServer()
      const hooks = yield* webhookReceiver()
      const context = yield* Layer.build(withSmtp(smtp.port))
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>

      const [option] = yield* run(search)
      const secret = "whsec-notifications-test-0123456789"
      yield* run(setProviderChannels({ providerId: option.provider.id, webhookUrl: hooks.url, webhookSecret: secret }))

      const response = yield* run(confirm(option))
      expect(response.status).toBe(201)
      expect(response.body.booking).toMatchObject({
        customer_confirmation_status: "sent",
        provider_confirmation_status: "sent"
      })
      expect(response.body.confirmation_delivery).toMatchObject({
        customer: { status: "sent", channel: "email", attempts: 1, will_retry: false },
        provider: { status: "sent", channel: "webhook", attempts: 1, will_retry: false }
      })

      const [mail] = smtp.messages
      expect(mail?.to).toEqual(["astrid@example.se"])
      expect(mail?.text).toContain(option.provider.name)
      expect(mail?.text).toContain(option.terms.version)
      expect(mail?.text).toMatch(/kr inkl\. moms/)

      const [hook] = hooks.received
      const payload = JSON.parse(hook!.body)
      expect(payload).toMatchObject({
        event: "booking.confirmed",
        booking_id: response.body.booking.id,
        price_sek: option.price.amount_sek
      })
      // Standard Webhooks, verified by the reference library at the service's (test) clock; the
      // provider's secret predates whsec_ and is read as its raw bytes.
      const headers = hook!.headers as Record<string, string>
      expect(Number(headers["webhook-timestamp"]) * 1000).toBe(
        yield* Clock.currentTimeMillis.pipe(Effect.map((ms) => Math.floor(ms / 1000) * 1000))
      )
      expect(
        verifyAt(secret, { body: hook!.body, headers }, Number(headers["webhook-timestamp"]) * 1000, { raw: true })
      ).toEqual(payload)
      expect(() =>
        verifyAt("whsec-another-secret-0123456789", { body: hook!.body, headers }, Date.now(), { raw: true })
      ).toThrow()
    }).pipe(Effect.scoped)
  )

  it.effect("a dead SMTP server never undoes or delays the booking: 201, the e-mail failed and will be retried", () =>
    Effect.gen(function* () {
      const { port } = yield* closingServer
      const context = yield* Layer.build(withSmtp(port))
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
      const [option] = yield* run(search)
      const response = yield* run(confirm(option))
      expect(response.status).toBe(201)
      expect(response.body.booking_created).toBe(true)
      expect(response.body.booking.customer_confirmation_status).toBe("failed")
      expect(response.body.confirmation_delivery.customer).toMatchObject({
        status: "failed",
        channel: "email",
        attempts: 1,
        will_retry: true
      })
      const client = yield* run(apiClient(token))
      const status = yield* run(client.bookings.status({ params: { booking_id: response.body.booking.id } }))
      expect(status).toMatchObject({
        found: true,
        booking: { status: "confirmed", customer_confirmation_status: "failed" }
      })
    }).pipe(Effect.scoped)
  )
})
