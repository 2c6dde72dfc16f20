import { DateTime, Duration, Effect, Metric, type Option, Random } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { notifications as notificationsTotal } from "../Http/Metrics.js"
import { logFailure } from "../Shared/FailureSummary.js"
import { DeliveryFailed, fail } from "./Delivery.js"
import type { makeEmail } from "./Email.js"
import type { ClaimedRow, OutboxRepo } from "./OutboxRepo.js"
import { makeAnnounce } from "./PartnerEvents.js"
import { makeProviderWebhook } from "./ProviderWebhook.js"

const ATTEMPT_TIMEOUT = Duration.seconds(20)
const FIRST_RETRY_MS = 30_000
const MAX_RETRY_MS = 30 * 60_000

/**
 * The wait after the `failedAttempts`-th failure: 30 s doubling up to 30 min, less up to a fifth
 * at random (`random` in [0, 1)) so rows that failed together do not retry together.
 */
export const retryDelayMs = (failedAttempts: number, random: number): number =>
  Math.round(Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_MS) * (1 - 0.2 * random))

/**
 * Claims due outbox rows (only the given ids when some), sends each through its channel and records
 * the outcome with the partner's event it causes. Never fails: what goes wrong is logged.
 */
export const makeDeliverDue = (outbox: OutboxRepo, email: Effect.Success<typeof makeEmail>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const sendWebhook = yield* makeProviderWebhook
    const announce = yield* makeAnnounce(outbox)

    const send = (row: ClaimedRow): Effect.Effect<void, DeliveryFailed> => {
      switch (row.channel) {
        case "email":
          return email.send(row)
        case "webhook":
          return sendWebhook(row)
        case "none":
        case "sandbox":
          return Effect.void
      }
    }

    const countOutcome = (row: ClaimedRow, outcome: string) =>
      Metric.update(Metric.withAttributes(notificationsTotal, { channel: row.channel, outcome }), 1)

    /** Sends one claimed row and records the outcome; never fails, and logs no personal data. */
    const attempt = (row: ClaimedRow) => {
      const log = { notification_id: row.id, topic: row.topic, role: row.recipientRole, channel: row.channel }
      const outcome = Effect.gen(function* () {
        // Channel-less and sandbox rows are never sent: one still pending is settled as skipped.
        if (row.channel === "none" || row.channel === "sandbox") {
          yield* outbox.recordSkipped(row)
          yield* countOutcome(row, "skipped")
          return yield* Effect.logInfo("notification skipped").pipe(Effect.annotateLogs({ ...log, outcome: "skipped" }))
        }
        const sent = yield* send(row).pipe(
          Effect.catchDefect(() => fail("unexpected error while sending")),
          Effect.timeoutOrElse({
            duration: ATTEMPT_TIMEOUT,
            orElse: () => Effect.fail(new DeliveryFailed({ reason: "timed out" }))
          }),
          Effect.result
        )
        if (sent._tag === "Success") {
          const now = yield* DateTime.nowAsDate
          yield* outbox.recordSent(row, now).pipe(
            Effect.flatMap((updated) => (updated.length > 0 ? announce(row, "sent", now) : Effect.void)),
            sql.withTransaction
          )
          yield* countOutcome(row, "sent")
          return yield* Effect.logInfo("notification sent").pipe(Effect.annotateLogs({ ...log, outcome: "sent" }))
        }
        const delayMs = retryDelayMs(row.attempts + 1, yield* Random.next)
        const now = yield* DateTime.nowAsDate
        const [updated] = yield* outbox.recordFailure(row, sent.failure.reason, delayMs, now).pipe(
          Effect.tap(([recorded]) => (recorded?.status === "failed" ? announce(row, "failed", now) : Effect.void)),
          sql.withTransaction
        )
        const gaveUp = updated?.status === "failed"
        yield* countOutcome(row, gaveUp ? "failed" : "retry")
        yield* Effect.logWarning(gaveUp ? "notification given up" : "notification attempt failed").pipe(
          Effect.annotateLogs({
            ...log,
            outcome: gaveUp ? "failed" : "retry",
            attempts: row.attempts + 1,
            reason: sent.failure.reason
          })
        )
      })
      return outcome.pipe(
        Effect.catchCause((cause) =>
          logFailure("notification outcome could not be recorded", cause).pipe(Effect.annotateLogs(log))
        ),
        Effect.withSpan("Notifier.attempt", { attributes: log })
      )
    }

    return (ids: Option.Option<ReadonlyArray<string>>) =>
      DateTime.nowAsDate.pipe(
        Effect.flatMap((now) => outbox.claim(ids, now)),
        Effect.flatMap((rows) => Effect.forEach(rows, attempt, { concurrency: "unbounded", discard: true })),
        Effect.catchCause((cause) => logFailure("notifications could not be claimed", cause))
      )
  })
