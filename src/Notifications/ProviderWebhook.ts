import { DateTime, Duration, Effect, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { rowsOf } from "../Database/Rows.js"
import { providerSignedHeaders } from "../Delivery/Signing.js"
import { DeliveryFailed, errorCode, fail, present } from "./Delivery.js"
import type { ClaimedRow } from "./OutboxRepo.js"

const WEBHOOK_TIMEOUT = Duration.seconds(10)

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

const SecretRow = Schema.Struct({ notifyWebhookSecret: Schema.NullOr(Schema.String) })

const networkProblem = (error: unknown) => {
  const code = errorCode((error as { cause?: { code?: unknown } } | undefined)?.cause?.code)
  return `the webhook request failed (${code ?? "network error"})`
}

/** A provider's notification webhook: the row's payload POSTed to its url, signed with the provider's secret. */
export const makeProviderWebhook = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig

  const webhookSecret = (providerId: string) =>
    sql`SELECT notify_webhook_secret FROM providers WHERE id = ${providerId}`.pipe(
      rowsOf(SecretRow),
      Effect.map((rows) => present(rows[0]?.notifyWebhookSecret)),
      Effect.mapError(() => new DeliveryFailed({ reason: "the webhook secret could not be read" }))
    )

  return Effect.fn("Notifier.sendWebhook")(function* (row: ClaimedRow) {
    const url = URL.canParse(row.address ?? "") ? new URL(row.address ?? "") : undefined
    if (url === undefined) return yield* fail("the webhook url is not a valid URL")
    const plainHttpAllowed = loopbackHosts.has(url.hostname) || config.appEnv === "development"
    if (url.protocol !== "https:" && !(url.protocol === "http:" && plainHttpAllowed)) {
      return yield* fail("the webhook url must be https")
    }
    if (row.providerId === null) return yield* fail("the webhook row names no provider")
    const secret = yield* webhookSecret(row.providerId)
    if (secret === null) return yield* fail("the provider has no webhook secret")
    const body = JSON.stringify(row.payload)
    const at = yield* DateTime.nowAsDate
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(url, {
          method: "POST",
          body,
          signal,
          // A redirect would carry the signed payload somewhere the provider did not register.
          redirect: "manual",
          // Standard Webhooks: the row's id is the webhook-id of every attempt, so the provider can drop repeats.
          headers: { "content-type": "application/json", ...providerSignedHeaders({ id: row.id, at, body, secret }) }
        }),
      catch: (error) => new DeliveryFailed({ reason: networkProblem(error) })
    }).pipe(
      Effect.timeoutOrElse({
        duration: WEBHOOK_TIMEOUT,
        orElse: () => Effect.fail(new DeliveryFailed({ reason: "the webhook did not answer in time" }))
      })
    )
    yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve()).pipe(Effect.ignore)
    if (response.status < 200 || response.status > 299) return yield* fail(`the webhook answered ${response.status}`)
  })
})
