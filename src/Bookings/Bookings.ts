import { Context, Effect, Layer, Metric, Option, Result } from "effect"
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
import { HoldsRepo } from "../Shared/HoldsRepo.js"
import { Idempotency, persistenceUnavailable, requestHash } from "../Shared/Idempotency.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { hasExpired, OptionSigner } from "../Shared/OptionSigner.js"
import { Supply } from "../Supply/Supply.js"
import { confirmedStep, deductionOfOption, outageSteps, present, skippedState } from "./Answers.js"
import { BookingsRepo } from "./BookingsRepo.js"
import { alreadyCancelled } from "./Cancellations.js"
import { bookingRecord, type Confirmation, confirmationOutbox, freshlyStored, newBookingIds } from "./Confirmation.js"
import { checkAgainstOption, checkStamps, keyOf } from "./ConfirmChecks.js"
import { confirmFingerprint } from "./Fingerprint.js"
import { type HeldOption, heldOption, takenAfterHold } from "./HeldOption.js"
import { bookingList } from "./List.js"
import { newFigures } from "./NewFigures.js"
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

    /** What changed on our side since the search: 409 with option_refresh_required. */
    const revalidate = (option: SignedOption, surface: Surface, heldLive = false) =>
      Effect.gen(function* () {
        const refresh = refreshWith(surface)
        const current = yield* supply.currentOffer({
          providerId: option.providerId,
          serviceId: option.serviceId,
          postcode: option.originPostcode,
          destinationPostcode: option.destinationPostcode
        })
        // A live hold keeps the terms it was made under until it ends, whatever changed since.
        const offer =
          heldLive && current !== undefined && current.termsVersion !== option.termsVersion
            ? yield* supply.heldTerms(option, current)
            : current
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
          return yield* new TermsChanged({
            ...refresh,
            issues: [`booking_option_id: the provider's terms changed; now ${newFigures(offer)}`]
          })
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
      held: HeldOption
    ): Effect.Effect<
      { readonly option: SignedOption; readonly offer: CurrentOffer; readonly deduction: TaxDeductionAnswer },
      | OptionInvalid
      | OptionExpired
      | InvalidRequest
      | ProviderUnavailable
      | TermsChanged
      | PriceChanged
      | SlotTaken
      | BookingUnavailable
    > =>
      Result.isFailure(opened)
        ? Effect.fail(opened.failure)
        : !held.live && hasExpired(opened.success, now)
          ? Effect.fail(signer.expiredRefusal)
          : Effect.andThen(
              checkAgainstOption(request, opened.success),
              revalidate(opened.success, surface, held.live).pipe(
                Effect.catchTag("SqlError", persistenceUnavailable("booking", outageSteps.notWritten)),
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
      const held: HeldOption = Result.isFailure(opened)
        ? { hold: Option.none(), live: false }
        : yield* heldOption(holds, partner, opened.success, request.hold_id, now).pipe(
            Effect.catchTag("SqlError", persistenceUnavailable("booking", outageSteps.notWritten))
          )
      const ids = newBookingIds()
      const outcome = yield* idempotency
        .write({
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
          prepare: prepare(request, opened, now, surface, held),
          write: ({ option, offer, deduction }) => book({ ids, request, partner, option, offer, deduction, now }, held),
          refused: (error) => {
            const taken = slotJustTaken(surface)(error)
            return taken !== undefined && Option.isSome(held.hold)
              ? takenAfterHold(surface, { ...held, hold: held.hold })
              : taken
          }
        })
        .pipe(Effect.catch(orAlreadyBooked(request, opened, partner, surface)))
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
