import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Option, Schedule } from "effect"

export type IdempotencyScope = "booking" | "request"

/** Keys outlive the 24 hours a partner may retry in, by a margin. */
export const idempotencyRetentionDays = 7

const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, canonical((value as Record<string, unknown>)[key])])
        )
      : value

/** "The same request": the same decoded body, whatever its key order. */
export const requestHash = (body: unknown): string =>
  createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex")

export interface StoredKey {
  readonly requestHash: string
  readonly resourceId: string
}

/** Idempotency keys per partner and endpoint (PostgreSQL), kept for `idempotencyRetentionDays`. */
export class Idempotency extends Effect.Service<Idempotency>()("Booking/Idempotency", {
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = Effect.fn("Idempotency.find")(function* (partnerId: string, scope: IdempotencyScope, key: string) {
      const rows = yield* sql<StoredKey>`
        SELECT request_hash, resource_id FROM idempotency_keys
        WHERE partner_id = ${partnerId} AND scope = ${scope} AND key = ${key}`
      return Option.fromNullable(rows[0])
    })

    /**
     * Inside the writing transaction. A concurrent transaction holding the same key makes this
     * wait for it; if that one commits, the claim fails and the caller replays its result.
     */
    const claim = Effect.fn("Idempotency.claim")(function* (input: {
      readonly partnerId: string
      readonly scope: IdempotencyScope
      readonly key: string
      readonly requestHash: string
      readonly resourceId: string
    }) {
      const rows = yield* sql`
        INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
        VALUES (${input.partnerId}, ${input.scope}, ${input.key}, ${input.requestHash}, ${input.resourceId})
        ON CONFLICT DO NOTHING
        RETURNING 1 AS claimed`
      return rows.length > 0
    })

    yield* sql`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => ${idempotencyRetentionDays})`.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("idempotency key cleanup failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.hours(1))),
      Effect.forkScoped
    )

    return { find, claim } as const
  })
}) {}
