import { Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"
import { ToolDatabaseLive } from "../Database.js"
import { LoggerLive, reportStartFailure, runMain } from "../Main/Process.js"

const program = Effect.logInfo("database schema is up to date")

runMain(
  program.pipe(
    Effect.provide(ToolDatabaseLive.pipe(Layer.provideMerge(LoggerLive("stderr")), Layer.provide(AppConfig.Default))),
    reportStartFailure
  ),
  { disableErrorReporting: true, disablePrettyLogger: true }
)
