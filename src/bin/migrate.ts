import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"
import { ToolDatabaseLive } from "../Database.js"
import { reportStartFailure } from "../Main/Launch.js"

const program = Effect.logInfo("database schema is up to date")

NodeRuntime.runMain(
  program.pipe(Effect.provide(ToolDatabaseLive.pipe(Layer.provide(AppConfig.Default))), reportStartFailure),
  { disableErrorReporting: true }
)
