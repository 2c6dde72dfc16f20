import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import { ServiceRequestCreate } from "../../src/Domain/Request.js"
import { isEmergency } from "../../src/Domain/Safety.js"
import { postJson } from "../support/Http.js"
import { fc, propSettings } from "../support/Props.js"
import { TestServer } from "../support/Server.js"

const { parameters, timeout } = propSettings("requests round-trip", { quick: 40, deep: 2000 }, 200)

const token = "partner-roundtrip-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

/** Whitespace alone is blank, which the contract's text fields refuse (README, "Blank"). */
const text = (min: number, max: number) =>
  fc
    .string({ minLength: min, maxLength: max, unit: "grapheme" })
    .filter((s) => s.length >= min && s.length <= max && (min === 0 || s.trim().length > 0))

/** Emergencies are refused by design (truth rule 5), so they are not among the accepted bodies. */
const jobs = catalogData.verticals.flatMap((v) =>
  v.job_types.filter((jt) => !isEmergency(jt)).map((jt) => [v.vertical_id, jt.job_type_id] as const)
)

const customer = fc.oneof(
  fc.record({ name: text(2, 40), phone: text(5, 20), email: fc.emailAddress().filter((e) => e.length <= 255) }),
  fc.record({
    first_name: text(1, 20),
    last_name: text(1, 20),
    phone: text(5, 20),
    email: fc.emailAddress().filter((e) => e.length <= 255)
  })
)

const location = fc
  .record(
    {
      input: text(2, 60),
      address: text(2, 60),
      postcode: fc.oneof(fc.constantFrom("111 34", "41122", "211 20", "753 20", "981 38"), text(3, 40))
    },
    { requiredKeys: [] }
  )
  .filter((l) => l.input !== undefined || l.address !== undefined || l.postcode !== undefined)

const timing = fc
  .record({ preferred_time_text: text(2, 60), urgency: text(2, 60) }, { requiredKeys: [] })
  .filter((t) => Object.keys(t).length > 0)

/** Bodies the contract accepts, with every optional field sometimes present. */
const validBody = fc
  .record(
    {
      job: fc.constantFrom(...jobs),
      description: text(10, 200),
      customer,
      location,
      timing,
      budget_sek: fc.integer({ min: 0, max: 10_000_000 }),
      details: fc.dictionary(
        fc.string({ minLength: 1, maxLength: 10 }),
        fc.oneof(fc.integer(), fc.boolean(), text(0, 10)),
        {
          maxKeys: 3
        }
      ),
      customer_next_step: fc.constantFrom("home_visit", "price_info", "contact_me", "direct_booking"),
      user_consent_statement: text(8, 80),
      consent_source: text(1, 40),
      external_reference: text(1, 40),
      locale: fc.constantFrom("sv-SE", "en-GB", "sv"),
      timezone: fc.constantFrom("Europe/Stockholm", "UTC")
    },
    { requiredKeys: ["job", "description", "customer", "location", "timing"] }
  )
  .map(({ job, ...rest }) => ({ vertical_id: job[0], job_type_id: job[1], user_consent_confirmed: true, ...rest }))

/** One contract violation applied to a valid body. */
const violation = fc.constantFrom<readonly [string, (body: Record<string, any>) => Record<string, any>]>(
  ["no consent", ({ user_consent_confirmed: _, ...b }) => b],
  ["consent false", (b) => ({ ...b, user_consent_confirmed: false })],
  ["short description", (b) => ({ ...b, description: "kort" })],
  ["no customer", ({ customer: _, ...b }) => b],
  ["customer without a name", (b) => ({ ...b, customer: { phone: "0701234567", email: "a@b.se" } })],
  ["bad e-mail", (b) => ({ ...b, customer: { name: "Anna", phone: "0701234567", email: "anna" } })],
  ["empty location", (b) => ({ ...b, location: {} })],
  ["empty timing", (b) => ({ ...b, timing: {} })],
  ["budget too high", (b) => ({ ...b, budget_sek: 10_000_001 })],
  ["fractional budget", (b) => ({ ...b, budget_sek: 10.5 })],
  ["unknown next step", (b) => ({ ...b, customer_next_step: "later" })],
  ["extra property", (b) => ({ ...b, personnummer: "19121212-1212" })],
  ["extra customer property", (b) => ({ ...b, customer: { ...b.customer, address: "Storgatan 1" } })],
  ["unsupported vertical", (b) => ({ ...b, vertical_id: "painting" })],
  ["foreign job type", (b) => ({ ...b, vertical_id: "vvs", job_type_id: "moving_home" })],
  ["wrong type", (b) => ({ ...b, description: 42 })]
)

const decodeWithDefaults = Schema.decodeUnknownSync(ServiceRequestCreate)

describe("request creation properties", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect(
      "any accepted request body round-trips to the stored record",
      () =>
        Effect.gen(function* () {
          const runtime = yield* Effect.context<any>()
          const run = Effect.runPromiseWith(runtime)
          const sql = yield* SqlClient.SqlClient
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(validBody, async (body) => {
                const response = await run(postJson("/api/public/requests", body, auth))
                expect(response.status, JSON.stringify(response.body)).toBe(201)
                const [stored] = await run(
                  sql<{ body: unknown }>`SELECT body FROM service_requests WHERE id = ${response.body.request.id}::uuid`
                )
                expect(stored?.body).toEqual(JSON.parse(JSON.stringify(decodeWithDefaults(body))))
              }),
              parameters
            )
          )
        }),
      { timeout }
    )

    it.effect(
      "any body the contract rejects is a 400 and stores nothing",
      () =>
        Effect.gen(function* () {
          const runtime = yield* Effect.context<any>()
          const run = Effect.runPromiseWith(runtime)
          const sql = yield* SqlClient.SqlClient
          const count = sql<{ n: number }>`SELECT count(*)::int AS n FROM service_requests`.pipe(
            Effect.map((rows) => rows[0]?.n ?? 0)
          )
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(validBody, violation, async (body, [, spoil]) => {
                const before = await run(count)
                const response = await run(postJson("/api/public/requests", spoil(body), auth))
                expect(response.status, JSON.stringify(response.body)).toBe(400)
                expect(response.body.ok).toBe(false)
                expect(await run(count)).toBe(before)
              }),
              parameters
            )
          )
        }),
      { timeout }
    )
  })
})
