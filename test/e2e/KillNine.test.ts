import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Webhook } from "standardwebhooks"
import { vi } from "vitest"
import { pgClientLayer } from "../../src/Database/Database.js"
import { makeDatabase } from "../support/Database.js"
import { answerStatus, hang, inTurn, webhookReceiver } from "../support/Receivers.js"
import { expectJsonLines, type ServerProcess, servingPort, spawnServer } from "../support/Server.js"

const token = "partner-kill-nine-token-0123456789"
const customer = { name: "Sigrid Wallin", phone: "+46 70 987 65 43", email: "sigrid.wallin@example.se" }
const street = "Ringvägen 31"
const personalData = [customer.name, "Wallin", customer.phone, customer.email, street, "Ringvägen"]

/**
 * The webhook receiver on a port of its own choosing, or on `port` (one that was down comes back
 * there), answering 204. With `holdFirst`, the first delivery is read whole and never answered: a
 * slow receiver the sender is still waiting on.
 */
const listen = (port = 0, options: { readonly holdFirst?: boolean } = {}) =>
  webhookReceiver(inTurn(options.holdFirst ? [hang] : [], answerStatus(204, "")), { port })

/** A real `npm start` process on `database`, its port read from its start log; ended with the scope if still up. */
const start = (database: string, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const server = spawnServer({
        APP_ENV: "development",
        DATABASE_URL: database,
        PORT: "0",
        LOG_FORMAT: "json",
        SERVICE_REQUESTS_API_TOKENS: token,
        BOOKING_OPTION_SIGNING_KEYS: "kill:kill-secret-0123456789abcdef0123456789",
        ...env
      })
      return { server, base: `http://127.0.0.1:${await servingPort(server)}` }
    }),
    ({ server }) =>
      Effect.promise(async () => {
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM")
        await server.exited
      })
  )

const call = (base: string, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: (text.length > 0 ? JSON.parse(text) : undefined) as any }
  })

const poll = <A>(read: () => Promise<A>, check: (value: A) => void) =>
  Effect.promise(() =>
    vi.waitFor(
      async () => {
        const value = await read()
        check(value)
        return value
      },
      { timeout: 30_000, interval: 100 }
    )
  )

const kill9 = (server: ServerProcess) =>
  Effect.promise(async () => {
    server.child.kill("SIGKILL")
    return server.exited
  })

