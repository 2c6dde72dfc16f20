import { randomUUID } from "node:crypto"
import { Cause, Context, Data, Effect, Layer, Option, Result } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as SqlErrorModule from "effect/sql/SqlError"
import { type BookingUnavailable, customerNameOf, type Delivery, SlotTaken } from "../Domain/Booking.js"
import {
  BookingChanged,
  BookingNotFound,
  BookingStarted,
  type CancelBookingRequest,
  type CancelBookingResponse,
  type CancelledBy,
  OptionNotForThisBooking,
  OutsideChangeWindow,
  type RescheduleBookingRequest,
  type RescheduleBookingResponse,
  type ReschedulePreview
} from "../Domain/BookingChange.js"
import type { OptionExpired, OptionInvalid, SignedOption } from "../Domain/BookingOption.js"
import { policyOfBooking, type StoredBooking } from "../Domain/BookingRecord.js"
import { cancellationAt, changeableAt, noStatedPolicy, policyTerms } from "../Domain/CancellationPolicy.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { bookingCancelled, bookingRescheduled, type ChangedBooking } from "../Domain/ChangeMessages.js"
import { IdempotencyKeyReused, InvalidRequest } from "../Domain/Errors.js"
import { BookingId, isUuid } from "../Domain/Ids.js"
import { slotLabel } from "../Domain/Labels.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import type { CurrentOffer } from "../Domain/Supply.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { formatInZone, knownTimeZone } from "../Domain/Zone.js"
import { type DeliveryState, Notifier } from "../Notifications/Notifier.js"
import { Calendar, calendarOf } from "../Shared/Calendar.js"
import {
  fingerprintHash,
  Idempotency,
  idempotencyKeyOf,
  persistenceUnavailable,
  sqlStateOf,
  writeOutcome
} from "../Shared/Idempotency.js"
import { hasExpired, OptionSigner } from "../Shared/OptionSigner.js"
import {
  bookingCancelled as webhookBookingCancelled,
  bookingRescheduled as webhookBookingRescheduled
} from "../Webhooks/Events.js"
import { WebhookOutbox } from "../Webhooks/Outbox.js"
import { Bookings } from "./Bookings.js"
import { BookingsRepo } from "./BookingsRepo.js"
import { alreadyCancelled, cancellationOf } from "./Cancellations.js"

/**
 * A change of a booking that its partner sees, announced from inside the transaction that makes
 * it (`announceToPartner`): the partner's `booking.cancelled` or `booking.rescheduled` webhook rows
 * commit or roll back with the change, so there is no event without its change and no change
 * without its event. `booking` is the booking after the change.
 */
export type PartnerVisibleChange = {
  readonly changeId: string
  readonly booking: StoredBooking
  readonly partnerId: string
  readonly version: number
  readonly at: Date
} & (
  | { readonly kind: "cancelled"; readonly cancelledBy: CancelledBy }
  | { readonly kind: "rescheduled"; readonly previous: { readonly slotStart: Date; readonly slotEnd: Date } }
)

/**
 * The partner's webhook event of a change, written in the change's transaction. Only this
 * partner's enabled subscriptions of the same kind (a sandbox booking's to sandbox ones) get a row;
 * the payload is the thin event of src/Webhooks/Events.ts (ids, slot, price, who cancelled), never
 * the customer or the cancel's reason.
 */
export const announceToPartner =
  (outbox: WebhookOutbox["Service"]) =>
  (change: PartnerVisibleChange): Effect.Effect<void, SqlError.SqlError> =>
    outbox.emit(
      { partnerId: change.partnerId, sandbox: change.booking.sandbox },
      change.kind === "cancelled"
        ? webhookBookingCancelled(change.booking, change.cancelledBy, change.at)
        : webhookBookingRescheduled(change.booking, change.previous, change.at),
      change.at
    )

/** The key's claim met a committed key of a concurrent attempt: replay it after the rollback. */
class LostClaim extends Data.TaggedError("LostClaim")<{}> {}

/** A statement inside the change's transaction failed: the transaction rolled back, nothing was written. */
class RolledBack extends Data.TaggedError("RolledBack")<{ readonly cause: SqlError.SqlError }> {}

const skipped: Delivery = { status: "skipped", channel: "none", attempts: 0, will_retry: false }
const unknownDelivery: Delivery = { status: "unknown", channel: "unknown" }

const deliveryOf = (state: DeliveryState | undefined): Delivery =>
  state === undefined
    ? skipped
    : {
        status: state.status === "pending" && state.attempts > 0 ? "failed" : state.status,
        channel: state.channel,
        attempts: state.attempts,
        will_retry: state.status === "pending",
        ...(state.status === "pending" && state.nextAttemptAt
          ? { next_attempt_at: state.nextAttemptAt.toISOString() }
          : {})
      }

