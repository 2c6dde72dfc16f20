import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
import { DatabaseUnavailable, errorBody } from "../Domain/Errors.js"
import { DeliveryListQuery } from "../Domain/ListPage.js"
import {
  DeliveryList,
  DeliveryPath,
  DeliveryQueued,
  SecretRotated,
  WebhookCreate,
  WebhookCreated,
  WebhookDeleted,
  WebhookDeliveryNotFound,
  WebhookLimitReached,
  WebhookList,
  WebhookNotFound,
  WebhookPath
} from "../Domain/Webhook.js"
import { documented } from "../Http/OperationDocs.js"
import { Authentication } from "../Partners/AuthApi.js"
import {
  createExample,
  deliveriesExample,
  listExample,
  removeExample,
  retryExample,
  rotateSecretExample,
  testExample
} from "./Examples.js"

/** Every subscription call reads or writes the database: while it does not answer, a 503 says what is known. */
const unavailable = errorBody(DatabaseUnavailable)

export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/api/public/webhooks", {
      payload: WebhookCreate,
      success: WebhookCreated.pipe(HttpApiSchema.status(201)),
      error: [errorBody(WebhookLimitReached), unavailable]
    }).annotateMerge(
      documented("Subscribe a URL to booking and request events (the secret is shown only here)", {
        example: createExample
      })
    )
  )
  .add(
    HttpApiEndpoint.get("list", "/api/public/webhooks", { success: WebhookList, error: unavailable }).annotateMerge(
      documented("The partner's webhooks, never a secret", { example: listExample })
    )
  )
  .add(
    HttpApiEndpoint.delete("remove", "/api/public/webhooks/:webhook_id", {
      params: WebhookPath,
      success: WebhookDeleted,
      error: [errorBody(WebhookNotFound), unavailable]
    }).annotateMerge(documented("Delete a webhook and its deliveries", { example: removeExample }))
  )
  .add(
    HttpApiEndpoint.post("rotateSecret", "/api/public/webhooks/:webhook_id/rotate-secret", {
      params: WebhookPath,
      success: SecretRotated,
      error: [errorBody(WebhookNotFound), unavailable]
    }).annotateMerge(
      documented("A new secret; the old one keeps signing beside it for 24 hours", { example: rotateSecretExample })
    )
  )
  .add(
    HttpApiEndpoint.post("test", "/api/public/webhooks/:webhook_id/test", {
      params: WebhookPath,
      success: DeliveryQueued.pipe(HttpApiSchema.status(202)),
      error: [errorBody(WebhookNotFound), unavailable]
    }).annotateMerge(
      documented("Send a webhook.test event (turns a disabled webhook on again)", { example: testExample })
    )
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/api/public/webhooks/:webhook_id/deliveries", {
      params: WebhookPath,
      query: DeliveryListQuery,
      success: DeliveryList,
      error: [errorBody(WebhookNotFound), unavailable]
    }).annotateMerge(
      documented("The webhook's deliveries, newest first, a page at a time", {
        example: deliveriesExample,
        description:
          "Newest first, `limit` 1 to 100 (default 50); pass `next_cursor` as `cursor` for the next page (null on the last). A delivery written meanwhile is on the next walk's first page, never twice in one walk. A bad cursor is 400 naming `cursor`."
      })
    )
  )
  .add(
    HttpApiEndpoint.post("retry", "/api/public/webhooks/:webhook_id/deliveries/:delivery_id/retry", {
      params: DeliveryPath,
      success: DeliveryQueued.pipe(HttpApiSchema.status(202)),
      error: [errorBody(WebhookNotFound), errorBody(WebhookDeliveryNotFound), unavailable]
    }).annotateMerge(
      documented("Send a delivery again now, with the same webhook-id (turns a disabled webhook on again)", {
        example: retryExample
      })
    )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Webhooks")
  .annotate(
    OpenApi.Description,
    "Subscribe to signed Standard Webhooks events about your bookings and requests (see docs/webhooks.md in the repository)."
  ) {}
