import { Context, Duration, Effect, Fiber, Layer, Option, Result } from "effect"
import { AppConfig } from "../AppConfig.js"
import { Partners } from "../Partners/Partners.js"

export interface ReadinessReport {
  /** What stops the service from doing its job: any of these and it is not ready. */
  readonly problems: ReadonlyArray<string>
  /** What is missing without stopping searches and bookings. */
  readonly warnings: ReadonlyArray<string>
}

/** However the database behaves, /readyz answers within this. */
export const readinessTimeout = Duration.seconds(2)

/**
 * Whether this instance can do its main job: search, confirm and hand on requests. The database
 * must answer; in production there must be a signing key (else every search is 503), an API
 * token (else every authenticated call is 503) and SMTP (else customers, and providers without
 * a webhook, never hear of a booking). Tokens are read from the database on every check, so a
 * partner token issued after the start makes the instance ready without a restart.
 */
export class Readiness extends Context.Service<Readiness>()("Booking/Readiness", {
  make: Effect.gen(function* () {
    const config = yield* AppConfig
    const partners = yield* Partners
    const production = config.appEnv === "production"

    const check = Effect.gen(function* () {
      const problems: Array<string> = []
      const warnings: Array<string> = []
      // One round trip answers both whether the database is there and whether tokens are.
      // The answer does not wait for an abandoned query to be cancelled: the query runs on a fiber
      // of its own, which a timeout interrupts without waiting for it.
      const query = yield* Effect.forkDetach(partners.liveTokens)
      const issued = yield* Fiber.join(query).pipe(
        Effect.timeoutOrElse({
          duration: readinessTimeout,
          orElse: () => Effect.andThen(Effect.forkDetach(Fiber.interrupt(query)), Effect.fail("timeout" as const))
        }),
        Effect.result
      )
      if (Result.isFailure(issued)) {
        problems.push(
          issued.failure === "timeout"
            ? `database: no answer within ${Duration.format(readinessTimeout)}`
            : "database: does not accept queries"
        )
      }
      const tokens = config.apiTokens.length + (Result.isSuccess(issued) ? issued.success.length : 0)
      const noTokens = Result.isSuccess(issued) && tokens === 0
      if (production && config.optionSigningKeys.length === 0) {
        problems.push("BOOKING_OPTION_SIGNING_KEYS is not set: every search answers 503 signing_not_configured")
      }
      if (noTokens) {
        const gap =
          "no API token: set SERVICE_REQUESTS_API_TOKENS or issue a partner token (npm run partner -- token:issue)"
        if (production) problems.push(`${gap}; every confirm, status and request answers 503 auth_not_configured`)
        else warnings.push(`${gap}; calls pass as the anonymous partner`)
      }
      if (Option.isNone(config.smtpUrl)) {
        const gap = "SMTP_URL is not set: customers, and providers without a webhook, get no e-mail"
        if (production) problems.push(gap)
        else warnings.push(gap)
      }
      if (production && Option.isNone(config.metricsToken)) {
        warnings.push("METRICS_TOKEN is not set: /metrics is not served")
      }
      return { problems, warnings } satisfies ReadinessReport
    }).pipe(Effect.withSpan("Readiness.check"))

    // The start log says once what /readyz will say.
    const atStart = yield* check
    if (atStart.problems.length > 0) {
      yield* Effect.logWarning(`not ready: ${atStart.problems.join("; ")}`)
    } else {
      yield* Effect.logInfo(
        atStart.warnings.length > 0 ? `ready, though ${atStart.warnings.join("; ")}` : "ready: nothing missing"
      )
    }

    return { check } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([Partners.Default]))
}
