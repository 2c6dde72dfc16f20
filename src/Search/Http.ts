import { Clock, Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { jsonForSpeed } from "../Http/HandBuiltJson.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Authenticator } from "../Partners/Authentication.js"
import { BookingSearch } from "./Search.js"

export const SearchLive = HttpApiBuilder.group(Api, "search", (handlers) =>
  Effect.gen(function* () {
    const search = yield* BookingSearch
    const limiter = yield* RateLimiter
    const authenticator = yield* Authenticator
    return handlers.handle("search", ({ payload, request }) =>
      limiter.byClient("search").pipe(
        Effect.andThen(Clock.currentTimeMillis),
        // A token is optional: a sandbox partner's search also sees what its sandbox booked.
        Effect.flatMap((now) =>
          Effect.flatMap(authenticator.optionalCaller(request.headers), (partner) =>
            search.search(payload, new Date(now), partner)
          )
        ),
        // Measured: stringifying the typed body directly skips a second walk through the schema.
        Effect.map(jsonForSpeed)
      )
    )
  })
).pipe(Layer.provide([BookingSearch.Default, RateLimiter.Default, Authenticator.Default]))
