import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { MainLive, reportStartFailure } from "./Main/Launch.js"

NodeRuntime.runMain(Layer.launch(MainLive).pipe(reportStartFailure), {
  disableErrorReporting: true,
  disablePrettyLogger: true
})
