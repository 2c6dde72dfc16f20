import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, Duration, Effect, Layer, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { ErasePersonalDataRequest, PersonalDataResponse } from "../../src/Domain/Retention.js"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { setProviderChannels } from "../support/Fixtures.js"
import {
  answer,
  apiClient,
  cancelAnswer,
  confirmAnswer,
  confirmBody,
  get,
  payloadOf,
  postJson,
  registerWebhook,
  requestAnswer,
  requestBody,
  searchBodyFor,
  searchOptions
} from "../support/Http.js"
import { smtpServer, webhookReceiver } from "../support/Receivers.js"
import { TestServer, testNow } from "../support/Server.js"
import { waitFor } from "../support/Time.js"
import { databaseHolding } from "./Leaks.js"

const token = "partner-privacy-a-0123456789"
const otherToken = "partner-privacy-b-0123456789"
const bearer = (asToken: string) => ({ authorization: `Bearer ${asToken}` })

/** A customer of one test alone, so a search of the whole database finds only what that test stored. */
const customerOf = (n: number) => ({
  name: `Märta Privacytest${n}`,
  phone: `+46 70 555 0${n} 9${n}`,
  email: `marta.privacy${n}@example.se`
})
const streetOf = (n: number) => `Integritetsgatan ${n}0`
/** The early-start request in the customer's own words is theirs too (2005:59, 2 kap. 15 §). */
const earlyStartOf = (n: number) => `Märta${n} vill att arbetet börjar direkt`
const valuesOf = (n: number) => {
  const customer = customerOf(n)
  return [customer.name, customer.phone, customer.email, streetOf(n), earlyStartOf(n)]
}

const book = (n: number, key: string, asToken = token) =>
  Effect.gen(function* () {
    const [option] = yield* searchOptions(searchBodyFor("nästa vecka"), asToken)
    const body = {
      ...confirmBody(option.booking_option_id, option.terms.version, key),
      customer: customerOf(n),
      service_location: { country_code: "SE", address: streetOf(n), postcode: "111 22" },
      user_consent_statement: `Jag, ${customerOf(n).name}, godkänner att uppgifterna delas.`,
      early_start_requested: true,
      early_start_statement: earlyStartOf(n)
    }
    const booked = yield* confirmAnswer(body, asToken)
    expect(booked.status).toBe(201)
    return booked.body as any
  })

const ask = (n: number, key: string) =>
  Effect.gen(function* () {
    const created = yield* requestAnswer(
      {
        ...requestBody,
        customer: customerOf(n),
        location: { address: streetOf(n), postcode: "111 34" },
        description: `Läckage hos ${customerOf(n).name}, ring ${customerOf(n).phone}.`,
        idempotency_key: key
      },
      token
    )
    expect(created.status).toBe(201)
    return created.body as any
  })

const erase = (kind: "bookings" | "requests", id: string, key: string, asToken = token) =>
  Effect.flatMap(apiClient(asToken), (client) => {
    const call = {
      payload: payloadOf(ErasePersonalDataRequest)({ idempotency_key: key }),
      headers: {},
      responseMode: "decoded-and-response" as const
    }
    return kind === "bookings"
      ? answer(PersonalDataResponse)(client.bookings.erasePersonalData({ ...call, params: { booking_id: id } }))
      : answer(PersonalDataResponse)(client.requests.erasePersonalData({ ...call, params: { request_id: id } }))
  })

const report = (kind: "bookings" | "requests", id: string, asToken = token) =>
  get(`/api/public/${kind}/${id}/personal-data`, bearer(asToken))

