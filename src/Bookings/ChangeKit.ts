import { randomUUID } from "node:crypto"
import { Cause, Data, Effect, Option } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import * as SqlErrorModule from "effect/sql/SqlError"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import { type BookingUnavailable, customerNameOf } from "../Domain/Booking.js"
import { BookingChanged, BookingNotFound, type CancelledBy } from "../Domain/BookingChange.js"
import type { StoredBooking } from "../Domain/BookingRecord.js"
import type { bookingCancelled, ChangedBooking } from "../Domain/ChangeMessages.js"
import { IdempotencyKeyReused, InvalidRequest } from "../Domain/Errors.js"
import { isUuid } from "../Domain/Ids.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import type { Surface } from "../Domain/Surface.js"
import {
  bookingCancelled as webhookBookingCancelled,
  bookingRescheduled as webhookBookingRescheduled
} from "../Domain/WebhookEvents.js"
import { isDeliverable } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar } from "../Shared/Calendar.js"
import { HoldsRepo } from "../Shared/HoldsRepo.js"
import {
  Idempotency,
  idempotencyKeyOf,
  persistenceUnavailable,
  sqlStateOf,
  writeOutcome
} from "../Shared/Idempotency.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { Bookings } from "./Bookings.js"
import { BookingsRepo } from "./BookingsRepo.js"

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
 * the payload is the thin event of src/Domain/WebhookEvents.ts (ids, slot, price, who cancelled), never
 * the customer or the cancel's reason.
 */
export const announceToPartner =
  (outbox: WebhookOutbox["Service"]) =>
  (change: PartnerVisibleChange): Effect.Effect<void, SqlError.SqlError> =>
    outbox.emit(
      { partnerId: change.partnerId, sandbox: change.booking.sandbox },
      change.kind === "cancelled"
        ? webhookBookingCancelled(
            change.booking,
            change.cancelledBy,
            change.at,
            change.booking.cancelFeeSek === null || change.booking.cancelLegalBasis === null
              ? undefined
              : { feeSek: change.booking.cancelFeeSek, legalBasis: change.booking.cancelLegalBasis }
          )
        : webhookBookingRescheduled(change.booking, change.previous, change.at),
      change.at
    )

/** The key's claim met a committed key of a concurrent attempt: replay it after the rollback. */
export class LostClaim extends Data.TaggedError("LostClaim")<{}> {}

/** A statement inside the change's transaction failed: the transaction rolled back, nothing was written. */
export class RolledBack extends Data.TaggedError("RolledBack")<{ readonly cause: SqlError.SqlError }> {}

export const cancelSteps = (surface: Surface, bookingId: string) => ({
  beforeWriting:
    "The booking could not be read or cancelled because the database does not answer. This call cancelled nothing; if an earlier attempt with the same idempotency_key cancelled it, that stands. Do not tell the user it is cancelled, nor that it is not. Retry the same request (same idempotency_key) in a moment.",
  notWritten:
    "Nothing was cancelled by this attempt: the database failed before the cancellation was saved, so the booking stands as it was. Do not tell the user it is cancelled. Retry the same request (same idempotency_key) in a moment.",
  commitUnknown: `The outcome is unknown: the database stopped answering while the cancellation was being saved, so the booking may or may not be cancelled. Do not tell the user either. Retry the same request with the same idempotency_key (safe: it returns the cancellation if it was saved), or look the booking up with ${surface.bookingStatus(bookingId)} once the service answers.`,
  replayUnreadable:
    "This idempotency_key already holds a cancellation, but it cannot be read right now because the database does not answer. Do not cancel again with a new key. Retry the same request in a moment."
})

export const rescheduleSteps = (surface: Surface, bookingId: string) => ({
  beforeWriting:
    "The booking could not be read or moved because the database does not answer. This call changed nothing; if an earlier attempt with the same idempotency_key moved it, that stands. Do not tell the user the time changed, nor that it did not. Retry the same request (same idempotency_key) in a moment.",
  notWritten:
    "Nothing was changed by this attempt: the database failed before the new time was saved, so the booking at its old time still stands. Retry the same request (same idempotency_key) in a moment.",
  commitUnknown: `The outcome is unknown: the database stopped answering while the new time was being saved, so the booking may be at its old time or its new one. Do not tell the user either. Retry the same request with the same idempotency_key (safe: it returns the moved booking if the move was saved), or look it up with ${surface.bookingStatus(bookingId)} once the service answers.`,
  replayUnreadable:
    "This idempotency_key already holds a move of the booking, but it cannot be read right now because the database does not answer. Do not move it again with a new key. Retry the same request in a moment."
})

export const notFound = (partner: Partner["Service"]) =>
  new BookingNotFound({
    safe_next_step: `No booking with this id exists for ${partner.sandbox ? "your sandbox token" : "your token"}. Nothing was changed. Do not tell the user anything was cancelled or moved; check the id (booking.id or request_id from the confirmation).`
  })

