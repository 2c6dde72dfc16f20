import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { Partner } from "../Domain/Partner.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { PersonalData } from "../PersonalData/PersonalData.js"
import { Bookings } from "./Bookings.js"
import { Changes } from "./Changes.js"

export const BookingsLive = HttpApiBuilder.group(Api, "bookings", (handlers) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const limiter = yield* RateLimiter
    const changes = yield* Changes
    const personalData = yield* PersonalData
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
      .handle("personalData", ({ params }) =>
        Effect.flatMap(Partner, (partner) => personalData.bookingData(params.booking_id, partner))
      )
      .handle("erasePersonalData", ({ params, payload, headers }) =>
        Effect.flatMap(Partner, (partner) =>
          personalData.eraseBooking(params.booking_id, payload, headers["idempotency-key"], partner)
        )
      )
  })
).pipe(Layer.provide([Bookings.Default, Changes.Default, PersonalData.Default, RateLimiter.Default]))
