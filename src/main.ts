import { Effect, Layer } from "effect"
import { AppConfig } from "./AppConfig.js"
import { reportStartFailure, runMain } from "./Main/Run.js"

/**
 * The configuration (AppConfig.Default) is read before the server's modules are imported: a
 * start it refuses is decided without loading HTTP, the database and the domain, which under
 * tsx is more than a second of CPU. The server then runs on that same configuration.
 */
const main = Effect.gen(function* () {
  const { ServerLive } = yield* Effect.promise(() => import("./Main/Launch.js"))
  return yield* Layer.launch(ServerLive)
}).pipe(Effect.provide(AppConfig.Default))

runMain(main.pipe(reportStartFailure), { disableErrorReporting: true })
