import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { DatabaseUnavailable } from "../Domain/Errors.js"
import { failLogged } from "./FailureSummary.js"
import { writeOutcome } from "./Idempotency.js"

/** What an outage answer about a change may say, by how far the change got. */
export interface ChangeSteps {
  /** Never sent, or refused by PostgreSQL (a transaction rolled back): nothing changed. */
  readonly notChanged: string
  /** Sent with no answer: it may have been carried out, so the step never says it was not. */
  readonly unknown: string
}

// Both wrappers catch the SqlError of a generic channel `E`. TypeScript cannot narrow a type
// parameter by its tag (`Exclude<E, Extract<E, SqlError>>` is not `Exclude<E, SqlError>` to it),
// so each states its type once, which is what catchTag does at run time.

/**
 * A read's infrastructure failure: a logged 503 (`database_unavailable`, Retry-After). A read
 * changes nothing, so the step may say so.
 */
export const readUnavailable =
  (what: string, step: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError> | DatabaseUnavailable, R> =>
    Effect.catchTag(
      effect as Effect.Effect<A, SqlError, R>,
      "SqlError",
      failLogged(`${what} could not be read`, () => new DatabaseUnavailable({ safe_next_step: step }))
    ) as Effect.Effect<A, Exclude<E, SqlError> | DatabaseUnavailable, R>

/** A change's infrastructure failure: a logged 503 whose step says what is known of the change. */
export const changeUnavailable =
  (what: string, steps: ChangeSteps) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError> | DatabaseUnavailable, R> =>
    Effect.catchTag(effect as Effect.Effect<A, SqlError, R>, "SqlError", (error) =>
      failLogged(
        `${what} failed`,
        () =>
          new DatabaseUnavailable({
            safe_next_step: writeOutcome(error)._tag === "NotWritten" ? steps.notChanged : steps.unknown
          })
      )(error)
    ) as Effect.Effect<A, Exclude<E, SqlError> | DatabaseUnavailable, R>
