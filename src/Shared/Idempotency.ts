import { createHash } from "node:crypto"
import { Context, Data, Duration, Effect, Layer, Option, Result, Schedule, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { rowsOf } from "../Database/Rows.js"
import { BookingUnavailable } from "../Domain/Booking.js"
import { type IdempotencyKeyReused, InvalidRequest } from "../Domain/Errors.js"
import { failLogged, logFailureWarning } from "./FailureSummary.js"

export type IdempotencyScope = "booking" | "request" | "cancel" | "reschedule" | "withdraw" | "erase" | "hold"

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

/** A digest of a value, whatever its objects' key order. */
export const requestHash = (body: unknown): string =>
  createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex")

/**
 * "The same request" is what it asks for, not when or how it was asked: the feature names the
 * fields that decide it (what is booked or requested, for whom, where), and time stamps, consent
 * wording and source metadata are left out, so a retry that re-stamps them replays. Stored
 * hashes are of `fingerprint:v2` values; keys stored before it held the whole body's hash.
 */
export const fingerprintHash = (what: unknown): string => requestHash({ fingerprint: "v2", what })

/** The key from the body or the Idempotency-Key header, either may be absent; two must agree. */
export const idempotencyKeyOf = (bodyKey: string | undefined, headerKey: string | undefined) =>
  headerKey !== undefined && bodyKey !== undefined && headerKey !== bodyKey
    ? Effect.fail(
        new InvalidRequest({
          issues: ["idempotency_key: differs from the Idempotency-Key header; send one key, or the same in both"]
        })
      )
    : Effect.succeed(bodyKey ?? headerKey)

/**
 * The one key a write needs, from the body or the Idempotency-Key header; without one, a 400 that
 * says where to send it, with the caller's next step when it has one to add.
 */
export const requiredKeyOf = (bodyKey: string | undefined, headerKey: string | undefined, safeNextStep?: string) =>
  Effect.flatMap(idempotencyKeyOf(bodyKey, headerKey), (key) =>
    key === undefined
      ? Effect.fail(
          new InvalidRequest({
            issues: ["idempotency_key: is required (in the body, or as the Idempotency-Key header)"],
            ...(safeNextStep === undefined ? {} : { safe_next_step: safeNextStep })
          })
        )
      : Effect.succeed(key)
  )

/** PostgreSQL answered the writing statement with an error, or it was never sent: nothing was written. */
export class NotWritten extends Data.TaggedError("NotWritten")<{ readonly cause: SqlError.SqlError }> {}

/** The writing statement was sent and no answer came: it may or may not have been carried out. */
export class CommitUnknown extends Data.TaggedError("CommitUnknown")<{ readonly cause: SqlError.SqlError }> {}

/**
 * What PostgreSQL's ErrorResponse said (@effect/sql-pg 4 keeps its fields on the reason's cause);
 * nothing for a failure of another kind.
 */
const pgErrorOf = (error: SqlError.SqlError) =>
  (error.reason.cause ?? {}) as { readonly severity?: unknown; readonly code?: unknown; readonly constraint?: unknown }

/** The SQLSTATE PostgreSQL answered a statement with (23P01, 40001, ...), if it answered. */
export const sqlStateOf = (error: SqlError.SqlError): string | undefined => {
  const { code } = pgErrorOf(error)
  return typeof code === "string" ? code : undefined
}

/** No connection could be had (connecting failed, or none was free in time): the statement never left the process. */
const notSent = (error: SqlError.SqlError) =>
  error.reason._tag === "ConnectionError" && error.reason.operation === "connect"

/**
 * A statement outside a transaction commits on its own, so how it failed says what was written.
 * An ERROR from PostgreSQL aborted it (an error after the commit would be a PANIC); no connection
 * means it was never sent. Anything else (the connection lost, no answer in time) leaves it unknown.
 */
export const writeOutcome = (error: SqlError.SqlError): NotWritten | CommitUnknown => {
  const answered = pgErrorOf(error).severity === "ERROR" && sqlStateOf(error) !== undefined
  return answered || notSent(error) ? new NotWritten({ cause: error }) : new CommitUnknown({ cause: error })
}

/** The claim's insert met a key already committed: an earlier or concurrent attempt with it wrote first. */
const lostTheClaim = (error: SqlError.SqlError) =>
  sqlStateOf(error) === "23505" && pgErrorOf(error).constraint === "idempotency_keys_pkey"

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
  /**
   * The refusal of a request that differs from the one its key holds, naming what the key holds
   * (never "use a new key": the caller may only want what exists).
   */
  readonly keyReused: (stored: S) => IdempotencyKeyReused
  readonly steps: OutageSteps
  readonly partnerId: string
  /** Without a key the write happens every time, and nothing is replayed. */
  readonly key: string | undefined
  readonly hash: string
  /** A stored hash of an earlier form that this request also matches (keys stored before `fingerprintHash`). */
  readonly sameAsStored?: (storedHash: string) => boolean
  /** The id the write gives its resource, stored with the key. */
  readonly resourceId: string
  /** The resource a stored key points at, to replay it. */
  readonly load: (resourceId: string) => Effect.Effect<Option.Option<S>, EL, RL>
  /**
   * The checks that only a first attempt makes. It may read but never write: it runs before the
   * key is looked up, and its failure counts only when the key turns out unused.
   */
  readonly prepare: Effect.Effect<P, EP, RP>
  /** What to write, run in the one statement that claims the key. */
  readonly write: (prepared: P) => Effect.Effect<Writes<W>, EW, RW>
  /** An error PostgreSQL answered the write with that is the client's conflict rather than an outage. */
  readonly refused?: (cause: SqlError.SqlError) => EC | undefined
}

