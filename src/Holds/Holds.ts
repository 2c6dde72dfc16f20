import { randomUUID } from "node:crypto"
import { Cause, Clock, Context, Data, Duration, Effect, Layer, Option, Result, Schedule } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlErrorModule from "effect/sql/SqlError"
import { AppConfig } from "../AppConfig.js"
import { Bookings } from "../Bookings/Bookings.js"
import { type BookingUnavailable, SlotTaken } from "../Domain/Booking.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { IdempotencyKeyReused } from "../Domain/Errors.js"
import type {
  HoldReleaseResponse,
  HoldRequest,
  HoldResponse,
  HoldStatusResponse,
  TooManyHolds
} from "../Domain/Hold.js"
import { isUuid } from "../Domain/Ids.js"
import { slotLabel } from "../Domain/Labels.js"
import { anonymousPartnerId, type Partner } from "../Domain/Partner.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { knownTimeZone } from "../Domain/Zone.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar, calendarOf } from "../Shared/Calendar.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import { HoldsRepo, isLive, type StoredHold } from "../Shared/HoldsRepo.js"
import { Idempotency, persistenceUnavailable, requestHash, requiredKeyOf, sqlStateOf } from "../Shared/Idempotency.js"
import { hasExpired, OptionSigner } from "../Shared/OptionSigner.js"
import { alreadyHeld, holdNotFound, holdOf, holdStep, tooManyHolds } from "./Steps.js"

/** The key's claim met a committed twin: replay it after the rollback. */
class LostClaim extends Data.TaggedError("LostClaim")<{}> {}

const outage =
  "The database does not answer, so it is not known whether the hold was made. Nothing is booked either way. Retry the same request with the same idempotency_key in a moment: it returns the hold if it was made, and holds the time once if it was not."

const readOutage =
  "The hold cannot be read right now because the database does not answer; this says nothing about the hold. Nothing is booked by a hold. Retry in a moment."

/**
 * Short holds of a searched option's time, in the calendar's no-overlap constraint: what an
 * assistant takes before it asks the person for their details and consent. Each method takes the
 * decoded body and the partner, counts against the partner's confirm limit where it writes, and
 * reads the service's clock itself, so REST and MCP call it alike.
 */
