import { Context, Effect, Layer, Metric, Option, Result } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import type { BookingConfirmationRequest, BookingConfirmationResponse } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import type { Partner } from "../Domain/Partner.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { bookingConflicts, bookingsConfirmed } from "../Http/Metrics.js"
import { type DeliveryState, statesOrUnknown } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar } from "../Shared/Calendar.js"
import { HoldsRepo } from "../Shared/HoldsRepo.js"
import { Idempotency, persistenceUnavailable, requestHash, sqlStateOf } from "../Shared/Idempotency.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { Supply } from "../Supply/Supply.js"
import { confirmedFacts, confirmedStep, outageSteps } from "./Answers.js"
import { BookingsRepo } from "./BookingsRepo.js"
import { alreadyCancelled } from "./Cancellations.js"
import { newBookingIds } from "./Confirmation.js"
import {
  checkOffer,
  checkStamps,
  keyOf,
  offerQueryOf,
  type Prepared,
  type PrepareError,
  prepare
} from "./ConfirmChecks.js"
import { confirmReads, ReadAgain, readAgainState } from "./ConfirmRead.js"
import { confirmWrites } from "./ConfirmWrite.js"
import { confirmFingerprint } from "./Fingerprint.js"
import { type HeldOption, noHold, takenAfterHold } from "./HeldOption.js"
import { bookingList } from "./List.js"
import { NotifierLive } from "./NotifierLive.js"
import { commitUnknownStep, conflictTags, keyHolds, orAlreadyBooked, slotJustTaken } from "./Refusals.js"
import { bookingStatus } from "./Status.js"

