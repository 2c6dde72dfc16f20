import { setFlagsFromString } from "node:v8"
import { Cause, Config, Console, Effect, Exit, Schema } from "effect"
import { makeRunMain } from "effect/Runtime"
import { issuesOf } from "../Domain/Issues.js"

// Apart from Process.ts, which imports the database: src/main.ts runs a start through these
// before it has imported any of the server's modules (see there).

/**
 * V8 lets the heap grow up to four times what survived the last full collection before the next
 * one, and under load a request's garbage survives the young generation: a server with ~70 MB
 * live reached 400-530 MB RSS. Half again as much is as fast per request and stays near 230 MB.
 * The flag is read at each collection, so setting it here works; one given to node is kept.
 */
const heapGrowingPercent = 50

const boundHeapGrowth = () => {
  if (!process.execArgv.some((flag) => flag.startsWith("--heap-growing-percent"))) {
    setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`)
  }
}

/**
 * NodeRuntime.runMain, except for what a process manager or a terminal does with signals: the
 * first SIGINT or SIGTERM starts an orderly stop and later ones are ignored (Ctrl-C under
 * `npm start` arrives twice, from the terminal and forwarded by npm), where the platform's
 * version would let the second one kill the process halfway, leaving its PostgreSQL behind. It
 * also bounds the heap's growth (boundHeapGrowth), for the server and the CLIs alike.
 */
export const runMain = makeRunMain(({ fiber, teardown }) => {
  boundHeapGrowth()
  const keepAlive = setInterval(() => {}, 2 ** 31 - 1)
  let stopping = false
  const onSignal = () => {
    if (stopping) return
    stopping = true
    fiber.interruptUnsafe()
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  fiber.addObserver((exit) => {
    clearInterval(keepAlive)
    // An orderly stop (the fiber interrupted by a signal) exits 0, so a supervisor does not count it
    // a crash; Effect's default teardown would exit 130.
    if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) process.exit(0)
    teardown(exit, (code) => process.exit(code))
  })
})

/**
 * An error's message and those of what caused it ("PgConnection: Socket error: Query read timeout"),
 * skipping empty ones (a ServeError's own is empty).
 */
export const describeFailure = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined
  const cause = describeFailure((error as { cause?: unknown }).cause)
  if (error.message.length === 0) return cause ?? error.name
  return cause === undefined || error.message.includes(cause) ? error.message : `${error.message}: ${cause}`
}

/** What is wrong with the configuration, in one line naming the variable. */
const configProblem = (error: Config.ConfigError) =>
  Schema.isSchemaError(error.cause)
    ? issuesOf(error.cause.issue)
        .map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`)
        .join("; ")
    : error.cause.message

/** A start that fails says why in one line an operator can act on, then exits non-zero. */
export const reportStartFailure = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.tapCause(self, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.void
    const error = Cause.squash(cause)
    return error instanceof Config.ConfigError
      ? Console.error(`Invalid configuration: ${configProblem(error)}`)
      : Console.error(describeFailure(error) ?? Cause.pretty(cause))
  })
