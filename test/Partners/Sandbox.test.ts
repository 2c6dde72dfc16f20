import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Unauthorized } from "../../src/Domain/Errors.js"
import { ServiceRequestCreate } from "../../src/Domain/Request.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { Partners } from "../../src/Partners/Partners.js"
import { callTool, connect, stepOf } from "../Mcp/McpClient.js"
import { setProviderChannels } from "../support/Fixtures.js"
import {
  apiClient,
  cancelAnswer,
  confirmAnswer,
  get,
  payloadOf,
  postJson,
  registerWebhook,
  requestAnswer,
  rescheduleAnswer,
  searchBodyFor,
  searchOptions,
  shortConfirmBody,
  withStatus
} from "../support/Http.js"
import { smtpServer, webhookReceiver } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"

const liveToken = "partner-live-token-0123456789"
const sandboxToken = "partner-sandbox-token-0123456789"

const searchBody = searchBodyFor("nästa vecka")
/** Raw: the token in the X-Service-Requests-Token header is part of what is tested. */
const searchWithHeaders = (headers: Record<string, string>) =>
  postJson("/api/public/booking-options", searchBody, headers).pipe(
    Effect.map((response) => response.body.options as Array<any>)
  )
const searchAs = (token?: string) => searchOptions(searchBody, token)
const search = searchAs()

const astrid = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }

const confirm = (option: any, token: string, key: string, customer: object = astrid) =>
  confirmAnswer(shortConfirmBody(option, key, customer), token)

const requestBody = {
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
  user_consent_confirmed: true,
  customer: { name: "Karin Berg", phone: "+46 70 765 43 21", email: "karin.berg@example.se" },
  location: { address: "Sveavägen 44", postcode: "111 34" },
  timing: { preferred_time_text: "så snart som möjligt" },
  idempotency_key: "sandbox-request-1"
}

/** A sandbox message is kept and sent to no one: never "sent". */
const recorded = { status: "skipped", channel: "sandbox", attempts: 0, will_retry: false, reason: "sandbox" }