/** The app with SMTP for the customers' mail and a signed webhook for every provider, as in production. */
const withChannels = (env: Record<string, string> = {}, loops?: "personal data retention") =>
  Effect.gen(function* () {
    const smtp = yield* smtpServer()
    const hooks = yield* webhookReceiver()
    const logged: Array<string> = []
    const collector = Logger.layer([Logger.map(Logger.formatLogFmt, (line) => void logged.push(line))])
    const context = yield* Layer.build(
      TestServer({
        env: {
          SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}`,
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          NOTIFY_WAIT_MS: "5000",
          ...env
        },
        ...(loops === undefined ? {} : { loops })
      }).pipe(Layer.provide(collector))
    )
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
    yield* run(setProviderChannels({ webhookUrl: hooks.url, webhookSecret: "whsec-privacy-provider-0123456789" }))
    return { hooks, smtp, run, logged, sql: Context.get(context, SqlClient.SqlClient) }
  })

describe("personal data: access, erasure on request, retention (GDPR art. 5(1)(e), 15, 17, 19)", () => {
  it.effect(
    "art. 15 and 17: a booking's data is shown, kept while active (409 booking_active), erased after a cancel everywhere in the database; the provider is told without the values",
    () =>
      Effect.gen(function* () {
        const { hooks, run, logged } = yield* withChannels()
        expect((yield* run(registerWebhook(token, "http://127.0.0.1:9/partner", ["booking.cancelled"]))).status).toBe(
          201
        )
        const booked = yield* run(book(1, "privacy-book-1"))
        const id: string = booked.booking.id
        const values = valuesOf(1)
        expect(hooks.received.length).toBeGreaterThan(0)

        const shown = yield* run(report("bookings", id))
        expect(shown.status).toBe(200)
        expect(shown.body).toMatchObject({
          ok: true,
          subject: "booking",
          id,
          request_id: booked.request_id,
          status: "stored",
          recipients: [{ role: "provider", provider_id: booked.booking.provider_id, channel: "webhook" }],
          retention: { days: 180, counted_from: "slot_end" },
          erased_at: null
        })
        const fields = shown.body.stored.map((value: any) => value.field)
        expect(fields).toEqual(
          expect.arrayContaining([
            "customer.name",
            "customer.phone",
            "customer.email",
            "service_location.address",
            "early_start_statement"
          ])
        )
        // 180 days after the slot ends.
        expect(Date.parse(shown.body.retention.erase_after)).toBe(
          Date.parse(booked.booking.slot_end_at) + 180 * 86_400_000
        )
        // Another partner's booking is not found, as every lookup of it.
        expect((yield* run(report("bookings", id, otherToken))).status).toBe(404)
        expect((yield* run(erase("bookings", id, "other-erase", otherToken))).status).toBe(404)

        const refused = yield* run(erase("bookings", id, "erase-1"))
        expect(refused.status).toBe(409)
        expect(refused.body).toMatchObject({ error: "booking_active", booking_id: id })
        expect(refused.body.safe_next_step).toContain(`POST /api/public/bookings/${id}/cancel`)
        expect(yield* run(databaseHolding(values))).not.toEqual([])

        expect((yield* run(cancelAnswer(id, { idempotency_key: "privacy-cancel-1" }, token))).status).toBe(200)
        const before = hooks.received.length
        const erased = yield* run(erase("bookings", id, "erase-2"))
        expect(erased.status).toBe(200)
        expect(erased.body).toMatchObject({
          status: "erased",
          stored: [],
          erased_by: "request",
          retention: { erase_after: null },
          idempotent_replay: false,
          provider_notices: [{ status: "sent", channel: "webhook" }]
        })
        // Art. 19: the provider is told, naming the booking, never the erased values.
        const notice = hooks.received.slice(before).map((hook) => hook.body)
        expect(notice).toHaveLength(1)
        expect(notice[0]).toContain(booked.request_id)
        for (const value of values) expect(notice[0]).not.toContain(value)

        // No erased value survives in any table, payload or message.
        expect(yield* run(databaseHolding(values))).toEqual([])

        // The same key again answers the same; the key with another booking is refused.
        expect((yield* run(erase("bookings", id, "erase-2"))).body).toMatchObject({
          status: "erased",
          idempotent_replay: true
        })
        const second = yield* run(book(2, "privacy-book-2"))
        expect((yield* run(erase("bookings", second.booking.id, "erase-2"))).body).toMatchObject({
          error: "idempotency_key_reused"
        })

        // The booking still answers: status, lists and the provider API, without personal data.
        const status = yield* run(get(`/api/public/bookings/${id}`, bearer(token)))
        expect(status.body).toMatchObject({ ok: true, found: false, cancellation: { cancelled_by: "customer" } })
        const listed = yield* run(get("/api/public/bookings?status=cancelled", bearer(token)))
        expect(listed.body.bookings.map((b: any) => b.booking_id)).toContain(id)
        const providerToken = yield* run(
          Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(booked.booking.provider_id)).pipe(
            Effect.provide(ProviderTokens.Default),
            Effect.orDie
          )
        )
        const jobs = yield* run(get("/api/provider/bookings", bearer(providerToken.token)))
        const job = jobs.body.bookings.find((b: any) => b.id === id)
        expect(job).toMatchObject({
          status: "cancelled",
          customer: null,
          service_location: { address: null, postcode: "111 22" }
        })
        expect(job.personal_data_erased_at).toEqual(erased.body.erased_at)
        for (const value of values) expect(JSON.stringify([status.body, listed.body, job])).not.toContain(value)
        // Nor in any log line the server wrote on the way.
        expect(logged.length).toBeGreaterThan(0)
        for (const value of values) expect(logged.join("\n")).not.toContain(value)
      })
  )

  it.effect(
    "art. 17 and 19 for a follow-up request: refused while open (409 request_active), erased after withdrawal; each provider who received it is told",
    () =>
      Effect.gen(function* () {
        const { hooks, run } = yield* withChannels()
        const created = yield* run(ask(3, "privacy-ask-3"))
        const id: string = created.request.id
        const values = valuesOf(3)
        const reached: number = created.request.handoff.providers_reached
        expect(reached).toBeGreaterThan(0)

        const shown = yield* run(report("requests", id))
        expect(shown.body).toMatchObject({
          subject: "request",
          status: "stored",
          retention: { counted_from: "last_change" }
        })
        expect(shown.body.recipients).toHaveLength(reached)
        expect((yield* run(report("requests", id, otherToken))).status).toBe(404)

        const refused = yield* run(erase("requests", id, "erase-req-1"))
        expect(refused.body).toMatchObject({ status: 409, error: "request_active", request_id: id })
        expect(refused.body.safe_next_step).toContain(`POST /api/public/requests/${id}/withdraw`)

        const withdrawn = yield* run(
          postJson(`/api/public/requests/${id}/withdraw`, { idempotency_key: "privacy-wd-3" }, bearer(token))
        )
        expect(withdrawn.status).toBe(200)
        const before = hooks.received.length
        const erased = yield* run(erase("requests", id, "erase-req-2"))
        expect(erased.body).toMatchObject({ status: "erased", stored: [], erased_by: "request" })
        expect(erased.body.provider_notices).toHaveLength(reached)
        const notices = hooks.received.slice(before).map((hook) => hook.body)
        expect(notices).toHaveLength(reached)
        for (const notice of notices) for (const value of values) expect(notice).not.toContain(value)

        expect(yield* run(databaseHolding(values))).toEqual([])
        const status = yield* run(get(`/api/public/requests/${id}`, bearer(token)))
        expect(status.body).toMatchObject({ ok: true, request: { id, status: "withdrawn" } })
      })
  )

  it.effect(
    "art. 5(1)(e): the retention pass erases a cancelled booking and a request a day after (PERSONAL_DATA_RETENTION_DAYS=1), a confirmed one only a day after its slot ends, on the service's clock",
    () =>
      Effect.gen(function* () {
        const { run } = yield* withChannels({ PERSONAL_DATA_RETENTION_DAYS: "1" }, "personal data retention")
        const cancelled = yield* run(book(4, "privacy-book-4"))
        expect(
          (yield* run(cancelAnswer(cancelled.booking.id, { idempotency_key: "privacy-cancel-4" }, token))).status
        ).toBe(200)
        const kept = yield* run(book(5, "privacy-book-5"))
        const request = yield* run(ask(6, "privacy-ask-6"))

        // No pass before a day has gone by erases anything: its cutoff is before the cancellation.
        yield* TestClock.adjust(Duration.hours(23))
        expect((yield* run(report("bookings", cancelled.booking.id))).body.status).toBe("stored")

        // The clock moves an hour at a time; each move wakes the hourly pass, which runs against the real database.
        const erasedLater = (kind: "bookings" | "requests", id: string) =>
          waitFor(Effect.andThen(TestClock.adjust(Duration.hours(1)), run(report(kind, id))), (answer) =>
            expect(answer.body).toMatchObject({ status: "erased", erased_by: "retention", stored: [] })
          ).pipe(Effect.andThen(run(report(kind, id))))
        const erased = yield* erasedLater("bookings", cancelled.booking.id)
        expect(Date.parse(erased.body.erased_at)).toBeGreaterThanOrEqual(testNow + 86_400_000)
        yield* erasedLater("requests", request.request.id)
        expect(yield* run(databaseHolding([...valuesOf(4), ...valuesOf(6)]))).toEqual([])

        // The confirmed booking is kept until a day after its slot's end.
        const stillKept = yield* run(report("bookings", kept.booking.id))
        expect(stillKept.body.status).toBe("stored")
        const eraseAfter = Date.parse(stillKept.body.retention.erase_after)
        expect(eraseAfter).toBe(Date.parse(kept.booking.slot_end_at) + 86_400_000)
        const now = yield* Clock.currentTimeMillis
        yield* TestClock.adjust(Duration.millis(eraseAfter - now - 3_600_000))
        expect((yield* run(report("bookings", kept.booking.id))).body.status).toBe("stored")
        const keptErased = yield* erasedLater("bookings", kept.booking.id)
        expect(Date.parse(keptErased.body.erased_at)).toBeGreaterThanOrEqual(eraseAfter)
        expect(yield* run(databaseHolding(valuesOf(5)))).toEqual([])
        // Still answered without personal data.
        const status = yield* run(get(`/api/public/bookings/${kept.booking.id}`, bearer(token)))
        expect(status.body).toMatchObject({ ok: true, found: true, booking: { id: kept.booking.id } })
      })
  )
})
