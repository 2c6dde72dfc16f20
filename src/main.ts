import { enableCompileCache } from "node:module"
import { Effect, Layer, Option } from "effect"
import { AppConfig } from "./AppConfig.js"
import { reportStartFailure, runMain } from "./Main/Run.js"

// V8 keeps the code it compiles for each module (in the system's temporary directory), so a second
// start reads the server's modules' code instead of compiling it again: about a tenth of the
// start's CPU. Where it cannot be kept (a read-only disk), nothing changes.
enableCompileCache()

/**
 * The configuration (AppConfig.Default) is read before the server's modules are imported: a
 * start it refuses is decided without loading HTTP, the database and the domain, which under
 * tsx is more than a second of CPU. The server then runs on that same configuration. Without a
 * DATABASE_URL the embedded PostgreSQL is started first and comes up while the modules load
 * (startEarly); the database layer takes it over.
 */
const main = Effect.gen(function* () {
  const config = yield* AppConfig
  if (Option.isNone(config.databaseUrl)) {
    const { startEarly } = yield* Effect.promise(() => import("./Database/EmbeddedPostgres.js"))
    startEarly(config.dataDir)
  }
  const { ServerLive } = yield* Effect.promise(() => import("./Main/Launch.js"))
  return yield* Layer.launch(ServerLive)
}).pipe(Effect.provide(AppConfig.Default))

runMain(main.pipe(reportStartFailure), { disableErrorReporting: true })
