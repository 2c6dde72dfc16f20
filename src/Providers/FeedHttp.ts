import { Effect, Layer } from "effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type { RouteBeside } from "../Http/Routes.js"
import { logFailure } from "../Shared/FailureSummary.js"
import { CalendarFeeds, calendarFeedPath } from "./CalendarFeeds.js"

const feedRoute = `${calendarFeedPath}/:secret`

/** The feed's route, for the server's route list (Http.ts gathers it). */
export const calendarFeedRoutesBeside: ReadonlyArray<RouteBeside> = [["GET", feedRoute]]

const secretPattern = /^([A-Za-z0-9_-]{43})(\.ics)?$/

const plain = (status: number, text: string) =>
  HttpServerResponse.text(text, { status, headers: { "cache-control": "no-store" } })

/**
 * The feed a calendar app subscribes to: `text/calendar` at a secret URL (apps send no headers).
 * The access log shows only the route's template, never the secret; an unknown or revoked secret
 * is a plain 404, the same for both.
 */
export const CalendarFeedLive = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const feeds = yield* CalendarFeeds
    yield* router.add(
      "GET",
      feedRoute,
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const { secret = "" } = yield* HttpRouter.params
        const matched = secretPattern.exec(secret)
        if (matched === null) return plain(404, "No such calendar feed.\n")
        const feed = yield* feeds.feedText(matched[1]!)
        if (feed === undefined) return plain(404, "No such calendar feed: it may have been rotated or revoked.\n")
        const headers = { etag: feed.etag, "cache-control": "private, no-cache" }
        const held = (request.headers["if-none-match"] ?? "").split(",").map((tag) => tag.trim().replace(/^W\//, ""))
        if (held.includes(feed.etag) || held.includes("*")) return HttpServerResponse.empty({ status: 304, headers })
        return HttpServerResponse.text(feed.text, { contentType: "text/calendar; charset=utf-8", headers })
      }).pipe(
        Effect.catchTag("SqlError", (error) =>
          Effect.as(
            logFailure("calendar feed failed", error),
            plain(503, "The calendar feed is unavailable; try again later.\n")
          )
        )
      )
    )
  })
).pipe(Layer.provide(CalendarFeeds.Default))
