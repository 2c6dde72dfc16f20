import { it, makeMethods } from "@effect/vitest"

/**
 * Runs before every test file. `it.layer` from @effect/vitest assigns its block's `effect`,
 * `scoped` and `layer` onto the one shared `it`, and leaves them there: with files sharing a
 * fork's modules (isolate: false), the next file's `it.effect` ran in the last file's (closed)
 * layer, and its `it.layer` nested its server inside the last file's one, built on that file's
 * configuration and test clock. Each file starts from the plain methods again.
 */
makeMethods(it)
