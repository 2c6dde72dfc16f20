import { createSecretKey, type KeyObject } from "node:crypto"
import { Clock, Context, Duration, Effect, Exit, Layer, Result, Schedule, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { budgetLeft, budgetSpent, DatabaseDeadline, readTimeout } from "../Database/Database.js"
import { rowsOf } from "../Database/Rows.js"
import type {
  OptionClaims,
  OptionExpired,
  OptionInvalid,
  SignedOption,
  SigningNotConfigured
} from "../Domain/BookingOption.js"
import { logFailureWarning } from "./FailureSummary.js"
import { checkShortId, isShortIdForm, mintShortId, shortIdKeyLabel } from "./OptionIds.js"
import {
  claimsOf,
  hasExpired,
  OptionSigner,
  optionRefusals,
  type SealedOption,
  type SignedToken
} from "./OptionSigner.js"

/**
 * How long an option's row outlives its expiry: a confirm retried after the expiry by the partner
 * who booked it is still answered with that booking (option_already_booked), not option_expired.
 */
export const keptAfterExpiry = Duration.hours(1)

/** How often the rows past `keptAfterExpiry` are deleted. */
export const sweepEvery = Duration.minutes(10)

const OptionRow = Schema.Struct({ option: Schema.String })

/**
 * The rows of booking_options as one text, a line each of handle, expiry (epoch ms) and the
 * option's JSON, split by tabs: one parameter for the statement to split, with nothing to escape
 * (JSON.stringify writes no raw tab or newline, a handle and a number hold none).
 */
export type OptionRows = string

/**
 * The ids of options and the rows that must be on record before they are handed out, without
 * touching the database; or (Left) what the first claims outside the schema fail with.
 */
export const mintOptions = (
  seal: (claims: OptionClaims, now: Date) => Result.Result<SealedOption, unknown>,
  key: KeyObject,
  claims: ReadonlyArray<OptionClaims>,
  now: Date
): Result.Result<{ readonly tokens: ReadonlyArray<SignedToken>; readonly rows: OptionRows }, unknown> => {
  const lines: Array<string> = []
  const tokens: Array<SignedToken> = []
  for (const one of claims) {
    const sealed = seal(one, now)
    if (Result.isFailure(sealed)) return Result.fail(sealed.failure)
    const { option, json } = sealed.success
    const { id, handle } = mintShortId(key, option.expiresAt)
    const expiresAt = new Date(option.expiresAt)
    lines.push(`${handle}\t${option.expiresAt}\t${json}`)
    tokens.push({ token: id, expiresAt })
  }
  return Result.succeed({ tokens, rows: lines.join("\n") })
}

/** A search waiting for its rows to be written: settled once, by the batch that wrote them. */
class Waiter {
  abandoned = false
  private outcome: Exit.Exit<void, SqlError> | undefined
  private resume: ((effect: Effect.Effect<void, SqlError>) => void) | undefined
  constructor(
    readonly rows: OptionRows,
    readonly deadline: number | undefined
  ) {}
  listen(resume: (effect: Effect.Effect<void, SqlError>) => void) {
    if (this.outcome === undefined) this.resume = resume
    else resume(this.outcome)
  }
  settle(outcome: Exit.Exit<void, SqlError>) {
    if (this.outcome !== undefined) return
    this.outcome = outcome
    const resume = this.resume
    this.resume = undefined
    resume?.(outcome)
  }
  abandon() {
    this.abandoned = true
    this.resume = undefined
  }
}

/** The batch's bound: the latest of its searches' deadlines; none when one has none. */
const latestDeadline = (batch: ReadonlyArray<Waiter>): number | undefined => {
  let latest = Number.NEGATIVE_INFINITY
  for (const { deadline } of batch) {
    if (deadline === undefined) return undefined
    if (deadline > latest) latest = deadline
  }
  return latest
}

/** The key that tags short ids, from the signing key; none without one. */
export const shortIdKeys = (signer: {
  readonly derivedSecrets: (label: string) => ReadonlyArray<{ readonly secret: Buffer }>
}) => signer.derivedSecrets(shortIdKeyLabel).map(({ secret }) => createSecretKey(secret))

/**
 * The options a search hands out, stored by the handle of their short id (src/Shared/OptionIds.ts),
 * so an id is 46 characters however much the option says, and any instance on the database
 * confirms it. The id's tag is made with a key derived from the first signing key and checked
 * against every key's, so a rotation keeps what was handed out before it; long `o1` ids, which
 * carry their option themselves, are read as OptionSigner reads them.
 */
export class BookingOptions extends Context.Service<BookingOptions>()("Booking/BookingOptions", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const signer = yield* OptionSigner
    const keys = shortIdKeys(signer)
    const signing = keys[0]
    // A batch is written with the layer's services, never within a caller's transaction.
    const services = yield* Effect.context<never>()

    const insertRows = (rows: OptionRows) =>
      sql`INSERT INTO booking_options (id, expires_at, option)
        SELECT p[1], to_timestamp(p[2]::bigint / 1000.0), p[3]
        FROM (SELECT string_to_array(line, E'\t') AS p
          FROM unnest(string_to_array(${rows}, E'\n')) AS line) AS r`

    /**
     * Group commit: the rows of searches that arrive while a batch is being written wait for the
     * next one, written in one statement, so concurrent searches share a round trip and a commit.
     * With nothing in flight a search's rows are written at once (no timer on the way). Each
     * search waits for its own batch within its own budget; a batch runs in a fiber of its own
     * (a search that gives up does not cancel the others' statement), bounded by the latest
     * budget among its searches, and leaves out the rows of searches that have given up.
     */
    const queue: Array<Waiter> = []
    let flushing = false

    const settle = (batch: ReadonlyArray<Waiter>, exit: Exit.Exit<void, SqlError>) => {
      for (const waiter of batch) waiter.settle(exit)
    }

    let inFlight: ReadonlyArray<Waiter> = []

    const flushQueued: Effect.Effect<void> = Effect.suspend(() => {
      const batch = queue.splice(0).filter((waiter) => !waiter.abandoned)
      inFlight = batch
      if (batch.length === 0) {
        flushing = false
        return Effect.void
      }
      const rows = batch.length === 1 ? batch[0]!.rows : batch.map((waiter) => waiter.rows).join("\n")
      return insertRows(rows).pipe(
        Effect.provideService(DatabaseDeadline, latestDeadline(batch)),
        Effect.exit,
        Effect.flatMap((exit) => {
          settle(
            batch,
            Exit.isSuccess(exit) ? Exit.void : Exit.hasInterrupts(exit) ? Exit.fail(readTimeout()) : Exit.asVoid(exit)
          )
          return flushQueued
        })
      )
    })

    // Not expected (the fiber is detached, a statement's failure is its batch's answer), but should
    // the writer end any other way, no search may wait on it and the next one starts another.
    const flushAll = Effect.onExit(flushQueued, (exit) =>
      Exit.isSuccess(exit)
        ? Effect.void
        : Effect.sync(() => {
            flushing = false
            settle([...inFlight, ...queue.splice(0)], Exit.fail(readTimeout()))
          })
    )

    /** The rows on record, or the statement's failure; at most what is left of the request's budget. */
    const recorded = (rows: OptionRows): Effect.Effect<void, SqlError> =>
      Effect.withFiber((fiber) => {
        const left = budgetLeft(fiber)
        if (left <= 0) return Effect.fail(budgetSpent())
        const waiter = new Waiter(rows, fiber.getRef(DatabaseDeadline))
        queue.push(waiter)
        const waiting = Effect.callback<void, SqlError>((resume) => {
          waiter.listen(resume)
          return Effect.sync(() => waiter.abandon())
        })
        const bounded =
          left === Number.POSITIVE_INFINITY
            ? waiting
            : Effect.timeoutOrElse(waiting, {
                duration: Duration.millis(left),
                orElse: () => Effect.fail(readTimeout())
              })
        if (flushing) return bounded
        flushing = true
        // On the caller's clock, which its deadline is read on.
        const writing = Effect.provideContext(flushAll, Context.add(services, Clock.Clock, fiber.getRef(Clock.Clock)))
        return Effect.andThen(Effect.forkDetach(writing), bounded)
      })

    /**
     * Every option's id in order, its row written (with other searches' rows of the same moment)
     * before any id is answered: an id handed out is on record for every instance. The first
     * claims outside the schema die.
     */
    const issue = (
      claims: ReadonlyArray<OptionClaims>,
      now: Date
    ): Effect.Effect<ReadonlyArray<SignedToken>, SigningNotConfigured | SqlError> => {
      if (claims.length === 0) return Effect.succeed([])
      if (signing === undefined) return Effect.fail(signer.notConfigured)
      return Effect.suspend(() => {
        const issued = mintOptions(signer.seal, signing, claims, now)
        if (Result.isFailure(issued)) return Effect.die(issued.failure)
        return Effect.as(recorded(issued.success.rows), issued.success.tokens)
      })
    }

    /**
     * The option an id names, whether or not it has expired, as long as it is on record; the
     * caller decides what an expired one means (`hasExpired`). One of the id's text alone is
     * refused before any read.
     */
    const open = (
      id: string,
      now: Date
    ): Effect.Effect<Result.Result<SignedOption, OptionInvalid | OptionExpired>, SqlError | Schema.SchemaError> => {
      if (!isShortIdForm(id)) return Effect.succeed(signer.open(id))
      const checked = checkShortId(id, keys)
      if (checked._tag === "Malformed") return Effect.succeed(Result.fail(optionRefusals.malformed))
      if (checked._tag === "Altered") return Effect.succeed(Result.fail(optionRefusals.altered))
      return Effect.map(
        sql`SELECT option FROM booking_options WHERE id = ${checked.handle}`.pipe(rowsOf(OptionRow)),
        (rows): Result.Result<SignedOption, OptionInvalid | OptionExpired> => {
          const row = rows[0]
          if (row === undefined) {
            return Result.fail(
              hasExpired({ expiresAt: checked.expiresAt }, now) ? signer.expiredRefusal : optionRefusals.notOnRecord
            )
          }
          const option = claimsOf(row.option)
          return option === undefined || option.expiresAt !== checked.expiresAt
            ? Result.fail(optionRefusals.unreadable)
            : Result.succeed(option)
        }
      )
    }

    /** Deletes the rows past `keptAfterExpiry`, on the service's clock; a failure is logged and ridden out. */
    const sweep = Effect.flatMap(
      Clock.currentTimeMillis,
      (now) => sql`DELETE FROM booking_options WHERE expires_at < ${new Date(now - Duration.toMillis(keptAfterExpiry))}`
    ).pipe(
      Effect.asVoid,
      Effect.catchCause((cause) => logFailureWarning("booking option sweep failed", cause))
    )

    /** The option an unexpired id names, or the refusal a confirm would give it. */
    const verify = (id: string, now: Date) =>
      Effect.flatMap(open(id, now), (opened) =>
        Result.isFailure(opened)
          ? Effect.fail(opened.failure)
          : hasExpired(opened.success, now)
            ? Effect.fail(signer.expiredRefusal)
            : Effect.succeed(opened.success)
      )

    return { issue, open, verify, sweep } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(OptionSigner.Default))
}

/** The sweep of expired options: a pass at start and every `sweepEvery`, for as long as the server runs. */
export const BookingOptionSweepLive = Layer.effectDiscard(
  Effect.flatMap(BookingOptions, (options) =>
    options.sweep.pipe(Effect.repeat(Schedule.spaced(sweepEvery)), Effect.forkScoped)
  )
).pipe(Layer.provide(BookingOptions.Default))
