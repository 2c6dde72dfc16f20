import { createHash } from "node:crypto"
import { Context, Data, Effect, Layer, Metric, Option, Result, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import {
  type BookingConfirmationRequest,
  type BookingConfirmationResponse,
  type BookingUnavailable,
  type OptionAlreadyBooked,
  PriceChanged,
  ProviderUnavailable,
  SlotTaken,
  TermsChanged
} from "../Domain/Booking.js"
import type { OptionExpired, OptionInvalid, SignedOption } from "../Domain/BookingOption.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { InvalidRequest } from "../Domain/Errors.js"
import type { Partner } from "../Domain/Partner.js"
import { priceFor } from "../Domain/Pricing.js"
import { withinWorkingHours } from "../Domain/Slots.js"
import type { CurrentOffer } from "../Domain/Supply.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import type { TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { bookingConfirmed } from "../Domain/WebhookEvents.js"
import { bookingConflicts, bookingsConfirmed } from "../Http/Metrics.js"
import { type DeliveryState, isDeliverable, statesOrUnknown } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar, calendarOf } from "../Shared/Calendar.js"
import { HoldsRepo, StoredHold, slotOfOption } from "../Shared/HoldsRepo.js"
import { Idempotency, persistenceUnavailable, requestHash, sqlStateOf } from "../Shared/Idempotency.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { hasExpired, OptionSigner } from "../Shared/OptionSigner.js"
import { Supply } from "../Supply/Supply.js"
import { confirmedStep, deductionOfOption, outageSteps, present, skippedState } from "./Answers.js"
import { BookingsRepo } from "./BookingsRepo.js"
import { alreadyCancelled } from "./Cancellations.js"
import { bookingRecord, type Confirmation, confirmationOutbox, freshlyStored, newBookingIds } from "./Confirmation.js"
import { checkAgainstOption, checkStamps, keyOf } from "./ConfirmChecks.js"
import { confirmFingerprint } from "./Fingerprint.js"
import { type HeldOption, holdTarget, judgeHeld, takenAfterHold } from "./HeldOption.js"
import { bookingList } from "./List.js"
import {
  alreadyBooked,
  alreadyBookedUnreadable,
  commitUnknownStep,
  conflictTags,
  keyHolds,
  refreshWith,
  refusedOption,
  sameCustomer,
  slotJustTaken
} from "./Refusals.js"
import { bookingStatus } from "./Status.js"

const decodeHold = Schema.decodeUnknownEffect(StoredHold)

const offersReadCapacity = 1000
const holdersCapacity = 10_000

/** confirm_as_read's SQLSTATE: the offer or the hold is not as the confirm read it (migration 0020). */
const readAgainState = "HSB01"

/** The one-statement confirm found the offer or the hold changed: it reads them, and writes again. */
class ReadAgain extends Data.TaggedError("ReadAgain") {}

/** What a confirm checked before it writes. */
interface Prepared {
  readonly option: SignedOption
  readonly offer: CurrentOffer
  readonly deduction: TaxDeductionAnswer
}

const noHold: HeldOption = { hold: Option.none(), live: false }

type PrepareError =
  | OptionInvalid
  | OptionExpired
  | InvalidRequest
  | ProviderUnavailable
  | TermsChanged
  | PriceChanged
  | SlotTaken
  | BookingUnavailable

