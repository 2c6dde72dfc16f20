import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Result, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { confirmFingerprint } from "../../src/Bookings/Fingerprint.js"
import { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { OptionInvalid } from "../../src/Domain/BookingOption.js"
import { IdempotencyKeyReused, InvalidRequest } from "../../src/Domain/Errors.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { ruleInForce, stockholmDate } from "../../src/Domain/TaxDeductionRules.js"
import { apiClient, get, payloadOf, postJson, shortConfirmBody, withStatus } from "../support/Http.js"
import { smtpServer } from "../support/Receivers.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "partner-tax-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

const searchFor = (jobTypeId: string, verticalId: string, extra: Record<string, unknown> = {}) =>
  Effect.flatMap(apiClient(), (client) =>
    client.search.search({
      payload: payloadOf(BookingSearchRequest)({
        vertical_id: verticalId,
        job_type_id: jobTypeId,
        description: "Ett vanligt jobb i hemmet",
        location: { country_code: "SE", postcode: "111 22" },
        timing: { preferred_time_text: "nästa vecka" },
        ...extra
      })
    })
  ).pipe(Effect.map((response) => ({ ...response, options: response.options as Array<any> })))

/** Confirm through the typed client: the status (201 new, 200 replay) and the decoded answer. */
const confirm = (body: unknown) =>
  Effect.flatMap(apiClient(token), (client) =>
    withStatus(
      client.bookings.confirm({
        payload: payloadOf(BookingConfirmationRequest)(body),
        headers: {},
        responseMode: "decoded-and-response"
      })
    )
  )

let keys = 0
const confirmBody = (option: any, overrides: Record<string, unknown> = {}) => ({
  ...shortConfirmBody(option, `tax-${++keys}`),
  ...overrides
})

/** The declaration stored for an option's service, as the supply file gave it. */
const declarationOf = (option: any) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ taxDeduction: any }>`
      SELECT tax_deduction FROM provider_services
      WHERE provider_id = ${option.provider.id} AND service_id = ${option.service.service_id}`
    return row!.taxDeduction
  })

/** price after deduction = amount − min(⌊rate × labour⌋, cap), with the labour the declared share of the price. */
const expectFiguresOf = (option: any, declaration: any) => {
  const d = option.price.tax_deduction
  const rule = ruleInForce(declaration.kind, stockholmDate(option.slot.start_at))!
  const labour = Math.floor(declaration.labour.share * option.price.amount_sek + 1e-9)
  const deduction = Math.min(Math.floor((Math.round(rule.rate * 100) * labour) / 100), rule.yearly_cap_sek)
  expect(d).toMatchObject({
    kind: declaration.kind,
    rate: rule.rate,
    labour_sek: labour,
    max_deduction_sek: deduction,
    price_after_deduction_sek: option.price.amount_sek - deduction
  })
  expect(d.price_after_deduction_sek).toBeGreaterThanOrEqual(option.price.amount_sek - labour)
}

