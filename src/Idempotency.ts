import { createHash } from "node:crypto"
import { SqlClient, SqlError } from "@effect/sql"
import { Cause, Data, Duration, Effect, Option, Schedule } from "effect"
import { BookingUnavailable } from "./Domain/Booking.js"
import { IdempotencyKeyReused, InvalidRequest } from "./Domain/Errors.js"
import { failLogged, logFailureWarning } from "./Failure.js"

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

/** The key from the body or the Idempotency-Key header, either may be absent; two must agree. */
export const idempotencyKeyOf = (bodyKey: string | undefined, headerKey: string | undefined) =>
  headerKey !== undefined && bodyKey !== undefined && headerKey !== bodyKey
    ? Effect.fail(
        new InvalidRequest({
          issues: ["idempotency_key: differs from the Idempotency-Key header; send one key, or the same in both"]
        })
      )
    : Effect.succeed(bodyKey ?? headerKey)

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

/** A booking's or a request's persistence failed: logged, and answered 503 with what is known. */
export const persistenceUnavailable = (resource: IdempotencyScope, safeNextStep: string) =>
  failLogged(`${resource} persistence failed`, () => new BookingUnavailable({ safe_next_step: safeNextStep }))

/** What an assistant may say when the database does not answer, by how far the write got. */
export interface OutageSteps {
  readonly beforeWriting: string
  readonly notWritten: string
  readonly commitUnknown: string
  readonly replayUnreadable: string
}

/** One idempotent write: a feature's pieces, in the order the protocol runs them. */
export interface IdempotentWrite<S, P, W, EL, RL, EP, RP, EW, RW, EC> {
  /** Also names the resource in logs: "booking persistence failed". */
  readonly scope: IdempotencyScope
  readonly keyReusedStep: string
  readonly steps: OutageSteps
  readonly partnerId: string
  /** Without a key the write happens every time, and nothing is replayed. */
  readonly key: string | undefined
  readonly hash: string
  /** The id the write gives its resource, stored with the key. */
  readonly resourceId: string
  /** The resource a stored key points at, to replay it. */
  readonly load: (resourceId: string) => Effect.Effect<Option.Option<S>, EL, RL>
  /** The checks that only a first attempt makes, after the key was found unused. */
  readonly prepare: Effect.Effect<P, EP, RP>
  /** Inside the transaction, once the key is claimed. */
  readonly write: (prepared: P) => Effect.Effect<W, EW, RW>
  /** A rollback that is the client's conflict rather than an outage. */
  readonly refused?: (cause: SqlError.SqlError) => EC | undefined
}

export type WriteOutcome<S, P, W> =
  | { readonly _tag: "Replayed"; readonly stored: S }
  | { readonly _tag: "Written"; readonly prepared: P; readonly written: W }

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

    /**
     * Find the key and replay what it stored; otherwise prepare, then claim the key and write in
     * one transaction. A concurrent attempt that claimed the key first is replayed too.
     */
    const write = Effect.fn("Idempotency.write")(function* <S, P, W, EL, RL, EP, RP, EW, RW, EC = never>(
      input: IdempotentWrite<S, P, W, EL, RL, EP, RP, EW, RW, EC>
    ) {
      const { key, steps } = input
      const unavailable = (step: string) => persistenceUnavailable(input.scope, step)

      const replay = (stored: StoredKey) =>
        Effect.gen(function* () {
          if (stored.requestHash !== input.hash) {
            return yield* new IdempotencyKeyReused({
              issues: ["idempotency_key: was already used with a different request"],
              safe_next_step: input.keyReusedStep
            })
          }
          const found = yield* input.load(stored.resourceId).pipe(Effect.catchAll(unavailable(steps.replayUnreadable)))
          if (Option.isNone(found)) {
            return yield* unavailable(steps.replayUnreadable)(`idempotency key without its ${input.scope}`)
          }
          return { _tag: "Replayed", stored: found.value } as WriteOutcome<S, P, W>
        })

      if (key !== undefined) {
        const existing = yield* find(input.partnerId, input.scope, key).pipe(
          Effect.catchAll(unavailable(steps.beforeWriting))
        )
        if (Option.isSome(existing)) return yield* replay(existing.value)
      }

      const prepared = yield* input.prepare
      const written = yield* transactionOutcome(
        sql,
        Effect.gen(function* () {
          if (key !== undefined) {
            const claimed = yield* claim({
              partnerId: input.partnerId,
              scope: input.scope,
              key,
              requestHash: input.hash,
              resourceId: input.resourceId
            })
            if (!claimed) return Option.none<W>()
          }
          return Option.some(yield* input.write(prepared))
        })
      ).pipe(
        Effect.catchIf(
          (error): error is NotWritten | CommitUnknown => error instanceof NotWritten || error instanceof CommitUnknown,
          (error): Effect.Effect<never, EC | BookingUnavailable> => {
            if (error instanceof CommitUnknown) return unavailable(steps.commitUnknown)(error.cause)
            const refusal = input.refused?.(error.cause)
            return refusal !== undefined ? Effect.fail(refusal) : unavailable(steps.notWritten)(error.cause)
          }
        )
      )
      if (Option.isSome(written)) {
        return { _tag: "Written", prepared, written: written.value } as WriteOutcome<S, P, W>
      }
      // Nothing written means the claim lost to a concurrent attempt with the same key.
      const raced = yield* find(input.partnerId, input.scope, key ?? "").pipe(
        Effect.catchAll(unavailable(steps.replayUnreadable))
      )
      if (Option.isNone(raced)) return yield* unavailable(steps.replayUnreadable)("idempotency key vanished")
      return yield* replay(raced.value)
    })

    return { find, claim, write } as const
  })
}) {}