export class Holds extends Context.Service<Holds>()("Booking/Holds", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const calendar = yield* Calendar
    const repo = yield* HoldsRepo
    const bookings = yield* Bookings
    const signer = yield* OptionSigner
    const bookingOptions = yield* BookingOptions
    const idempotency = yield* Idempotency
    const limiter = yield* RateLimiter
    const clock = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
    const unavailable = persistenceUnavailable("hold", outage)

    const capOf = (partner: Partner["Service"]) =>
      partner.id === anonymousPartnerId ? config.holdMaxActiveAnonymous : config.holdMaxActivePerPartner

    const answer = (stored: StoredHold, replay: boolean, at: Date, surface: Surface): HoldResponse => ({
      ok: true,
      spec_version: bookingsSpecVersion,
      hold: holdOf(stored, at),
      booking_created: false,
      availability_checked: true,
      provider_selected: false,
      idempotent_replay: replay,
      safe_next_step: holdStep(stored, at, surface)
    })

    const replayOf = (
      partner: Partner["Service"],
      stored: { readonly requestHash: string; readonly resourceId: string },
      hash: string,
      at: Date,
      surface: Surface
    ) =>
      Effect.gen(function* () {
        const found = yield* repo.find(partner.id, stored.resourceId).pipe(Effect.catch(unavailable))
        if (Option.isNone(found)) return yield* unavailable("idempotency key without its hold")
        if (stored.requestHash !== hash) {
          return yield* new IdempotencyKeyReused({
            issues: ["idempotency_key: already holds another hold (another option or hold_seconds)"],
            safe_next_step: `This idempotency_key already made hold ${found.value.id}; this call held nothing new. Use that hold, or send a new idempotency_key for another option.`
          })
        }
        return answer(found.value, true, at, surface)
      })

    const write = (
      partner: Partner["Service"],
      key: string,
      hash: string,
      hold: StoredHold,
      at: Date,
      surface: Surface
    ) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const live = yield* repo.lockAndCount(partner.id, at)
            yield* sql`INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
              VALUES (${partner.id}, 'hold', ${key}, ${hash}, ${hold.id}::uuid)`.pipe(
              Effect.catchIf(
                (error) => sqlStateOf(error) === "23505",
                () => Effect.fail(new LostClaim())
              )
            )
            const mine = yield* repo.latestOn(partner.id, hold)
            if (Option.isSome(mine) && isLive(mine.value, at)) return yield* alreadyHeld(mine.value, surface)
            const cap = capOf(partner)
            if (live >= cap) return yield* tooManyHolds(cap, surface)
            yield* calendar
              .hold({
                id: hold.id,
                providerId: hold.providerId,
                serviceId: hold.serviceId,
                slotStart: hold.slotStart,
                slotEnd: hold.slotEnd,
                calendar: calendarOf(partner),
                expiresAt: hold.expiresAt,
                at
              })
              .pipe(
                Effect.catchIf(
                  (error) => ["23P01", "40P01", "40001"].includes(sqlStateOf(error) ?? ""),
                  () =>
                    Effect.fail(
                      new SlotTaken({
                        option_refresh_required: true,
                        issues: ["booking_option_id: the time is booked or held by someone else"],
                        safe_next_step: `Nothing was held or booked: the time was just taken or is held by someone else. Search again (${surface.search}) and offer the user the new options.`
                      })
                    )
                )
              )
            yield* repo.insertion(hold)
          })
        )
        .pipe(
          Effect.catchCause(
            (cause): Effect.Effect<never, BookingUnavailable | SlotTaken | TooManyHolds | LostClaim> => {
              const failure = Cause.findErrorOption(cause)
              if (Option.isSome(failure)) {
                const error = failure.value
                return SqlErrorModule.isSqlError(error) ? unavailable(error) : Effect.fail(error)
              }
              return unavailable(cause)
            }
          )
        )

    const hold = Effect.fnUntraced(function* (
      request: HoldRequest,
      partner: Partner["Service"],
      headerKey?: string | undefined
    ) {
      const surface = yield* CurrentSurface
      const key = yield* requiredKeyOf(request.idempotency_key, headerKey)
      yield* limiter.byPartner("confirm", partner.id)
      const at = yield* clock
      const hash = requestHash({
        booking_option_id: request.booking_option_id,
        hold_seconds: request.hold_seconds ?? null
      })
      const existing = yield* idempotency.find(partner.id, "hold", key).pipe(Effect.catch(unavailable))
      if (Option.isSome(existing)) return yield* replayOf(partner, existing.value, hash, at, surface)
      const opened = yield* bookingOptions.open(request.booking_option_id, at).pipe(Effect.catch(unavailable))
      if (Result.isFailure(opened)) return yield* Effect.fail(opened.failure)
      const option = opened.success
      if (hasExpired(option, at)) return yield* Effect.fail(signer.expiredRefusal)
      yield* bookings.revalidate(option, surface).pipe(Effect.catchTag("SqlError", unavailable))
      const timeZone = knownTimeZone(option.timeZone)
      const stored: StoredHold = {
        id: randomUUID(),
        partnerId: partner.id,
        sandbox: partner.sandbox,
        status: "active",
        bookingOptionId: request.booking_option_id,
        providerId: option.providerId,
        serviceId: option.serviceId,
        slotStart: new Date(option.slotStart),
        slotEnd: new Date(option.slotEnd),
        slotLabel: slotLabel({ start: option.slotStart, end: option.slotEnd }, timeZone),
        timeZone,
        priceSek: option.amountSek,
        expiresAt: new Date(at.getTime() + (request.hold_seconds ?? config.holdTtlSeconds) * 1000),
        createdAt: at,
        releasedAt: null,
        bookingId: null,
        confirmedAt: null
      }
      const written = yield* write(partner, key, hash, stored, at, surface).pipe(
        Effect.as(true),
        Effect.catchTag("LostClaim", () => Effect.succeed(false))
      )
      if (written) return answer(stored, false, at, surface)
      const raced = yield* idempotency.find(partner.id, "hold", key).pipe(Effect.catch(unavailable))
      if (Option.isNone(raced)) return yield* unavailable("idempotency key vanished")
      return yield* replayOf(partner, raced.value, hash, at, surface)
    })

    const found = (holdId: string, partner: Partner["Service"]) =>
      isUuid(holdId)
        ? Effect.flatMap(repo.find(partner.id, holdId), (stored) =>
            Option.isSome(stored) ? Effect.succeed(stored.value) : Effect.fail(holdNotFound(holdId))
          )
        : Effect.fail(holdNotFound(holdId))

    /** The hold as it stands, read for an answer: an outage of this read says nothing about the hold. */
    const readForAnswer = (holdId: string, partner: Partner["Service"]) =>
      found(holdId, partner).pipe(Effect.catchTag("SqlError", persistenceUnavailable("hold", readOutage)))

    const status = Effect.fnUntraced(function* (holdId: string, partner: Partner["Service"]) {
      const surface = yield* CurrentSurface
      const at = yield* clock
      const stored = yield* readForAnswer(holdId, partner)
      const response: HoldStatusResponse = {
        ok: true,
        spec_version: bookingsSpecVersion,
        hold: holdOf(stored, at),
        safe_next_step: holdStep(stored, at, surface)
      }
      return response
    })

    /** Frees the time at once; a hold already ended answers as it stands (idempotent). */
    const release = Effect.fnUntraced(function* (holdId: string, partner: Partner["Service"]) {
      const surface = yield* CurrentSurface
      const at = yield* clock
      const released = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* found(holdId, partner)
            const ended = yield* repo.release(partner.id, holdId, at)
            if (ended) yield* calendar.releaseHold(holdId, at)
            return ended
          })
        )
        .pipe(Effect.catchTag("SqlError", persistenceUnavailable("hold", outage)))
      const stored = yield* readForAnswer(holdId, partner)
      const response: HoldReleaseResponse = {
        ok: true,
        spec_version: bookingsSpecVersion,
        hold: holdOf(stored, at),
        released,
        safe_next_step: released
          ? "The hold is released: the time is free for others again and nothing was booked. Tell the user nothing is booked."
          : holdStep(stored, at, surface)
      }
      return response
    })

    /** Frees the calendar time of every hold that has run out; holds never need it to stop blocking. */
    const sweep = Effect.flatMap(clock, (at) => Effect.asVoid(calendar.sweepHolds(at)))

    return { hold, status, release, sweep } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([
      Calendar.Default,
      HoldsRepo.Default,
      Bookings.Default,
      OptionSigner.Default,
      BookingOptions.Default,
      Idempotency.Default,
      RateLimiter.Default
    ])
  )
}

/**
 * The sweep of holds that have run out, every five minutes: nothing waits for it (every writer
 * frees the expired holds it meets, and reads skip them), it only keeps the calendar's rows tidy.
 */
export const HoldSweepLive = Layer.effectDiscard(
  Effect.flatMap(Holds, (holds) =>
    holds.sweep.pipe(
      Effect.catchCause((cause) => logFailureWarning("the hold sweep failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.minutes(5))),
      Effect.delay(Duration.minutes(5)),
      Effect.forkScoped
    )
  )
).pipe(Layer.provide(Holds.Default))
