import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { DatabaseUnavailable } from "../Domain/Errors.js"
import { failLogged } from "../Http/FailureSummary.js"

const databaseDown = (what: string) =>
  failLogged(
    `provider ${what} failed`,
    () =>
      new DatabaseUnavailable({
        safe_next_step: `The database does not answer, so nothing was ${what === "read" ? "read" : "changed"}. Try again in a moment.`
      })
  )

/** Infrastructure failures of a provider endpoint: a logged 503 that says nothing changed. */
export const orUnavailable =
  (what: string) =>
  <A, E, R>(
    effect: Effect.Effect<A, E | SqlError, R>
  ): Effect.Effect<A, Exclude<E, SqlError> | DatabaseUnavailable, R> =>
    Effect.catchTag(effect as Effect.Effect<A, SqlError, R>, "SqlError", databaseDown(what)) as never