/** The question of the offer an option was made from, as it is now. */
const offerQueryOf = (option: SignedOption) => ({
  providerId: option.providerId,
  serviceId: option.serviceId,
  postcode: option.originPostcode,
  destinationPostcode: option.destinationPostcode
})

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

    const deliveryStates = (subjectIds: ReadonlyArray<string>) => statesOrUnknown(notifier.statesOf(subjectIds))

    const respond = (
      stored: StoredBooking,
      states: Option.Option<ReadonlyArray<DeliveryState>>,
      replay: boolean,
      now: Date
    ) => {
      const response: BookingConfirmationResponse = {
        ok: true,
        spec_version: bookingsSpecVersion,
        request_id: stored.requestId,
        ...present(stored, states, now),
        provider_selected: true,
        availability_checked: true,
        booking_created: true,
        idempotent_replay: replay,
        safe_next_step: confirmedStep(stored)
      }
      return response
    }

    /** The offer as it is now against the option: what changed on our side since the search is a 409 with option_refresh_required. */
    const checkOffer = (option: SignedOption, surface: Surface, offer: CurrentOffer | undefined) =>
      Effect.gen(function* () {
        const refresh = refreshWith(surface)
        if (
          offer === undefined ||
          !offer.providerActive ||
          !offer.serviceActive ||
          !offer.servesPostcode ||
          !offer.servesDestination ||
          offer.pricingModel === null
        ) {
          return yield* new ProviderUnavailable({
            ...refresh,
            issues: ["booking_option_id: the provider no longer offers this service here"]
          })
        }
        if (offer.termsVersion !== option.termsVersion) {
          return yield* new TermsChanged({ ...refresh, issues: ["booking_option_id: the provider's terms changed"] })
        }
        const priced = priceFor(
          { ...offer, pricingModel: offer.pricingModel, durationMinutes: offer.durationMinutes ?? 0 },
          option.quantity
        )
        if (
          offer.pricingModel !== option.pricingModel ||
          priced._tag !== "Quoted" ||
          priced.quote.amountSek !== option.amountSek
        ) {
          return yield* new PriceChanged({ ...refresh, issues: ["booking_option_id: the provider's price changed"] })
        }
        if (!withinWorkingHours(offer.hours, { start: option.slotStart, end: option.slotEnd })) {
          return yield* new SlotTaken({ ...refresh, issues: ["booking_option_id: the slot is no longer available"] })
        }
        return offer
      })

    /** What changed on our side since the search: 409 with option_refresh_required. */
    const revalidate = (option: SignedOption, surface: Surface) =>
      Effect.flatMap(supply.currentOffer(offerQueryOf(option)), (offer) => checkOffer(option, surface, offer))

    /**
     * A confirm's one read before it writes, in one round trip: the offer as it is now and the
     * partner's hold (the one `hold_id` names, or its latest on the option's slot).
     */
    const heldAndOffer = (partner: Partner["Service"], option: SignedOption, holdId: string | undefined, now: Date) => {
      const offerStatement = supply.currentOfferStatement(offerQueryOf(option))
      const target = holdTarget(option, holdId)
      const statement =
        target === undefined
          ? sql`SELECT (${offerStatement}) AS offer`
          : sql`SELECT (${offerStatement}) AS offer, h.* FROM (SELECT 1) AS one
              LEFT JOIN LATERAL (${holds.heldStatement(partner.id, target)}) AS h ON true`
      return Effect.gen(function* () {
        const row: Record<string, unknown> | undefined = (yield* statement)[0]
        const text = row?.offer
        if (typeof text === "string") rememberOffer(option, text)
        const offer = typeof text === "string" ? supply.currentOfferOf(text) : undefined
        // A stored hold that does not decode is a damaged table, not an answer for the client.
        const found =
          row === undefined || row.id === null || row.id === undefined
            ? Option.none<StoredHold>()
            : Option.some(yield* Effect.orDie(decodeHold(row)))
        if (Option.isSome(found)) {
          if (holders.size >= holdersCapacity) holders.clear()
          holders.add(partner.id)
        }
        const held = yield* judgeHeld(found, option, holdId, now)
        return { held, offer }
      })
    }

    /**
     * The deduction the option's price allows under the offer's declaration (unchanged since the
     * search: it changes only with the terms version). Asking for one the service does not have is
     * the client's mistake: telling the provider the customer wants it would state a false premise.
     */
    const deductionFor = (
      request: BookingConfirmationRequest,
      option: SignedOption,
      offer: CurrentOffer,
      surface: Surface
    ): Effect.Effect<TaxDeductionAnswer, InvalidRequest> => {
      const deduction = deductionOfOption(option, offer)
      return request.tax_deduction_requested === true && deduction.kind === "none"
        ? Effect.fail(
            new InvalidRequest({
              issues: [
                `tax_deduction_requested: this option has no RUT or ROT deduction (price.tax_deduction.reason ${deduction.reason})`
              ],
              safe_next_step: `Nothing is booked. This option's price has no RUT or ROT deduction: tell the user so, and only if they still want it, confirm again (${surface.confirm}) without tax_deduction_requested.`
            })
          )
        : Effect.succeed(deduction)
    }

    /**
     * Before the key is claimed, since the write is one statement: the option still open, the
     * client's own statements against it, and the offer as it is now. A database failure here
     * wrote nothing.
     */
    const prepare = (
      request: BookingConfirmationRequest,
      opened: Result.Result<SignedOption, OptionInvalid | OptionExpired>,
      now: Date,
      surface: Surface,
      held: HeldOption,
      current: CurrentOffer | undefined
    ): Effect.Effect<Prepared, PrepareError> =>
      Result.isFailure(opened)
        ? Effect.fail(opened.failure)
        : !held.live && hasExpired(opened.success, now)
          ? Effect.fail(signer.expiredRefusal)
          : Effect.andThen(
              checkAgainstOption(request, opened.success),
              checkOffer(opened.success, surface, current).pipe(
                Effect.flatMap((offer) =>
                  Effect.map(deductionFor(request, opened.success, offer, surface), (deduction) => ({
                    option: opened.success,
                    offer,
                    deduction
                  }))
                )
              )
            )

    /**
     * An option that can no longer be booked may be so because this partner already booked it for
     * this customer (a retry under a new key, after its own success): then that is the answer, and
     * "search again" (this call booked nothing, the slot went to someone else) is not.
     */
    const orAlreadyBooked =
      (
        request: BookingConfirmationRequest,
        opened: Result.Result<SignedOption, OptionInvalid | OptionExpired>,
        partner: Partner["Service"],
        surface: Surface
      ) =>
      <E extends { readonly _tag: string }>(
        error: E
      ): Effect.Effect<never, E | OptionAlreadyBooked | BookingUnavailable> => {
        if (!refusedOption.has(error._tag) || Result.isFailure(opened)) return Effect.fail(error)
        const option = opened.success
        return bookings
          .findSameOption({
            partnerId: partner.id,
            providerId: option.providerId,
            serviceId: option.serviceId,
            slotStart: new Date(option.slotStart),
            slotEnd: new Date(option.slotEnd)
          })
          .pipe(
            Effect.catch(persistenceUnavailable("booking", alreadyBookedUnreadable)),
            Effect.flatMap((found) => {
              const mine = found.find(({ customer }) => sameCustomer(customer, request.customer))
              return Effect.fail<E | OptionAlreadyBooked>(mine === undefined ? error : alreadyBooked(surface, mine))
            })
          )
      }

    /** Announce, hold the slot, record: the statements written with the claim of the key. */
    const book = (confirming: Confirmation, held: HeldOption) =>
      Effect.sync(() => {
        const { ids, request, partner, option, offer, now } = confirming
        const record = bookingRecord(confirming)
        const outbox = confirmationOutbox(confirming, record, {
          customer: notifier.channelFor("customer", { email: request.customer.email }, partner.sandbox),
          provider: notifier.channelFor(
            "provider",
            { email: offer.notifyEmail, webhookUrl: offer.notifyWebhookUrl },
            partner.sandbox
          )
        })
        // One statement: a slot the calendar's exclusion constraint refuses (23P01) rolls the
        // outbox rows, the partner's booking.confirmed and the booking back with it.
        const statements = [
          ...notifier.outboxInsert(outbox, now),
          webhookOutbox.insertion(
            { partnerId: partner.id, sandbox: partner.sandbox },
            bookingConfirmed(record, now),
            now
          ),
          calendar.booking({
            id: ids.bookingId,
            providerId: option.providerId,
            serviceId: option.serviceId,
            slotStart: record.slotStart,
            slotEnd: record.slotEnd,
            calendar: calendarOf(partner),
            at: now,
            ...(held.live && Option.isSome(held.hold) ? { replaces: held.hold.value.id } : {})
          }),
          bookings.insertion(record),
          ...(held.live && Option.isSome(held.hold)
            ? [holds.confirmation({ holdId: held.hold.value.id, partnerId: partner.id }, ids.bookingId, now)]
            : [])
        ]
        return {
          statements,
          result: {
            stored: freshlyStored(record),
            outbox: outbox.filter((row) => isDeliverable(row.channel)).map((row) => row.id),
            skipped: outbox.filter((row) => !isDeliverable(row.channel)).map(skippedState)
          }
        }
      })

    /**
     * The offers confirms last read, by their question, with the digest of their text: a confirm of
     * an offer read before is checked against it and written in one round trip, on the condition
     * (confirm_as_read, in the claim) that the offer is still that text and the partner holds
     * nothing on the slot. Bounded; an entry that went stale costs one statement that aborts.
     */
    const offersRead = new Map<string, { readonly text: string; readonly md5: string }>()
    const offerKey = (option: SignedOption) =>
      `${option.providerId}\t${option.serviceId}\t${option.originPostcode}\t${option.destinationPostcode ?? ""}`
    const rememberOffer = (option: SignedOption, text: string) => {
      const key = offerKey(option)
      if (offersRead.get(key)?.text === text) return
      if (offersRead.size >= offersReadCapacity) offersRead.delete(offersRead.keys().next().value ?? key)
      offersRead.set(key, { text, md5: createHash("md5").update(text).digest("hex") })
    }
    /** Partners seen holding the slot they confirm: their confirms read the hold first. */
    const holders = new Set<string>()

    /**
     * A confirm in one round trip when this instance read the option's offer before and nothing
     * else needs reading (no hold_id, an option not yet expired, a partner not seen holding):
     * checked against the offer as read, written on the condition that it still holds. A check
     * that fails, or a condition that no longer holds, makes it the confirm as it reads
     * (`readThenWrite`), so every answer is the one reading first would give.
     */
    const asRead = (
      request: BookingConfirmationRequest,
      option: SignedOption,
      partner: Partner["Service"],
      now: Date,
      surface: Surface
    ): Effect.Effect<Option.Option<{ readonly prepared: Prepared; readonly guard: Statement.Fragment }>> => {
      const known = offersRead.get(offerKey(option))
      if (known === undefined || request.hold_id !== undefined || holders.has(partner.id) || hasExpired(option, now)) {
        return Effect.succeedNone
      }
      const checks = prepare(request, Result.succeed(option), now, surface, noHold, supply.currentOfferOf(known.text))
      return Effect.map(Effect.result(checks), (checked) =>
        Result.isFailure(checked)
          ? Option.none()
          : Option.some({
              prepared: checked.success,
              guard: sql`confirm_as_read((${supply.currentOfferStatement(offerQueryOf(option))}), ${known.md5},
                EXISTS (${holds.heldStatement(partner.id, slotOfOption(option))}))`
            })
      )
    }

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
          load: (bookingId) => bookings.findById(partner.id, bookingId),
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
              Effect.catchTag("SqlError", persistenceUnavailable("booking", outageSteps.notWritten))
            )
      ).pipe(
        Effect.flatMap(({ held, offer }) =>
          write(held, prepare(request, opened, now, surface, held, offer), (error) => {
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
      ).pipe(Effect.catch(orAlreadyBooked(request, opened, partner, surface)))
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
      /** For the changes of a booking (Changes.ts): the same words, delivery and checks as confirm's. */
      present,
      confirmedStep,
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
      Notifier.Default,
      Idempotency.Default,
      WebhookOutbox.Default,
      ListCursor.Default,
      HoldsRepo.Default
    ])
  )
}
