import { Cause, Effect, Exit, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { HoldRequest } from "../../src/Domain/Hold.js"
import type { Partner } from "../../src/Domain/Partner.js"
import { Holds } from "../../src/Holds/Holds.js"

const decodeHold = Schema.decodeUnknownSync(HoldRequest)

/** A hold body for a signed option, decoded as the endpoint would decode it. */
export const holdRequest = (token: string, key: string, seconds?: number) =>
  decodeHold({
    booking_option_id: token,
    idempotency_key: key,
    ...(seconds === undefined ? {} : { hold_seconds: seconds })
  })

/** The Holds service reads the service's clock itself: run it with the clock standing at `now`. */
const at =
  (now: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.andThen(TestClock.setTime(now), effect).pipe(Effect.provide(TestClock.layer()))

export type HoldOutcome =
  | { readonly _tag: "Done"; readonly body: any }
  | { readonly _tag: "Rejected"; readonly code: string }
  | { readonly _tag: "Defect"; readonly cause: string }

const outcomeOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit): HoldOutcome => {
    if (Exit.isSuccess(exit)) return { _tag: "Done", body: exit.value }
    const failure = Cause.findErrorOption(exit.cause)
    return Option.isSome(failure)
      ? { _tag: "Rejected", code: (failure.value as { readonly _tag: string })._tag }
      : { _tag: "Defect", cause: Cause.pretty(exit.cause) }
  })

export const holdAt = (request: HoldRequest, who: Partner["Service"], now: number) =>
  outcomeOf(Effect.flatMap(Holds, (holds) => holds.hold(request, who)).pipe(at(now)))

export const releaseAt = (holdId: string, who: Partner["Service"], now: number) =>
  outcomeOf(Effect.flatMap(Holds, (holds) => holds.release(holdId, who)).pipe(at(now)))

export const describeHold = (outcome: HoldOutcome) =>
  outcome._tag === "Done" ? "done" : outcome._tag === "Rejected" ? outcome.code : `defect: ${outcome.cause}`

/**
 * What takes a provider's time at `now` by the calendar's rows: bookings and blocks not released,
 * and holds not released that have not run out, whether or not anything has freed them yet.
 */
export const takingTimeAt = (now: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      id: string
      kind: string
      providerId: string
      calendar: string
      slotStart: Date
      slotEnd: Date
    }>`
      SELECT id::text, kind, provider_id, calendar, lower(during) AS slot_start, upper(during) AS slot_end
      FROM calendar_bookings
      WHERE released_at IS NULL AND (expires_at IS NULL OR expires_at > ${new Date(now)})
      ORDER BY provider_id, lower(during)`
    return rows.map((row) => ({ ...row, start: row.slotStart.getTime(), end: row.slotEnd.getTime() }))
  }).pipe(Effect.orDie)
