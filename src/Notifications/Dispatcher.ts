import { Duration, Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"
import { Notifier } from "./Notifier.js"

/**
 * The outbox dispatcher: a pass every NOTIFY_POLL_MS on the service's clock, for as long as the
 * server runs. The first pass waits one interval too, so it never races a deliverNow right after start.
 * It drives the notifier the composition gives it (Bookings/NotifierLive.ts), the handlers' own.
 */
export const NotificationDispatcherLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const notifier = yield* Notifier
    const config = yield* AppConfig
    yield* Effect.sleep(Duration.millis(config.notifyPollMs)).pipe(
      Effect.andThen(notifier.dispatch),
      Effect.forever,
      Effect.forkScoped
    )
  })
)
