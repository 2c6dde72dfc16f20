import { createHash, createHmac, randomUUID } from "node:crypto"
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { decodedAs } from "../Database/Rows.js"
import { DatabaseUnavailable } from "../Domain/Errors.js"
import { DAY, formatInZone, providerTimeZone } from "../Domain/Zone.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { changeUnavailable } from "../Shared/Unavailable.js"
import { FeedOwnerRow, FeedRow } from "./CalendarRows.js"
import { deletedAnswer, providerAnswer } from "./ProviderCalendar.js"

/** The feed's path; the secret is its last segment, and the access log shows only the template. */
export const calendarFeedPath = "/calendar-feeds"

/** Cancelled and past bookings stay in the feed this long, so subscribed calendars catch up. */
const feedPastDays = 30

const outageSteps = {
  feed: {
    notChanged:
      "The database does not answer, so the feed address could not be read; nothing was changed. Ask again in a moment.",
    unknown:
      "The database did not answer in time. Ask again (GET /api/provider/calendar-feed) once the service answers: it shows your one feed address, made on the first request."
  },
  rotate: {
    notChanged:
      "The database does not answer, so the feed was not rotated: your current address stays the one to subscribe to. Rotate again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the feed was rotated; if it was, the old address no longer works. Once the service answers, rotate again and subscribe to the address that answer returns."
  },
  revoke: {
    notChanged:
      "The database does not answer, so nothing was revoked: a feed address you have stays valid. Revoke it again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the feed address was revoked. Revoke it again once the service answers: revoking twice is safe."
  }
}

/**
 * The secret feed a provider's calendar app subscribes to: one live feed a provider (the table
 * provider_calendar_feeds), its address shown, rotated and revoked, and its text for the app.
 */
