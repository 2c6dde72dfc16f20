import { setFlagsFromString } from "node:v8"
import { makeRunMain } from "@effect/platform/Runtime"
import { Cause, ConfigError, Console, Effect, Layer, Logger, LogLevel } from "effect"
import { AppConfig } from "../AppConfig.js"
import { ToolDatabaseLive } from "../Database.js"
import { batchedLines, jsonLogger } from "../Logging.js"

/**
 * LOG_FORMAT: `json` (one flat object per line, see jsonLogger) or `pretty`. The server logs to
 * stdout, which in JSON mode carries nothing else; the command-line tools log to stderr, so
 * their stdout holds only their result (a token, a list).
 */
export const LoggerLive = (to: "stdout" | "stderr") =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      Layer.mergeAll(
        Logger.replace(
          Logger.defaultLogger,
          config.logFormat === "json"
            ? to === "stdout"
              ? batchedLines(process.stdout)
              : Logger.withConsoleError(jsonLogger)
            : Logger.prettyLogger({ stderr: to === "stderr" })
        ),
        Logger.minimumLogLevel(LogLevel.Info)
      )
    )
  ).pipe(Layer.catchAll(() => Layer.empty))

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
    fiber.unsafeInterruptAsFork(fiber.id())
  }
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
  fiber.addObserver((exit) => {
    clearInterval(keepAlive)
    teardown(exit, (code) => process.exit(code))
  })
})

/** The most specific message of an error or of what caused it (a ServeError's own is empty). */
const describe = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined
  if (error.message.length > 0) return error.message
  return describe((error as { cause?: unknown }).cause) ?? error.name
}

/** A start that fails says why in one line an operator can act on, then exits non-zero. */
export const reportStartFailure = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.tapErrorCause(self, (cause) => {
    if (Cause.isInterruptedOnly(cause)) return Effect.void
    const error = Cause.squash(cause)
    return ConfigError.isConfigError(error)
      ? Console.error(`Invalid configuration: ${String(error)}`)
      : Console.error(describe(error) ?? Cause.pretty(cause))
  })

/**
 * Runs a command-line tool: `services` on the database of a running development server (or
 * DATABASE_URL), logs on stderr so stdout holds only the result, a failed start in one line.
 */
export const runTool = <A, E, R, E2>(
  program: Effect.Effect<A, E, R>,
  services: Layer.Layer<R, E2, Layer.Layer.Success<typeof ToolDatabaseLive> | AppConfig>
) =>
  runMain(
    program.pipe(
      Effect.provide(
        services.pipe(
          Layer.provideMerge(ToolDatabaseLive),
          Layer.provideMerge(LoggerLive("stderr")),
          Layer.provide(AppConfig.Default)
        )
      ),
      reportStartFailure
    ),
    { disableErrorReporting: true, disablePrettyLogger: true }
  )
