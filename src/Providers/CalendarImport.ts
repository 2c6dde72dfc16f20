import { Clock, Context, Duration, Effect, FiberSet, Layer, Schedule, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { NotifierLive } from "../Bookings/NotifierLive.js"
import { rowsOf } from "../Database/Rows.js"
import { bookingHorizonDays, CalendarUrlRefused } from "../Domain/Provider.js"
import { DAY, formatInZone, MINUTE, providerTimeZone } from "../Domain/Zone.js"
import { checkDestination, lookupWithin } from "../Shared/Destination.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import { changeUnavailable, readUnavailable } from "../Shared/Unavailable.js"
import { makeBusyConflicts } from "./BusyConflicts.js"
import { type FetchResult, fetchCalendar } from "./CalendarFetch.js"
import { deletedAnswer, providerAnswer } from "./ProviderCalendar.js"

/** How often the loop looks for imports that are due; each is fetched once per CALENDAR_IMPORT_INTERVAL_MINUTES. */
export const importPollInterval = Duration.minutes(1)

const ImportRow = Schema.Struct({
  providerId: Schema.String,
  url: Schema.String,
  etag: Schema.NullOr(Schema.String),
  lastModified: Schema.NullOr(Schema.String),
  lastSyncedAt: Schema.NullOr(Schema.Date),
  lastError: Schema.NullOr(Schema.String),
  nextFetchAt: Schema.Date
})
type ImportRow = typeof ImportRow.Type

/** The row as the status reads it: no attempt since the address was registered is a pending first fetch. */
const StatusRow = Schema.Struct({ ...ImportRow.fields, lastAttemptAt: Schema.NullOr(Schema.Date) })

/** How long registration waits for the calendar host's name to resolve before refusing it. */
const resolveTimeoutMs = 2000

const BusyCountRow = Schema.Struct({ busy: Schema.Int })

/** Destination.ts words its refusals for webhooks; the provider reads them about its calendar. */
const forCalendar = (message: string) =>
  message.replace(/webhook url/g, "calendar url").replace(/webhook host/g, "calendar host")

const outageSteps = {
  register: {
    notChanged:
      "The database does not answer, so the address was not registered. Send the same PUT again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the address was registered. Send the same PUT again once the service answers: it replaces the registration, so sending it twice is safe."
  },
  remove: {
    notChanged:
      "The database does not answer, so nothing was stopped or freed: an import you have goes on as before. Send the DELETE again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the import was stopped. Send the DELETE again once the service answers: stopping twice is safe."
  }
}

const statusUnread =
  "The database does not answer, so the import's state could not be read; nothing was changed. Try again in a moment."

/**
 * The provider's own calendar, imported: registered by URL (https, under the same SSRF rules as
 * webhooks), fetched at once and then on a schedule, read with ical.js (recurrences expanded
 * over the booking horizon), and stored as busy intervals that search and confirm treat as taken.
 * A failed fetch or an unreadable calendar changes nothing: the last good busy times stay.
 */
export class CalendarImport extends Context.Service<CalendarImport>()("Booking/CalendarImport", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const conflicts = yield* makeBusyConflicts
    // A registration's first fetch runs in the service's scope: it outlives the request.
    const runInBackground = yield* FiberSet.makeRuntime<never, void, never>()
    const production = config.appEnv === "production"
    const interval = config.calendarImportIntervalMinutes * MINUTE
    /** Trusted roots beside the system's, for a test's self-signed server. */
    const ca = process.env.CALENDAR_IMPORT_EXTRA_CA

    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const fetchOnce = (row: ImportRow) =>
      Effect.gen(function* () {
        const destination = yield* Effect.promise(() => checkDestination(row.url, { production }))
        if (!destination.ok) return { _tag: "Failed", error: forCalendar(destination.message) } satisfies FetchResult
        const address = destination.addresses[0]!
        return yield* Effect.callback<FetchResult>((resume, signal) => {
          fetchCalendar({
            url: destination.url,
            address,
            etag: row.etag,
            lastModified: row.lastModified,
            maxBytes: config.calendarImportMaxBytes,
            signal,
            ...(ca === undefined ? {} : { ca })
          }).then((result) => resume(Effect.succeed(result)))
        }).pipe(
          Effect.timeoutOrElse({
            duration: Duration.millis(config.calendarImportTimeoutMs),
            orElse: () =>
              Effect.succeed<FetchResult>({
                _tag: "Failed",
                error: `the calendar did not answer within ${config.calendarImportTimeoutMs} ms`
              })
          })
        )
      })

    /** One import: fetched, read and stored, or its failure recorded beside the last good busy times. */
    const sync = (row: ImportRow) =>
      Effect.gen(function* () {
        const fetched = yield* fetchOnce(row)
        const at = yield* now
        const next = new Date(at.getTime() + interval)
        const failed = (error: string) =>
          sql`UPDATE provider_calendar_imports SET last_error = ${error}, last_attempt_at = ${at}, next_fetch_at = ${next}
            WHERE provider_id = ${row.providerId} AND url = ${row.url}`
        if (fetched._tag === "Failed") return yield* failed(fetched.error)
        if (fetched._tag === "NotModified") {
          yield* sql`UPDATE provider_calendar_imports SET last_error = NULL, last_attempt_at = ${at},
            last_synced_at = ${at}, next_fetch_at = ${next} WHERE provider_id = ${row.providerId} AND url = ${row.url}`
          // Unchanged busy times may still meet a booking confirmed since the last fetch.
          return yield* conflicts.notify(row.providerId, at)
        }
        // ical.js and the zone tables are loaded by the first feed read, not by every start.
        const { busyTimes } = yield* Effect.promise(() => import("./BusyTimes.js"))
        const read = busyTimes(fetched.text, { start: at, end: new Date(at.getTime() + bookingHorizonDays * DAY) })
        if (!read.ok) return yield* failed(read.error)
        const intervals = JSON.stringify(read.intervals.map((i) => [i.start.toISOString(), i.end.toISOString()]))
        yield* sql.withTransaction(
          Effect.gen(function* () {
            // Unchanged if the URL was changed meanwhile: that one's own fetch decides.
            const current = yield* sql`
              UPDATE provider_calendar_imports SET last_error = NULL, last_attempt_at = ${at}, last_synced_at = ${at},
                next_fetch_at = ${next}, etag = ${fetched.etag}, last_modified = ${fetched.lastModified}
              WHERE provider_id = ${row.providerId} AND url = ${row.url} RETURNING provider_id`
            if (current.length === 0) return
            yield* sql`DELETE FROM provider_busy_times WHERE provider_id = ${row.providerId}`
            yield* sql`
              INSERT INTO provider_busy_times (provider_id, during)
              SELECT ${row.providerId}, tstzrange((x->>0)::timestamptz, (x->>1)::timestamptz, '[)')
              FROM jsonb_array_elements(${intervals}::jsonb) AS x`
          })
        )
        // After the commit, so every booking confirmed before the busy times were stored is seen.
        yield* conflicts.notify(row.providerId, at)
        // The provider, never the calendar's address: a feed URL often carries its own secret.
      }).pipe(Effect.withSpan("Calendar.fetch", { kind: "client", attributes: { "provider.id": row.providerId } }))

    const rowOf = (providerId: string) =>
      Effect.map(
        sql`
          SELECT provider_id, url, etag, last_modified, last_synced_at, last_error, next_fetch_at, last_attempt_at
          FROM provider_calendar_imports WHERE provider_id = ${providerId}`.pipe(
          rowsOf(StatusRow),
          // A stored row of another shape is a bug or a damaged table, not an outage.
          Effect.catchTag("SchemaError", Effect.die)
        ),
        (rows) => rows[0]
      )

    const statusOf = (providerId: string) =>
      Effect.gen(function* () {
        const row = yield* rowOf(providerId)
        const counted = yield* sql`
          SELECT count(*)::int AS busy FROM provider_busy_times WHERE provider_id = ${providerId}`.pipe(
          rowsOf(BusyCountRow),
          Effect.catchTag("SchemaError", Effect.die)
        )
        const busy = counted[0]?.busy ?? 0
        const clashing = busy === 0 ? 0 : yield* conflicts.countOf(providerId, yield* now)
        const clashStep =
          clashing === 0
            ? ""
            : ` ${clashing} confirmed booking(s) of yours overlap these busy times and still stand: see conflicts_with_busy_time in GET /api/provider/bookings, and cancel a job you cannot do or move the clashing event.`
        const synced = row?.lastSyncedAt == null ? null : formatInZone(row.lastSyncedAt, providerTimeZone)
        // Registered (or registered again) and not yet tried since: the first fetch is still to come.
        const pending = row !== undefined && row.lastAttemptAt === null
        const fetchStatus =
          row === undefined
            ? null
            : pending
              ? ("pending" as const)
              : row.lastError !== null
                ? ("failed" as const)
                : ("synced" as const)
        return providerAnswer({
          url: row?.url ?? null,
          last_synced_at: synced,
          last_error: row?.lastError ?? null,
          busy_intervals: busy,
          next_fetch_at: row === undefined ? null : formatInZone(row.nextFetchAt, providerTimeZone),
          fetch_status: fetchStatus,
          safe_next_step:
            row === undefined
              ? "No calendar is imported. Register your calendar's private iCalendar address (PUT /api/provider/calendar-import) so its busy times are never offered."
              : pending
                ? `Registered: the first fetch of this address is under way, and until it succeeds ${busy === 0 ? "no busy time is imported" : `the ${busy} busy interval(s) read before stay in force`}. GET /api/provider/calendar-import shows how it went (fetch_status, last_synced_at, last_error).${clashStep}`
                : row.lastError !== null
                  ? `The last fetch failed (${row.lastError}). ${synced === null ? "No busy time has been imported from this address yet." : `The busy times read at ${synced} stay in force until a fetch succeeds.`} Check the address, or register a new one.${clashStep}`
                  : `Imported: ${busy} busy interval(s) from your calendar, as of ${synced}; searches and confirms treat them as taken. It is fetched again every ${config.calendarImportIntervalMinutes} minutes. A booking one of them overlaps is flagged (conflicts_with_busy_time in GET /api/provider/bookings) and you are told of it once.${clashStep}`
        })
      })

    const refusal = (issue: string) =>
      new CalendarUrlRefused({
        issues: [`url: ${issue}`],
        safe_next_step:
          "Nothing was registered. Send your calendar's private iCalendar address (https://…, as your calendar app shares it), on a host that resolves only to public addresses."
      })

    /**
     * Refused at once, as before every fetch: the URL's rules and where its host resolves to now
     * (a name that does not resolve within `resolveTimeoutMs` is refused as unresolvable).
     */
    const checkRegistration = (url: string) =>
      Effect.gen(function* () {
        const checked = yield* Effect.promise(() =>
          checkDestination(url, { production, lookup: lookupWithin(resolveTimeoutMs) })
        )
        if (!checked.ok) return yield* refusal(forCalendar(checked.message))
        return checked.url.href
      })

    /**
     * Checked, stored and answered at once; the first fetch runs in the background (bounded by
     * CALENDAR_IMPORT_TIMEOUT_MS), and the answer says it is pending.
     */
    const register = Effect.fn("CalendarImport.register")(function* (providerId: string, url: string) {
      const href = yield* checkRegistration(url)
      const at = yield* now
      yield* sql`
        INSERT INTO provider_calendar_imports (provider_id, url, next_fetch_at, updated_at)
        VALUES (${providerId}, ${href}, ${new Date(at.getTime() + interval)}, ${at})
        ON CONFLICT (provider_id) DO UPDATE SET url = excluded.url, next_fetch_at = excluded.next_fetch_at,
          updated_at = excluded.updated_at, last_attempt_at = NULL,
          etag = CASE WHEN provider_calendar_imports.url = excluded.url THEN provider_calendar_imports.etag END,
          last_modified = CASE WHEN provider_calendar_imports.url = excluded.url THEN provider_calendar_imports.last_modified END,
          last_error = CASE WHEN provider_calendar_imports.url = excluded.url THEN provider_calendar_imports.last_error END`.pipe(
        changeUnavailable("calendar import registration", outageSteps.register)
      )
      // Read before the fetch starts, so the answer tells the registration as it stands; the fetch
      // starts whether or not the read answers, as the answer says.
      const answer = yield* Effect.exit(
        statusOf(providerId).pipe(
          readUnavailable(
            "calendar import",
            "The address is registered and its first fetch is under way, but the database did not answer when its state was read. GET /api/provider/calendar-import shows it once the service answers."
          )
        )
      )
      // The whole calendar, not a conditional fetch: a registration reads it afresh.
      const first = {
        providerId,
        url: href,
        etag: null,
        lastModified: null,
        lastSyncedAt: null,
        lastError: null,
        nextFetchAt: at
      }
      yield* Effect.sync(() =>
        runInBackground(
          sync(first).pipe(
            Effect.catchCause((cause) => logFailureWarning("a calendar import could not be saved", cause))
          )
        )
      )
      return yield* answer
    })

    const status = Effect.fn("CalendarImport.status")(function* (providerId: string) {
      return yield* statusOf(providerId).pipe(readUnavailable("calendar import", statusUnread))
    })

    /** Stops importing and frees the imported busy times. */
    const remove = Effect.fn("CalendarImport.remove")(function* (providerId: string) {
      yield* sql
        .withTransaction(
          Effect.andThen(
            sql`DELETE FROM provider_calendar_imports WHERE provider_id = ${providerId}`,
            sql`DELETE FROM provider_busy_times WHERE provider_id = ${providerId}`
          )
        )
        .pipe(changeUnavailable("calendar import removal", outageSteps.remove))
      return deletedAnswer(
        "Your calendar is no longer imported, and the busy times read from it no longer block searches."
      )
    })

    /**
     * Every import that is due, one after another (each bounded in time and size). Claiming a row
     * moves its next fetch on first, so with several instances each import is fetched by one.
     */
    const syncDue = Effect.gen(function* () {
      const at = yield* now
      const due = yield* sql`
        UPDATE provider_calendar_imports SET next_fetch_at = ${new Date(at.getTime() + interval)}
        WHERE provider_id IN (
          SELECT provider_id FROM provider_calendar_imports WHERE next_fetch_at <= ${at}
          ORDER BY next_fetch_at LIMIT 100 FOR UPDATE SKIP LOCKED)
        RETURNING provider_id, url, etag, last_modified, last_synced_at, last_error, next_fetch_at`.pipe(
        rowsOf(ImportRow)
      )
      for (const row of due) {
        yield* sync(row).pipe(
          Effect.catchCause((cause) => logFailureWarning("a calendar import could not be saved", cause))
        )
      }
    })

    return { register, status, remove, syncDue } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([NotifierLive, BookingsRepo.Default]))
}

/** The import poller: every due import, each `importPollInterval`, for as long as the server runs. */
export const CalendarImportPollLive = Layer.effectDiscard(
  Effect.flatMap(CalendarImport, (imports) =>
    imports.syncDue.pipe(
      Effect.catchCause((cause) => logFailureWarning("calendar imports could not be read", cause)),
      // fixed, not spaced: a tick that ends late is followed at once, so an import falls due on time.
      Effect.repeat(Schedule.fixed(importPollInterval)),
      Effect.delay(importPollInterval),
      Effect.forkScoped
    )
  )
).pipe(Layer.provide(CalendarImport.Default))
