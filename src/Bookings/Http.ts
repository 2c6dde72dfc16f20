import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import type { BookingConfirmationResponse } from "../Domain/Booking.js"
import { Partner } from "../Domain/Partner.js"
import { jsonInContractOrder } from "../Http/HandBuiltJson.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Bookings } from "./Bookings.js"
import { Changes } from "./Changes.js"

/**
 * Confirm's answer as the contract has always written it: delivery, deduction and policy before
 * the three flags, which the Api's encoder would reorder to the schema's order (the one the OpenAPI
 * document lists). The statuses are BookingConfirmed's 201 and BookingReplayed's 200.
 */
const inContractOrder = (body: BookingConfirmationResponse) =>
  jsonInContractOrder(body, body.idempotent_replay ? 200 : 201)

export const BookingsLive = HttpApiBuilder.group(Api, "bookings", (handlers) =>
  Effect.gen(function* () {
    const bookings = yield* Bookings
    const limiter = yield* RateLimiter
    const changes = yield* Changes
    return handlers
      .handle("confirm", ({ payload, headers }) =>
        limiter.forPartner("confirm", (partner, now) =>
          Effect.map(bookings.confirm(payload, headers["idempotency-key"], partner, now), inContractOrder)
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
