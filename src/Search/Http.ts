import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Layer } from "effect"
import { Api } from "../Api.js"
import { RateLimiter } from "../RateLimiter.js"
import { BookingSearch } from "./Search.js"

export const SearchLive = HttpApiBuilder.group(Api, "search", (handlers) =>
  Effect.gen(function* () {
    const search = yield* BookingSearch
    const limiter = yield* RateLimiter
    return handlers.handle("search", ({ payload }) =>
      limiter.byClient("search").pipe(
        Effect.zipRight(Clock.currentTimeMillis),
        Effect.flatMap((now) => search.search(payload, new Date(now))),
        // The body is built typed as the response schema; stringifying it directly skips a
        // second walk through the schema on the hottest endpoint.
        Effect.map((body) => HttpServerResponse.unsafeJson(body))
      )
    )
  })
).pipe(Layer.provide([BookingSearch.Default, RateLimiter.Default]))
