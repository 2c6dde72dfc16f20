import { createHash } from "node:crypto"
import { SqlClient, SqlError } from "@effect/sql"
import { Cause, Data, Duration, Effect, Option, Schedule } from "effect"
import { logFailureWarning } from "./Failure.js"

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

/** The transaction failed before COMMIT was sent: PostgreSQL rolled it back, nothing was written. */
export class NotWritten extends Data.TaggedError("NotWritten")<{ readonly cause: SqlError.SqlError }> {}

/** COMMIT was sent and no answer came: the write may or may not have happened. */
export class CommitUnknown extends Data.TaggedError("CommitUnknown")<{ readonly cause: SqlError.SqlError }> {}

const sqlErrorIn = <E>(cause: Cause.Cause<E>): SqlError.SqlError | undefined => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure) && failure.value instanceof SqlError.SqlError) return failure.value
  // @effect/sql turns a failed COMMIT or ROLLBACK into a defect.
  return Array.from(Cause.defects(cause)).find(
    (defect): defect is SqlError.SqlError => defect instanceof SqlError.SqlError
  )
}

/**
 * Runs `body` in a transaction and tells apart the two ways the database can fail it, so a
 * response only says "nothing was written" when that is known. A failure after the body
 * finished can only be the COMMIT itself, whose outcome the client cannot know; a failure
 * before it leaves the transaction to be rolled back by PostgreSQL.
 */
export const transactionOutcome = <A, E, R>(
  sql: SqlClient.SqlClient,
  body: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError.SqlError> | NotWritten | CommitUnknown, R> =>
  Effect.suspend(() => {
    let committing = false
    return sql.withTransaction(Effect.tap(body, () => Effect.sync(() => (committing = true)))).pipe(
      Effect.catchAllCause(
        (cause): Effect.Effect<never, Exclude<E, SqlError.SqlError> | NotWritten | CommitUnknown> => {
          const error = Cause.isInterruptedOnly(cause) ? undefined : sqlErrorIn(cause)
          if (error === undefined) return Effect.failCause(cause as Cause.Cause<Exclude<E, SqlError.SqlError>>)
          return Effect.fail(committing ? new CommitUnknown({ cause: error }) : new NotWritten({ cause: error }))
        }
      )
    )
  })

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
      Effect.catchAllCause((cause) => logFailureWarning("idempotency key cleanup failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.hours(1))),
      Effect.forkScoped
    )

    return { find, claim } as const
  })
}) {}
