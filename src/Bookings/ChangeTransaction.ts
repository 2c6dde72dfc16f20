import { Cause, Data, Effect, Option } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import type { BookingUnavailable } from "../Domain/Booking.js"
import { type IdempotencyScope, type OutageSteps, persistenceUnavailable, writeOutcome } from "../Shared/Idempotency.js"

/** The key's claim met a committed key of a concurrent attempt: replay it after the rollback. */
export class LostClaim extends Data.TaggedError("LostClaim")<{}> {}

/** A statement inside the change's transaction failed: the transaction rolled back, nothing was written. */
class RolledBack extends Data.TaggedError("RolledBack")<{ readonly cause: SqlError.SqlError }> {}

/**
 * Runs a change of a booking in one transaction, its database failures told by how far it got: a
 * statement's failure inside it rolled everything back (nothing written); only the commit itself
 * can leave the outcome unknown.
 */
export const inOneTransaction = <A, E>(
  sql: SqlClient.SqlClient,
  scope: IdempotencyScope,
  steps: OutageSteps,
  body: Effect.Effect<A, E>
): Effect.Effect<A, Exclude<E, SqlError.SqlError> | BookingUnavailable> =>
  sql
    .withTransaction(
      Effect.mapError(body, (error) => (SqlError.isSqlError(error) ? new RolledBack({ cause: error }) : error))
    )
    .pipe(
      Effect.catchCause((cause): Effect.Effect<never, Exclude<E, SqlError.SqlError> | BookingUnavailable> => {
        const failure = Cause.findErrorOption(cause)
        if (Option.isSome(failure)) {
          const error: unknown = failure.value
          if (error instanceof RolledBack) return persistenceUnavailable(scope, steps.notWritten)(error.cause)
          if (!SqlError.isSqlError(error)) return Effect.fail(error as Exclude<E, SqlError.SqlError>)
          const unknown = writeOutcome(error)._tag !== "NotWritten"
          return persistenceUnavailable(scope, unknown ? steps.commitUnknown : steps.notWritten)(error)
        }
        // The body failed and its ROLLBACK failed too (the connection is gone): the SQL client
        // turns both into defects. COMMIT was never sent, and PostgreSQL drops an uncommitted
        // transaction with its session: nothing was written, whatever the body's failure was.
        const rollbackFailed = cause.reasons.some(
          (reason) => Cause.isDieReason(reason) && SqlError.isSqlError(reason.defect)
        )
        return rollbackFailed
          ? persistenceUnavailable(scope, steps.notWritten)(cause)
          : Effect.failCause(cause as Cause.Cause<never>)
      })
    )