/**
 * The writes of one idempotent request: data-modifying statements (INSERT ... without a trailing
 * semicolon), run as the CTEs of the statement that claims the key, so they commit or fail with it.
 */
export interface Writes<W> {
  readonly statements: ReadonlyArray<Statement.Fragment>
  /**
   * A condition the statement checks before the claim: a SQL expression that is true or raises
   * (an error aborts the claim and every write with it). Never one that can be false.
   */
  readonly guard?: Statement.Fragment
  /** What the caller answers with once they are written. */
  readonly result: W
}

export type WriteOutcome<S, P, W> =
  | { readonly _tag: "Replayed"; readonly stored: S }
  | { readonly _tag: "Written"; readonly prepared: P; readonly written: W }

const StoredKey = Schema.Struct({ requestHash: Schema.String, resourceId: Schema.String })
export type StoredKey = typeof StoredKey.Type

/** Idempotency keys per partner and endpoint (PostgreSQL), kept for `idempotencyRetentionDays`. */
export class Idempotency extends Context.Service<Idempotency>()("Booking/Idempotency", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // Every statement here runs straight on the pool (outside a transaction), without a span: the
    // write runs on every confirm and request creation.

    const find = (partnerId: string, scope: IdempotencyScope, key: string) =>
      Effect.map(
        sql`
        SELECT request_hash, resource_id FROM idempotency_keys
        WHERE partner_id = ${partnerId} AND scope = ${scope} AND key = ${key}`.pipe(rowsOf(StoredKey)),
        (rows) => Option.fromNullishOr(rows[0])
      )

    /**
     * The key's row, first in the writing statement: the main query reads it, so it is inserted
     * before the writes run. A concurrent statement holding the same key makes it wait for that
     * one; if that one committed, the insert fails on the primary key (23505) and nothing is written.
     */
    const claimed = (
      key: string,
      input: {
        readonly partnerId: string
        readonly scope: IdempotencyScope
        readonly hash: string
        readonly resourceId: string
      },
      guard: Statement.Fragment | undefined
    ) =>
      guard === undefined
        ? sql`claimed AS (
        INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
        VALUES (${input.partnerId}, ${input.scope}, ${key}, ${input.hash}, ${input.resourceId})
        RETURNING 1 AS claimed)`
        : sql`claimed AS (
        INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
        SELECT ${input.partnerId}, ${input.scope}, ${key}, ${input.hash}, ${input.resourceId} WHERE ${guard}
        RETURNING 1 AS claimed)`

    /**
     * One statement: the claim and every write as CTEs. Outside a transaction it commits on its own,
     * in one round trip instead of BEGIN, one per write and COMMIT.
     */
    const writeOnce = (
      key: string | undefined,
      input: Parameters<typeof claimed>[1],
      { statements, guard }: Writes<unknown>
    ) => {
      const writes = statements.map((statement, i) => sql`${sql.literal(`w${i}`)} AS (${statement})`)
      if (key !== undefined) {
        return sql`WITH ${sql.join(", ", false)([claimed(key, input, guard), ...writes])} SELECT claimed FROM claimed`
      }
      // The main query reads the guard, so it is evaluated, and the writes abort with it.
      return guard === undefined
        ? sql`WITH ${sql.join(", ", false)(writes)} SELECT 1`
        : sql`WITH ${sql.join(", ", false)(writes)} SELECT ${guard}`
    }

    /** Forgets the keys older than `idempotencyRetentionDays`. */
    const cleanUp =
      sql`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => ${idempotencyRetentionDays})`.pipe(
        Effect.asVoid,
        Effect.catchCause((cause) => logFailureWarning("idempotency key cleanup failed", cause))
      )

    /**
     * Prepare, then claim the key and write in one statement; a key already used, by an earlier
     * attempt or a concurrent one, fails the claim and is replayed. A prepare that fails is
     * answered with the stored key's replay when there is one, so the outcome is that of finding
     * the key first.
     */
    const write = Effect.fnUntraced(function* <S, P, W, EL, RL, EP, RP, EW, RW, EC = never>(
      input: IdempotentWrite<S, P, W, EL, RL, EP, RP, EW, RW, EC>
    ) {
      const { key, steps } = input
      const unavailable = (step: string) => persistenceUnavailable(input.scope, step)

      const replay = (stored: StoredKey) =>
        Effect.gen(function* () {
          const same = stored.requestHash === input.hash || input.sameAsStored?.(stored.requestHash) === true
          const found = yield* input.load(stored.resourceId).pipe(Effect.catch(unavailable(steps.replayUnreadable)))
          if (Option.isNone(found)) {
            return yield* unavailable(steps.replayUnreadable)(`idempotency key without its ${input.scope}`)
          }
          if (!same) return yield* input.keyReused(found.value)
          return { _tag: "Replayed", stored: found.value } as WriteOutcome<S, P, W>
        })

      // A first attempt, the common case, needs no look-up of its key: the claim in the write finds
      // a used one. Only a prepare that fails must first learn whether the key is used, since a
      // stored key is replayed whatever the checks say now (an expired option, a changed offer).
      const prepare = yield* Effect.result(input.prepare)
      if (Result.isFailure(prepare)) {
        if (key !== undefined) {
          const existing = yield* find(input.partnerId, input.scope, key).pipe(
            Effect.catch(unavailable(steps.beforeWriting))
          )
          if (Option.isSome(existing)) return yield* replay(existing.value)
        }
        return yield* Effect.fail(prepare.failure)
      }
      const prepared = prepare.success
      const writes = yield* input.write(prepared)
      const { result } = writes
      const written = yield* writeOnce(key, input, writes).pipe(
        Effect.as(true),
        Effect.catch((error): Effect.Effect<boolean, EC | BookingUnavailable> => {
          const outcome = writeOutcome(error)
          if (outcome._tag === "CommitUnknown") return unavailable(steps.commitUnknown)(error)
          if (key !== undefined && lostTheClaim(error)) return Effect.succeed(false)
          const refusal = input.refused?.(error)
          return refusal !== undefined ? Effect.fail(refusal) : unavailable(steps.notWritten)(error)
        })
      )
      if (written) return { _tag: "Written", prepared, written: result } as WriteOutcome<S, P, W>
      // Nothing written means the key was already used, by an earlier attempt or a concurrent one.
      const raced = yield* find(input.partnerId, input.scope, key ?? "").pipe(
        Effect.catch(unavailable(steps.replayUnreadable))
      )
      if (Option.isNone(raced)) return yield* unavailable(steps.replayUnreadable)("idempotency key vanished")
      return yield* replay(raced.value)
    })

    return { find, write, cleanUp } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}

/** The key clean-up: a pass at start and every hour, for as long as the server runs. */
export const IdempotencyCleanupLive = Layer.effectDiscard(
  Effect.flatMap(Idempotency, (idempotency) =>
    idempotency.cleanUp.pipe(Effect.repeat(Schedule.spaced(Duration.hours(1))), Effect.forkScoped)
  )
).pipe(Layer.provide(Idempotency.Default))