/** Confirms options into durable bookings exactly once per key, and looks them up redacted. */
export class Bookings extends Context.Service<Bookings>()("Booking/Bookings", {
  make: Effect.gen(function* () {
    const calendar = yield* Calendar
    const supply = yield* Supply
    const bookings = yield* BookingsRepo
    const signer = yield* OptionSigner
    const bookingOptions = yield* BookingOptions
    const notifier = yield* Notifier
    const idempotency = yield* Idempotency
    const webhookOutbox = yield* WebhookOutbox
    const cursors = yield* ListCursor
    const holds = yield* HoldsRepo
    const sql = yield* SqlClient.SqlClient
    const { heldAndOffer, asRead } = confirmReads({ sql, supply, holds, expiredRefusal: signer.expiredRefusal })
    const book = confirmWrites({ calendar, notifier, webhookOutbox, bookings, holds })

    const deliveryStates = (subjectIds: ReadonlyArray<string>) => statesOrUnknown(notifier.statesOf(subjectIds))

    const respond = (
      stored: StoredBooking,
      states: Option.Option<ReadonlyArray<DeliveryState>>,
      replay: boolean,
      now: Date
    ): BookingConfirmationResponse => ({
      ...confirmedFacts(stored, states, now),
      idempotent_replay: replay,
      safe_next_step: confirmedStep(stored)
    })

    /** What changed on our side since the search: 409 with option_refresh_required. */
    const revalidate = (option: SignedOption, surface: Surface) =>
      Effect.flatMap(supply.currentOffer(offerQueryOf(option)), (offer) => checkOffer(option, surface, offer))

    // Confirm and status run without spans (Effect.fnUntraced): nothing exports traces, and a span
    // with Effect.fn's two captured stack traces cost every request more than the Effect steps around it.
    const confirm = Effect.fnUntraced(function* (
      request: BookingConfirmationRequest,
      headerKey: string | undefined,
      partner: Partner["Service"],
      now: Date
    ) {
      const surface = yield* CurrentSurface
      const key = yield* keyOf(request, headerKey)
      yield* checkStamps(request, now)
      const opened = yield* bookingOptions
        .open(request.booking_option_id, now)
        .pipe(Effect.catch(persistenceUnavailable("booking", outageSteps.beforeWriting)))
      const ids = newBookingIds()
      const write = <EC>(
        held: HeldOption,
        prepared: Effect.Effect<Prepared, PrepareError>,
        refused: (error: SqlError) => EC | undefined,
        guard?: Statement.Fragment
      ) =>
        idempotency.write({
          scope: "booking",
          keyReused: keyHolds(surface),
          steps: { ...outageSteps, commitUnknown: commitUnknownStep(surface, ids.requestId) },
          partnerId: partner.id,
          key,
          hash: confirmFingerprint(request, opened),
          // Keys stored before the fingerprint held the hash of the whole body.
          sameAsStored: (stored) => stored === requestHash({ ...request, idempotency_key: key }),
          resourceId: ids.bookingId,
          load: (bookingId) => bookings.findByRef(partner.id, bookingId),
          prepare: prepared,
          write: ({ option, offer, deduction }) =>
            Effect.map(book({ ids, request, partner, option, offer, deduction, now }, held), (writes) =>
              guard === undefined ? writes : { ...writes, guard }
            ),
          refused
        })
      // The confirm as it reads: the offer and the partner's hold, then the claim with its writes.
      const readThenWrite = Effect.suspend(() =>
        Result.isFailure(opened)
          ? Effect.succeed({ held: noHold, offer: undefined })
          : heldAndOffer(partner, opened.success, request.hold_id, now).pipe(
              // A live hold keeps the terms it was made under until it ends, whatever changed since.
              Effect.flatMap(({ held, offer }) =>
                held.live && offer !== undefined && offer.termsVersion !== opened.success.termsVersion
                  ? Effect.map(supply.heldTerms(opened.success, offer), (kept) => ({ held, offer: kept }))
                  : Effect.succeed({ held, offer })
              ),
              Effect.catchTag("SqlError", persistenceUnavailable("booking", outageSteps.notWritten))
            )
      ).pipe(
        Effect.flatMap(({ held, offer }) =>
          write(held, prepare(request, opened, now, surface, held, offer, signer.expiredRefusal), (error) => {
            const taken = slotJustTaken(surface)(error)
            return taken !== undefined && Option.isSome(held.hold)
              ? takenAfterHold(surface, { ...held, hold: held.hold })
              : taken
          })
        )
      )
      const checked = Result.isFailure(opened)
        ? Option.none()
        : yield* asRead(request, opened.success, partner, now, surface)
      const outcome = yield* (
        Option.isNone(checked)
          ? readThenWrite
          : write(
              noHold,
              Effect.succeed(checked.value.prepared),
              (error) => (sqlStateOf(error) === readAgainState ? new ReadAgain() : slotJustTaken(surface)(error)),
              checked.value.guard
            ).pipe(Effect.catchTag("ReadAgain", () => readThenWrite))
      ).pipe(Effect.catch(orAlreadyBooked(bookings, request, opened, partner, surface)))
      if (outcome._tag === "Replayed") {
        if (outcome.stored.status === "cancelled") return yield* alreadyCancelled(surface, outcome.stored)
        const states = yield* deliveryStates([outcome.stored.noticeSubjectId])
        return respond(outcome.stored, states, true, now)
      }
      const { stored, outbox, skipped } = outcome.written
      if (!partner.sandbox) yield* Metric.update(bookingsConfirmed, 1)
      // Rows without a channel, and sandbox rows, were written skipped, which is final: with nothing to deliver, the
      // states are what was just written, and reading them back would only cost a round trip.
      if (outbox.length === 0) return respond(stored, Option.some(skipped), false, now)
      // The states are read below either way; a failed read there is reported as unknown.
      yield* Effect.ignore(notifier.deliverNow(outbox))
      // Read after the bounded wait, so skipped rows and late outcomes both show.
      const states = yield* deliveryStates([stored.id])
      return respond(stored, states, false, now)
    })

    const status = bookingStatus(bookings, deliveryStates)
    const list = bookingList(bookings, cursors, deliveryStates)

    const countConflicts = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.tapError(effect, (error) =>
        conflictTags.has(error._tag)
          ? Metric.update(Metric.withAttributes(bookingConflicts, { code: error._tag }), 1)
          : Effect.void
      )

    return {
      confirm: (
        request: BookingConfirmationRequest,
        headerKey: string | undefined,
        partner: Partner["Service"],
        now: Date
      ) => countConflicts(confirm(request, headerKey, partner, now)),
      status,
      list,
      /** For the changes of a booking (Changes.ts): the same delivery and checks as confirm's. */
      deliveryStates,
      revalidate
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([
      Calendar.Default,
      Supply.Default,
      BookingsRepo.Default,
      OptionSigner.Default,
      BookingOptions.Default,
      NotifierLive,
      Idempotency.Default,
      WebhookOutbox.Default,
      ListCursor.Default,
      HoldsRepo.Default
    ])
  )
}
