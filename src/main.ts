import { Layer } from "effect"
import { MainLive, reportStartFailure, runMain } from "./Main/Launch.js"

runMain(Layer.launch(MainLive).pipe(reportStartFailure), { disableErrorReporting: true, disablePrettyLogger: true })
