import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import { Catalog } from "../../src/Catalog/Catalog.js"
import { BookingSearchRequest, BookingSearchResponse } from "../../src/Domain/Search.js"
import { alternativesDays, maxAlternatives, maxOptionsPerProvider } from "../../src/Search/Choice.js"
import { alternativesExample } from "../../src/Search/Examples.js"
import { BookingSearch } from "../../src/Search/Search.js"
import { BookingOptions } from "../../src/Shared/BookingOptions.js"
import { Calendar } from "../../src/Shared/Calendar.js"
import { OptionSigner } from "../../src/Shared/OptionSigner.js"
import { Supply } from "../../src/Supply/Supply.js"
import { callTool, connect, stepOf } from "../Mcp/McpClient.js"
import { TestDatabaseLive } from "../support/Database.js"
import { clearBookings } from "../support/Fixtures.js"
import { answer, apiClient, confirmAnswer, payloadOf, searchBodyFor, shortConfirmBody } from "../support/Http.js"
import { TestServer, testEnv, testNow } from "../support/Server.js"

const token = "partner-alternatives-token-0123456789"
const DAY = 86_400_000

/** Wednesday 25 November 2026 from 17:00: every plumber at 111 22 has gone home by then. */
const afterWork = searchBodyFor("efter jobbet på onsdag")

const search = (body: unknown) =>
  Effect.andThen(
    TestClock.setTime(testNow),
    Effect.flatMap(apiClient(), (client) =>
      answer(BookingSearchResponse)(
        client.search.search({ payload: payloadOf(BookingSearchRequest)(body), responseMode: "decoded-and-response" })
      )
    )
  )

const startOf = (option: any) => Date.parse(option.slot.start_at)

describe("a requested window without a free slot", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect("answers the nearest free times as alternative_options, and direct_booking_available stays false", () =>
      Effect.gen(function* () {
        const { status, body } = yield* search(afterWork)
        expect(status).toBe(200)
        expect(body).toMatchObject({
          direct_booking_available: false,
          option_count: 0,
          options: [],
          requested_time_window: { start_at: "2026-11-25T17:00:00+01:00", end_at: "2026-11-25T21:00:00+01:00" },
          fallback: {
            type: "provider_follow_up_request",
            reason: expect.stringContaining("has a free slot in the requested time")
          }
        })
        const alternatives: Array<any> = body.alternative_options
        expect(alternatives.length).toBe(maxAlternatives)
        const windowStart = Date.parse(body.requested_time_window.start_at)
        const windowEnd = Date.parse(body.requested_time_window.end_at)
        for (const option of alternatives) {
          expect(startOf(option)).toBeGreaterThanOrEqual(windowEnd)
          expect(Date.parse(option.slot.end_at)).toBeLessThanOrEqual(windowEnd + alternativesDays * DAY)
          expect(startOf(option)).toBeGreaterThanOrEqual(windowStart)
          expect(option.service.job_type_id).toBe("install_faucet")
          expect(option.booking_option_id).toMatch(/^o2[A-Za-z0-9_-]{44}$/)
          expect(option.cancellation_policy).toBeDefined()
          expect(option.price.amount_sek).toBeGreaterThan(0)
        }
        // Earliest first, ties by provider id, at most two of a provider: Thursday morning.
        const order = alternatives.map((o) => [startOf(o), o.provider.id] as const)
        expect(order).toEqual([...order].sort(([a, p], [b, q]) => a - b || p.localeCompare(q)))
        expect(alternatives[0].slot.start_at).toBe("2026-11-26T08:00:00+01:00")
        for (const option of alternatives) {
          const same = alternatives.filter((o) => o.provider.id === option.provider.id)
          expect(same.length).toBeLessThanOrEqual(maxOptionsPerProvider)
        }

        const step: string = body.safe_next_step
        expect(step).toContain("alternative_options")
        expect(step).toContain("none of them is at the time they asked for")
        expect(step).toContain("nothing is booked")
        expect(step.indexOf("POST /api/public/bookings")).toBeGreaterThan(-1)
        expect(step.indexOf("alternative_options")).toBeLessThan(step.indexOf("follow-up request"))
      })
    )

    it.effect("an alternative is a full booking option that confirm accepts as it stands", () =>
      Effect.gen(function* () {
        const { body } = yield* search(afterWork)
        const alternative = body.alternative_options[0]
        const confirmed = yield* confirmAnswer(shortConfirmBody(alternative, "alternative-1"), token)
        expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201)
        expect(confirmed.body.booking).toMatchObject({
          status: "confirmed",
          provider_id: alternative.provider.id,
          slot_start_at: alternative.slot.start_at,
          price_sek: alternative.price.amount_sek,
          terms_version: alternative.terms.version
        })
        // The booked time is no longer offered.
        const again = yield* search(afterWork)
        expect(
          again.body.alternative_options.some(
            (o: any) => o.provider.id === alternative.provider.id && o.slot.start_at === alternative.slot.start_at
          )
        ).toBe(false)
        yield* clearBookings({ keys: true })
      })
    )

    it.effect("a window with free slots carries no alternative_options", () =>
      Effect.gen(function* () {
        const { body } = yield* search(searchBodyFor("nästa vecka"))
        expect(body.direct_booking_available).toBe(true)
        expect(body.options.length).toBeGreaterThan(0)
        expect("alternative_options" in body).toBe(false)
      })
    )

    it.effect("where no provider serves the job there are no alternatives either, and the step is unchanged", () =>
      Effect.gen(function* () {
        const { body } = yield* search(searchBodyFor("efter jobbet på onsdag", "981 38"))
        expect(body.direct_booking_available).toBe(false)
        expect("alternative_options" in body).toBe(false)
        expect(body.safe_next_step).toMatch(/^No direct booking is available for this job now/)
      })
    )

    it.effect(
      "the OpenAPI example of an empty window is what the server answers (its list cut to the first entry)",
      () =>
        Effect.gen(function* () {
          const { body } = yield* search(searchBodyFor("söndag"))
          const withoutNonce = (answer: any) => ({
            ...answer,
            alternative_options: answer.alternative_options
              .slice(0, 1)
              .map((option: any) => ({ ...option, booking_option_id: "<signed>" }))
          })
          expect(withoutNonce(body)).toEqual(withoutNonce(alternativesExample))
        })
    )

    it.effect("the MCP search tool carries the same alternatives, with the confirm tool's name in its step", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* connect()
        const result = yield* callTool(client, "search_booking_options", afterWork)
        expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy()
        expect(result.structuredContent.direct_booking_available).toBe(false)
        expect(result.structuredContent.alternative_options.length).toBe(maxAlternatives)
        expect(stepOf(result)).toContain("confirm_booking")
      }).pipe(Effect.scoped)
    )
  })
})

