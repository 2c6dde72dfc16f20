import { Effect, Layer } from "effect"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import { Api } from "../Api.js"
import { Partner } from "../Domain/Partner.js"
import { Webhooks } from "./Webhooks.js"

export const WebhooksLive = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    return handlers
      .handle("create", ({ payload }) => Effect.flatMap(Partner, (partner) => webhooks.create(payload, partner)))
      .handle("list", () => Effect.flatMap(Partner, webhooks.list))
      .handle("remove", ({ params }) =>
        Effect.flatMap(Partner, (partner) => webhooks.remove(partner, params.webhook_id))
      )
      .handle("rotateSecret", ({ params }) =>
        Effect.flatMap(Partner, (partner) => webhooks.rotateSecret(partner, params.webhook_id))
      )
      .handle("test", ({ params }) =>
        Effect.flatMap(Partner, (partner) => webhooks.sendTest(partner, params.webhook_id))
      )
      .handle("deliveries", ({ params, query }) =>
        Effect.flatMap(Partner, (partner) => webhooks.deliveries(partner, params.webhook_id, query))
      )
      .handle("retry", ({ params }) =>
        Effect.flatMap(Partner, (partner) => webhooks.retry(partner, params.webhook_id, params.delivery_id))
      )
  })
).pipe(Layer.provide(Webhooks.Default))
