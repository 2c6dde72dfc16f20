import { Layer } from "effect"
import { MainLive } from "./Main/Launch.js"
import { reportStartFailure, runMain } from "./Main/Process.js"

runMain(Layer.launch(MainLive).pipe(reportStartFailure), { disableErrorReporting: true, disablePrettyLogger: true })
