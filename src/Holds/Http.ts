import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { Partner } from "../Domain/Partner.js"
import { Holds } from "./Holds.js"

export const HoldsLive = HttpApiBuilder.group(Api, "holds", (handlers) =>
  Effect.gen(function* () {
    const holds = yield* Holds
    return handlers
      .handle("hold", ({ payload, headers }) =>
        Effect.flatMap(Partner, (partner) => holds.hold(payload, partner, headers["idempotency-key"]))
      )
      .handle("status", ({ params }) => Effect.flatMap(Partner, (partner) => holds.status(params.hold_id, partner)))
      .handle("release", ({ params }) => Effect.flatMap(Partner, (partner) => holds.release(params.hold_id, partner)))
  })
).pipe(Layer.provide(Holds.Default))
