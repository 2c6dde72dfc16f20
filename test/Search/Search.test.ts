import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Result, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { inject } from "vitest"
import { appConfigFrom } from "../../src/AppConfig.js"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import { supportedVerticalIds } from "../../src/Domain/Catalog.js"
import { BookingSearchRequest, BookingSearchResponse } from "../../src/Domain/Search.js"
import { bufferMinutes, leadTimeMinutes } from "../../src/Domain/Slots.js"
import { MINUTE, wallClockOf, zoneFor } from "../../src/Domain/Zone.js"
import { BookingOptions } from "../../src/Shared/BookingOptions.js"
import { freeSlots, takeSlot } from "../support/Fixtures.js"
import { answer, apiClient, payloadOf, postJson, searchBody, wire } from "../support/Http.js"
import { TestServer, testEnv, testNow } from "../support/Server.js"

const path = "/api/public/booking-options"
/** Monday 23 November 2026, 09:00 in Stockholm. */
const now = testNow

const faucet = searchBody

/** A search through the typed client, read by `answer`: 200 with options, or a refusal (422). */
const search = (body: unknown) =>
  Effect.andThen(
    TestClock.setTime(now),
    Effect.flatMap(apiClient(), (client) =>
      answer(BookingSearchResponse)(
        client.search.search({ payload: payloadOf(BookingSearchRequest)(body), responseMode: "decoded-and-response" })
      )
    )
  )

/** Bad input is raw HTTP: the typed client cannot send a body its schema refuses. */
const rawSearch = (body: unknown) => Effect.andThen(TestClock.setTime(now), postJson(path, body))

/** The option an id names, read back as confirm reads it (from the test server's database). */
const optionOf = (id: string) =>
  Effect.flatMap(
    Effect.provide(BookingOptions, BookingOptions.Default.pipe(Layer.provide(appConfigFrom(testEnv)))),
    (options) => Effect.map(options.open(id, new Date(now)), Result.getOrThrow)
  )

const localMinutes = (iso: string) => {
  const wall = wallClockOf(Date.parse(iso), zoneFor("Europe/Stockholm"))
  return { weekday: ((Math.floor(wall / 86_400_000) + 3) % 7) + 1, minute: (wall % 86_400_000) / MINUTE }
}
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

const expectInvalid = (body: unknown, ...issues: Array<RegExp>) =>
  Effect.gen(function* () {
    const response = yield* rawSearch(body)
    expect(response.status, JSON.stringify(response.body)).toBe(400)
    expect(response.body.ok).toBe(false)
    expect(response.body.error).toBe("invalid_request")
    expect(response.body.status).toBe(400)
    for (const issue of issues) expect(response.body.issues).toContainEqual(expect.stringMatching(issue))
  })