export const keyRequired = new InvalidRequest({
  issues: ["idempotency_key: is required (in the body, or as the Idempotency-Key header)"],
  safe_next_step:
    "Nothing was changed. Send the request again with an idempotency_key (in the body or the Idempotency-Key header), and reuse that key on every retry of this change."
})

export const keyOf = (bodyKey: string | undefined, headerKey: string | undefined) =>
  Effect.flatMap(idempotencyKeyOf(bodyKey, headerKey), (key) =>
    key === undefined ? Effect.fail(keyRequired) : Effect.succeed(key)
  )

export const stale = (stored: StoredBooking, expected: number, surface: Surface) =>
  new BookingChanged({
    issues: [`expected_version: the booking is at version ${stored.version}, not ${expected}`],
    booking_id: stored.id,
    request_id: stored.requestId,
    safe_next_step: `Nothing was changed: the booking changed since you read it. Look it up with ${surface.bookingStatus(stored.requestId)}, tell the user how it stands now, and ask again before changing it.`
  })

/**
 * What cancel and reschedule share: the services they write through, the booking lookup, the
 * key's claim and replay, the one transaction a change runs in, and its notices and deliveries.
 */
export const makeChangeKit = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const calendar = yield* Calendar
  const repo = yield* BookingsRepo
  const bookings = yield* Bookings
  const idempotency = yield* Idempotency
  const notifier = yield* Notifier
  const signer = yield* OptionSigner
  const bookingOptions = yield* BookingOptions
  const holds = yield* HoldsRepo
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
        Effect.mapError(body, (error) => (SqlErrorModule.isSqlError(error) ? new RolledBack({ cause: error }) : error))
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
    idempotency.find(partner.id, scope, key).pipe(Effect.catch(persistenceUnavailable("booking", steps.beforeWriting)))

  /** What a replay must find: missing, it is the 503 that says retry (the key's write is still unsettled). */
  const foundOr =
    (steps: ReturnType<typeof cancelSteps>, missing: string) =>
    <A>(found: Option.Option<A>) =>
      Option.isSome(found)
        ? Effect.succeed(found.value)
        : persistenceUnavailable("booking", steps.replayUnreadable)(missing)

  /** The change a key already holds, with its booking; one that cannot be read is the 503 that says retry. */
  const replayed = (partner: Partner["Service"], resourceId: string, steps: ReturnType<typeof cancelSteps>) =>
    loadChange(partner, resourceId).pipe(
      Effect.catch(persistenceUnavailable("booking", steps.replayUnreadable)),
      Effect.flatMap(foundOr(steps, "idempotency key without its change"))
    )

  /** The key a concurrent change claimed first, for its answer to be replayed. */
  const racedKey = (
    partner: Partner["Service"],
    scope: "cancel" | "reschedule",
    key: string,
    steps: ReturnType<typeof cancelSteps>
  ) => storedKey(partner, scope, key, steps).pipe(Effect.flatMap(foundOr(steps, "key vanished")))

  /** Inside the change's transaction: the key claimed for it, then the booking locked as it is now. */
  const claimAndLock = (
    partner: Partner["Service"],
    scope: "cancel" | "reschedule",
    key: string,
    hash: string,
    changeId: string,
    bookingId: string
  ) =>
    Effect.gen(function* () {
      yield* claim(partner.id, scope, key, hash, changeId)
      const locked = yield* repo.lockById(bookingId)
      if (Option.isNone(locked)) return yield* notFound(partner)
      return locked.value
    })

  const keyHolds = (what: string, stored: StoredBooking, surface: Surface) =>
    new IdempotencyKeyReused({
      issues: [`idempotency_key: already holds ${what} with other details`],
      booking_id: stored.id,
      request_id: stored.requestId,
      safe_next_step: `This idempotency_key already holds ${what} (request_id ${stored.requestId}). This call changed nothing. Look the booking up with ${surface.bookingStatus(stored.requestId)} and tell the user how it stands; for a different change, use a new idempotency_key.`
    })

  const statesOf = (subjectId: string) => bookings.deliveryStates([subjectId])

  /** Tries the new rows once at once (bounded), then reads every row's state. */
  const deliver = (notices: ReadonlyArray<Notification>, subjectId: string) =>
    Effect.gen(function* () {
      const toSend = notices.filter((row) => isDeliverable(row.channel)).map((row) => row.id)
      if (toSend.length > 0) yield* Effect.ignore(notifier.deliverNow(toSend))
      return yield* statesOf(subjectId)
    })

  return {
    sql,
    calendar,
    repo,
    bookings,
    notifier,
    signer,
    bookingOptions,
    holds,
    announce,
    findBooking,
    noticesOf,
    claimAndLock,
    transact,
    replayed,
    storedKey,
    racedKey,
    keyHolds,
    statesOf,
    deliver
  } as const
})

export type ChangeKit = Effect.Success<typeof makeChangeKit>
