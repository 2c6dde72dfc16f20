import { Schema } from "effect"
import { ContractError } from "./Errors.js"
import { nextCursorField } from "./ListPage.js"
import { webhookEventTypes } from "./WebhookEvents.js"

/** At most this many subscriptions per partner. */
export const maxWebhooksPerPartner = 16

/** How long a replaced secret keeps signing beside the new one. */
export const rotationOverlapHours = 24

export const WebhookEventType = Schema.Literals(webhookEventTypes)

/** `events` is read as strings so an unknown type is refused by name, not as a schema mismatch. */
export const WebhookCreate = Schema.Struct({
  url: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(2000)),
  events: Schema.optional(Schema.Array(Schema.String).check(Schema.isMinLength(1), Schema.isMaxLength(32)))
}).annotate({ identifier: "WebhookCreate" })
export type WebhookCreate = typeof WebhookCreate.Type

export const WebhookPath = Schema.Struct({ webhook_id: Schema.String.check(Schema.isMinLength(1)) })
export const DeliveryPath = Schema.Struct({
  webhook_id: Schema.String.check(Schema.isMinLength(1)),
  delivery_id: Schema.String.check(Schema.isMinLength(1))
})

export const Webhook = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(WebhookEventType),
  status: Schema.Literals(["enabled", "disabled"]),
  /** Why it is disabled: the receiver answered 410, or every attempt failed for 5 days. */
  disabled_reason: Schema.optional(Schema.Literals(["gone", "failing"])),
  /** The first failure with no success after it. */
  failing_since: Schema.optional(Schema.String),
  /** While a rotation lasts, the replaced secret also signs until then. */
  previous_secret_expires_at: Schema.optional(Schema.String),
  sandbox: Schema.Boolean,
  created_at: Schema.String
}).annotate({ identifier: "Webhook" })
export type Webhook = typeof Webhook.Type

export const WebhookCreated = Schema.Struct({
  ok: Schema.Literal(true),
  webhook: Webhook,
  /** Shown only here (and by rotate-secret for the new one): store it to verify deliveries. */
  secret: Schema.String
}).annotate({ identifier: "WebhookCreated" })

export const WebhookList = Schema.Struct({
  ok: Schema.Literal(true),
  webhooks: Schema.Array(Webhook)
}).annotate({ identifier: "WebhookList" })

export const WebhookDeleted = Schema.Struct({
  ok: Schema.Literal(true),
  deleted: Schema.Literal(true),
  webhook_id: Schema.String
}).annotate({ identifier: "WebhookDeleted" })

export const SecretRotated = Schema.Struct({
  ok: Schema.Literal(true),
  webhook: Webhook,
  secret: Schema.String,
  previous_secret_expires_at: Schema.String
}).annotate({ identifier: "WebhookSecretRotated" })

export const WebhookDelivery = Schema.Struct({
  /** The `webhook-id` header of every attempt. */
  id: Schema.String,
  event_type: WebhookEventType,
  status: Schema.Literals(["pending", "delivered", "failed"]),
  attempts: Schema.Int,
  last_status_code: Schema.optional(Schema.Int),
  last_error: Schema.optional(Schema.String),
  next_attempt_at: Schema.optional(Schema.String),
  created_at: Schema.String
}).annotate({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

export const DeliveryList = Schema.Struct({
  ok: Schema.Literal(true),
  deliveries: Schema.Array(WebhookDelivery),
  next_cursor: nextCursorField
}).annotate({ identifier: "WebhookDeliveryList" })

export const DeliveryQueued = Schema.Struct({
  ok: Schema.Literal(true),
  delivery: WebhookDelivery
}).annotate({ identifier: "WebhookDeliveryQueued" })

/** No subscription of the caller's has this id (another partner's is not told apart from none). */
export class WebhookNotFound extends ContractError<WebhookNotFound>()(
  "webhook_not_found",
  404,
  "No webhook of this partner has this id",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "List your webhooks (GET /api/public/webhooks) and use an id from there."
  }
) {}

export class WebhookDeliveryNotFound extends ContractError<WebhookDeliveryNotFound>()(
  "webhook_delivery_not_found",
  404,
  "No delivery of this webhook has this id",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "List the webhook's deliveries (GET /api/public/webhooks/{webhook_id}/deliveries) and use an id from there."
  }
) {}

export class WebhookLimitReached extends ContractError<WebhookLimitReached>()(
  "webhook_limit_reached",
  409,
  `A partner has at most ${maxWebhooksPerPartner} webhooks`,
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "Delete a webhook you no longer use (DELETE /api/public/webhooks/{webhook_id}), or subscribe one URL to several event types."
  }
) {}
