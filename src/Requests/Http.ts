import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { Partner } from "../Domain/Partner.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { PersonalData } from "../PersonalData/PersonalData.js"
import { Requests } from "./Requests.js"
import { RequestWithdrawals } from "./Withdraw.js"

export const RequestsLive = HttpApiBuilder.group(Api, "requests", (handlers) =>
  Effect.gen(function* () {
    const requests = yield* Requests
    const limiter = yield* RateLimiter
    const withdrawals = yield* RequestWithdrawals
    const personalData = yield* PersonalData
    return handlers
      .handle("create", ({ payload, headers }) =>
        limiter.forPartner("requests", (partner, now) =>
          requests.create(payload, headers["idempotency-key"], partner, now)
        )
      )
      .handle("status", ({ params }) =>
        Effect.flatMap(Partner, (partner) => requests.status(params.request_id, partner))
      )
      .handle("list", ({ query }) => Effect.flatMap(Partner, (partner) => requests.list(query, partner)))
      .handle("withdraw", ({ params, payload, headers }) =>
        limiter.forPartner("requests", (partner, now) =>
          withdrawals.withdraw(params.request_id, payload, headers["idempotency-key"], partner, now)
        )
      )
      .handle("personalData", ({ params }) =>
        Effect.flatMap(Partner, (partner) => personalData.requestData(params.request_id, partner))
      )
      .handle("erasePersonalData", ({ params, payload, headers }) =>
        Effect.flatMap(Partner, (partner) =>
          personalData.eraseRequest(params.request_id, payload, headers["idempotency-key"], partner)
        )
      )
  })
).pipe(Layer.provide([Requests.Default, RequestWithdrawals.Default, PersonalData.Default, RateLimiter.Default]))
