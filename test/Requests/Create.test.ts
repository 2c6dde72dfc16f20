import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { inject } from "vitest"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import { supportedVerticalIds } from "../../src/Domain/Catalog.js"
import { ServiceRequestCreate, ServiceRequestResponse } from "../../src/Domain/Request.js"
import { apiClient, postJson, requestAnswer, requestBody, wire } from "../support/Http.js"
import { closingServer, smtpServer } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"

const token = "partner-requests-token-0123456789"
const otherToken = "partner-other-token-9876543210"
const auth = { authorization: `Bearer ${token}` }
const path = "/api/public/requests"

const request = requestBody

/** A request through the typed client, read by `answer`: 201, 200 on a replay, or a refusal. */
const create = (body: unknown, asToken: string = token, headers: { readonly "idempotency-key"?: string } = {}) =>
  requestAnswer(body, asToken, headers)

/** Bad input is raw HTTP: the typed client cannot send a body (or header) its schema refuses. */
const rawCreate = (body: unknown, headers: Record<string, string> = auth) => postJson(path, body, headers)

/** A request created through the Api's typed client, answered as on the wire. */
const typedCreate = (body: unknown) =>
  Effect.gen(function* () {
    const client = yield* apiClient(token)
    const payload = yield* Schema.decodeUnknownEffect(ServiceRequestCreate)(body).pipe(Effect.orDie)
    return yield* wire(ServiceRequestResponse)(
      client.requests.create({ payload, headers: {}, responseMode: "decoded-and-response" })
    )
  })

const counts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ requests: number; outbox: number; keys: number }>`
    SELECT (SELECT count(*)::int FROM service_requests) AS requests,
      (SELECT count(*)::int FROM notification_outbox WHERE topic = 'request_created') AS outbox,
      (SELECT count(*)::int FROM idempotency_keys WHERE scope = 'request') AS keys`
  return row!
})

const expectInvalid = (
  body: unknown,
  issue: RegExp,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = auth
) =>
  Effect.gen(function* () {
    const before = yield* counts
    const response = yield* rawCreate(body, headers)
    expect(response.status, JSON.stringify(response.body)).toBe(400)
    expect(response.body).toMatchObject({ ok: false, error: "invalid_request", status: 400, ...extra })
    expect(response.body.issues).toContainEqual(expect.stringMatching(issue))
    expect(yield* counts).toEqual(before)
  })