describe("POST /api/public/booking-options", () => {
  it.layer(TestServer())((it) => {
    it.effect("install_faucet at 111 22 returns signed options in free working-hour slots at the supply's prices", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(now)
        const client = yield* apiClient()
        const payload = yield* Schema.decodeUnknownEffect(BookingSearchRequest)(faucet)
        const { status, body } = yield* wire(BookingSearchResponse)(
          client.search.search({ payload, responseMode: "decoded-and-response" })
        )
        expect(status).toBe(200)
        expect(body).toMatchObject({
          ok: true,
          spec_version: "public_bookings_api_v1",
          availability_checked: true,
          provider_selected: false,
          booking_created: false,
          direct_booking_available: true
        })
        expect(body.fallback).toBeUndefined()
        expect(body.option_count).toBe(body.options.length)
        expect(body.options.length).toBeGreaterThanOrEqual(2)
        expect(body.options.length).toBeLessThanOrEqual(10)

        const sql = yield* SqlClient.SqlClient
        const perProvider = new Map<string, number>()
        let previousStart = 0
        for (const option of body.options) {
          perProvider.set(option.provider.id, (perProvider.get(option.provider.id) ?? 0) + 1)
          const start = Date.parse(option.slot.start_at)
          const end = Date.parse(option.slot.end_at)
          expect(start).toBeGreaterThanOrEqual(previousStart)
          previousStart = start
          expect(start).toBeGreaterThanOrEqual(now + leadTimeMinutes * MINUTE)
          expect(option.slot.start_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+01:00$/)
          expect(Date.parse(option.expires_at)).toBe(Math.min(now + 900_000, start))

          const [service] = yield* sql<{ amountSek: number; durationMinutes: number; termsVersion: string }>`
            SELECT amount_sek, duration_minutes, terms_version FROM provider_services
            WHERE provider_id = ${option.provider.id} AND service_id = ${option.service.service_id}`
          expect(option.price).toEqual({
            amount_sek: service!.amountSek,
            currency: "SEK",
            pricing_model: "flat",
            price_type: "avg_fixed",
            tax_deduction: expect.objectContaining({ kind: "rot", rate: 0.3 })
          })
          expect(option.terms.version).toBe(service!.termsVersion)
          expect(Object.keys(option.scope)).toEqual(expect.arrayContaining(["included_sv", "excluded_sv"]))
          expect(Object.keys(option.terms.sections[0])).toEqual(expect.arrayContaining(["id", "title_sv", "text_sv"]))
          expect(end - start).toBe(service!.durationMinutes * MINUTE)

          const hours = yield* sql<{ isoWeekday: number; opens: string; closes: string }>`
            SELECT iso_weekday, to_char(opens, 'HH24:MI') AS opens, to_char(closes, 'HH24:MI') AS closes
            FROM provider_working_hours WHERE provider_id = ${option.provider.id}`
          const from = localMinutes(option.slot.start_at)
          const to = localMinutes(option.slot.end_at)
          expect(
            hours.some(
              (h) =>
                h.isoWeekday === from.weekday && minutesOf(h.opens) <= from.minute && to.minute <= minutesOf(h.closes)
            )
          ).toBe(true)

          expect(option.booking_option_id).toMatch(/^[A-Za-z0-9_-]{20,64}$/)
          const claims = yield* optionOf(option.booking_option_id)
          expect(claims).toMatchObject({
            providerId: option.provider.id,
            serviceId: "vvs_install_faucet_standard",
            verticalId: "vvs",
            jobTypeId: "install_faucet",
            amountSek: option.price.amount_sek,
            slotStart: start,
            slotEnd: end,
            termsVersion: option.terms.version,
            originPostcode: 11122
          })
        }
        expect(Math.max(...perProvider.values())).toBeLessThanOrEqual(2)
        expect(body.requested_time_window).toEqual({
          start_at: "2026-11-23T09:00:00+01:00",
          end_at: "2026-11-30T00:00:00+01:00",
          label: expect.stringContaining("this week")
        })
      })
    )

    it.effect("the answer is JSON.stringify's text as UTF-8, sent as application/json", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(now)
        const client = yield* HttpClient.HttpClient
        const response = yield* client.execute(HttpClientRequest.bodyJsonUnsafe(HttpClientRequest.post(path), faucet))
        const bytes = Buffer.from(yield* response.arrayBuffer)
        expect(response.status).toBe(200)
        expect(response.headers["content-type"]).toBe("application/json")
        expect(response.headers["content-length"]).toBe(String(bytes.length))
        const text = bytes.toString("utf8")
        // The slot labels' en dash and the supply's Swedish letters, each in its UTF-8 bytes.
        expect(text).toMatch(/–/)
        expect(text).toMatch(/[åäö]/)
        expect(bytes.equals(Buffer.from(new TextEncoder().encode(JSON.stringify(JSON.parse(text)))))).toBe(true)
      }).pipe(Effect.scoped)
    )

    it.effect("a confirmed booking removes its slot and the buffer around it from the options", () =>
      Effect.gen(function* () {
        const first = (yield* search(faucet)).body.options[0]
        yield* takeSlot(first.provider.id, first.service.service_id, first.slot.start_at, first.slot.end_at)
        const after = (yield* search(faucet)).body.options.filter((o: any) => o.provider.id === first.provider.id)
        const bookedStart = Date.parse(first.slot.start_at)
        const bookedEnd = Date.parse(first.slot.end_at)
        for (const option of after) {
          const start = Date.parse(option.slot.start_at)
          const end = Date.parse(option.slot.end_at)
          expect(end <= bookedStart - bufferMinutes * MINUTE || start >= bookedEnd + bufferMinutes * MINUTE).toBe(true)
        }
        yield* freeSlots(first.provider.id)
      })
    )

    it.effect("north of 800 00 (Kiruna, 981 38) there is no supply, so the fallback is offered", () =>
      Effect.gen(function* () {
        const { status, body } = yield* search({ ...faucet, location: { country_code: "SE", postcode: "981 38" } })
        expect(status).toBe(200)
        expect(body).toMatchObject({
          ok: true,
          availability_checked: true,
          provider_selected: false,
          booking_created: false,
          direct_booking_available: false,
          option_count: 0,
          options: [],
          fallback: {
            type: "provider_follow_up_request",
            endpoint: "http://127.0.0.1:8080/api/public/requests",
            reason: expect.stringContaining("981 38")
          }
        })
        expect(body.safe_next_step).toMatch(/nothing is booked/)
      })
    )

    it.effect("a job type without a fixed-price service falls back", () =>
      Effect.gen(function* () {
        const { body } = yield* search({ ...faucet, job_type_id: "leak_hidden" })
        expect(body.direct_booking_available).toBe(false)
        expect(body.fallback.type).toBe("provider_follow_up_request")
      })
    )

    it.effect("a unit price needs its quantity: without details.window_count the reason names the key", () =>
      Effect.gen(function* () {
        const windows = {
          ...faucet,
          vertical_id: "cleaning",
          job_type_id: "cleaning_window",
          location: { country_code: "SE", postcode: "411 22" }
        }
        const without = (yield* search(windows)).body
        expect(without.direct_booking_available).toBe(false)
        expect(without.fallback.reason).toContain("details.window_count")
        const withCount = (yield* search({ ...windows, details: { window_count: 12 } })).body
        expect(withCount.direct_booking_available).toBe(true)
        for (const option of withCount.options) {
          expect(option.price).toMatchObject({ pricing_model: "per_window", unit: "fönster", quantity: 12 })
          expect(option.price.amount_sek).toBe(option.price.unit_price_sek * 12)
        }
      })
    )

    it.effect("moving_home needs a destination the provider also serves, and the moving details", () =>
      Effect.gen(function* () {
        const move = {
          ...faucet,
          vertical_id: "moving",
          job_type_id: "moving_home",
          description: "Flytt av en trea inom stan",
          destination_location: { country_code: "SE", postcode: "118 20" },
          details: { home_size_sqm: 74, boxes: 30, elevator_origin: true, elevator_destination: false }
        }
        const local = (yield* search(move)).body
        expect(local.direct_booking_available).toBe(true)
        const claims = yield* optionOf(local.options[0].booking_option_id)
        expect(claims).toMatchObject({ originPostcode: 11122, destinationPostcode: 11820 })
        const farAway = (yield* search({ ...move, destination_location: { country_code: "SE", postcode: "981 38" } }))
          .body
        expect(farAway.direct_booking_available).toBe(false)
      })
    )

    it.effect("the requester's timezone shapes the window and every date-time carries its offset", () =>
      Effect.gen(function* () {
        const { body } = yield* search({ ...faucet, timezone: "America/New_York", locale: "en-US" })
        expect(body.requested_time_window.start_at).toBe("2026-11-23T03:00:00-05:00")
        for (const option of body.options) {
          expect(option.slot.start_at).toMatch(/-05:00$/)
          expect(option.expires_at).toMatch(/-05:00$/)
        }
      })
    )

    it.effect("options found for a time that could not be searched as given say so first, and only then", () =>
      Effect.gen(function* () {
        for (const text of ["sportlovet", "igår", "förra veckan"]) {
          const { body } = yield* search({ ...faucet, timing: { preferred_time_text: text } })
          expect(body.requested_time_window.label, text).toMatch(/^Tiden (kunde inte tolkas|går inte att söka)/)
          expect(body.options.length, text).toBeGreaterThan(0)
          expect(body.safe_next_step, text).toMatch(
            /^The time the user gave could not be searched as given \(the window's label says why\); these are free times in the window searched instead: say so/
          )
        }
        const understood = yield* search({ ...faucet, timing: { preferred_time_text: "nästa vecka" } })
        expect(understood.body.options.length).toBeGreaterThan(0)
        expect(understood.body.safe_next_step).not.toContain("could not be searched")
        expect(understood.body.safe_next_step).toMatch(/^Show the user each option/)
      })
    )

    it.effect("slots honour the daily hours and the days a multi-day window leaves out", () =>
      Effect.gen(function* () {
        // Two-hour jobs in 10-12 give each provider one slot a day: without the left-out Wednesday, its second would be there.
        const { body } = yield* search({
          ...faucet,
          timing: { preferred_time_text: "tisdag eller torsdag nästa vecka, kl 10-12" }
        })
        expect(body.requested_time_window).toEqual({
          start_at: "2026-12-01T10:00:00+01:00",
          end_at: "2026-12-03T12:00:00+01:00",
          label:
            "tisdag 2026-12-01 eller torsdag 2026-12-03 kl 10:00–12:00 (Tuesday 2026-12-01 or Thursday 2026-12-03 10:00–12:00)"
        })
        const days = new Set(
          body.options.map((option: { slot: { start_at: string } }) => option.slot.start_at.slice(0, 10))
        )
        expect([...days].sort()).toEqual(["2026-12-01", "2026-12-03"])
        for (const option of body.options) {
          expect(localMinutes(option.slot.start_at).minute).toBeGreaterThanOrEqual(10 * 60)
          expect(localMinutes(option.slot.end_at).minute).toBeLessThanOrEqual(12 * 60)
        }
      })
    )

    it.effect("a vertical listed as not bookable yet is 422 with supported_vertical_ids and its own next step", () =>
      Effect.gen(function* () {
        for (const unavailable of catalogData.unavailable_verticals) {
          const { status, body } = yield* search({ ...faucet, vertical_id: unavailable.vertical_id })
          expect(status).toBe(422)
          expect(body).toEqual({
            ok: false,
            error: "unsupported_vertical",
            status: 422,
            issues: [
              `vertical_id: ${unavailable.vertical_id} is not supported; use one of vvs, electrician, moving, cleaning`
            ],
            supported_vertical_ids: supportedVerticalIds,
            safe_next_step: unavailable.safe_next_step
          })
        }
      })
    )

    it.effect(
      "a vertical that names a supported one in other words is 422 naming it, and the step says to use it",
      () =>
        Effect.gen(function* () {
          const { status, body } = yield* search({ ...faucet, vertical_id: "plumbing" })
          expect(status).toBe(422)
          expect(body).toEqual({
            ok: false,
            error: "unsupported_vertical",
            status: 422,
            issues: [
              "vertical_id: plumbing is not supported; it looks like vvs; use one of vvs, electrician, moving, cleaning"
            ],
            supported_vertical_ids: supportedVerticalIds,
            suggested_vertical_id: "vvs",
            suggested_job_type_id: "install_faucet",
            safe_next_step:
              "This job is vertical_id vvs, job_type_id install_faucet (Byte eller montering av blandare / Install or replace a tap) here: search again (POST /api/public/booking-options) with those ids."
          })
          const retried = yield* search({ ...faucet, vertical_id: body.suggested_vertical_id })
          expect(retried.status).toBe(200)
        })
    )

    it.effect("a job type that is not in the vertical is 422 with accepted_job_type_ids", () =>
      Effect.gen(function* () {
        const { status, body } = yield* search({ ...faucet, job_type_id: "moving_home" })
        expect(status).toBe(422)
        expect(body).toMatchObject({ ok: false, error: "unsupported_job_type", status: 422 })
        expect(body.accepted_job_type_ids).toEqual(
          catalogData.verticals.find((v) => v.vertical_id === "vvs")!.job_types.map((jt) => jt.job_type_id)
        )
      })
    )

    it.effect("required fields, bounds and types are 400 with one issue per field", () =>
      Effect.gen(function* () {
        yield* expectInvalid(
          {},
          /^vertical_id: is missing/,
          /^job_type_id: is missing/,
          /^description: is missing/,
          /^location: is missing/,
          /^timing: is missing/
        )
        yield* expectInvalid({ ...faucet, vertical_id: 7 }, /^vertical_id: Expected string/)
        yield* expectInvalid({ ...faucet, job_type_id: "" }, /^job_type_id: Expected a string at least 1/)
        yield* expectInvalid({ ...faucet, job_type_id: "x".repeat(121) }, /^job_type_id: Expected a string at most 120/)
        yield* expectInvalid({ ...faucet, description: "kort" }, /^description: Expected a string at least 10/)
        yield* expectInvalid(
          { ...faucet, description: "x".repeat(5001) },
          /^description: Expected a string at most 5000/
        )
        yield* expectInvalid(
          { ...faucet, spec_version: "public_requests_api_v1" },
          /^spec_version: Expected "public_bookings_api_v1"/
        )
        yield* expectInvalid({ ...faucet, locale: "s" }, /^locale: Expected a string at least 2/)
        yield* expectInvalid({ ...faucet, timezone: "Mars/Olympus" }, /^timezone: must be an IANA time zone/)
        yield* expectInvalid({ ...faucet, timing: {} }, /^timing: must have preferred_time_text or urgency/)
        yield* expectInvalid({ ...faucet, timing: { urgency: "x" } }, /^timing\.urgency: Expected a string at least 2/)
      })
    )

    it.effect("locations are Swedish: country_code SE and the postcode pattern NNN NN", () =>
      Effect.gen(function* () {
        yield* expectInvalid(
          { ...faucet, location: { country_code: "NO", postcode: "111 22" } },
          /^location\.country_code: must be SE/
        )
        for (const postcode of ["1112", "111  22", "111-22", "ABC DE", "111 223"]) {
          yield* expectInvalid(
            { ...faucet, location: { country_code: "SE", postcode } },
            /^location\.postcode: must be a Swedish postcode/
          )
        }
        yield* expectInvalid(
          { ...faucet, location: { country_code: "SE", postcode: "111 22", city: "S" } },
          /^location\.city: Expected a string at least 2/
        )
        for (const postcode of ["11122", "111 22"]) {
          expect((yield* search({ ...faucet, location: { country_code: "SE", postcode } })).status).toBe(200)
        }
      })
    )

    it.effect("no extra properties anywhere, so no personal data can be sent", () =>
      Effect.gen(function* () {
        yield* expectInvalid({ ...faucet, customer: { name: "Anna" } }, /^customer: is unexpected/)
        yield* expectInvalid({ ...faucet, email: "anna@example.se" }, /^email: is unexpected/)
        yield* expectInvalid(
          { ...faucet, location: { ...faucet.location, address: "Storgatan 1" } },
          /^location\.address: is unexpected/
        )
        yield* expectInvalid(
          { ...faucet, timing: { urgency: "snarast", phone: "070" } },
          /^timing\.phone: is unexpected/
        )
      })
    )

    it.effect("details is free-form: unknown job facts are accepted and ignored, within size and depth bounds", () =>
      Effect.gen(function* () {
        const plain = yield* search(faucet)
        const withFacts = yield* search({
          ...faucet,
          details: { fixture_known: true, tap: { brand: "Gustavsberg", model: "Nautic" }, notes: ["kök"] }
        })
        expect(withFacts.status, JSON.stringify(withFacts.body)).toBe(200)
        expect(withFacts.body.option_count).toBe(plain.body.option_count)
        yield* expectInvalid(
          { ...faucet, details: { a: { b: { c: { d: { e: 1 } } } } } },
          /^details: must be nested at most 4/
        )
        yield* expectInvalid(
          { ...faucet, details: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
          /^details: must have at most 50 keys/
        )
        yield* expectInvalid(
          { ...faucet, details: { notes: "x".repeat(9000) } },
          /^details: must be at most 8192 bytes/
        )
      })
    )

    it.effect("personal data in any search field is refused: it belongs to the confirmation, after consent", () =>
      Effect.gen(function* () {
        for (const [body, field] of [
          [{ ...faucet, description: "Byta blandare, ring mig på 070-123 45 67" }, "description"],
          [{ ...faucet, description: "Byta blandare, mejla anna.svensson@example.se" }, "description"],
          [{ ...faucet, details: { contact: "+46 70 123 45 67" } }, "details.contact"],
          [{ ...faucet, details: { people: [{ mail: "a@b.se" }] } }, "details.people.0.mail"],
          [{ ...faucet, location: { ...faucet.location, city: "anna@example.se" } }, "location.city"],
          [{ ...faucet, timing: { preferred_time_text: "ring 08-123 456 78 först" } }, "timing.preferred_time_text"]
        ] as const) {
          const response = yield* search(body)
          expect(response.status, field).toBe(400)
          expect(response.body.issues).toContainEqual(
            expect.stringMatching(
              new RegExp(
                `^${field.replace(/\./g, "\\.")}: looks like it contains a (e-mail address|phone number); search takes no personal data`
              )
            )
          )
        }
        // Numbers that are not phone numbers pass: postcodes, dates, sizes, times.
        const ok = yield* search({
          ...faucet,
          description: "Byta 2 blandare i 111 22, köpta 2026-11-01, 60 kvm, helst 08-10"
        })
        expect(ok.status, JSON.stringify(ok.body)).toBe(200)
      })
    )

    it.effect("quantities have bounds a real visit can have, and the field is named", () =>
      Effect.gen(function* () {
        const moveOut = { ...faucet, vertical_id: "cleaning", job_type_id: "cleaning_move_out" }
        yield* expectInvalid(
          { ...moveOut, details: { area_sqm: 1e9 } },
          /^details\.area_sqm: must be from 5 to 1000 m²/
        )
        yield* expectInvalid(
          { ...moveOut, details: { area_sqm: 0.5 } },
          /^details\.area_sqm: must be from 5 to 1000 m²/
        )
        yield* expectInvalid({ ...moveOut, details: { area_sqm: "60" } }, /^details\.area_sqm: must be a number/)
        const windows = { ...faucet, vertical_id: "cleaning", job_type_id: "cleaning_window" }
        yield* expectInvalid(
          { ...windows, details: { window_count: 2.5 } },
          /^details\.window_count: must be a whole number/
        )
        yield* expectInvalid(
          { ...windows, details: { window_count: 5000 } },
          /^details\.window_count: must be from 1 to 200/
        )
        const packing = { ...faucet, vertical_id: "moving", job_type_id: "moving_packing" }
        yield* expectInvalid({ ...packing, details: { hours: 30 } }, /^details\.hours: must be from 1 to 12 hours/)
      })
    )

    it.effect(
      "a big job's slot follows the work; one longer than a working day is no option, and the reason says so",
      () =>
        Effect.gen(function* () {
          const moveOut = {
            ...faucet,
            vertical_id: "cleaning",
            job_type_id: "cleaning_move_out",
            description: "Flyttstädning av lägenhet, tom och redo",
            timing: { preferred_time_text: "nästa vecka" }
          }
          const small = yield* search({ ...moveOut, details: { area_sqm: 60 } })
          const larger = yield* search({ ...moveOut, details: { area_sqm: 90 } })
          const durationOf = (option: any) =>
            (Date.parse(option.slot.end_at) - Date.parse(option.slot.start_at)) / 60_000
          expect(small.body.options.length).toBeGreaterThan(0)
          expect(larger.body.options.length).toBeGreaterThan(0)
          expect(small.body.options.map(durationOf)).toEqual(small.body.options.map(() => 240))
          expect(larger.body.options.map(durationOf)).toEqual(larger.body.options.map(() => 360))
          const huge = yield* search({ ...moveOut, details: { area_sqm: 900 } })
          expect(huge.status).toBe(200)
          expect(huge.body.direct_booking_available).toBe(false)
          expect(huge.body.fallback.reason).toMatch(/more than one working day/)
        })
    )

    it.effect("a destination only matters for moving: it neither filters nor travels in a vvs option", () =>
      Effect.gen(function* () {
        const plain = yield* search(faucet)
        const withDestination = yield* search({
          ...faucet,
          destination_location: { country_code: "SE", postcode: "981 32" }
        })
        expect(withDestination.status).toBe(200)
        expect(withDestination.body.option_count).toBe(plain.body.option_count)
        expect(withDestination.body.option_count).toBeGreaterThan(0)
      })
    )

    it.effect(
      "an emergency gets no options and no fallback, and the next step says call 112 in Swedish and English",
      () =>
        Effect.gen(function* () {
          const response = yield* search({
            ...faucet,
            vertical_id: "electrician",
            job_type_id: "electrical_emergency",
            description: "Det luktar bränt från elcentralen och säkringen går"
          })
          expect(response.status).toBe(200)
          expect(response.body).toMatchObject({
            ok: true,
            direct_booking_available: false,
            option_count: 0,
            options: [],
            booking_created: false
          })
          expect(response.body.fallback).toBeUndefined()
          expect(response.body.safe_next_step).toContain("ring 112")
          expect(response.body.safe_next_step).toContain("call 112")
        })
    )

    it.effect("options say what kind of price they carry: a starting price is never called exact", () =>
      Effect.gen(function* () {
        const response = yield* search({
          ...faucet,
          job_type_id: "clog_fixture",
          description: "Stopp i diskhon, vattnet rinner inte undan"
        })
        expect(response.body.options.length).toBeGreaterThan(0)
        for (const option of response.body.options) expect(option.price.price_type).toBe("starting_price")
        expect(response.body.safe_next_step).toContain("from-price")
        expect(response.body.safe_next_step).not.toContain("fixed price")
        expect(response.body.safe_next_step).not.toContain("exact price")
      })
    )

    it.effect("destination_location is required for moving_home, moving_office and moving_piano", () =>
      Effect.gen(function* () {
        const details = { home_size_sqm: 60, boxes: 20, elevator_origin: false, elevator_destination: true }
        for (const job of ["moving_home", "moving_office", "moving_piano"]) {
          yield* expectInvalid(
            { ...faucet, vertical_id: "moving", job_type_id: job, details },
            new RegExp(`^destination_location: is required for ${job}`)
          )
        }
        const packing = yield* search({
          ...faucet,
          vertical_id: "moving",
          job_type_id: "moving_packing",
          details: { hours: 3 }
        })
        expect(packing.status).toBe(200)
      })
    )

    it.effect("moving_home needs details with home_size_sqm > 0, boxes >= 0 and both elevator booleans", () =>
      Effect.gen(function* () {
        const move = {
          ...faucet,
          vertical_id: "moving",
          job_type_id: "moving_home",
          destination_location: { country_code: "SE", postcode: "118 20" }
        }
        yield* expectInvalid(move, /^details: is required for moving_home/)
        yield* expectInvalid(
          { ...move, details: { boxes: 3 } },
          /^details\.home_size_sqm: is required/,
          /^details\.elevator_origin: is required/,
          /^details\.elevator_destination: is required/
        )
        const details = { home_size_sqm: 60, boxes: 20, elevator_origin: false, elevator_destination: true }
        yield* expectInvalid(
          { ...move, details: { ...details, home_size_sqm: 0 } },
          /^details\.home_size_sqm: must be from 5 to 1000 m²/
        )
        yield* expectInvalid({ ...move, details: { ...details, boxes: -1 } }, /^details\.boxes: must be from 0 to 1000/)
        yield* expectInvalid(
          { ...move, details: { ...details, elevator_origin: "yes" } },
          /^details\.elevator_origin: must be a boolean/
        )
      })
    )

    it.effect("locale and timezone default to sv-SE and Europe/Stockholm", () =>
      Effect.gen(function* () {
        const { body } = yield* search(faucet)
        expect(body.requested_time_window.start_at).toMatch(/\+01:00$/)
        expect(body.options[0].slot.label).toMatch(/^måndag|^tisdag|^onsdag|^torsdag|^fredag|^lördag|^söndag/)
      })
    )
  })

  it.live("production without a signing key answers 503 signing_not_configured", () =>
    Effect.gen(function* () {
      const response = yield* postJson(path, faucet)
      expect(response.status).toBe(503)
      expect(response.body).toMatchObject({ ok: false, error: "signing_not_configured", status: 503 })
    }).pipe(
      Effect.provide(
        TestServer({
          probe: true,
          env: {
            APP_ENV: "production",
            PUBLIC_BASE_URL: "https://api.example.se",
            DATABASE_URL: inject("databaseUrl"),
            BOOKING_OPTION_SIGNING_KEYS: "",
            DEMO_SUPPLY: "false"
          }
        })
      )
    )
  )
})