const deliveries = (read: Option.Option<ReadonlyArray<DeliveryState>>) =>
  Option.match(read, {
    onNone: () => ({ customer: unknownDelivery, provider: unknownDelivery }),
    onSome: (states) => ({
      customer: deliveryOf(states.find((s) => s.recipientRole === "customer")),
      provider: deliveryOf(states.find((s) => s.recipientRole === "provider"))
    })
  })

const cancelSteps = (surface: Surface, bookingId: string) => ({
  beforeWriting:
    "The booking could not be read or cancelled because the database does not answer. This call cancelled nothing; if an earlier attempt with the same idempotency_key cancelled it, that stands. Do not tell the user it is cancelled, nor that it is not. Retry the same request (same idempotency_key) in a moment.",
  notWritten:
    "Nothing was cancelled by this attempt: the database failed before the cancellation was saved, so the booking stands as it was. Do not tell the user it is cancelled. Retry the same request (same idempotency_key) in a moment.",
  commitUnknown: `The outcome is unknown: the database stopped answering while the cancellation was being saved, so the booking may or may not be cancelled. Do not tell the user either. Retry the same request with the same idempotency_key (safe: it returns the cancellation if it was saved), or look the booking up with ${surface.bookingStatus(bookingId)} once the service answers.`,
  replayUnreadable:
    "This idempotency_key already holds a cancellation, but it cannot be read right now because the database does not answer. Do not cancel again with a new key. Retry the same request in a moment."
})

const rescheduleSteps = (surface: Surface, bookingId: string) => ({
  beforeWriting:
    "The booking could not be read or moved because the database does not answer. This call changed nothing; if an earlier attempt with the same idempotency_key moved it, that stands. Do not tell the user the time changed, nor that it did not. Retry the same request (same idempotency_key) in a moment.",
  notWritten:
    "Nothing was changed by this attempt: the database failed before the new time was saved, so the booking at its old time still stands. Retry the same request (same idempotency_key) in a moment.",
  commitUnknown: `The outcome is unknown: the database stopped answering while the new time was being saved, so the booking may be at its old time or its new one. Do not tell the user either. Retry the same request with the same idempotency_key (safe: it returns the moved booking if the move was saved), or look it up with ${surface.bookingStatus(bookingId)} once the service answers.`,
  replayUnreadable:
    "This idempotency_key already holds a move of the booking, but it cannot be read right now because the database does not answer. Do not move it again with a new key. Retry the same request in a moment."
})

const notFound = (partner: Partner["Service"]) =>
  new BookingNotFound({
    safe_next_step: `No booking with this id exists for ${partner.sandbox ? "your sandbox token" : "your token"}. Nothing was changed. Do not tell the user anything was cancelled or moved; check the id (booking.id or request_id from the confirmation).`
  })

const keyRequired = new InvalidRequest({
  issues: ["idempotency_key: is required (in the body, or as the Idempotency-Key header)"],
  safe_next_step:
    "Nothing was changed. Send the request again with an idempotency_key (in the body or the Idempotency-Key header), and reuse that key on every retry of this change."
})

const keyOf = (bodyKey: string | undefined, headerKey: string | undefined) =>
  Effect.flatMap(idempotencyKeyOf(bodyKey, headerKey), (key) =>
    key === undefined ? Effect.fail(keyRequired) : Effect.succeed(key)
  )

const stale = (stored: StoredBooking, expected: number, surface: Surface) =>
  new BookingChanged({
    issues: [`expected_version: the booking is at version ${stored.version}, not ${expected}`],
    booking_id: stored.id,
    request_id: stored.requestId,
    safe_next_step: `Nothing was changed: the booking changed since you read it. Look it up with ${surface.bookingStatus(stored.requestId)}, tell the user how it stands now, and ask again before changing it.`
  })

const feeWords = (feeSek: number, freeUntil: string) =>
  feeSek === 0
    ? "Cancelling now is free under the provider's terms."
    : `The free cancellation period ended at ${freeUntil}: under its terms the provider may charge a fee of SEK ${feeSek} for cancelling now.`

const sandboxNote =
  "Sandbox: this is a test booking; no provider or customer was told (messages were recorded in the sandbox). "