/** The search service over a calendar that counts its round trips to the database and keeps their ranges. */
const reads: Array<{ readonly start: number; readonly end: number }> = []
const CountedCalendar = Layer.effect(
  Calendar,
  Effect.gen(function* () {
    const calendar = yield* Calendar
    return Calendar.of({
      ...calendar,
      availability: (query) => {
        reads.push(query.range)
        return calendar.availability(query)
      }
    })
  })
).pipe(Layer.provide(Calendar.DefaultWithoutDependencies))

const SearchLive = BookingSearch.DefaultWithoutDependencies.pipe(
  Layer.provide([CountedCalendar, OptionSigner.Default, BookingOptions.Default]),
  Layer.provide(Supply.Default),
  Layer.provideMerge(Catalog.Default),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provideMerge(appConfigFrom(testEnv))
)

const searchOnce = (body: unknown) =>
  Effect.gen(function* () {
    reads.length = 0
    const request = yield* Schema.decodeUnknownEffect(BookingSearchRequest)(body)
    const service = yield* BookingSearch
    return yield* service.search(request, new Date(testNow))
  })

describe("the rate of search", () => {
  it.layer(SearchLive)((it) => {
    it.effect("a window with free slots reads availability once", () =>
      Effect.gen(function* () {
        const answer = yield* searchOnce(searchBodyFor("nästa vecka"))
        expect(answer.options.length).toBeGreaterThan(0)
        expect(reads.length).toBe(1)
      })
    )

    it.effect("an empty window reads once more, one range for all the days after it", () =>
      Effect.gen(function* () {
        const answer = yield* searchOnce(afterWork)
        expect(answer.alternative_options?.length).toBe(maxAlternatives)
        expect(reads.length).toBe(2)
        const [window, nearby] = reads as [{ start: number; end: number }, { start: number; end: number }]
        expect(nearby.start).toBe(window.start)
        expect(nearby.end).toBe(window.end + alternativesDays * DAY)
      })
    )

    it.effect("a job priced per unit without its quantity asks for it and reads no alternatives", () =>
      Effect.gen(function* () {
        const answer = yield* searchOnce({
          ...searchBodyFor("efter jobbet på onsdag"),
          vertical_id: "cleaning",
          job_type_id: "cleaning_window",
          description: "Fönsterputs i en lägenhet på tredje våningen"
        })
        expect(answer.direct_booking_available).toBe(false)
        expect(answer.alternative_options).toBeUndefined()
        expect(answer.safe_next_step).toContain("details.window_count")
        expect(reads.length).toBe(1)
      })
    )
  })
})
