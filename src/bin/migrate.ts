import { Effect, Layer } from "effect"
import { runTool } from "../Main/Process.js"

const program = Effect.logInfo("database schema is up to date")

runTool(program, Layer.empty)
