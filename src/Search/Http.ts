import { transcode } from "node:buffer"
import { Clock, Effect, Layer } from "effect"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Authenticator } from "../Partners/Authentication.js"
import { BookingSearch } from "./Search.js"

/**
 * The UTF-8 bytes of `JSON.stringify(body)`, the bytes `HttpServerResponse.unsafeJson` sends.
 * The slot labels' en dash makes the text two-byte, which TextEncoder (and Buffer.from) convert
 * about three times slower than ICU's transcoder; JSON.stringify escapes lone surrogates, so the
 * text is always well-formed UTF-16 and both give the same bytes.
 */
export const jsonUtf8 = (body: unknown): Uint8Array =>
  transcode(Buffer.from(JSON.stringify(body), "utf16le"), "utf16le", "utf8")

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
        // The body is built typed as the response schema; stringifying it directly skips a
        // second walk through the schema on the hottest endpoint.
        Effect.map((body) => HttpServerResponse.uint8Array(jsonUtf8(body), { contentType: "application/json" }))
      )
    )
  })
).pipe(Layer.provide([BookingSearch.Default, RateLimiter.Default, Authenticator.Default]))