describe("sandbox partners", () => {
  it.effect(
    "book and request through the same API; nothing reaches a real SMTP server or webhook, every answer says nobody was told, and no real calendar is blocked",
    () =>
      Effect.gen(function* () {
        const smtp = yield* smtpServer()
        const hooks = yield* webhookReceiver()
        const context = yield* Layer.build(
          TestServer({
            env: {
              SERVICE_REQUESTS_API_TOKENS: liveToken,
              SANDBOX_API_TOKENS: sandboxToken,
              SMTP_URL: `smtp://127.0.0.1:${smtp.port}`
            }
          })
        )
        const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
        const sql = yield* run(SqlClient.SqlClient)
        // Every provider has a real channel: were anything sent for the sandbox, a receiver would get it.
        yield* run(
          setProviderChannels({
            webhookUrl: hooks.url,
            webhookSecret: "whsec-sandbox-0123456789",
            email: "provider@example.se"
          })
        )

        const [option] = yield* run(search)
        const booked = yield* run(confirm(option, sandboxToken, "sandbox-booking-1"))
        expect(booked.status, JSON.stringify(booked.body)).toBe(201)
        expect(booked.body).toMatchObject({ booking_created: true, booking: { status: "confirmed", sandbox: true } })
        expect(booked.body.confirmation_delivery).toEqual({ customer: recorded, provider: recorded })
        expect(booked.body.booking).toMatchObject({
          customer_confirmation_status: "skipped",
          provider_confirmation_status: "skipped"
        })
        expect(booked.body.safe_next_step).toMatch(
          /^Sandbox: this booking is a test\. No provider or customer was told/
        )
        expect(JSON.stringify(booked.body)).not.toContain('"sent"')
        const sandboxClient = yield* run(apiClient(sandboxToken))
        const status = yield* run(sandboxClient.bookings.status({ params: { booking_id: booked.body.request_id } }))
        expect(status).toMatchObject({
          found: true,
          booking: { id: booked.body.booking.id, sandbox: true },
          confirmation_delivery: { customer: recorded, provider: recorded }
        })
        const again = yield* run(confirm(option, sandboxToken, "sandbox-booking-2"))
        expect(again.status).toBe(409)
        expect(again.body).toMatchObject({ error: "option_already_booked", request_id: booked.body.request_id })
        expect(again.body.safe_next_step).toMatch(/^Sandbox: /)
        const bertil = { name: "Bertil Holm", phone: "+46 70 555 12 12", email: "bertil@example.se" }
        const taken = yield* run(confirm(option, sandboxToken, "sandbox-booking-3", bertil))
        expect(taken.body.error).toBe("slot_taken")

        // The sandbox's own searches leave the slot out; no token, or a live one, still sees it free.
        const slotOf = (o: any) => `${o.provider.id} ${o.slot.start_at}`
        expect((yield* run(searchAs(sandboxToken))).map(slotOf)).not.toContain(slotOf(option))
        expect((yield* run(searchWithHeaders({ "x-service-requests-token": sandboxToken }))).map(slotOf)).not.toContain(
          slotOf(option)
        )
        expect((yield* run(search)).map(slotOf)).toContain(slotOf(option))
        expect((yield* run(searchAs(liveToken))).map(slotOf)).toContain(slotOf(option))
        // A token that is sent is checked, on search too.
        const wrongClient = yield* run(apiClient("not-a-token-at-all"))
        const wrong = yield* run(
          Effect.flip(wrongClient.search.search({ payload: payloadOf(BookingSearchRequest)(searchBody) }))
        )
        expect(wrong).toBeInstanceOf(Unauthorized)

        // A partner made with the CLI's --sandbox is a sandbox partner too.
        const partners = yield* run(Effect.provide(Partners, Partners.Default))
        yield* run(partners.create("svea-test", "Svea Test", { sandbox: true }))
        const { token: partnerToken } = yield* run(partners.issueToken("svea-test"))
        const client = yield* run(apiClient(partnerToken))
        const requested = yield* run(
          withStatus(
            client.requests.create({
              payload: payloadOf(ServiceRequestCreate)(requestBody),
              headers: {},
              responseMode: "decoded-and-response"
            })
          )
        )
        expect(requested.status).toBe(201)
        const candidates = requested.body.request.provider_candidates.length
        expect(candidates).toBeGreaterThanOrEqual(2)
        expect(requested.body.request).toMatchObject({
          sandbox: true,
          handoff: { status: "not_sent", providers_reached: 0, providers_pending: 0, reason: "sandbox" }
        })
        expect(requested.body.safe_next_step).toMatch(/^Sandbox: this request is a test\. .*No provider was contacted/)
        // The step never says the request went anywhere: no "delivered", no providers reached.
        expect(requested.body.safe_next_step).not.toMatch(/delivered|received it|may contact the user/)
        const lookedUp = yield* run(client.requests.status({ params: { request_id: requested.body.request.id } }))
        expect(lookedUp.request.handoff).toEqual(requested.body.request.handoff)
        expect(lookedUp.safe_next_step).toBe(requested.body.safe_next_step)

        expect(smtp.messages).toEqual([])
        expect(hooks.received).toEqual([])
        const rows = yield* run(sql<{ topic: string; channel: string; status: string; subject: string; body: string }>`
          SELECT o.topic, o.channel, o.status, o.subject, o.body FROM notification_outbox o
          WHERE o.subject_id IN (${booked.body.booking.id}::uuid, ${requested.body.request.id}::uuid)`)
        expect(rows).toHaveLength(2 + candidates)
        for (const row of rows) {
          expect(row).toMatchObject({ channel: "sandbox", status: "skipped" })
          expect(row.subject.length).toBeGreaterThan(0)
          expect(row.body.length).toBeGreaterThan(0)
        }
        const [marks] = yield* run(sql<{ bookings: boolean; calendar: boolean; requests: boolean }>`
          SELECT (SELECT bool_and(sandbox) FROM bookings) AS bookings,
            (SELECT bool_and(sandbox) FROM calendar_bookings) AS calendar,
            (SELECT bool_and(sandbox) FROM service_requests) AS requests`)
        expect(marks).toEqual({ bookings: true, calendar: true, requests: true })

        // The real calendar never saw the sandbox booking: the slot is still offered and a live partner books it.
        expect((yield* run(search)).map(slotOf)).toContain(slotOf(option))
        const live = yield* run(confirm(option, liveToken, "live-booking-1"))
        expect(live.status, JSON.stringify(live.body)).toBe(201)
        expect(live.body.booking).not.toHaveProperty("sandbox")
        expect(live.body.confirmation_delivery).toMatchObject({
          customer: { status: "sent", channel: "email" },
          provider: { status: "sent", channel: "webhook" }
        })
        expect(smtp.messages.map((mail) => mail.to)).toEqual([["astrid@example.se"]])
        expect(hooks.received).toHaveLength(1)
        expect((yield* run(search)).map(slotOf)).not.toContain(slotOf(option))
        const liveClient = yield* run(apiClient(liveToken))
        const foreign = yield* run(liveClient.bookings.status({ params: { booking_id: booked.body.request_id } }))
        expect(foreign).toMatchObject({ found: false })
      }).pipe(Effect.scoped),
    60_000
  )

  it.effect(
    "a sandbox partner's changes, dry runs, MCP results and webhook events never say anyone was told or reached",
    () =>
      Effect.gen(function* () {
        const context = yield* Layer.build(TestServer({ env: { SANDBOX_API_TOKENS: sandboxToken } }))
        const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
        const sql = yield* run(SqlClient.SqlClient)
        yield* run(
          setProviderChannels({ webhookUrl: "http://127.0.0.1:9/provider", webhookSecret: "whsec-0123456789" })
        )
        const hook = yield* run(registerWebhook(sandboxToken, "http://127.0.0.1:9/partner"))
        expect(hook.status).toBe(201)

        const requested = yield* run(
          requestAnswer({ ...requestBody, idempotency_key: "sandbox-truth-1" }, sandboxToken)
        )
        expect(requested.body.request.handoff).toEqual({
          status: "not_sent",
          providers_reached: 0,
          providers_pending: 0,
          reason: "sandbox"
        })
        const [announced] = yield* run(sql<{ body: string }>`
          SELECT body FROM webhook_deliveries WHERE event_type = 'request.created'`)
        expect(JSON.parse(announced!.body).data).toMatchObject({
          sandbox: true,
          handoff: { status: "not_sent", providers_reached: 0, reason: "sandbox" }
        })

        const options = yield* run(searchAs(sandboxToken))
        const booked = yield* run(confirm(options[0], sandboxToken, "sandbox-truth-booking"))
        expect(booked.body.confirmation_delivery).toEqual({ customer: recorded, provider: recorded })
        const id = booked.body.booking.id

        const preview = yield* run(
          cancelAnswer(id, { idempotency_key: "sandbox-truth-cancel", dry_run: true }, sandboxToken)
        )
        expect(preview.body).toMatchObject({ dry_run: true, cancelled: false, sandbox: true })
        expect(preview.body.confirmation_delivery.customer).toMatchObject({ status: "skipped", reason: "dry_run" })
        expect(preview.body.safe_next_step).toMatch(/^Sandbox: .*no provider or customer was told/)

        const target = options.find(
          (o: any) =>
            o.provider.id === booked.body.booking.provider_id &&
            o.service.service_id === booked.body.booking.service_id &&
            Date.parse(o.slot.start_at) >= Date.parse(booked.body.booking.slot_end_at)
        )
        const move = {
          booking_option_id: target.booking_option_id,
          booking_terms_accepted: true,
          booking_terms_version: target.terms.version,
          booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
          idempotency_key: "sandbox-truth-move"
        }
        const moved = yield* run(rescheduleAnswer(id, move, sandboxToken))
        expect(moved.status, JSON.stringify(moved.body)).toBe(200)
        expect(moved.body.confirmation_delivery).toEqual({ customer: recorded, provider: recorded })
        expect(moved.body.booking).toMatchObject({
          customer_confirmation_status: "skipped",
          provider_confirmation_status: "skipped"
        })

        // Over MCP the same facts: a sandbox booking whose messages were skipped, said so in its step.
        const mcp = yield* run(connect({ authorization: `Bearer ${sandboxToken}` }))
        const status = yield* run(callTool(mcp.client, "get_booking_status", { booking_id: id }))
        const rest = yield* run(get(`/api/public/bookings/${id}`, { authorization: `Bearer ${sandboxToken}` }))
        expect(status.structuredContent).toMatchObject({
          found: true,
          request_id: rest.body.request_id,
          booking: { id: rest.body.booking.id, sandbox: true },
          delivery: { customer: recorded.status, provider: recorded.status }
        })
        expect(stepOf(status)).toMatch(/^Sandbox: this booking is a test; nobody was told/)
        const mcpRequest = yield* run(
          callTool(mcp.client, "get_follow_up_request", { request_id: requested.body.request.id })
        )
        expect(mcpRequest.structuredContent.request.handoff.reason).toBe("sandbox")

        const cancelled = yield* run(cancelAnswer(id, { idempotency_key: "sandbox-truth-cancel" }, sandboxToken))
        expect(cancelled.body).toMatchObject({ cancelled: true, sandbox: true })
        expect(cancelled.body.confirmation_delivery).toEqual({ customer: recorded, provider: recorded })

        const rows = yield* run(
          sql<{ channel: string; status: string }>`SELECT channel, status FROM notification_outbox`
        )
        expect(rows.length).toBeGreaterThanOrEqual(6)
        for (const row of rows) expect(row).toEqual({ channel: "sandbox", status: "skipped" })
        const events = yield* run(sql<{ event_type: string }>`SELECT event_type FROM webhook_deliveries`)
        expect(events.map((e) => e.event_type)).not.toContain("request.handoff_changed")
        expect(events.map((e) => e.event_type)).not.toContain("booking.confirmation_failed")
      }).pipe(Effect.scoped),
    60_000
  )
})
