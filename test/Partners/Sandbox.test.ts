import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Unauthorized } from "../../src/Domain/Errors.js"
import { ServiceRequestCreate } from "../../src/Domain/Request.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { Partners } from "../../src/Partners/Partners.js"
import { apiClient, confirmAnswer, payloadOf, searchOptions, withStatus } from "../support/ApiClient.js"
import { searchBodyFor, shortConfirmBody } from "../support/Bodies.js"
import { setProviderChannels } from "../support/Fixtures.js"
import { smtpServer, webhookReceiver } from "../support/Receivers.js"
import { postJson, TestServer } from "../support/TestServer.js"

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

const recorded = { status: "sent", channel: "sandbox", attempts: 1, will_retry: false }

describe("sandbox partners", () => {
  it.effect(
    "book and request through the same API; nothing reaches a real SMTP server or webhook, the responses show the sandbox sink, and no real calendar is blocked",
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
          customer_confirmation_status: "sent",
          provider_confirmation_status: "sent"
        })
        expect(booked.body.safe_next_step).toMatch(/^Sandbox: this booking is a test/)
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
          handoff: { status: "sent", providers_reached: candidates, providers_pending: 0 }
        })
        expect(requested.body.safe_next_step).toMatch(/^Sandbox: this request is a test/)

        expect(smtp.messages).toEqual([])
        expect(hooks.received).toEqual([])
        const rows = yield* run(sql<{ topic: string; channel: string; status: string; subject: string; body: string }>`
          SELECT o.topic, o.channel, o.status, o.subject, o.body FROM notification_outbox o
          WHERE o.subject_id IN (${booked.body.booking.id}::uuid, ${requested.body.request.id}::uuid)`)
        expect(rows).toHaveLength(2 + candidates)
        for (const row of rows) {
          expect(row).toMatchObject({ channel: "sandbox", status: "sent" })
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
})
