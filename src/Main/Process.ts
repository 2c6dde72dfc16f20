import { Effect, Layer, Logger, References } from "effect"
import { AppConfig } from "../AppConfig.js"
import { ToolDatabaseLive } from "../Database/Database.js"
import { batchedLines, jsonLogger, withLineFields } from "../Http/Logging.js"
import { reportStartFailure, runMain } from "./Run.js"

/**
 * LOG_FORMAT: `json` (one flat object per line, see jsonLogger) or `pretty`. The server logs to
 * stdout, which in JSON mode carries nothing else; the command-line tools log to stderr, so
 * their stdout holds only their result (a token, a list).
 */
export const LoggerLive = (to: "stdout" | "stderr") =>
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      Layer.mergeAll(
        Logger.layer([
          config.logFormat === "json"
            ? to === "stdout"
              ? batchedLines(process.stdout)
              : Logger.withConsoleError(jsonLogger)
            : to === "stderr"
              ? withLineFields(Logger.withConsoleError(Logger.formatSimple))
              : withLineFields(Logger.consolePretty())
        ]),
        Layer.succeed(References.MinimumLogLevel, "Info")
      )
    )
  ).pipe(Layer.catch(() => Layer.empty))

/**
 * Runs a command-line tool: `services` on the database of a running development server (or
 * DATABASE_URL), logs on stderr so stdout holds only the result, a failed start in one line.
 */
export const runTool = <A, E, R, E2>(
  program: Effect.Effect<A, E, R>,
  services: Layer.Layer<R, E2, Layer.Success<typeof ToolDatabaseLive> | AppConfig>
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
    { disableErrorReporting: true }
  )
