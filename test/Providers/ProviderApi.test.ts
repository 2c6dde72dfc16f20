import { readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Console, Effect, Exit, Layer, Logger } from "effect"
import { HttpClientRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import ICAL from "ical.js"
import { providerCommand } from "../../src/bin/providerCommand.js"
import { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { type ErrorClass, errorStatus, Unauthorized } from "../../src/Domain/Errors.js"
import {
  BlockNotFound,
  BlockOverlapsBlock,
  BlockOverlapsBooking,
  type CalendarImportResponse,
  CalendarUrlRefused,
  WorkingHoursRequest
} from "../../src/Domain/Provider.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { importPollInterval } from "../../src/Providers/CalendarImport.js"
import { ProviderTokens, providerTokenPattern } from "../../src/Providers/ProviderTokens.js"
import { demoSupplyPath, Supply } from "../../src/Supply/Supply.js"
import { apiClient, call, confirmBody, get, getText, payloadOf, postJson, searchBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { expectSwedishStamps, waitFor } from "../support/Time.js"

const partnerToken = "partner-a-token-0123456789"
const providerA = "soderlunds-vvs-sthlm"
const providerB = "norrmalms-ror-sthlm"

const issue = (providerId: string) =>
  Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(providerId)).pipe(
    Effect.provide(ProviderTokens.Default),
    Effect.orDie
  )
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
/** A raw PUT, for the bad bodies the typed client would refuse to send. */
const put = (path: string, body: unknown, headers: Record<string, string>) =>
  call(HttpClientRequest.put(path).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyJsonUnsafe(body)))

let keys = 0
/** The partner's search, typed: the options the schema decoded. */
const search = (body: unknown = searchBody) =>
  Effect.flatMap(apiClient(partnerToken), (client) =>
    client.search.search({ payload: payloadOf(BookingSearchRequest)(body) })
  ).pipe(Effect.map((response) => response.options as Array<any>))
const optionsOf = (options: Array<any>, providerId: string) => options.filter((o) => o.provider.id === providerId)
/** The partner's confirm, typed, with the status it answered (201 for a new booking). */
const confirm = (option: any, postcode = "111 22") => {
  const body = confirmBody(option.booking_option_id, option.terms.version, `p-key-${++keys}`)
  const payload = payloadOf(BookingConfirmationRequest)({
    ...body,
    service_location: { ...body.service_location, postcode }
  })
  return Effect.flatMap(apiClient(partnerToken), (client) =>
    client.bookings.confirm({ payload, headers: {}, responseMode: "decoded-and-response" })
  ).pipe(Effect.map(([booked, response]) => ({ status: response.status, body: booked })))
}

const overlaps = (option: any, start: string, end: string) =>
  Date.parse(option.slot.start_at) < Date.parse(end) && Date.parse(start) < Date.parse(option.slot.end_at)

/** A real local HTTP server serving iCalendar text, whose answer a test changes as it goes. */
const calendarServer = Effect.acquireRelease(
  Effect.promise(
    () =>
      new Promise<{ server: Server; url: string; state: { mode: "ok" | "fail" | "hang"; body: string; hits: number } }>(
        (resolve) => {
          const state = { mode: "ok" as "ok" | "fail" | "hang", body: "", hits: 0 }
          const server = createServer((request, response) => {
            state.hits++
            if (state.mode === "hang") return
            if (state.mode === "fail") return response.writeHead(500).end("down")
            const etag = `"${state.body.length}"`
            if (request.headers["if-none-match"] === etag) return response.writeHead(304).end()
            response.writeHead(200, { "content-type": "text/calendar", etag }).end(state.body)
          })
          server.listen(0, "127.0.0.1", () =>
            resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/private.ics`, state })
          )
        }
      )
  ),
  ({ server }) =>
    Effect.promise(() => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    })
)

const ics = (...events: Array<string>) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//provider calendar//EN", ...events, "END:VCALENDAR", ""].join(
    "\r\n"
  )

/** Busy on Mondays 11-13 Stockholm (not 30 Nov), all of Tuesday 24 Nov; a free and a cancelled event on Wed/Thu. */
const privateCalendar = ics(
  "BEGIN:VEVENT",
  "UID:weekly@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART;TZID=Europe/Stockholm:20261116T110000",
  "DTEND;TZID=Europe/Stockholm:20261116T130000",
  "RRULE:FREQ=WEEKLY;BYDAY=MO",
  "EXDATE;TZID=Europe/Stockholm:20261130T110000",
  "SUMMARY:Privat",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:allday@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART;VALUE=DATE:20261124",
  "DTEND;VALUE=DATE:20261125",
  "SUMMARY:Sjuk",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:free@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART:20261125T070000Z",
  "DTEND:20261125T160000Z",
  "TRANSP:TRANSPARENT",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:cancelled@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART:20261126T070000Z",
  "DTEND:20261126T160000Z",
  "STATUS:CANCELLED",
  "END:VEVENT",
  "BEGIN:VEVENT",
  "UID:dst@test",
  "DTSTAMP:20261101T000000Z",
  "DTSTART;TZID=Europe/Stockholm:20270322T090000",
  "DTEND;TZID=Europe/Stockholm:20270322T100000",
  "RRULE:FREQ=WEEKLY;COUNT=2",
  "END:VEVENT"
)

const busyRows = (providerId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ start: string; end: string }>`
      SELECT to_char(lower(during) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS start,
        to_char(upper(during) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') AS end
      FROM provider_busy_times WHERE provider_id = ${providerId} ORDER BY lower(during)`.pipe(Effect.orDie)
  )

describe("the provider API", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: partnerToken } }))((it) => {
    it.effect("a provider token reaches only /api/provider/…; a partner token never does", () =>
      Effect.gen(function* () {
        const { token } = yield* issue(providerA)
        expect(token).toMatch(providerTokenPattern)
        const client = yield* apiClient(token)
        expect(yield* client.provider.blocks()).toMatchObject({ ok: true, blocks: [] })
        // No token, or a partner's: the contract's 401 body, decoded as its error class.
        const anonymous = yield* apiClient()
        expect(yield* Effect.flip(anonymous.provider.blocks())).toBeInstanceOf(Unauthorized)
        const partnerClient = yield* apiClient(partnerToken)
        expect(yield* Effect.flip(partnerClient.provider.bookings({ query: {} }))).toBeInstanceOf(Unauthorized)
        // The provider's token on the partner side: confirm, status and a token-checked search all refuse it.
        const status = client.bookings.status({ params: { booking_id: "00000000-0000-4000-8000-000000000000" } })
        expect(yield* Effect.flip(status)).toBeInstanceOf(Unauthorized)
        const searched = client.search.search({ payload: payloadOf(BookingSearchRequest)(searchBody) })
        expect(yield* Effect.flip(searched)).toBeInstanceOf(Unauthorized)
        // A token of an unknown provider cannot be issued; a revoked one stops at once.
        const revoked = yield* issue(providerB)
        yield* Effect.flatMap(ProviderTokens, (tokens) => tokens.revoke(revoked.prefix)).pipe(
          Effect.provide(ProviderTokens.Default),
          Effect.orDie
        )
        const revokedClient = yield* apiClient(revoked.token)
        expect(yield* Effect.flip(revokedClient.provider.blocks())).toBeInstanceOf(Unauthorized)
        const refused = yield* Effect.flip(
          Effect.flatMap(ProviderTokens, (tokens) => tokens.issue("nobody")).pipe(
            Effect.provide(ProviderTokens.Default)
          )
        )
        expect(refused.message).toContain("no active provider nobody")
      })
    )

    it.effect("the CLI issues a token once, lists it by prefix only, and revokes it", () =>
      Effect.gen(function* () {
        const out: Array<string> = []
        const console: Console.Console = {
          ...(yield* Console.Console),
          log: (...parts: ReadonlyArray<unknown>) => void out.push(parts.join(" ")),
          error: (...parts: ReadonlyArray<unknown>) => void out.push(parts.join(" "))
        }
        const run = (...args: Array<string>) =>
          Effect.exit(
            providerCommand(args).pipe(
              Effect.provide(ProviderTokens.Default),
              Effect.provideService(Console.Console, console)
            )
          )
        expect(Exit.isSuccess(yield* run("token:issue", providerB))).toBe(true)
        const token = out.find((line) => providerTokenPattern.test(line))!
        const client = yield* apiClient(token)
        expect(yield* client.provider.workingHours()).toMatchObject({ ok: true, time_zone: "Europe/Stockholm" })
        out.length = 0
        expect(Exit.isSuccess(yield* run("list"))).toBe(true)
        expect(out.join("\n")).toContain(token.slice(4, 16))
        expect(out.join("\n")).not.toContain(token.slice(17))
        expect(Exit.isSuccess(yield* run("token:revoke", token))).toBe(true)
        expect(Exit.isSuccess(yield* run("bogus"))).toBe(false)
      })
    )

    it.effect("a block is never offered or booked; over an active booking it is a 409 naming the booking", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { token } = yield* issue(providerA)
        const client = yield* apiClient(token)
        const [first, second] = optionsOf(yield* search(), providerA)
        expect(first).toBeDefined()
        expect(second).toBeDefined()
        // The block takes the first option's time: a confirm of that option loses, the search stops offering it.
        const created = yield* client.provider.createBlock({
          payload: { start_at: first.slot.start_at, end_at: first.slot.end_at, note: "Privat ärende" },
          responseMode: "decoded-and-response"
        })
        expect(created[1].status).toBe(201)
        expect(created[0].block).toMatchObject({ note: "Privat ärende" })
        const lost = yield* Effect.flip(confirm(first))
        expect(lost).toMatchObject({ _tag: "slot_taken" })
        const again = optionsOf(yield* search(), providerA)
        expect(again.some((o) => overlaps(o, first.slot.start_at, first.slot.end_at))).toBe(false)
        const blockId = created[0].block.id
        expect((yield* client.provider.blocks()).blocks).toEqual([created[0].block])

        // Deleting frees the time again.
        const deleted = yield* client.provider.deleteBlock({ params: { block_id: blockId } })
        expect(deleted).toMatchObject({ ok: true, deleted: true })
        expect(optionsOf(yield* search(), providerA).some((o) => o.slot.start_at === first.slot.start_at)).toBe(true)
        const deletedAgain = yield* Effect.flip(client.provider.deleteBlock({ params: { block_id: blockId } }))
        expect(deletedAgain).toBeInstanceOf(BlockNotFound)

        // A booking stands; a block over it is refused and names it.
        const booked = yield* confirm(second)
        expect(booked.status).toBe(201)
        const clash = yield* Effect.flip(
          client.provider.createBlock({ payload: { start_at: second.slot.start_at, end_at: second.slot.end_at } })
        )
        expect(clash).toBeInstanceOf(BlockOverlapsBooking)
        expect(clash).toMatchObject({
          _tag: "block_overlaps_booking",
          booking_id: booked.body.booking.id,
          existing_booking: { id: booked.body.booking.id, request_id: booked.body.request_id }
        })
        expect(JSON.stringify(clash)).not.toContain("Astrid")

        // The job as the provider needs it, contact included; another provider sees none of it.
        const jobs = yield* client.provider.bookings({ query: {} })
        expect(jobs.bookings).toEqual([
          expect.objectContaining({
            id: booked.body.booking.id,
            status: "confirmed",
            customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" },
            service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "111 22" },
            terms_version: second.terms.version
          })
        ])
        // The provider's answers tell their times as the partners' do: Swedish time to the second.
        expect(expectSwedishStamps([created[0], clash, jobs, booked.body])).toBeGreaterThanOrEqual(8)
        const other = yield* issue(providerB)
        const otherClient = yield* apiClient(other.token)
        expect((yield* otherClient.provider.bookings({ query: {} })).bookings).toEqual([])
        const mine = yield* client.provider.createBlock({
          payload: { start_at: "2026-12-01T08:00:00+01:00", end_at: "2026-12-01T10:00:00+01:00" }
        })
        const notTheirs = yield* Effect.flip(otherClient.provider.deleteBlock({ params: { block_id: mine.block.id } }))
        expect(notTheirs).toBeInstanceOf(BlockNotFound)
        expect((yield* otherClient.provider.blocks()).blocks).toEqual([])
        const overBlock = yield* Effect.flip(
          client.provider.createBlock({
            payload: { start_at: "2026-12-01T09:00:00+01:00", end_at: "2026-12-01T11:00:00+01:00" }
          })
        )
        expect(overBlock).toBeInstanceOf(BlockOverlapsBlock)

        // Bad input is a test of raw HTTP: the typed client would refuse to send it.
        const bad = yield* postJson(
          "/api/provider/blocks",
          { start_at: first.slot.end_at, end_at: first.slot.start_at },
          bearer(token)
        )
        expect(bad.status).toBe(400)
        expect(bad.body.issues).toContain("end_at: must be after start_at")
        expect(
          (yield* get("/api/provider/bookings?from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z", bearer(token))).status
        ).toBe(400)
      })
    )

    it.effect("a block and a confirm racing for the same time cannot both win", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { token } = yield* issue(providerB)
        const client = yield* apiClient(token)
        const options = optionsOf(yield* search(), providerB)
        const option = options[0]
        const [block, booking] = yield* Effect.all(
          [
            Effect.exit(
              client.provider.createBlock({ payload: { start_at: option.slot.start_at, end_at: option.slot.end_at } })
            ),
            Effect.exit(confirm(option))
          ],
          { concurrency: 2 }
        )
        // Exactly one wins; the loser is the contract's 409 for its side.
        expect([Exit.isSuccess(block), Exit.isSuccess(booking)].filter(Boolean)).toHaveLength(1)
        if (Exit.isSuccess(block))
          expect(booking).toMatchObject({ cause: { reasons: [{ error: { _tag: "slot_taken" } }] } })
        else expect(block).toMatchObject({ cause: { reasons: [{ error: { _tag: "block_overlaps_booking" } }] } })
      })
    )

    it.effect("working hours and dates off: set by the provider, honoured by search and confirm at once", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { token } = yield* issue("hammarby-vvs-sthlm")
        const client = yield* apiClient(token)
        const body = { ...searchBody, location: { country_code: "SE", postcode: "116 30" } }
        const before = optionsOf(yield* search(body), "hammarby-vvs-sthlm")
        expect(before.length).toBeGreaterThan(0)
        const firstDate = before[0].slot.start_at.slice(0, 10)
        // Overlapping hours are bad input: raw HTTP, as the typed client would refuse to send them.
        const overlapping = yield* put(
          "/api/provider/working-hours",
          {
            weekly_hours: [
              { iso_weekday: 1, opens: "08:00", closes: "12:00" },
              { iso_weekday: 1, opens: "11:00", closes: "15:00" }
            ],
            dates_off: []
          },
          bearer(token)
        )
        expect(overlapping.status, JSON.stringify(overlapping.body)).toBe(400)
        const weekly = [1, 2, 3, 4, 5].map((day) => ({ iso_weekday: day, opens: "09:00", closes: "16:00" }))
        const saved = yield* client.provider.setWorkingHours({
          payload: payloadOf(WorkingHoursRequest)({ weekly_hours: weekly, dates_off: [firstDate] })
        })
        expect(saved).toMatchObject({ time_zone: "Europe/Stockholm", dates_off: [firstDate] })
        const after = optionsOf(yield* search(body), "hammarby-vvs-sthlm")
        expect(after.some((o) => o.slot.start_at.startsWith(firstDate))).toBe(false)
        const refused = yield* Effect.flip(confirm(before[0], "116 30"))
        expect(errorStatus(refused.constructor as ErrorClass)).toBe(409)
        expect((yield* client.provider.workingHours()).dates_off).toEqual([firstDate])
        // The operator's next supply import leaves hours the provider set alone.
        const demo: unknown = JSON.parse(readFileSync(demoSupplyPath, "utf8"))
        yield* Effect.flatMap(Supply, (supply) => supply.importFile(demo)).pipe(
          Effect.provide(Supply.WithoutDemo),
          Effect.orDie
        )
        const kept = yield* client.provider.workingHours()
        expect(kept.weekly_hours).toEqual(saved.weekly_hours)
        expect(kept.weekly_hours).toHaveLength(5)
      })
    )

    it.effect("the calendar feed: a secret URL serving text/calendar that ical.js reads back, with ETags", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { token } = yield* issue(providerA)
        const client = yield* apiClient(token)
        const feed = yield* client.provider.calendarFeed()
        const url = new URL(feed.feed_url!)
        expect(url.pathname).toMatch(/^\/calendar-feeds\/[A-Za-z0-9_-]{43}\.ics$/)
        expect((yield* client.provider.calendarFeed()).feed_url).toBe(feed.feed_url)
        const served = yield* getText(url.pathname)
        expect(served.status).toBe(200)
        expect(served.headers["content-type"]).toContain("text/calendar")
        const calendar = new ICAL.Component(ICAL.parse(served.text))
        const events = calendar.getAllSubcomponents("vevent")
        const jobs = (yield* client.provider.bookings({ query: {} })).bookings
        expect(events.map((e) => e.getFirstPropertyValue("uid"))).toEqual(jobs.map((job) => `${job.id}@127.0.0.1`))
        expect(served.text).not.toContain("Astrid")
        expect(served.text).not.toContain("Drottninggatan")
        const etag = served.headers.etag!
        expect((yield* getText(url.pathname, { "if-none-match": etag })).status).toBe(304)
        const rotated = yield* client.provider.rotateCalendarFeed()
        expect(rotated.feed_url).not.toBe(feed.feed_url)
        expect((yield* getText(url.pathname)).status).toBe(404)
        expect((yield* getText(new URL(rotated.feed_url!).pathname)).status).toBe(200)
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql<{ tokenSha256: Buffer }>`SELECT token_sha256 FROM provider_calendar_feeds`
        expect(JSON.stringify(stored)).not.toContain(url.pathname.slice(16, 59))
      })
    )
  })
})

describe("the provider calendar import, on the schedule the service's clock drives", () => {
  it.effect("imported busy times: expanded, never offered or booked, kept when the feed fails or times out", () =>
    Effect.gen(function* () {
      const { token } = yield* issue("ekstrom-ror-sthlm")
      const client = yield* apiClient(token)
      const body = { ...searchBody, job_type_id: "install_toilet" }
      const [option] = optionsOf(yield* search(body), "ekstrom-ror-sthlm")
      expect(option.slot.start_at).toBe("2026-11-23T11:00:00+01:00")
      const { url, state } = yield* calendarServer
      state.body = privateCalendar
      const refusedUrl = yield* Effect.flip(
        client.provider.setCalendarImport({ payload: { url: "ftp://example.com/x.ics" } })
      )
      expect(refusedUrl).toBeInstanceOf(CalendarUrlRefused)
      const registered = yield* client.provider.setCalendarImport({ payload: { url } })
      expect(registered).toMatchObject({ url, fetch_status: "pending", last_synced_at: null })
      // The first fetch runs in the background, on the clock where it stands.
      yield* waitFor(client.provider.calendarImport(), (status) =>
        expect(status).toMatchObject({
          fetch_status: "synced",
          last_error: null,
          last_synced_at: "2026-11-23T09:00:00+01:00"
        })
      )
      const busy = yield* busyRows("ekstrom-ror-sthlm")
      expect(busy).toEqual(
        expect.arrayContaining([
          { start: "2026-11-23T10:00Z", end: "2026-11-23T12:00Z" },
          { start: "2026-11-23T23:00Z", end: "2026-11-24T23:00Z" },
          { start: "2026-12-07T10:00Z", end: "2026-12-07T12:00Z" },
          // Across the DST change: 09:00 Stockholm is 08:00Z in winter time, 07:00Z in summer time.
          { start: "2027-03-22T08:00Z", end: "2027-03-22T09:00Z" },
          { start: "2027-03-29T07:00Z", end: "2027-03-29T08:00Z" }
        ])
      )
      expect(busy.some((b) => b.start.startsWith("2026-11-30"))).toBe(false)
      expect(busy.some((b) => b.start.startsWith("2026-11-25") || b.start.startsWith("2026-11-26"))).toBe(false)

      const lost = yield* Effect.flip(confirm(option))
      expect(errorStatus(lost.constructor as ErrorClass)).toBe(409)
      const offered = optionsOf(yield* search(body), "ekstrom-ror-sthlm")
      expect(offered.length).toBeGreaterThan(0)
      for (const each of offered) {
        expect(overlaps(each, "2026-11-23T11:00:00+01:00", "2026-11-23T13:00:00+01:00")).toBe(false)
        expect(each.slot.start_at.startsWith("2026-11-24")).toBe(false)
      }

      // The schedule fetches again (conditionally: 304), and a failing feed leaves the busy times in force.
      const hits = state.hits
      yield* TestClock.adjust("10 minutes")
      // The 304 at the scheduled fetch counts as a sync (the calendar was read as unchanged then):
      // wait for it to be recorded, not only for the calendar to be asked, before it starts failing.
      yield* waitForStatus(token, (status) => {
        expect(state.hits).toBeGreaterThan(hits)
        expect(status.last_synced_at! > "2026-11-23T09:00:00+01:00").toBe(true)
      })
      state.mode = "fail"
      yield* TestClock.adjust("10 minutes")
      const failed = yield* waitForStatus(token, (status) =>
        expect(status.last_error).toBe("the calendar answered 500")
      )
      expect(failed.last_synced_at! > "2026-11-23T09:00:00+01:00").toBe(true)
      expect(yield* busyRows("ekstrom-ror-sthlm")).toEqual(busy)

      state.mode = "hang"
      const seen = state.hits
      yield* TestClock.adjust("10 minutes")
      yield* waitForStatus(token, () => expect(state.hits).toBeGreaterThan(seen))
      const timedOut = yield* waitForStatus(token, (status) => expect(status.last_error).toContain("did not answer"))
      expect(timedOut.busy_intervals).toBe(busy.length)
      expect(yield* busyRows("ekstrom-ror-sthlm")).toEqual(busy)
    }).pipe(
      Effect.provide(
        TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: partnerToken, CALENDAR_IMPORT_TIMEOUT_MS: "5000" } })
      ),
      Effect.scoped
    )
  )
})

/**
 * The import's state once `check` passes. The loop's fetch runs on its own fibre over real I/O, so
 * a tick can read the clock before an adjustment reaches the due time and sleep past its end;
 * each look moves the clock one more poll interval, which gives the loop its next tick.
 */
const waitForStatus = (token: string, check: (status: typeof CalendarImportResponse.Type) => void) =>
  Effect.gen(function* () {
    const status = Effect.flatMap(apiClient(token), (client) => client.provider.calendarImport())
    yield* waitFor(Effect.andThen(TestClock.adjust(importPollInterval), status), check)
    return yield* status
  })

describe("what the provider side logs", () => {
  const lines: Array<string> = []
  const collector = Logger.layer([Logger.map(Logger.formatLogFmt, (line) => void lines.push(line))])

  it.effect("no log line carries a token, the feed's secret, the import address or the customer's contact", () =>
    Effect.gen(function* () {
      const { token } = yield* issue(providerA)
      const client = yield* apiClient(token)
      const [option] = optionsOf(yield* search(), providerA)
      expect((yield* confirm(option)).status).toBe(201)
      const jobs = yield* client.provider.bookings({ query: {} })
      expect(jobs.bookings[0]!.customer?.email).toBe("astrid.lindqvist@example.se")
      const feed = new URL((yield* client.provider.calendarFeed()).feed_url!)
      expect((yield* getText(feed.pathname)).status).toBe(200)
      const { url, state } = yield* calendarServer
      state.body = privateCalendar
      expect(yield* client.provider.setCalendarImport({ payload: { url } })).toMatchObject({ url, last_error: null })
      state.mode = "fail"
      const again = yield* client.provider.setCalendarImport({ payload: { url: `${url}?again` } })
      expect(again).toMatchObject({ url: `${url}?again` })

      const logged = lines.join("\n")
      expect(logged).toContain("/calendar-feeds/{secret}")
      expect(logged).toContain("/api/provider/bookings")
      const secret = feed.pathname.split("/").pop()!.replace(".ics", "")
      for (const never of [
        token,
        token.slice(17),
        secret,
        "private.ics",
        "Astrid",
        "astrid.lindqvist",
        "70 123",
        "Drottninggatan"
      ]) {
        expect(logged).not.toContain(never)
      }
    }).pipe(
      Effect.provide(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: partnerToken } }).pipe(Layer.provide(collector))),
      Effect.scoped
    )
  )
})
