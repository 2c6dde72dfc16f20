const second = 1_000
const minute = 60 * second
const hour = 60 * minute
const day = 24 * hour

/**
 * Delay before attempt n+1 (index n = attempts so far): the Standard Webhooks example, at once,
 * then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, about three days in all.
 */
export const retryDelaysMs: ReadonlyArray<number> = [
  0,
  5 * second,
  5 * minute,
  30 * minute,
  2 * hour,
  5 * hour,
  10 * hour,
  14 * hour,
  20 * hour,
  24 * hour
]

/** An endpoint that has failed every attempt for this long is disabled until its partner turns it on again. */
export const disableAfterMs = 5 * day

/** Up to a tenth of the delay is added, never taken off, so the schedule stays a floor while endpoints that failed together spread out. */
const jitterShare = 0.1

export type NextAttempt = { readonly kind: "retry"; readonly at: Date } | { readonly kind: "give_up" }

export interface JitterOptions {
  /** `false` for exact times (tests). */
  readonly jitter?: boolean
  /** A draw in [0, 1); Math.random by default. */
  readonly random?: () => number
}

/** When to make the next attempt at one message, given how many were made (0 before the first). */
export const nextAttempt = (attemptsSoFar: number, now: Date, options: JitterOptions = {}): NextAttempt => {
  const delay = retryDelaysMs[attemptsSoFar]
  if (delay === undefined) return { kind: "give_up" }
  const draw = options.jitter === false ? 0 : (options.random ?? Math.random)()
  return { kind: "retry", at: new Date(now.getTime() + Math.round(delay * (1 + jitterShare * draw))) }
}

/**
 * Whether an endpoint should be disabled: `failingSince` is its first failure with no success
 * after it (null while its last attempt succeeded).
 */
export const shouldDisableEndpoint = (failingSince: Date | null, now: Date): boolean =>
  failingSince !== null && now.getTime() - failingSince.getTime() >= disableAfterMs