describe("POST /api/public/requests", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` } }))((it) => {
    it.effect("stores the request with its consent record and candidates, and never claims a booking", () =>
      Effect.gen(function* () {
        const before = yield* counts
        const response = yield* typedCreate(request)
        expect(response.status, JSON.stringify(response.body)).toBe(201)
        const body = response.body
        expect(Object.keys(body).sort()).toEqual(
          [
            "ok",
            "spec_version",
            "request",
            "booking_created",
            "availability_checked",
            "provider_selected",
            "idempotent_replay",
            "safe_next_step"
          ].sort()
        )
        expect(body).toMatchObject({
          ok: true,
          spec_version: "public_requests_api_v1",
          booking_created: false,
          availability_checked: false,
          provider_selected: false,
          idempotent_replay: false
        })
        expect(body.request).toMatchObject({
          status: "ready_to_send",
          vertical_id: "vvs",
          job_type_id: "leak_hidden",
          taxonomy_confidence: "medium",
          customer_next_step: "contact_me",
          booking_mode: "request_only",
          persistence_status: "stored",
          persistence_backend: "postgresql"
        })
        expect(body.request.id).toMatch(/^[0-9a-f-]{36}$/)
        expect(body.request.session_id).toMatch(/^req_[A-Za-z0-9_-]{20}$/)
        expect(body.request.candidate_provider_count).toBe(body.request.provider_candidates.length)
        expect(body.request.candidate_provider_count).toBeGreaterThanOrEqual(2)
        for (const candidate of body.request.provider_candidates) {
          expect(Object.keys(candidate).sort()).toEqual(["can_receive_request", "direct_booking", "id", "name"])
        }
        // No SMTP here, and the demo providers have no webhook: nobody can receive it, and it says so.
        expect(body.request.provider_candidates.every((c: any) => c.can_receive_request === false)).toBe(true)
        expect(body.request.handoff).toEqual({
          status: "not_sent",
          providers_reached: 0,
          providers_pending: 0,
          reason: "no_reachable_candidates"
        })
        expect(body.safe_next_step).toMatch(/nothing is booked/)
        expect(body.safe_next_step).toMatch(/Nobody has received this request/)
        expect(body.safe_next_step).not.toMatch(/has been sent|was delivered/)
        expect(JSON.stringify(body)).not.toMatch(/Karin|Berg|765 43 21|example\.se|Sveavägen/)

        const sql = yield* SqlClient.SqlClient
        const [stored] = yield* sql<{ body: any; consent: any; status: string }>`
          SELECT body, consent, status FROM service_requests WHERE id = ${body.request.id}::uuid`
        expect(stored!.status).toBe("ready_to_send")
        expect(stored!.body).toEqual({
          ...request,
          source: "external_model",
          locale: "sv-SE",
          timezone: "Europe/Stockholm"
        })
        expect(stored!.consent).toMatchObject({
          user_consent_confirmed: true,
          statement: request.user_consent_statement,
          collected_at: request.consent_collected_at,
          source: "chat"
        })
        expect((yield* counts).requests).toBe(before.requests + 1)
      })
    )

    it.effect("a job type with a seed takes its booking mode; taxonomy confidence follows the routing mode", () =>
      Effect.gen(function* () {
        const faucet = yield* create({
          ...request,
          job_type_id: "install_faucet",
          customer_next_step: "direct_booking"
        })
        expect(faucet.body.request).toMatchObject({
          booking_mode: "direct_job_candidate",
          taxonomy_confidence: "high",
          customer_next_step: "direct_booking"
        })
        expect(faucet.body.request.provider_candidates.some((c: any) => c.direct_booking)).toBe(true)
        const specialist = yield* create({ ...request, vertical_id: "electrician", job_type_id: "electrical_solar_pv" })
        expect(specialist.body.request).toMatchObject({ taxonomy_confidence: "low", booking_mode: "request_only" })
      })
    )

    it.effect("a request nobody can receive says so: no provider for the area, or no postcode to find one", () =>
      Effect.gen(function* () {
        const kiruna = yield* create({ ...request, location: { input: "Kiruna, 981 38" } })
        expect(kiruna.status).toBe(201)
        expect(kiruna.body.request).toMatchObject({
          candidate_provider_count: 0,
          provider_candidates: [],
          handoff: { status: "not_sent", providers_reached: 0, reason: "no_candidates" }
        })
        expect(kiruna.body.safe_next_step).toMatch(
          /Nobody has received this request: no provider in this service covers/
        )
        const centrum = yield* create({ ...request, location: { input: "Kiruna centrum" } })
        expect(centrum.body.request.handoff).toMatchObject({ status: "not_sent", reason: "no_postcode" })
        expect(centrum.body.safe_next_step).toMatch(/no Swedish postcode we could read/)
        for (const response of [kiruna, centrum]) {
          expect(response.body.safe_next_step).not.toMatch(/has been sent|was delivered|will contact the user to/)
        }
        const replay = yield* create({ ...request, location: { input: "Kiruna centrum" }, idempotency_key: "kiruna-1" })
        const again = yield* create({ ...request, location: { input: "Kiruna centrum" }, idempotency_key: "kiruna-1" })
        expect(again.status).toBe(200)
        expect(again.body.request.handoff).toEqual(replay.body.request.handoff)
        expect(again.body.safe_next_step).toBe(replay.body.safe_next_step)
      })
    )

    it.effect("an emergency is refused with 400 emergency_not_supported, says call 112, and stores nothing", () =>
      Effect.gen(function* () {
        const before = yield* counts
        const emergency = yield* create({ ...request, vertical_id: "electrician", job_type_id: "electrical_emergency" })
        expect(emergency.status).toBe(400)
        expect(emergency.body).toMatchObject({ ok: false, error: "emergency_not_supported", status: 400 })
        expect(emergency.body.safe_next_step).toContain("ring 112")
        expect(emergency.body.safe_next_step).toContain("call 112")
        expect(yield* counts).toEqual(before)
      })
    )

    it.effect("consent time may not lie in the future beyond a small clock skew", () =>
      Effect.gen(function* () {
        yield* expectInvalid(
          { ...request, consent_collected_at: "2029-01-01T00:00:00Z" },
          /^consent_collected_at: lies in the future/
        )
      })
    )

    it.effect("missing or false consent is 400 with consent_required_before_create and stores nothing", () =>
      Effect.gen(function* () {
        const { user_consent_confirmed: _, ...withoutConsent } = request
        yield* expectInvalid(withoutConsent, /^user_consent_confirmed: is missing/, {
          consent_required_before_create: true
        })
        yield* expectInvalid({ ...request, user_consent_confirmed: false }, /^user_consent_confirmed: must be true/, {
          consent_required_before_create: true
        })
      })
    )

    it.effect(
      "unsupported verticals are 400 with supported_vertical_ids; a foreign job type with accepted_job_type_ids",
      () =>
        Effect.gen(function* () {
          for (const vertical of ["painting", "carpentry", "gardening", "roofing"]) {
            yield* expectInvalid(
              { ...request, vertical_id: vertical },
              new RegExp(`^vertical_id: ${vertical} is not supported`),
              {
                supported_vertical_ids: supportedVerticalIds
              }
            )
          }
          yield* expectInvalid(
            { ...request, job_type_id: "moving_home" },
            /^job_type_id: moving_home is not a job type of vvs/,
            {
              accepted_job_type_ids: catalogData.verticals[0]!.job_types.map((jt) => jt.job_type_id)
            }
          )
        })
    )

    it.effect("every field rule is a 400 naming the field", () =>
      Effect.gen(function* () {
        yield* expectInvalid({ ...request, description: "kort" }, /^description: Expected a string at least 10/)
        yield* expectInvalid(
          { ...request, description: "x".repeat(5001) },
          /^description: Expected a string at most 5000/
        )
        yield* expectInvalid({ ...request, job_type_id: "" }, /^job_type_id: Expected a string at least 1/)
        yield* expectInvalid(
          { ...request, customer: { phone: "0701234567", email: "a@b.se" } },
          /^customer\.name: is required/
        )
        yield* expectInvalid(
          { ...request, customer: { name: "K", phone: "0701234567", email: "a@b.se" } },
          /^customer\.name: Expected a string at least 2/
        )
        yield* expectInvalid(
          { ...request, customer: { name: "Karin", email: "a@b.se" } },
          /^customer\.phone: is missing/
        )
        yield* expectInvalid(
          { ...request, customer: { name: "Karin", phone: "0701234567" } },
          /^customer\.email: is missing/
        )
        yield* expectInvalid(
          { ...request, customer: { name: "Karin", phone: "0701234567", email: "nope" } },
          /^customer\.email: must be an e-mail address/
        )
        yield* expectInvalid({ ...request, location: {} }, /^location: must have input, address or postcode/)
        yield* expectInvalid(
          { ...request, location: { postcode: "11" } },
          /^location\.postcode: Expected a string at least 3/
        )
        yield* expectInvalid(
          { ...request, location: { input: "x".repeat(501) } },
          /^location\.input: Expected a string at most 500/
        )
        yield* expectInvalid({ ...request, timing: {} }, /^timing: must have preferred_time_text or urgency/)
        yield* expectInvalid({ ...request, budget_sek: 1.5 }, /^budget_sek: Expected an integer/)
        yield* expectInvalid(
          { ...request, budget_sek: 10_000_001 },
          /^budget_sek: Expected a number between 0 and 10000000/
        )
        yield* expectInvalid({ ...request, budget_sek: -1 }, /^budget_sek: Expected a number between 0 and 10000000/)
        yield* expectInvalid(
          { ...request, customer_next_step: "call_me" },
          /^customer_next_step: Expected "home_visit"/
        )
        yield* expectInvalid(
          { ...request, user_consent_statement: "ja" },
          /^user_consent_statement: Expected a string at least 8/
        )
        yield* expectInvalid({ ...request, consent_source: "" }, /^consent_source: Expected a string at least 1/)
        yield* expectInvalid({ ...request, source: "x".repeat(81) }, /^source: Expected a string at most 80/)
        yield* expectInvalid(
          { ...request, external_reference: "" },
          /^external_reference: Expected a string at least 1/
        )
        yield* expectInvalid(
          { ...request, idempotency_key: "x".repeat(201) },
          /^idempotency_key: Expected a string at most 200/
        )
        yield* expectInvalid({ ...request, locale: "s" }, /^locale: Expected a string at least 2/)
        yield* expectInvalid(
          { ...request, spec_version: "public_bookings_api_v1" },
          /^spec_version: Expected "public_requests_api_v1"/
        )
        yield* expectInvalid({ ...request, urgent: true }, /^urgent: is unexpected/)
        yield* expectInvalid(
          { ...request, location: { postcode: "111 34", street: "x" } },
          /^location\.street: is unexpected/
        )
        yield* expectInvalid(
          request,
          /^idempotency-key: Expected a string at least 1/,
          {},
          { ...auth, "idempotency-key": "" }
        )
      })
    )

    it.effect("a token is required: 401 without one", () =>
      Effect.gen(function* () {
        const response = yield* requestAnswer(request)
        expect(response.status).toBe(401)
        expect(response.body).toMatchObject({ ok: false, error: "unauthorized", status: 401 })
      })
    )

    it.effect(
      "the key as header or body: a repeat replays with 200, a different body is 409, header and body must agree",
      () =>
        Effect.gen(function* () {
          const first = yield* create(request, token, { "idempotency-key": "req-key-1" })
          expect(first.status).toBe(201)
          const before = yield* counts
          const again = yield* create({ ...request, idempotency_key: "req-key-1" })
          expect(again.status).toBe(200)
          expect(again.body.idempotent_replay).toBe(true)
          expect(again.body.request).toEqual(first.body.request)
          const reused = yield* create({ ...request, description: "Ett helt annat jobb med samma nyckel." }, token, {
            "idempotency-key": "req-key-1"
          })
          expect(reused.status).toBe(409)
          expect(reused.body).toMatchObject({ ok: false, error: "idempotency_key_reused", status: 409 })
          expect(yield* counts).toEqual(before)
          yield* expectInvalid(
            { ...request, idempotency_key: "req-key-2" },
            /^idempotency_key: differs from the Idempotency-Key header/,
            {},
            {
              ...auth,
              "idempotency-key": "req-key-3"
            }
          )
          const other = yield* create(request, otherToken, { "idempotency-key": "req-key-1" })
          expect(other.status).toBe(201)
        })
    )

    it.effect("concurrent repeats with one key create one request", () =>
      Effect.gen(function* () {
        const before = yield* counts
        const responses = yield* Effect.forEach(
          Array.from({ length: 8 }),
          () => create({ ...request, idempotency_key: "req-concurrent" }),
          { concurrency: "unbounded" }
        )
        expect(responses.filter((r) => r.status === 201)).toHaveLength(1)
        expect(responses.filter((r) => r.status === 200)).toHaveLength(7)
        expect(new Set(responses.map((r) => r.body.request.id)).size).toBe(1)
        expect((yield* counts).requests).toBe(before.requests + 1)
      })
    )
  })

  it.effect("the hand-off reaches the candidate providers by e-mail through the outbox", () =>
    Effect.gen(function* () {
      const smtp = yield* smtpServer()
      const context = yield* Layer.build(
        TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } })
      )
      const response = yield* Effect.provide(create(request), context)
      expect(response.status).toBe(201)
      const receivers = response.body.request.provider_candidates.filter((c: any) => c.can_receive_request)
      expect(receivers.length).toBeGreaterThan(0)
      expect(response.body.request.handoff).toEqual({
        status: "sent",
        providers_reached: receivers.length,
        providers_pending: 0
      })
      expect(response.body.safe_next_step).toContain(
        `The request was delivered to ${receivers.length} providers in the area`
      )
      const sql = yield* Effect.provide(SqlClient.SqlClient, context)
      const rows = yield* sql<{ status: string }>`
        SELECT status FROM notification_outbox WHERE subject_id = ${response.body.request.id}::uuid`
      expect(rows.map((row) => row.status)).toEqual(receivers.map(() => "sent"))
      expect(smtp.messages).toHaveLength(receivers.length)
      for (const mail of smtp.messages) {
        expect(mail.subject).toMatch(/ingen bokning/)
        expect(mail.text).toContain("Karin Berg")
      }
    }).pipe(Effect.scoped)
  )

  it.effect("a hand-off that could not be delivered yet is queued, and says nobody has received it yet", () =>
    Effect.gen(function* () {
      const { port } = yield* closingServer
      const context = yield* Layer.build(
        TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token, SMTP_URL: `smtp://127.0.0.1:${port}` } })
      )
      const response = yield* Effect.provide(create(request), context)
      expect(response.status).toBe(201)
      const receivers = response.body.request.provider_candidates.filter((c: any) => c.can_receive_request)
      expect(response.body.request.handoff).toEqual({
        status: "queued",
        providers_reached: 0,
        providers_pending: receivers.length
      })
      expect(response.body.safe_next_step).toMatch(
        /No provider has received the request yet: delivery to \d+ providers is queued/
      )
    }).pipe(Effect.scoped)
  )

  it.effect("production without a configured token answers 503", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(
        TestServer({
          env: {
            APP_ENV: "production",
            PUBLIC_BASE_URL: "https://api.example.se",
            DATABASE_URL: inject("databaseUrl"),
            DEMO_SUPPLY: "false"
          }
        })
      )
      const response = yield* Effect.provide(requestAnswer(request), context)
      expect(response.status).toBe(503)
      expect(response.body).toMatchObject({ ok: false, error: "auth_not_configured", status: 503 })
    }).pipe(Effect.scoped)
  )
})