export class CalendarFeeds extends Context.Service<CalendarFeeds>()("Booking/CalendarFeeds", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* BookingsRepo
    const config = yield* AppConfig
    const signer = yield* OptionSigner
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    /**
     * The feed's secret, derived from the service's key and the feed's id: the same URL every time
     * it is asked for, while only its SHA-256 is stored.
     */
    const feedKey = Option.isSome(config.calendarFeedKey)
      ? Option.some(createHash("sha256").update(Redacted.value(config.calendarFeedKey.value), "utf8").digest())
      : signer.derivedSecret("calendar-feed")
    const secretOf = (feedId: string) =>
      Option.map(feedKey, (key) => createHmac("sha256", key).update(feedId, "utf8").digest("base64url"))
    const digestOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest()
    const feedUrl = (secret: string) => `${config.publicBaseUrl}${calendarFeedPath}/${secret}.ics`

    const liveFeed = (providerId: string) =>
      Effect.map(
        sql`
          SELECT id, token_sha256, created_at, last_fetched_at FROM provider_calendar_feeds
          WHERE provider_id = ${providerId} AND revoked_at IS NULL`.pipe(decodedAs(FeedRow)),
        (rows) => rows[0]
      )

    const newFeed = (providerId: string, at: Date) =>
      Effect.gen(function* () {
        const id = randomUUID()
        const secret = secretOf(id)
        if (Option.isNone(secret)) return undefined
        yield* sql`
          INSERT INTO provider_calendar_feeds (id, provider_id, token_sha256, created_at)
          VALUES (${id}::uuid, ${providerId}, ${digestOf(secret.value)}, ${at})
          ON CONFLICT DO NOTHING`
        return yield* liveFeed(providerId)
      })

    const feedAnswer = (row: FeedRow | undefined, rotated: boolean) => {
      if (row === undefined) {
        return Effect.fail(
          new DatabaseUnavailable({
            safe_next_step:
              "The service has no key to make feed addresses with (BOOKING_OPTION_SIGNING_KEYS or CALENDAR_FEED_KEY); the operator must set one."
          })
        )
      }
      const secret = secretOf(row.id)
      const shown = Option.isSome(secret) && digestOf(secret.value).equals(row.tokenSha256) ? secret.value : undefined
      return Effect.succeed(
        providerAnswer({
          feed_url: shown === undefined ? null : feedUrl(shown),
          created_at: formatInZone(row.createdAt, providerTimeZone),
          last_fetched_at: row.lastFetchedAt === null ? null : formatInZone(row.lastFetchedAt, providerTimeZone),
          safe_next_step:
            shown === undefined
              ? "The feed address can no longer be shown (the service's key changed); it keeps working where it is subscribed. Rotate the feed (POST /api/provider/calendar-feed/rotate) for an address to subscribe to."
              : `${rotated ? "A new feed address was made; the old one no longer works. " : ""}Subscribe to feed_url in your calendar app. Keep it secret: anyone with it sees your jobs' times. Rotate it (POST /api/provider/calendar-feed/rotate) if it leaks.`
        })
      )
    }

    /** The live feed, made on first request. */
    const calendarFeed = Effect.fn("CalendarFeeds.calendarFeed")(function* (providerId: string) {
      const at = yield* now
      const row = yield* Effect.flatMap(liveFeed(providerId), (found) =>
        found === undefined ? newFeed(providerId, at) : Effect.succeed(found)
      ).pipe(changeUnavailable("provider calendar feed", outageSteps.feed))
      return yield* feedAnswer(row, false)
    })

    const rotateFeed = Effect.fn("CalendarFeeds.rotateFeed")(function* (providerId: string) {
      const at = yield* now
      const row = yield* sql
        .withTransaction(
          Effect.andThen(
            sql`UPDATE provider_calendar_feeds SET revoked_at = ${at} WHERE provider_id = ${providerId} AND revoked_at IS NULL`,
            newFeed(providerId, at)
          )
        )
        .pipe(changeUnavailable("provider calendar feed rotation", outageSteps.rotate))
      return yield* feedAnswer(row, true)
    })

    const revokeFeed = Effect.fn("CalendarFeeds.revokeFeed")(function* (providerId: string) {
      const at = yield* now
      yield* sql`UPDATE provider_calendar_feeds SET revoked_at = ${at} WHERE provider_id = ${providerId} AND revoked_at IS NULL`.pipe(
        changeUnavailable("provider calendar feed revocation", outageSteps.revoke)
      )
      return deletedAnswer(
        "The feed address no longer works. Ask for the feed again (GET /api/provider/calendar-feed) for a new address."
      )
    })

    /**
     * The text of the feed a secret opens, with its ETag, or none for an unknown or revoked secret.
     * Times are UTC; the feed carries no customer contact (that is only in GET /api/provider/bookings).
     */
    const feedText = (secret: string) =>
      Effect.gen(function* () {
        const at = yield* now
        const rows = yield* sql`
          UPDATE provider_calendar_feeds f SET last_fetched_at = ${at}
          FROM providers p
          WHERE f.token_sha256 = ${digestOf(secret)} AND f.revoked_at IS NULL AND p.id = f.provider_id
          RETURNING f.provider_id, p.name AS provider_name`.pipe(decodedAs(FeedOwnerRow))
        const feed = rows[0]
        if (feed === undefined) return undefined
        const jobs = yield* repo.feedJobs(feed.providerId, new Date(at.getTime() - feedPastDays * DAY))
        const host = new URL(config.publicBaseUrl).hostname
        // ical-generator is loaded by the first feed asked for, not by every start.
        const { calendarFeed: feedCalendar } = yield* Effect.promise(() => import("./CalendarFeed.js"))
        const text = feedCalendar({
          calendarName: `Bokningar – ${feed.providerName}`,
          productId: "-//home-service-booking-api//provider feed//SV",
          events: jobs.map((job) => ({
            uid: `${job.id}@${host}`,
            // Every move and the cancellation raise the booking's version (1 at confirm): calendars take the newer event.
            sequence: job.version - 1,
            status: job.status,
            start: job.slotStart,
            end: job.slotEnd,
            summary: job.serviceLabelSv,
            description: `Bokning ${job.requestId}. Kunduppgifter: GET /api/provider/bookings.`,
            location: job.postcode,
            lastModified: job.changedAt
          }))
        })
        return { text, etag: `"${createHash("sha256").update(text, "utf8").digest("base64url")}"` }
      })

    return { calendarFeed, rotateFeed, revokeFeed, feedText } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([OptionSigner.Default, BookingsRepo.Default])
  )
}
