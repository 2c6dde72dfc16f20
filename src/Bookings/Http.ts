import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { Partner } from "../Domain/Partner.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Bookings } from "./Bookings.js"
import { Changes } from "./Changes.js"

export const BookingsLive = HttpApiBuilder.group(Api, "bookings", (handlers) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const limiter = yield* RateLimiter
    const changes = yield* Changes
    return handlers
      .handle("confirm", ({ payload, headers }) =>
        limiter.forPartner("confirm", (partner, now) =>
          bookings.confirm(payload, headers["idempotency-key"], partner, now)
        )
      )
      .handle("status", ({ params }) =>
        Effect.flatMap(Partner, (partner) => bookings.status(params.booking_id, partner))
      )
      .handle("list", ({ query }) => Effect.flatMap(Partner, (partner) => bookings.list(query, partner)))
      .handle("cancel", ({ params, payload, headers }) =>
        limiter.forPartner("confirm", (partner, now) =>
          changes.cancel(params.booking_id, payload, headers["idempotency-key"], partner, now)
        )
      )
      .handle("reschedule", ({ params, payload, headers }) =>
        limiter.forPartner("confirm", (partner, now) =>
          changes.reschedule(params.booking_id, payload, headers["idempotency-key"], partner, now)
        )
      )
  })
).pipe(Layer.provide([Bookings.Default, Changes.Default, RateLimiter.Default]))
