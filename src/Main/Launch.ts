import { Duration, Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"
import { DatabaseLive } from "../Database/Database.js"
import { HttpLive } from "../Http.js"
import { LoggerLive } from "./Process.js"

/** What stopping may take beyond the grace period: the pool, the embedded PostgreSQL, the logs. */
const stopBudget = Duration.seconds(20)

/**
 * Built last, so released first: from the moment stopping begins, a process whose finalizers
 * overrun the grace period plus the stop budget exits anyway instead of hanging.
 */
const StopDeadlineLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const { shutdownGraceMs } = yield* AppConfig
    const deadline = Duration.sum(Duration.millis(shutdownGraceMs), stopBudget)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() =>
        setTimeout(() => {
          process.stderr.write(`stopping took longer than ${Duration.format(deadline)}; exiting now\n`)
          process.exit(1)
        }, Duration.toMillis(deadline)).unref()
      )
    )
  })
)

/** The server on a configuration already read: src/main.ts reads it before importing this module. */
export const ServerLive = StopDeadlineLive.pipe(
  Layer.provide(HttpLive),
  Layer.provide(DatabaseLive),
  Layer.provide(LoggerLive("stdout"))
)
