import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { setProviderChannels } from "../support/Fixtures.js"
import { get, postJson, registerWebhook, requestAnswer } from "../support/Http.js"
import { webhookReceiver } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"

const token = "partner-withdraw-a-0123456789"
const otherToken = "partner-withdraw-b-0123456789"
const sandboxToken = "partner-withdraw-sandbox-0123456789"
const customer = { name: "Ingrid Sjöberg", phone: "+46 70 246 80 24", email: "ingrid.sjoberg@example.se" }
const street = "Folkungagatan 90"
const reason = "Kunden har löst det själv"
const personalData = [customer.name, customer.phone, customer.email, street, reason]

const create = (key: string, asToken = token) =>
  requestAnswer(
    {
      vertical_id: "vvs",
      job_type_id: "leak_hidden",
      description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
      user_consent_confirmed: true,
      customer,
      location: { address: street, postcode: "111 22" },
      timing: { preferred_time_text: "så snart som möjligt" },
      idempotency_key: key
    },
    asToken
  )

const withdraw = (id: string, body: Record<string, unknown>, asToken = token) =>
  postJson(`/api/public/requests/${id}/withdraw`, body, { authorization: `Bearer ${asToken}` })

/** The app with every provider's hand-off going to a local signed webhook answering `statuses` first. */
const withProviders = (statuses: Array<number> = []) =>
  Effect.gen(function* () {
    const hooks = yield* webhookReceiver(statuses)
    const context = yield* Layer.build(
      TestServer({
        env: {
          SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}`,
          SANDBOX_API_TOKENS: sandboxToken,
          NOTIFY_WAIT_MS: "5000"
        }
      })
    )
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    yield* run(setProviderChannels({ webhookUrl: hooks.url, webhookSecret: "whsec-withdraw-provider-0123456789" }))
    return { hooks, run, sql: Context.get(context, SqlClient.SqlClient) }
  })

describe("POST /api/public/requests/{id}/withdraw", () => {
  it.effect(
    "tells every provider who received it, once per key; a replay answers the same; another key is 409; the event carries no personal data",
    () =>
      Effect.gen(function* () {
        const { hooks, run, sql } = yield* withProviders()
        const subscribed = yield* run(registerWebhook(token, "http://127.0.0.1:9/partner", ["request.withdrawn"]))
        expect(subscribed.status).toBe(201)
        const created = yield* run(create("withdraw-1"))
        expect(created.status).toBe(201)
        const id: string = created.body.request.id
        const reached: number = created.body.request.handoff.providers_reached
        expect(reached).toBeGreaterThan(1)
        expect(hooks.received).toHaveLength(reached)

        const done = yield* run(withdraw(id, { idempotency_key: "wd-1", reason }))
        expect(done.status).toBe(200)
        expect(done.body).toMatchObject({
          ok: true,
          booking_created: false,
          idempotent_replay: false,
          request: {
            id,
            status: "withdrawn",
            withdrawal: { reason, providers_told: { status: "sent", providers_reached: reached, providers_pending: 0 } }
          }
        })
        expect(done.body.safe_next_step).toContain(`${reached} providers who had received it were told it is withdrawn`)
        const notices = hooks.received.slice(reached)
        expect(notices).toHaveLength(reached)
        for (const notice of notices) {
          expect(notice.body).toContain("request.withdrawn")
          expect(notice.body).toContain(created.body.request.session_id)
          for (const text of personalData) expect(notice.body).not.toContain(text)
        }

        const replay = yield* run(withdraw(id, { idempotency_key: "wd-1", reason }))
        expect(replay.status).toBe(200)
        expect({ ...replay.body, idempotent_replay: false }).toEqual(done.body)
        expect(replay.body.idempotent_replay).toBe(true)
        expect(hooks.received).toHaveLength(2 * reached)

        const otherReason = yield* run(withdraw(id, { idempotency_key: "wd-1", reason: "Annat skäl" }))
        expect(otherReason.status).toBe(409)
        expect(otherReason.body).toMatchObject({ error: "idempotency_key_reused", request_id: id })
        const again = yield* run(withdraw(id, { idempotency_key: "wd-2" }))
        expect(again.status).toBe(409)
        expect(again.body).toMatchObject({ error: "request_already_withdrawn", request_id: id })
        expect(hooks.received).toHaveLength(2 * reached)

        const looked = yield* run(get(`/api/public/requests/${id}`, { authorization: `Bearer ${token}` }))
        const { idempotent_replay: _, ...lookup } = done.body
        expect(looked.body).toEqual(lookup)

        const events = yield* sql<{ body: string }>`
          SELECT d.body FROM webhook_deliveries d WHERE d.event_type = 'request.withdrawn'`
        expect(events).toHaveLength(1)
        expect(JSON.parse(events[0]!.body).data).toEqual({
          request_id: id,
          status: "withdrawn",
          vertical_id: "vvs",
          job_type_id: "leak_hidden",
          providers_to_tell: reached,
          sandbox: false
        })

        const notTheirs = yield* run(withdraw(id, { idempotency_key: "wd-b" }, otherToken))
        expect(notTheirs.status).toBe(404)
        expect(notTheirs.body.error).toBe("request_not_found")
        const noKey = yield* run(withdraw(id, {}))
        expect(noKey.status).toBe(400)
        expect(noKey.body.issues).toEqual([
          "idempotency_key: is required (in the body, or as the Idempotency-Key header)"
        ])
      })
  )

  it.effect("a copy not yet delivered is stopped, and its provider is told as well", () =>
    Effect.gen(function* () {
      const { run } = yield* withProviders(Array.from({ length: 20 }, () => 500))
      const created = yield* run(create("withdraw-pending"))
      expect(created.body.request.handoff).toMatchObject({ status: "queued", providers_reached: 0 })
      const pending: number = created.body.request.handoff.providers_pending
      const done = yield* run(withdraw(created.body.request.id, { idempotency_key: "wd-pending" }))
      expect(done.status).toBe(200)
      expect(done.body.request.handoff).toMatchObject({ providers_reached: 0, providers_pending: 0 })
      expect(done.body.request.withdrawal.providers_told).toEqual({
        status: "queued",
        providers_reached: 0,
        providers_pending: pending
      })
      expect(done.body.safe_next_step).toContain("until then a provider may still contact the user")
    })
  )

  it.effect("a sandbox request reached nobody, so nobody is told, and the answer says so", () =>
    Effect.gen(function* () {
      const { hooks, run } = yield* withProviders()
      const created = yield* run(create("withdraw-sandbox", sandboxToken))
      expect(created.status).toBe(201)
      const done = yield* run(withdraw(created.body.request.id, { idempotency_key: "wd-s" }, sandboxToken))
      expect(done.status).toBe(200)
      expect(done.body.request.withdrawal.providers_told).toEqual({
        status: "not_needed",
        providers_reached: 0,
        providers_pending: 0
      })
      expect(done.body.safe_next_step).toMatch(/^Sandbox: .* No provider received it, so no provider is told/)
      expect(hooks.received).toEqual([])
    })
  )
})

describe("GET /api/public/requests", () => {
  it.effect("the partner's requests, each as its lookup answers it, filtered by status, never another's", () =>
    Effect.gen(function* () {
      const { run } = yield* withProviders()
      const first = yield* run(create("list-1"))
      yield* TestClock.adjust("1 minute")
      const second = yield* run(create("list-2"))
      const theirs = yield* run(create("list-b", otherToken))
      yield* TestClock.adjust("1 minute")
      yield* run(withdraw(first.body.request.id, { idempotency_key: "list-wd" }))
      const auth = { authorization: `Bearer ${token}` }

      const page = yield* run(get("/api/public/requests?limit=1", auth))
      expect(page.status).toBe(200)
      // The withdrawal is the latest change: it comes first.
      expect(page.body.requests.map((item: any) => item.request.id)).toEqual([first.body.request.id])
      const next = yield* run(get(`/api/public/requests?limit=1&cursor=${page.body.next_cursor}`, auth))
      expect(next.body.requests.map((item: any) => item.request.id)).toEqual([second.body.request.id])
      expect(next.body.next_cursor).toBeNull()
      const lookedUp = yield* run(get(`/api/public/requests/${second.body.request.id}`, auth))
      expect(next.body.requests[0]).toEqual(lookedUp.body)
      for (const item of [...page.body.requests, ...next.body.requests]) {
        for (const text of personalData) expect(JSON.stringify(item)).not.toContain(text)
        expect(item.request.id).not.toBe(theirs.body.request.id)
      }

      const withdrawn = yield* run(get("/api/public/requests?status=withdrawn", auth))
      expect(withdrawn.body.requests.map((item: any) => item.request.status)).toEqual(["withdrawn"])
      const bookingsCursor = yield* run(get(`/api/public/bookings?cursor=${page.body.next_cursor}`, auth))
      expect(bookingsCursor.status).toBe(400)
      expect(bookingsCursor.body.issues[0]).toMatch(/^cursor: continues another list/)
    })
  )
})
