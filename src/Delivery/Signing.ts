import { randomBytes } from "node:crypto"
import { Webhook } from "standardwebhooks"

/** The three headers of one Standard Webhooks delivery. */
export interface WebhookHeaders {
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

export type SigningFailure =
  | { readonly reason: "no_secret" }
  | { readonly reason: "invalid_secret"; readonly index: number }
  | { readonly reason: "invalid_id" }

export type SigningResult =
  | { readonly ok: true; readonly headers: WebhookHeaders }
  | ({ readonly ok: false } & SigningFailure)

const secretPrefix = "whsec_"
/** The standard asks for 24 to 64 bytes; 32 is what its reference libraries generate. */
const secretBytes = 32
const minimumSecretBytes = 24
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
/** Printable ASCII without space: a header value that no proxy folds, and the `.` the signed text needs is still allowed. */
const messageId = /^[\x21-\x7e]{1,255}$/

/** A new signing secret: `whsec_` and the base64 of 32 random bytes, shown to the partner once. */
export const newSecret = (): string => secretPrefix + randomBytes(secretBytes).toString("base64")

/** Whether `value` is a secret the signer accepts: `whsec_` and the base64 of at least 24 bytes. */
export const isSecret = (value: string): boolean => {
  if (!value.startsWith(secretPrefix)) return false
  const encoded = value.slice(secretPrefix.length)
  return base64.test(encoded) && Buffer.from(encoded, "base64").length >= minimumSecretBytes
}

/**
 * The headers of one attempt. `id` is the event's and stays the same on every retry, so a
 * receiver can drop duplicates; `at` is the attempt's own time, since receivers refuse old
 * timestamps. One `v1,` signature per secret, in the order given: the current secret first and,
 * while a rotation lasts, the one it replaces, so a receiver holding either accepts the delivery.
 */
export const signedHeaders = (input: {
  readonly id: string
  readonly at: Date
  readonly body: string
  readonly secrets: ReadonlyArray<string>
}): SigningResult => {
  if (!messageId.test(input.id)) return { ok: false, reason: "invalid_id" }
  if (input.secrets.length === 0) return { ok: false, reason: "no_secret" }
  const invalid = input.secrets.findIndex((secret) => !isSecret(secret))
  if (invalid >= 0) return { ok: false, reason: "invalid_secret", index: invalid }
  const signatures = input.secrets.map((secret) => new Webhook(secret).sign(input.id, input.at, input.body))
  return {
    ok: true,
    headers: {
      "webhook-id": input.id,
      "webhook-timestamp": String(Math.floor(input.at.getTime() / 1000)),
      "webhook-signature": signatures.join(" ")
    }
  }
}

/**
 * The headers of a provider notification, signed with the provider's own secret: a `whsec_`
 * secret as the standard reads it, any other as its raw bytes (standardwebhooks' `format: "raw"`),
 * so secrets set before the move keep working. The id is the notification's, the same on every attempt.
 */
export const providerSignedHeaders = (input: {
  readonly id: string
  readonly at: Date
  readonly body: string
  readonly secret: string
}): WebhookHeaders => {
  const webhook = isSecret(input.secret) ? new Webhook(input.secret) : new Webhook(input.secret, { format: "raw" })
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(Math.floor(input.at.getTime() / 1000)),
    "webhook-signature": webhook.sign(input.id, input.at, input.body)
  }
}
