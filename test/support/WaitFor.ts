import { Effect } from "effect"
import { vi } from "vitest"

/**
 * Retries `effect` until `check` passes, for what a background fibre or another process does in
 * its own time (vi.waitFor's polling, with its timeout as the only bound).
 */
export const waitFor = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => void) =>
  Effect.flatMap(Effect.context<R>(), (runtime) =>
    Effect.promise(() =>
      vi.waitFor(() => Effect.runPromiseWith(runtime)(effect).then(check), { timeout: 10_000, interval: 50 })
    )
  )