/** Cancels and moves confirmed bookings, exactly once per key, under the policy they were confirmed with. */
export class Changes extends Context.Service<Changes>()("Booking/Changes", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const calendar = yield* Calendar
    const repo = yield* BookingsRepo
    const bookings = yield* Bookings
    const idempotency = yield* Idempotency
    const notifier = yield* Notifier
    const signer = yield* OptionSigner
    const announce = announceToPartner(yield* WebhookOutbox)

    const findBooking = (partner: Partner["Service"], ref: string) =>
      isUuid(ref) ? repo.findById(partner.id, ref) : repo.findByRequestId(partner.id, ref)

    /** Whom the change is told to, on which channel; the messages say nothing the booking does not. */
    const noticesOf = (
      stored: StoredBooking,
      partner: Partner["Service"],
      changeId: string,
      topic: "booking_cancelled" | "booking_rescheduled",
      messagesOf: (booking: ChangedBooking) => ReturnType<typeof bookingCancelled>
    ) =>
      Effect.gen(function* () {
        const contact = yield* repo.contactOf(stored.id)
        const c = Option.getOrUndefined(contact)
        const booking: ChangedBooking = {
          bookingId: stored.id,
          requestId: stored.requestId,
          providerId: stored.providerId,
          providerName: stored.providerName,
          serviceLabelSv: c?.serviceLabelSv ?? stored.serviceId,
          ...(c?.labelEn ? { serviceLabelEn: c.labelEn } : {}),
          slotStart: stored.slotStart,
          slotEnd: stored.slotEnd,
          timeZone: stored.timeZone,
          termsVersion: stored.termsVersion,
          termsUrl: c?.termsUrl ?? "",
          ...(c ? { serviceAddress: `${c.serviceLocation.address}, ${c.serviceLocation.postcode}` } : {}),
          ...(c ? { customerName: customerNameOf(c.customer) } : {})
        }
        const messages = messagesOf(booking)
        const rows: ReadonlyArray<Notification> = [
          {
            id: randomUUID(),
            topic,
            subjectId: changeId,
            recipientRole: "customer",
            providerId: null,
            ...notifier.channelFor("customer", { email: c?.customer.email ?? null }, partner.sandbox),
            ...messages.customer,
            payload: {}
          },
          {
            id: randomUUID(),
            topic,
            subjectId: changeId,
            recipientRole: "provider",
            providerId: stored.providerId,
            ...notifier.channelFor(
              "provider",
              { email: c?.notifyEmail ?? null, webhookUrl: c?.notifyWebhookUrl ?? null },
              partner.sandbox
            ),
            ...messages.provider
          }
        ]
        return rows
      })

    /** Claims the key inside the change's transaction: a committed twin fails it (23505) and is replayed. */
    const claim = (partnerId: string, scope: "cancel" | "reschedule", key: string, hash: string, changeId: string) =>
      sql`INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
          VALUES (${partnerId}, ${scope}, ${key}, ${hash}, ${changeId}::uuid)`.pipe(
        Effect.catchIf(
          (error) => sqlStateOf(error) === "23505",
          () => Effect.fail(new LostClaim())
        )
      )

    /**
     * Runs a change in one transaction. A statement's failure inside it rolled everything back
     * (nothing written); only the commit itself can leave the outcome unknown.
     */
    const transact = <A, E>(
      body: Effect.Effect<A, E>,
      steps: ReturnType<typeof cancelSteps>,
      scope: "cancel" | "reschedule"
    ): Effect.Effect<A, Exclude<E, SqlError.SqlError> | BookingUnavailable> =>
      sql
        .withTransaction(
          Effect.mapError(body, (error) =>
            SqlErrorModule.isSqlError(error) ? new RolledBack({ cause: error }) : error
          )
        )
        .pipe(
          Effect.catchCause((cause): Effect.Effect<never, Exclude<E, SqlError.SqlError> | BookingUnavailable> => {
            const failure = Cause.findErrorOption(cause)
            if (Option.isSome(failure)) {
              const error: unknown = failure.value
              return error instanceof RolledBack
                ? persistenceUnavailable(scope, steps.notWritten)(error.cause)
                : SqlErrorModule.isSqlError(error)
                  ? persistenceUnavailable(
                      scope,
                      writeOutcome(error)._tag === "NotWritten" ? steps.notWritten : steps.commitUnknown
                    )(error)
                  : Effect.fail(error as Exclude<E, SqlError.SqlError>)
            }
            // The body failed and its ROLLBACK failed too (the connection is gone): the SQL client
            // turns both into defects. COMMIT was never sent, and PostgreSQL drops an uncommitted
            // transaction with its session: nothing was written, whatever the body's failure was.
            const rollbackFailed = cause.reasons.find(
              (reason) => Cause.isDieReason(reason) && SqlErrorModule.isSqlError(reason.defect)
            )
            return rollbackFailed !== undefined
              ? persistenceUnavailable(scope, steps.notWritten)(cause)
              : Effect.failCause(cause as Cause.Cause<never>)
          })
        )

    /** What the stored key points at: the change and its booking, as this partner sees it. */
    const loadChange = (partner: Partner["Service"], changeId: string) =>
      Effect.gen(function* () {
        const change = yield* repo.findChange(changeId)
        if (Option.isNone(change)) return Option.none()
        const booking = yield* repo.findById(partner.id, change.value.bookingId)
        return Option.map(booking, (stored) => ({ change: change.value, stored }))
      })

    const storedKey = (
      partner: Partner["Service"],
      scope: "cancel" | "reschedule",
      key: string,
      steps: ReturnType<typeof cancelSteps>
    ) =>
      idempotency
        .find(partner.id, scope, key)
        .pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))

    const keyHolds = (what: string, stored: StoredBooking, surface: Surface) =>
      new IdempotencyKeyReused({
        issues: [`idempotency_key: already holds ${what} with other details`],
        booking_id: stored.id,
        request_id: stored.requestId,
        safe_next_step: `This idempotency_key already holds ${what} (request_id ${stored.requestId}). This call changed nothing. Look the booking up with ${surface.bookingStatus(stored.requestId)} and tell the user how it stands; for a different change, use a new idempotency_key.`
      })

    // ---------------------------------------------------------------- cancel

    const cancelledAnswer = (
      stored: StoredBooking,
      states: Option.Option<ReadonlyArray<DeliveryState>>,
      replay: boolean
    ): CancelBookingResponse => {
      const cancellation = cancellationOf(stored)
      return {
        ok: true,
        spec_version: bookingsSpecVersion,
        booking_id: stored.id,
        request_id: stored.requestId,
        cancelled: true,
        booking_active: false,
        cancellation,
        confirmation_delivery: deliveries(states),
        idempotent_replay: replay,
        ...(stored.sandbox ? { sandbox: true as const } : {}),
        safe_next_step: `${stored.sandbox ? sandboxNote : ""}The booking is cancelled: ${stored.providerName}, ${stored.slotLabel} (request_id ${stored.requestId}). Nothing is booked under it now and the time is released. ${
          cancellation.fee_sek === 0
            ? "It was cancelled within the free period: the provider's terms allow no fee for it."
            : `It was cancelled after the free period (free until ${cancellation.free_until}): under its terms the provider may charge a fee of SEK ${cancellation.fee_sek}.`
        } Tell the user exactly this. Messages to the customer and provider are reported in confirmation_delivery and do not change the cancellation.`
      }
    }

    /** What a cancel now would be, or the refusal that applies: the same checks before and inside the write. */
    const assessCancel = (
      stored: StoredBooking,
      by: CancelledBy,
      expectedVersion: number | undefined,
      now: Date,
      surface: Surface
    ) => {
      if (stored.status === "cancelled") return Effect.fail(alreadyCancelled(surface, stored))
      if (expectedVersion !== undefined && expectedVersion !== stored.version)
        return Effect.fail(stale(stored, expectedVersion, surface))
      const at = cancellationAt(policyOfBooking(stored), stored.slotStart.getTime(), now.getTime())
      if (at._tag === "Started")
        return Effect.fail(
          new BookingStarted({
            issues: [`booking_id: the slot started at ${formatInZone(stored.slotStart, stored.timeZone)}`],
            booking_id: stored.id,
            request_id: stored.requestId,
            safe_next_step: `Nothing was cancelled: the booked time (${stored.slotLabel}) has started, so the booking can no longer be cancelled here. Tell the user to contact ${stored.providerName} directly, quoting request_id ${stored.requestId}.`
          })
        )
      // The provider cancelling its own booking charges the customer nothing.
      const feeSek = by === "provider" ? 0 : at.feeSek
      return Effect.succeed({ feeSek, withinFreePeriod: at.withinFreePeriod, freeUntil: new Date(at.freeUntil) })
    }

    /**
     * Cancels a booking for whoever asks: the partner's caller (`customer`, `partner`) or, through
     * issue 29's provider side, the provider. Idempotent per partner and key.
     */
    const cancelAs = Effect.fnUntraced(function* (
      ref: string,
      request: CancelBookingRequest,
      headerKey: string | undefined,
      partner: Partner["Service"],
      by: CancelledBy,
      now: Date
    ) {
      const surface = yield* CurrentSurface
      const key = yield* keyOf(request.idempotency_key, headerKey)
      const steps = cancelSteps(surface, ref)
      const found = yield* findBooking(partner, ref).pipe(
        Effect.catch(persistenceUnavailable("booking", steps.beforeWriting))
      )
      if (Option.isNone(found)) return yield* notFound(partner)
      const current = found.value
      const hash = fingerprintHash({ change: "cancel", booking: current.id, cancelled_by: by })

      if (request.dry_run === true) {
        const would = yield* assessCancel(current, by, request.expected_version, now, surface)
        const preview: CancelBookingResponse = {
          ok: true,
          spec_version: bookingsSpecVersion,
          booking_id: current.id,
          request_id: current.requestId,
          cancelled: false,
          booking_active: true,
          dry_run: true,
          cancellation: {
            cancelled_at: formatInZone(now, current.timeZone),
            cancelled_by: by,
            ...(request.reason === undefined ? {} : { reason: request.reason }),
            fee_sek: would.feeSek,
            within_free_period: would.withinFreePeriod,
            free_until: formatInZone(would.freeUntil, current.timeZone)
          },
          confirmation_delivery: { customer: skipped, provider: skipped },
          idempotent_replay: false,
          ...(current.sandbox ? { sandbox: true as const } : {}),
          safe_next_step: `Dry run: nothing was cancelled and nobody was told; the booking (${current.providerName}, ${current.slotLabel}) stands. ${feeWords(would.feeSek, formatInZone(would.freeUntil, current.timeZone))} Tell the user this and ask whether to cancel. Only on their yes, send this request again without dry_run (${surface.cancelBooking(current.requestId)}). Do not say the booking is cancelled until an answer has cancelled: true.`
        }
        return preview
      }

      const replayOf = (resourceId: string, storedHash: string) =>
        Effect.gen(function* () {
          const loaded = yield* loadChange(partner, resourceId).pipe(
            Effect.catch(persistenceUnavailable("booking", steps.replayUnreadable))
          )
          if (Option.isNone(loaded)) {
            return yield* persistenceUnavailable(
              "booking",
              steps.replayUnreadable
            )("idempotency key without its change")
          }
          const { stored, change } = loaded.value
          if (storedHash !== hash || change.kind !== "cancel") return yield* keyHolds("a cancellation", stored, surface)
          const states = yield* statesOf(change.id)
          return cancelledAnswer(stored, states, true)
        })

      const existing = yield* storedKey(partner, "cancel", key, steps)
      if (Option.isSome(existing)) return yield* replayOf(existing.value.resourceId, existing.value.requestHash)

      const changeId = randomUUID()
      const written = yield* transact(
        Effect.gen(function* () {
          yield* claim(partner.id, "cancel", key, hash, changeId)
          const locked = yield* repo.lockById(current.id)
          if (Option.isNone(locked)) return yield* notFound(partner)
          const before = locked.value
          const facts = yield* assessCancel(before, by, request.expected_version, now, surface)
          const version = before.version + 1
          yield* sql`UPDATE bookings SET status = 'cancelled', version = ${version}, cancelled_at = ${now},
              cancelled_by = ${by}, cancel_reason = ${request.reason ?? null}, cancel_fee_sek = ${facts.feeSek},
              cancel_within_free_period = ${facts.withinFreePeriod}, cancel_free_until = ${facts.freeUntil}
            WHERE id = ${before.id}::uuid`
          yield* calendar.release(before.id, now)
          yield* sql`INSERT INTO booking_changes (id, booking_id, kind, version, previous_slot_start, previous_slot_end, created_at)
            VALUES (${changeId}::uuid, ${before.id}::uuid, 'cancel', ${version}, ${before.slotStart}, ${before.slotEnd}, ${now})`
          const notices = yield* noticesOf(before, partner, changeId, "booking_cancelled", (booking) =>
            bookingCancelled(booking, { cancelledBy: by, ...facts })
          )
          yield* notifier.enqueue(notices, now)
          const after: StoredBooking = {
            ...before,
            status: "cancelled",
            version,
            cancelledAt: now,
            cancelledBy: by,
            cancelReason: request.reason ?? null,
            cancelFeeSek: facts.feeSek,
            cancelWithinFreePeriod: facts.withinFreePeriod,
            cancelFreeUntil: facts.freeUntil
          }
          yield* announce({
            kind: "cancelled",
            cancelledBy: by,
            changeId,
            booking: after,
            partnerId: partner.id,
            version,
            at: now
          })
          return { after, notices }
        }),
        steps,
        "cancel"
      ).pipe(Effect.catchTag("LostClaim", () => Effect.succeed(undefined)))

      if (written === undefined) {
        const raced = yield* storedKey(partner, "cancel", key, steps)
        if (Option.isNone(raced))
          return yield* persistenceUnavailable("booking", steps.replayUnreadable)("key vanished")
        return yield* replayOf(raced.value.resourceId, raced.value.requestHash)
      }
      const states = yield* deliver(written.notices, changeId)
      return cancelledAnswer(written.after, states, false)
    })

    const statesOf = (subjectId: string) => bookings.deliveryStates([subjectId])

    /** Tries the new rows once at once (bounded), then reads every row's state. */
    const deliver = (notices: ReadonlyArray<Notification>, subjectId: string) =>
      Effect.gen(function* () {
        const toSend = notices.filter((row) => row.channel !== "none").map((row) => row.id)
        if (toSend.length > 0) yield* Effect.ignore(notifier.deliverNow(toSend))
        return yield* statesOf(subjectId)
      })

    // ---------------------------------------------------------------- reschedule

    const rescheduledAnswer = (
      stored: StoredBooking,
      previous: { readonly slotStart: Date; readonly slotEnd: Date },
      states: Option.Option<ReadonlyArray<DeliveryState>>,
      replay: boolean
    ): RescheduleBookingResponse => ({
      ok: true,
      spec_version: bookingsSpecVersion,
      request_id: stored.requestId,
      ...bookings.present(stored, states),
      provider_selected: true,
      availability_checked: true,
      booking_created: true,
      idempotent_replay: replay,
      previous_slot: {
        start_at: formatInZone(previous.slotStart, stored.timeZone),
        end_at: formatInZone(previous.slotEnd, stored.timeZone)
      },
      safe_next_step: `${stored.sandbox ? sandboxNote : ""}The booking has been moved and is confirmed at its new time: ${stored.providerName}, ${stored.slotLabel} (terms ${stored.termsVersion}, request_id ${stored.requestId}, version ${stored.version}). The earlier time (${slotLabel({ start: previous.slotStart.getTime(), end: previous.slotEnd.getTime() }, stored.timeZone)}) is released. Tell the user exactly this. Messages are reported in confirmation_delivery and do not change the booking.`
    })

    const assessMove = (stored: StoredBooking, expectedVersion: number | undefined, now: Date, surface: Surface) => {
      if (stored.status === "cancelled") return Effect.fail(alreadyCancelled(surface, stored))
      if (expectedVersion !== undefined && expectedVersion !== stored.version)
        return Effect.fail(stale(stored, expectedVersion, surface))
      const policy = policyOfBooking(stored)
      if (!changeableAt(policy, stored.slotStart.getTime(), now.getTime())) {
        const terms = policyTerms(policy, stored.slotStart.getTime(), stored.timeZone)
        return Effect.fail(
          new OutsideChangeWindow({
            issues: [`booking_id: the time could be changed until ${terms.change_until}`],
            booking_id: stored.id,
            request_id: stored.requestId,
            safe_next_step: `Nothing was changed: under the provider's terms this booking's time could be changed until ${terms.change_until}, and that has passed. The booking at ${stored.slotLabel} still stands. Tell the user so; they may contact ${stored.providerName} directly (request_id ${stored.requestId}), or cancel under the policy (${surface.cancelBooking(stored.requestId)} with dry_run: true shows what it would cost).`
          })
        )
      }
      return Effect.void
    }

    const slotTakenKeepsBooking = (stored: StoredBooking, surface: Surface) =>
      new SlotTaken({
        option_refresh_required: true,
        issues: ["booking_option_id: the new slot was just taken"],
        safe_next_step: `Nothing was changed: the new time was taken meanwhile. The booking at its old time (${stored.providerName}, ${stored.slotLabel}, request_id ${stored.requestId}) still stands. Tell the user so, search again (${surface.search}) for the same provider and service, and offer the new times.`
      })

    /** The option's own checks and its fit to the booking: before any write. */
    const checkOption = (
      request: RescheduleBookingRequest,
      stored: StoredBooking,
      now: Date,
      surface: Surface
    ): Effect.Effect<SignedOption, OptionInvalid | OptionExpired | OptionNotForThisBooking | InvalidRequest> =>
      Effect.gen(function* () {
        const opened = signer.open(request.booking_option_id)
        if (Result.isFailure(opened)) return yield* Effect.fail(opened.failure)
        const option = opened.success
        if (option.providerId !== stored.providerId || option.serviceId !== stored.serviceId) {
          return yield* new OptionNotForThisBooking({
            issues: [
              `booking_option_id: is for ${option.providerId}/${option.serviceId}, the booking is ${stored.providerId}/${stored.serviceId}`
            ],
            booking_id: stored.id,
            request_id: stored.requestId,
            safe_next_step: `Nothing was changed. A booking can only be moved to another time of the same provider and service (${stored.providerName}). Search again (${surface.search}) and pick an option of that provider and service_id ${stored.serviceId}; for another provider, cancel and book anew.`
          })
        }
        if (request.booking_terms_version !== option.termsVersion) {
          return yield* new InvalidRequest({
            issues: [`booking_terms_version: must equal the option's terms version ${option.termsVersion}`]
          })
        }
        if (hasExpired(option, now)) return yield* Effect.fail(signer.expiredRefusal)
        return option
      })

    const reschedule = Effect.fnUntraced(function* (
      ref: string,
      request: RescheduleBookingRequest,
      headerKey: string | undefined,
      partner: Partner["Service"],
      now: Date
    ) {
      const surface = yield* CurrentSurface
      const key = yield* keyOf(request.idempotency_key, headerKey)
      const stamps = futureStampIssues([["booking_terms_accepted_at", request.booking_terms_accepted_at]], now)
      if (stamps.length > 0) return yield* new InvalidRequest({ issues: stamps })
      const steps = rescheduleSteps(surface, ref)
      const found = yield* findBooking(partner, ref).pipe(
        Effect.catch(persistenceUnavailable("booking", steps.beforeWriting))
      )
      if (Option.isNone(found)) return yield* notFound(partner)
      const current = found.value
      const opened = signer.open(request.booking_option_id)
      const hash = fingerprintHash({
        change: "reschedule",
        booking: current.id,
        option: Result.isSuccess(opened)
          ? (({ expiresAt: _e, nonce: _n, timeZone: _z, ...what }) => what)(opened.success)
          : request.booking_option_id,
        terms_version: request.booking_terms_version
      })

      const replayOf = (resourceId: string, storedHash: string) =>
        Effect.gen(function* () {
          const loaded = yield* loadChange(partner, resourceId).pipe(
            Effect.catch(persistenceUnavailable("booking", steps.replayUnreadable))
          )
          if (Option.isNone(loaded)) {
            return yield* persistenceUnavailable(
              "booking",
              steps.replayUnreadable
            )("idempotency key without its change")
          }
          const { stored, change } = loaded.value
          if (storedHash !== hash || change.kind !== "reschedule") return yield* keyHolds("a move", stored, surface)
          if (stored.status === "cancelled") return yield* alreadyCancelled(surface, stored)
          if (stored.version !== change.version) {
            return yield* new BookingChanged({
              issues: [
                `idempotency_key: its move made version ${change.version}; the booking is at ${stored.version} now`
              ],
              booking_id: stored.id,
              request_id: stored.requestId,
              safe_next_step: `This key's move was made, but the booking has changed again since. Look it up with ${surface.bookingStatus(stored.requestId)} and tell the user how it stands now.`
            })
          }
          const states = yield* statesOf(change.id)
          return rescheduledAnswer(
            stored,
            { slotStart: change.previousSlotStart, slotEnd: change.previousSlotEnd },
            states,
            true
          )
        })

      if (request.dry_run !== true) {
        const existing = yield* storedKey(partner, "reschedule", key, steps)
        if (Option.isSome(existing)) return yield* replayOf(existing.value.resourceId, existing.value.requestHash)
      }
      yield* assessMove(current, request.expected_version, now, surface)
      const option = yield* checkOption(request, current, now, surface)
      const offer: CurrentOffer = yield* bookings
        .revalidate(option, surface)
        .pipe(Effect.catchTag("SqlError", persistenceUnavailable("booking", steps.beforeWriting)))
      const timeZone = knownTimeZone(option.timeZone)
      const newStart = new Date(option.slotStart)
      const newEnd = new Date(option.slotEnd)
      const policy = offer.cancellationPolicy ?? noStatedPolicy
      const label = slotLabel({ start: option.slotStart, end: option.slotEnd }, timeZone)

      if (request.dry_run === true) {
        const free = yield* calendar
          .isFree({
            providerId: current.providerId,
            calendar: calendarOf(partner),
            start: newStart,
            end: newEnd,
            except: current.id
          })
          .pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))
        if (!free) return yield* slotTakenKeepsBooking(current, surface)
        const newTerms = policyTerms(policy, option.slotStart, timeZone)
        const preview: ReschedulePreview = {
          ok: true,
          spec_version: bookingsSpecVersion,
          dry_run: true,
          rescheduled: false,
          booking_id: current.id,
          request_id: current.requestId,
          booking_version: current.version,
          current_slot: {
            start_at: formatInZone(current.slotStart, current.timeZone),
            end_at: formatInZone(current.slotEnd, current.timeZone)
          },
          new_slot: { start_at: formatInZone(newStart, timeZone), end_at: formatInZone(newEnd, timeZone), label },
          new_cancellation_policy: newTerms,
          safe_next_step: `Dry run: nothing was changed and nobody was told; the booking stands at ${current.slotLabel}. It can be moved to ${label} (${newTerms.summary_en}). Tell the user this and ask whether to move it. Only on their yes, send this request again without dry_run (${surface.rescheduleBooking(current.requestId)}); the time may be taken meanwhile.`
        }
        return preview
      }

      const changeId = randomUUID()
      const written = yield* transact(
        Effect.gen(function* () {
          yield* claim(partner.id, "reschedule", key, hash, changeId)
          const locked = yield* repo.lockById(current.id)
          if (Option.isNone(locked)) return yield* notFound(partner)
          const before = locked.value
          yield* assessMove(before, request.expected_version, now, surface)
          const version = before.version + 1
          // Release first: a move to a time overlapping the booking's own old one must not refuse itself.
          yield* calendar.release(before.id, now)
          yield* calendar
            .booking({
              id: BookingId.make(randomUUID()),
              bookingId: before.id,
              providerId: option.providerId,
              serviceId: option.serviceId,
              slotStart: newStart,
              slotEnd: newEnd,
              calendar: calendarOf(partner)
            })
            .pipe(
              Effect.catchIf(
                (error) => ["23P01", "40P01", "40001"].includes(sqlStateOf(error) ?? ""),
                () => Effect.fail(slotTakenKeepsBooking(before, surface))
              )
            )
          yield* sql`UPDATE bookings SET slot_start = ${newStart}, slot_end = ${newEnd}, slot_label = ${label},
              time_zone = ${timeZone}, price_sek = ${option.amountSek}, pricing_model = ${option.pricingModel},
              price_type = ${option.priceType}, unit_price_sek = ${option.unitPriceSek ?? null}, unit = ${option.unit ?? null},
              quantity = ${option.quantity ?? null}, terms_version = ${option.termsVersion},
              terms_url = ${offer.termsUrl ?? ""}, free_cancellation_hours = ${policy.freeCancellationHours},
              late_fee_sek = ${policy.lateFeeSek}, change_hours = ${policy.changeHours}, version = ${version},
              notice_subject_id = ${changeId}::uuid
            WHERE id = ${before.id}::uuid`
          yield* sql`INSERT INTO booking_changes (id, booking_id, kind, version, previous_slot_start, previous_slot_end,
              slot_start, slot_end, created_at)
            VALUES (${changeId}::uuid, ${before.id}::uuid, 'reschedule', ${version}, ${before.slotStart}, ${before.slotEnd},
              ${newStart}, ${newEnd}, ${now})`
          const after: StoredBooking = {
            ...before,
            slotStart: newStart,
            slotEnd: newEnd,
            slotLabel: label,
            timeZone,
            priceSek: option.amountSek,
            pricingModel: option.pricingModel,
            priceType: option.priceType,
            unitPriceSek: option.unitPriceSek ?? null,
            unit: option.unit ?? null,
            quantity: option.quantity ?? null,
            termsVersion: option.termsVersion,
            ...policy,
            version,
            noticeSubjectId: changeId
          }
          const previous = { slotStart: before.slotStart, slotEnd: before.slotEnd }
          const words = policyTerms(policy, option.slotStart, timeZone)
          const notices = yield* noticesOf(after, partner, changeId, "booking_rescheduled", (booking) =>
            bookingRescheduled({ ...booking, termsUrl: offer.termsUrl ?? booking.termsUrl }, previous, words, version)
          )
          yield* notifier.enqueue(notices, now)
          yield* announce({
            kind: "rescheduled",
            previous,
            changeId,
            booking: after,
            partnerId: partner.id,
            version,
            at: now
          })
          return { after, previous, notices }
        }),
        steps,
        "reschedule"
      ).pipe(Effect.catchTag("LostClaim", () => Effect.succeed(undefined)))

      if (written === undefined) {
        const raced = yield* storedKey(partner, "reschedule", key, steps)
        if (Option.isNone(raced))
          return yield* persistenceUnavailable("booking", steps.replayUnreadable)("key vanished")
        return yield* replayOf(raced.value.resourceId, raced.value.requestHash)
      }
      const states = yield* deliver(written.notices, changeId)
      return rescheduledAnswer(written.after, written.previous, states, false)
    })

    return {
      /** The partner's cancel: by the customer (default) or the partner itself. */
      cancel: (
        ref: string,
        request: CancelBookingRequest,
        headerKey: string | undefined,
        partner: Partner["Service"],
        now: Date
      ) => cancelAs(ref, request, headerKey, partner, request.cancelled_by ?? "customer", now),
      /** Issue 29's provider side calls this with `provider`. */
      cancelAs,
      reschedule
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([
      Bookings.Default,
      Calendar.Default,
      BookingsRepo.Default,
      Idempotency.Default,
      Notifier.Default,
      OptionSigner.Default,
      WebhookOutbox.Default
    ])
  )
}
