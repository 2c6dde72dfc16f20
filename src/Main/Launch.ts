import { Cause, ConfigError, Console, Effect, Layer, Logger, LogLevel } from "effect"
import { AppConfig } from "../AppConfig.js"
import { DatabaseLive } from "../Database.js"
import { HttpLive } from "../Http.js"

const LoggerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Layer.mergeAll(config.logFormat === "json" ? Logger.json : Logger.pretty, Logger.minimumLogLevel(LogLevel.Info))
  )
).pipe(Layer.catchAll(() => Layer.empty))

export const MainLive = HttpLive.pipe(
  Layer.provide(DatabaseLive),
  Layer.provide(LoggerLive),
  Layer.provide(AppConfig.Default)
)

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
