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
    ) as never

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
    ) as never
