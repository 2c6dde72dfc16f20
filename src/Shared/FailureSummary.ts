import { Cause, Effect } from "effect"

/**
 * What may be logged of a failure: its kind and its codes (SQLSTATE, errno), never its
 * message, query, parameters or detail, which can quote the values that were sent: a
 * rejected JSON document comes back from PostgreSQL with the customer's name in it.
 */
export const failureSummary = (failure: unknown): Record<string, string> => {
  const error = Cause.isCause(failure) ? Cause.squash(failure) : failure
  const summary: Record<string, string> = {}
  if (typeof error !== "object" || error === null) {
    summary.error = typeof error === "string" ? error : typeof error
    return summary
  }
  const tagged = error as { readonly _tag?: unknown; readonly name?: unknown; readonly cause?: unknown }
  summary.error =
    typeof tagged._tag === "string" ? tagged._tag : typeof tagged.name === "string" ? tagged.name : "Error"
  // The code sits on the error, its cause, or (Effect 4's SqlError: reason, then the driver's
  // error) its cause's cause.
  let code: unknown = (error as { readonly code?: unknown }).code
  for (let inner: unknown = tagged.cause, depth = 0; code === undefined && depth < 3; depth++) {
    if (typeof inner !== "object" || inner === null) break
    const candidate = (inner as { readonly code?: unknown }).code
    if (typeof candidate === "string") code = candidate
    inner = (inner as { readonly cause?: unknown }).cause
  }
  if (typeof code === "string" && /^[A-Z0-9_]{1,32}$/.test(code)) {
    summary[/^[0-9A-Z]{5}$/.test(code) && !code.startsWith("E") ? "sql_state" : "code"] = code
  }
  if (Cause.isCause(failure) && Cause.hasInterruptsOnly(failure)) summary.error = "Interrupted"
  return summary
}

/** Logs a failure at error level with only its summary. */
export const logFailure = (message: string, failure: unknown) =>
  Effect.logError(message).pipe(Effect.annotateLogs(failureSummary(failure)))

/** The same at warning level, for failures the service rides out. */
export const logFailureWarning = (message: string, failure: unknown) =>
  Effect.logWarning(message).pipe(Effect.annotateLogs(failureSummary(failure)))

/**
 * The one way an infrastructure failure leaves a service: logged with only its summary, then
 * answered with `error`, a domain error whose status (503) and safe_next_step say what is known.
 */
export const failLogged =
  <E>(message: string, error: () => E) =>
  (cause: unknown): Effect.Effect<never, E> =>
    Effect.andThen(logFailure(message, cause), Effect.failSync(error))
