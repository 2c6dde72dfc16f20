import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { demoSupplyPath, Supply } from "../../src/Supply/Supply.js"
import { apiClient, call, confirmAnswer, searchBody, searchOptions, shortConfirmBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const partnerToken = "calendar-import-partner-0123456789"
const providerId = "soderlunds-vvs-sthlm"

const issue = Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(providerId)).pipe(
  Effect.provide(ProviderTokens.Default),
  Effect.orDie,
  Effect.map(({ token }) => token)
)

const putImport = (token: string, url: string) =>
  call(
    HttpClientRequest.put("/api/provider/calendar-import").pipe(
      HttpClientRequest.setHeaders({ authorization: `Bearer ${token}` }),
      HttpClientRequest.bodyJsonUnsafe({ url })
    )
  )

const statusOf = (token: string) => Effect.flatMap(apiClient(token), (client) => client.provider.calendarImport())

/** A real local calendar that answers only once the test lets it. */
const heldCalendar = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ server: Server; url: string; state: { body: string; hits: number; release: () => void } }>(
        (resolve) => {
          let release = () => {}
          const answered = new Promise<void>((done) => {
            release = done
          })
          const state = { body: "", hits: 0, release: () => release() }
          const server = createServer((_request, response) => {
            state.hits++
            void answered.then(() => response.writeHead(200, { "content-type": "text/calendar" }).end(state.body))
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/private.ics`, state })
          )
        }
      )
  ),
  ({ server, state }) =>
    Effect.promise(() => {
      state.release()
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    })
)

/** An iCalendar time in UTC, as calendar apps publish it. */
const icsTime = (at: string) => `${new Date(at).toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`

const busyOver = (start: string, end: string) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//test//provider calendar//EN",
    "BEGIN:VEVENT",
    "UID:clash@test",
    "DTSTAMP:20261101T000000Z",
    `DTSTART:${icsTime(start)}`,
    `DTEND:${icsTime(end)}`,
    "SUMMARY:Privat",
    "END:VEVENT",
    "END:VCALENDAR",
    ""
  ].join("\r\n")

describe("registering the provider's own calendar", () => {
  it.effect(
    "in production an address whose host is not public is refused at registration with 422 calendar_url_refused, and nothing is stored",
    () =>
      Effect.gen(function* () {
        // Production loads no demo supply: the provider is imported as an operator would.
        yield* Effect.flatMap(Supply, (supply) =>
          supply.importFile(JSON.parse(readFileSync(demoSupplyPath, "utf8")))
        ).pipe(Effect.provide(Supply.WithoutDemo), Effect.orDie)
        const token = yield* issue
        for (const url of [
          "https://127.0.0.1/private.ics",
          "https://localhost/private.ics",
          "https://10.1.2.3/private.ics",
          "https://192.168.0.10/private.ics",
          "https://169.254.169.254/latest/meta-data",
          "https://[::1]/private.ics",
          "https://[fd00::1]/private.ics",
          "https://[fe80::1]/private.ics",
          "https://[::ffff:10.0.0.1]/private.ics",
          "http://calendar.example.com/private.ics"
        ]) {
          const refused = yield* putImport(token, url)
          expect(refused.status, url).toBe(422)
          expect(refused.body, url).toMatchObject({ ok: false, error: "calendar_url_refused", status: 422 })
          expect(refused.body.issues[0], url).toMatch(/^url: /)
          expect(refused.body.safe_next_step).toMatch(/^Nothing was registered/)
        }
        expect(yield* statusOf(token)).toMatchObject({ url: null, fetch_status: null })
      }).pipe(
        Effect.provide(
          TestServer({
            env: {
              APP_ENV: "production",
              PUBLIC_BASE_URL: "https://api.example.se",
              DATABASE_URL: "postgres://u@h/d",
              SERVICE_REQUESTS_API_TOKENS: partnerToken
            },
            loops: "none"
          })
        ),
        Effect.scoped
      )
  )

  it.effect(
    "the registration answers at once, before the calendar has answered; the first fetch runs in the background",
    () =>
      Effect.gen(function* () {
        const token = yield* issue
        const { url, state } = yield* heldCalendar
        state.body = busyOver("2026-12-01T09:00:00+01:00", "2026-12-01T10:00:00+01:00")
        // The calendar has not answered, and will not until it is let: the registration does not wait for it.
        const registered = yield* putImport(token, url).pipe(Effect.timeout("3 seconds"), TestClock.withLive)
        expect(registered.status).toBe(200)
        expect(registered.body).toMatchObject({ url, fetch_status: "pending", last_synced_at: null, busy_intervals: 0 })
        expect(registered.body.safe_next_step).toMatch(/first fetch of this address is under way/)
        yield* waitFor(
          Effect.sync(() => state.hits),
          (hits) => expect(hits).toBe(1)
        )
        expect((yield* statusOf(token)).fetch_status).toBe("pending")

        state.release()
        yield* waitFor(statusOf(token), (status) =>
          expect(status).toMatchObject({ fetch_status: "synced", last_error: null, busy_intervals: 1 })
        )
      }).pipe(Effect.provide(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: partnerToken } })), Effect.scoped)
  )

  it.effect(
    "a booking confirmed a moment before an import whose busy time overlaps it is flagged in the provider's list, and its provider is told once",
    () =>
      Effect.gen(function* () {
        const token = yield* issue
        const provider = yield* apiClient(token)
        yield* TestClock.setTime(testNow)
        const options = (yield* searchOptions(searchBody)).filter((option) => option.provider.id === providerId)
        const booked = yield* confirmAnswer(shortConfirmBody(options[0], "clash-1"), partnerToken)
        expect(booked.status).toBe(201)
        const other = yield* confirmAnswer(shortConfirmBody(options[options.length - 1], "clash-2"), partnerToken)
        expect(other.status).toBe(201)
        const { booking } = booked.body
        const before = yield* provider.provider.bookings({ query: {} })
        expect(before.bookings.every((job) => job.conflicts_with_busy_time === false)).toBe(true)

        const { url, state } = yield* heldCalendar
        // Busy for the second half of the booked slot only: an overlap, not the same time.
        const middle = new Date((Date.parse(booking.slot_start_at) + Date.parse(booking.slot_end_at)) / 2)
        state.body = busyOver(middle.toISOString(), new Date(middle.getTime() + 3_600_000).toISOString())
        state.release()
        expect((yield* putImport(token, url)).status).toBe(200)
        yield* waitFor(statusOf(token), (status) => expect(status.fetch_status).toBe("synced"))
        expect((yield* statusOf(token)).safe_next_step).toMatch(
          /1 confirmed booking\(s\) of yours overlap these busy times/
        )

        const after = yield* provider.provider.bookings({ query: {} })
        const flagged = after.bookings.filter((job) => job.conflicts_with_busy_time)
        expect(flagged.map((job) => job.id)).toEqual([booking.id])
        expect(after.bookings.find((job) => job.id === other.body.booking.id)?.conflicts_with_busy_time).toBe(false)

        const sql = yield* SqlClient.SqlClient
        const notices = () =>
          sql<{ recipientRole: string; providerId: string; body: string; payload: { booking_id: string } }>`
            SELECT recipient_role, provider_id, body, payload FROM notification_outbox
            WHERE topic = 'busy_time_conflict' AND subject_id = ${booking.id}::uuid`.pipe(Effect.orDie)
        yield* waitFor(notices(), (rows) => expect(rows).toHaveLength(1))
        const [notice] = yield* notices()
        expect(notice).toMatchObject({ recipientRole: "provider", providerId, payload: { booking_id: booking.id } })
        expect(notice!.body).toContain(booked.body.request_id)
        expect(notice!.body).not.toMatch(/Astrid|Lindqvist|123 45 67|example\.se/)

        // Fetched again, the same overlap tells the provider nothing new.
        expect((yield* putImport(token, url)).status).toBe(200)
        yield* waitFor(statusOf(token), (status) => expect(status.fetch_status).toBe("synced"))
        expect(yield* notices()).toHaveLength(1)
      }).pipe(
        Effect.provide(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: partnerToken }, loops: "none" })),
        Effect.scoped
      )
  )
})
