import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Clock, Effect } from "effect"
import { Api } from "../Api.js"
import { BookingSearch } from "./Search.js"

export const SearchLive = HttpApiBuilder.group(Api, "search", (handlers) =>
  Effect.gen(function* () {
    const search = yield* BookingSearch
    return handlers.handle("search", ({ payload }) =>
      Clock.currentTimeMillis.pipe(
        Effect.flatMap((now) => search.search(payload, new Date(now))),
        // The body is built typed as the response schema; stringifying it directly skips a
        // second walk through the schema on the hottest endpoint.
        Effect.map((body) => HttpServerResponse.unsafeJson(body))
      )
    )
  })
)