describe("kill -9 of the server between a change and its delivery", () => {
  it.live(
    "loses no event: after a restart on the same database the receiver gets each one, verified, with the webhook-id it had before",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        // Down: a port that was free a moment ago and nothing listens on until after the kill.
        const port = yield* Effect.scoped(Effect.map(listen(), (receiver) => receiver.port))
        // The first server's dispatcher never passes (it waits one interval before its first pass):
        // only the change and the attempt the partner's test starts at once can happen before the kill.
        const first = yield* start(url, { WEBHOOK_POLL_MS: "600000", WEBHOOK_TIMEOUT_MS: "30000" })
        const registered = yield* call(first.base, "POST", "/api/public/webhooks", {
          url: `http://127.0.0.1:${port}/hooks`
        })
        expect(registered.status).toBe(201)
        const webhookId = registered.body.webhook.id as string
        const secret = registered.body.secret as string

        const found = yield* call(first.base, "POST", "/api/public/booking-options", {
          vertical_id: "vvs",
          job_type_id: "install_faucet",
          description: "Byta köksblandaren, den nya finns på plats",
          location: { country_code: "SE", postcode: "111 22" },
          timing: { preferred_time_text: "nästa vecka" }
        })
        const option = found.body.options[0]
        const booked = yield* call(first.base, "POST", "/api/public/bookings", {
          booking_option_id: option.booking_option_id,
          customer,
          service_location: { country_code: "SE", address: street, postcode: "111 22" },
          user_consent_confirmed: true,
          booking_terms_accepted: true,
          booking_terms_version: option.terms.version,
          booking_terms_accepted_at: new Date().toISOString(),
          idempotency_key: "kill-nine-booking"
        })
        expect(booked.status).toBe(201)
        const requested = yield* call(first.base, "POST", "/api/public/requests", {
          vertical_id: "vvs",
          job_type_id: "leak_hidden",
          description: `Fuktfläck i taket. Ring ${customer.name} på ${customer.phone}.`,
          user_consent_confirmed: true,
          customer,
          location: { address: street, postcode: "111 22" },
          timing: { preferred_time_text: "så snart som möjligt" },
          idempotency_key: "kill-nine-request"
        })
        expect(requested.status).toBe(201)
        // A second webhook at a slow receiver: its test's attempt is in flight when the server dies.
        const slow = yield* listen(0, { holdFirst: true })
        const slowHook = yield* call(first.base, "POST", "/api/public/webhooks", {
          url: `http://127.0.0.1:${slow.port}/hooks`,
          events: ["webhook.test"]
        })
        expect(slowHook.status).toBe(201)
        expect((yield* call(first.base, "POST", `/api/public/webhooks/${slowHook.body.webhook.id}/test`)).status).toBe(
          202
        )
        yield* poll(
          async () => slow.received.length,
          (n) => expect(n).toBe(1)
        )
        // Claimed and not yet recorded: no attempt counted, and leased to the attempt until its lease runs out.
        const [inFlight] = (yield* call(
          first.base,
          "GET",
          `/api/public/webhooks/${slowHook.body.webhook.id}/deliveries`
        )).body.deliveries as Array<any>
        expect(inFlight).toMatchObject({ status: "pending", attempts: 0 })
        expect(Date.parse(inFlight.next_attempt_at)).toBeGreaterThan(Date.now())
        expect(slow.received[0]!.headers["webhook-id"]).toBe(inFlight.id)

        // The partner's test is attempted at once, against the receiver that is down: refused, due again in 5 s.
        expect((yield* call(first.base, "POST", `/api/public/webhooks/${webhookId}/test`)).status).toBe(202)
        const before = yield* poll(
          async () =>
            Effect.runPromise(
              call(first.base, "GET", `/api/public/webhooks/${webhookId}/deliveries`).pipe(
                Effect.map((response) => response.body.deliveries as Array<any>)
              )
            ),
          (list) => expect(list.find((delivery) => delivery.event_type === "webhook.test")?.attempts).toBe(1)
        )
        const byType = Object.fromEntries(before.map((delivery) => [delivery.event_type, delivery]))
        expect(Object.keys(byType).sort()).toEqual(["booking.confirmed", "request.created", "webhook.test"])
        expect(byType["booking.confirmed"]).toMatchObject({ status: "pending", attempts: 0 })
        expect(byType["request.created"]).toMatchObject({ status: "pending", attempts: 0 })
        expect(byType["webhook.test"]).toMatchObject({ status: "pending", attempts: 1 })

        expect(yield* kill9(first.server)).toBe("SIGKILL")
        // A process's clock cannot be driven: the lease's 60 s are taken off the row instead, as if they had passed.
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE webhook_deliveries SET next_attempt_at = next_attempt_at - interval '60 seconds'
            WHERE id = ${inFlight.id}`
        }).pipe(Effect.provide(pgClientLayer(Redacted.make(url), { maxConnections: 1 })), Effect.orDie)
        const receiver = yield* listen(port)
        const second = yield* start(url, { WEBHOOK_POLL_MS: "200" })

        yield* poll(
          async () => new Set(receiver.received.map((delivery) => delivery.headers["webhook-id"])).size,
          (ids) => expect(ids).toBe(3)
        )
        for (const delivery of receiver.received) {
          const event = new Webhook(secret).verify(delivery.body, delivery.headers) as any
          expect(delivery.headers["webhook-id"]).toBe(byType[event.type].id)
          for (const text of personalData) expect(delivery.body).not.toContain(text)
        }
        const events = receiver.received.map((delivery) => JSON.parse(delivery.body))
        expect(events.find((event) => event.type === "booking.confirmed").data.booking_id).toBe(booked.body.booking.id)
        expect(events.find((event) => event.type === "request.created").data.request_id).toBe(requested.body.request.id)
        const after = yield* poll(
          async () =>
            Effect.runPromise(
              call(second.base, "GET", `/api/public/webhooks/${webhookId}/deliveries`).pipe(
                Effect.map((response) => response.body.deliveries as Array<any>)
              )
            ),
          (list) => expect(list.every((delivery) => delivery.status === "delivered")).toBe(true)
        )
        expect(after.map((delivery) => delivery.id).sort()).toEqual(before.map((delivery) => delivery.id).sort())

        // The slow receiver's event again, with the webhook-id of the attempt the kill cut off; one attempt counted.
        yield* poll(
          async () => slow.received.length,
          (n) => expect(n).toBe(2)
        )
        expect(slow.received[1]!.headers["webhook-id"]).toBe(inFlight.id)
        expect(
          new Webhook(slowHook.body.secret).verify(slow.received[1]!.body, slow.received[1]!.headers)
        ).toMatchObject({ type: "webhook.test", data: { endpoint_id: slowHook.body.webhook.id } })
        yield* poll(
          async () =>
            Effect.runPromise(call(second.base, "GET", `/api/public/webhooks/${slowHook.body.webhook.id}/deliveries`)),
          (response) => expect(response.body.deliveries[0]).toMatchObject({ status: "delivered", attempts: 1 })
        )

        // Neither process logged a customer's name, contact or address, before or after the kill.
        for (const server of [first.server, second.server]) {
          const lines = expectJsonLines(server.stdout())
          expect(lines.length).toBeGreaterThan(0)
          for (const text of personalData) expect(server.output()).not.toContain(text)
        }
      }).pipe(Effect.scoped),
    120_000
  )
})