describe("RUT and ROT over HTTP", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }), { timeout: 60_000 })((it) => {
    it.effect(
      "a fixed price states ROT at the slot's rate, both figures, and amount_sek stays the price before it",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const body = yield* searchFor("install_faucet", "vvs")
          expect(body.options.length).toBeGreaterThan(0)
          for (const option of body.options) {
            expectFiguresOf(option, yield* declarationOf(option))
            const d = option.price.tax_deduction
            expect(d.rate).toBe(0.3)
            expect(d.conditions_en).toContain(
              `or SEK ${d.price_after_deduction_sek.toLocaleString("en-GB")} after the ROT deduction if you are eligible and have room under this year's cap; the provider deducts it on the invoice.`
            )
            expect(d.conditions_sv).toContain("efter ROT-avdrag om du har rätt till avdraget")
          }
          expect(body.safe_next_step).toContain("amount_sek is the price before any tax deduction")
          expect(body.safe_next_step).toContain(
            "Y SEK after ROT if you are eligible and have room under this year's cap; the provider deducts it on the invoice"
          )
          expect(body.safe_next_step).toContain("Never give the after-deduction figure alone or as certain")
        })
    )

    it.effect("a starting price states every figure as a from-figure", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const body = yield* searchFor("clog_fixture", "vvs")
        expect(body.options.length).toBeGreaterThan(0)
        for (const option of body.options) {
          expect(option.price.price_type).toBe("starting_price")
          expectFiguresOf(option, yield* declarationOf(option))
          const d = option.price.tax_deduction
          expect(d.conditions_en).toMatch(/^From SEK [\d,]+, or from SEK [\d,]+ after the ROT deduction/)
          expect(d.conditions_sv).toMatch(/^Från [\d ]+ kr, eller från [\d ]+ kr efter ROT-avdrag/)
          expect(d.conditions_en).toContain("This is a starting price")
        }
        expect(body.safe_next_step).toContain(`keep "from" on a starting price's figures`)
      })
    )

    it.effect("a unit price states RUT for the stated quantity, and per unit", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const body = yield* searchFor("cleaning_home_deep", "cleaning", { details: { area_sqm: 76 } })
        expect(body.options.length).toBeGreaterThan(0)
        for (const option of body.options) {
          expectFiguresOf(option, yield* declarationOf(option))
          const d = option.price.tax_deduction
          expect(d).toMatchObject({ kind: "rut", rate: 0.5 })
          expect(d.per_unit.unit_price_sek).toBe(option.price.unit_price_sek)
          expect(d.per_unit.unit_price_after_deduction_sek).toBe(option.price.unit_price_sek / 2)
          expect(d.conditions_sv).toContain(" kr för 76 kvm, eller ")
          expect(d.conditions_en).toContain(" for 76 m², or ")
        }
      })
    )

    it.effect("a service that claims none says so, with its reason, and the step promises none", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const body = yield* searchFor("cleaning_office_recurring", "cleaning", { details: { hours: 3 } })
        expect(body.options.length).toBeGreaterThan(0)
        for (const option of body.options) {
          expect(option.price.tax_deduction).toEqual({
            kind: "none",
            reason: "not_claimed",
            conditions_sv: expect.stringContaining("gäller utan avdrag"),
            conditions_en: expect.stringContaining("stands without a deduction")
          })
        }
        expect(body.safe_next_step).toContain(
          "Where price.tax_deduction has kind none, say the price without a deduction and promise none."
        )
        expect(body.safe_next_step).not.toContain("after ROT")
      })
    )

    it.effect("the ROT rate follows the slot's date across the change of 1 January 2026", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2025-12-15T09:00:00+01:00"))
        const december = yield* searchFor("install_faucet", "vvs", {
          timing: { preferred_time_text: "den här veckan" }
        })
        yield* TestClock.setTime(Date.parse("2026-01-05T09:00:00+01:00"))
        const january = yield* searchFor("install_faucet", "vvs", {
          timing: { preferred_time_text: "den här veckan" }
        })
        expect(december.options.length).toBeGreaterThan(0)
        expect(january.options.length).toBeGreaterThan(0)
        for (const option of december.options) {
          expect(stockholmDate(option.slot.start_at) <= "2025-12-31").toBe(true)
          expectFiguresOf(option, yield* declarationOf(option))
          expect(option.price.tax_deduction.rate).toBe(0.5)
          // Paid after New Year, Skatteverket applies 30 %: the option says so.
          expect(option.price.tax_deduction.if_paid_from).toMatchObject({ date: "2026-01-01", rate: 0.3 })
        }
        for (const option of january.options) {
          expectFiguresOf(option, yield* declarationOf(option))
          expect(option.price.tax_deduction.rate).toBe(0.3)
          expect(option.price.tax_deduction.if_paid_from).toBeUndefined()
        }
      })
    )

    it.effect(
      "confirm with tax_deduction_requested states the option's deduction at the top level, and status says the same",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const [option] = (yield* searchFor("install_faucet", "vvs")).options
          // Raw: the test asserts a field is absent, which a decoded answer would not show.
          const confirmed = yield* postJson(
            "/api/public/bookings",
            confirmBody(option, { tax_deduction_requested: true }),
            auth
          )
          expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201)
          expect(confirmed.body.tax_deduction).toEqual(option.price.tax_deduction)
          expect(confirmed.body.tax_deduction_requested).toBe(true)
          expect(confirmed.body.booking.price_sek).toBe(option.price.amount_sek)
          expect(confirmed.body.booking.tax_deduction).toBeUndefined()
          expect(confirmed.body.safe_next_step).toContain("price_sek is the price before any deduction")
          expect(confirmed.body.safe_next_step).toContain("The user asked for it")
          const client = yield* apiClient(token)
          const status = yield* client.bookings.status({ params: { booking_id: confirmed.body.request_id } })
          expect(status.found).toBe(true)
          expect(status.found && status.tax_deduction).toEqual(option.price.tax_deduction)
          expect(status.found && status.tax_deduction_requested).toBe(true)

          const plain = yield* searchFor("install_toilet", "vvs")
          const withoutRequest = yield* confirm(confirmBody(plain.options[0]))
          expect(withoutRequest.status).toBe(201)
          expect(withoutRequest.body.tax_deduction_requested).toBe(false)
          expect(withoutRequest.body.tax_deduction).toEqual(plain.options[0].price.tax_deduction)
          expect(withoutRequest.body.safe_next_step).toContain("The user did not ask for it")
        })
    )

    it.effect("a retry with tax_deduction_requested flipped is another request: the key refuses it", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = (yield* searchFor("install_toilet", "vvs", {
          timing: { preferred_time_text: "om två veckor" }
        })).options
        const body = confirmBody(option)
        const first = yield* confirm(body)
        expect(first.status).toBe(201)
        const same = yield* confirm({ ...body, tax_deduction_requested: false })
        expect(same.status).toBe(200)
        expect(same.body.idempotent_replay).toBe(true)
        const flipped = yield* Effect.flip(confirm({ ...body, tax_deduction_requested: true }))
        expect(flipped).toBeInstanceOf(IdempotencyKeyReused)
      })
    )

    it.effect("asking for a deduction the option does not have is a 400 that books nothing", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = (yield* searchFor("cleaning_textile_carpet", "cleaning")).options
        expect(option.price.tax_deduction.kind).toBe("none")
        // A body the schema accepts that the option refuses: the contract's 400, decoded as its class.
        const refused = yield* Effect.flip(confirm(confirmBody(option, { tax_deduction_requested: true })))
        expect(refused).toBeInstanceOf(InvalidRequest)
        expect(refused).toMatchObject({
          issues: [
            "tax_deduction_requested: this option has no RUT or ROT deduction (price.tax_deduction.reason not_claimed)"
          ],
          safe_next_step: expect.stringMatching(/^Nothing is booked\./)
        })
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ n: number }>`
          SELECT count(*)::int AS n FROM bookings WHERE provider_id = ${option.provider.id} AND service_id = ${option.service.service_id}`
        expect(row!.n).toBe(0)
      })
    )

    it.effect("no field anywhere asks for a personal identity number, and confirm refuses one sent", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const document = (yield* get("/openapi.json")).body
        const names: Array<string> = []
        const walk = (value: unknown): void => {
          if (Array.isArray(value)) value.forEach(walk)
          else if (typeof value === "object" && value !== null)
            for (const [key, inner] of Object.entries(value)) {
              if (key === "properties" && typeof inner === "object" && inner !== null) names.push(...Object.keys(inner))
              if (key === "name" && typeof inner === "string") names.push(inner)
              walk(inner)
            }
        }
        walk(document)
        expect(names).toContain("tax_deduction_requested")
        const identity = /person(?:nummer|al_?(?:id|number))|national_?id|\bssn\b|identity_?number|samordningsnummer/i
        expect(names.filter((name) => identity.test(name))).toEqual([])
        expect(Object.keys(BookingConfirmationRequest.fields).filter((name) => identity.test(name))).toEqual([])

        const [option] = (yield* searchFor("install_faucet", "vvs")).options
        // An extra field is bad input: raw HTTP, as the typed client would refuse to send it.
        const sent = yield* postJson(
          "/api/public/bookings",
          confirmBody(option, { tax_deduction_requested: true, personnummer: "19800101-1234" }),
          auth
        )
        expect(sent.status).toBe(400)
        expect(JSON.stringify(sent.body)).not.toContain("19800101-1234")
      })
    )
  })

  it.effect("the customer's e-mail says the deduction in Swedish, and the provider's says the customer wants it", () =>
    Effect.gen(function* () {
      const smtp = yield* smtpServer()
      const context = yield* Layer.build(
        TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } })
      )
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
      yield* run(TestClock.setTime(testNow))
      const [option] = (yield* run(searchFor("install_faucet", "vvs"))).options
      const d = option.price.tax_deduction
      const confirmed = yield* run(confirm(confirmBody(option, { tax_deduction_requested: true })))
      expect(confirmed.status).toBe(201)
      expect(confirmed.body.confirmation_delivery.customer.status).toBe("sent")
      const customer = smtp.messages.find((mail) => mail.to.includes("astrid@example.se"))!
      const provider = smtp.messages.find((mail) => !mail.to.includes("astrid@example.se"))!
      expect(customer.text).toContain(`Skatteavdrag: ${d.conditions_sv}`)
      expect(customer.text).toContain(
        "Du har bett att ROT-avdraget görs på fakturan. Utföraren kontaktar dig för de uppgifter som behövs för ansökan hos Skatteverket; vi frågar inte efter dem och sparar dem inte."
      )
      expect(customer.text).toContain(`Tax deduction: ${d.conditions_en}`)
      expect(provider.text).toContain("kunden vill att ROT-avdraget görs på fakturan")
      expect(provider.text).toContain(
        "Ta in de identitetsuppgifter som behövs för ansökan hos Skatteverket direkt från kunden"
      )
      expect(provider.text).toContain("the customer wants the ROT deduction made on the invoice")
    })
  )
})

describe("confirmFingerprint", () => {
  const request = Schema.decodeUnknownSync(BookingConfirmationRequest)({
    booking_option_id: "o1.none.not-a-real-option-id",
    customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" },
    service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
    user_consent_confirmed: true,
    booking_terms_accepted: true,
    booking_terms_version: "provider/service/v1",
    booking_terms_accepted_at: "2026-11-23T08:59:00+01:00"
  })
  const opened = Result.fail(new OptionInvalid({ issues: [] }) as never)

  it("holds the deduction request: asked for is another request than not, and false is not asking", () => {
    const plain = confirmFingerprint(request, opened)
    expect(confirmFingerprint({ ...request, tax_deduction_requested: true }, opened)).not.toBe(plain)
    expect(confirmFingerprint({ ...request, tax_deduction_requested: false }, opened)).toBe(plain)
  })
})
