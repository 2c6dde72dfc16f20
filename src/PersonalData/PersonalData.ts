import { randomUUID } from "node:crypto"
import { Clock, Context, Duration, Effect, Layer, Option, Schedule, type Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { AppConfig } from "../AppConfig.js"
import { delivery } from "../Bookings/Answers.js"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { keyOf } from "../Bookings/Cancellations.js"
import { NotifierLive } from "../Bookings/NotifierLive.js"
import { Catalog } from "../Catalog/Catalog.js"
import { BookingNotFound } from "../Domain/BookingChange.js"
import { IdempotencyKeyReused } from "../Domain/Errors.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import {
  BookingActive,
  type ErasePersonalDataRequest,
  type PersonalDataResponse,
  personalDataErasedForProvider,
  RequestActive
} from "../Domain/Retention.js"
import { DAY, formatInZone } from "../Domain/Zone.js"
import { statesOrUnknown } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import { requestNotFound } from "../Requests/Answers.js"
import { RequestsRepo } from "../Requests/RequestsRepo.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import { fingerprintHash, Idempotency, persistenceUnavailable, sqlStateOf } from "../Shared/Idempotency.js"
import { makeErasureRepo } from "./Erasure.js"
import { bookingActive, bookingReport, requestReport } from "./Report.js"

const steps = {
  unreadable:
    "The customer's personal data could not be read right now because the database does not answer. This says nothing about what is stored; retry in a moment.",
  beforeWriting:
    "Nothing was erased: the database does not answer. Retry the same call (same idempotency_key) in a moment.",
  outcomeUnknown:
    "The outcome is unknown: the database stopped answering while the erasure was being saved. Do not tell the user it is erased, nor that it is not. Retry the same call with the same idempotency_key: it is safe."
}

const bookingNotFound = (partner: Partner["Service"]) =>
  new BookingNotFound({
    safe_next_step: `No booking with this id exists for ${partner.sandbox ? "your sandbox token" : "your token"}. Nothing was read or erased; check the id (booking.id or request_id from the confirmation).`
  })

const keyReused = (resourceId: string) =>
  new IdempotencyKeyReused({
    issues: ["idempotency_key: already holds an erasure of another booking or request"],
    request_id: resourceId,
    safe_next_step:
      "This idempotency_key already erased the personal data of another booking or request; this call erased nothing. Send a new idempotency_key for this one."
  })

const bookingPath = (id: string) => `/api/public/bookings/${id}/personal-data`
const requestPath = (id: string) => `/api/public/requests/${id}/personal-data`

/** What is stored about a customer (art. 15), its erasure on request (art. 17, 19), and the retention pass (art. 5(1)(e)). */
export class PersonalData extends Context.Service<PersonalData>()("Booking/PersonalData", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const catalog = yield* Catalog
    const notifier = yield* Notifier
    const idempotency = yield* Idempotency
    const repo = yield* makeErasureRepo
    const days = config.personalDataRetentionDays
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const noticesOf = (
      erasureId: string,
      providers: ReadonlyArray<
        Omit<Notification, "id" | "topic" | "subjectId" | "recipientRole" | "subject" | "body" | "payload">
      >,
      message: ReturnType<typeof personalDataErasedForProvider>
    ) =>
      providers.map(
        (provider): Notification => ({
          id: randomUUID(),
          topic: "personal_data_erased",
          subjectId: erasureId,
          recipientRole: "provider",
          ...provider,
          ...message
        })
      )

    const withNotices = (report: PersonalDataResponse, erasureId: string | null, replay: boolean) =>
      Effect.map(
        erasureId === null ? Effect.succeed(Option.some([])) : statesOrUnknown(notifier.statesOf([erasureId])),
        (states): PersonalDataResponse => ({
          ...report,
          provider_notices: Option.match(states, {
            onNone: () => [{ status: "unknown" as const, channel: "unknown" as const }],
            onSome: (all) => all.map(delivery)
          }),
          idempotent_replay: replay
        })
      )

    const readBooking = (partner: Partner["Service"], ref: string) =>
      repo.findBooking(partner.id, ref).pipe(Effect.catch(persistenceUnavailable("erase", steps.unreadable)))

    const bookingData = Effect.fn("PersonalData.booking")(function* (ref: string, partner: Partner["Service"]) {
      const row = yield* readBooking(partner, ref)
      if (row === undefined) return yield* bookingNotFound(partner)
      return bookingReport(row, days, yield* now, bookingPath(ref))
    })

    /** The erasure's key, claimed in its transaction; a committed twin (23505) is replayed after. */
    const claim = (partnerId: string, key: string, hash: string, resourceId: string) =>
      sql`INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
        VALUES (${partnerId}, 'erase', ${key}, ${hash}, ${resourceId}::uuid)`

    /** An erasure's transaction failed: None when a concurrent call with the same key won. */
    const claimLost = (error: SqlError) =>
      sqlStateOf(error) === "23505"
        ? Effect.succeed(Option.none<ReadonlyArray<string>>())
        : persistenceUnavailable("erase", steps.outcomeUnknown)(error)

    /** A stored erasure under this key: its answer again, or key reuse for another subject. */
    const replayWith =
      <E, R>(
        partnerId: string,
        key: string,
        hash: string,
        answer: (replay: boolean) => Effect.Effect<PersonalDataResponse, E, R>
      ) =>
      () =>
        Effect.gen(function* () {
          const stored = yield* idempotency
            .find(partnerId, "erase", key)
            .pipe(Effect.catch(persistenceUnavailable("erase", steps.beforeWriting)))
          if (Option.isNone(stored)) return Option.none<PersonalDataResponse>()
          if (stored.value.requestHash !== hash) return yield* keyReused(stored.value.resourceId)
          return Option.some(yield* answer(true))
        })

    /**
     * The erasure's transaction, then its notices sent and its answer read; a concurrent call
     * with the same key that won is answered as its replay.
     */
    const committed = <E, R, E2, R2, E3, R3>(
      erasure: Effect.Effect<ReadonlyArray<string>, E | SqlError | Schema.SchemaError, R>,
      replayOf: () => Effect.Effect<Option.Option<PersonalDataResponse>, E2, R2>,
      answer: (replay: boolean) => Effect.Effect<PersonalDataResponse, E3, R3>
    ) =>
      Effect.gen(function* () {
        const noticeIds = yield* erasure.pipe(
          sql.withTransaction,
          Effect.map(Option.some),
          Effect.catchTag("SqlError", (error) => claimLost(error as SqlError)),
          Effect.catchTag("SchemaError", (error) => Effect.die(error))
        )
        if (Option.isNone(noticeIds)) {
          const raced = yield* replayOf()
          if (Option.isSome(raced)) return raced.value
          return yield* persistenceUnavailable("erase", steps.outcomeUnknown)("key vanished")
        }
        yield* Effect.ignore(notifier.deliverNow(noticeIds.value))
        return yield* answer(false)
      })

    const activeBooking = (
      row: { id: string; requestId: string; slotStart: Date; slotEnd: Date; timeZone: string },
      at: Date
    ) =>
      Effect.fail(
        new BookingActive({
          issues: [
            `booking_id: the booking is confirmed and its slot ends at ${formatInZone(row.slotEnd, row.timeZone)}`
          ],
          booking_id: row.id,
          request_id: row.requestId,
          safe_next_step:
            row.slotStart.getTime() > at.getTime()
              ? `Nothing was erased: the booking is active and the provider still needs the customer's contact. If the user wants it erased now, they cancel the booking first (POST /api/public/bookings/${row.id}/cancel; a dry run shows whether a fee applies), then send this erasure again. Otherwise it is erased automatically ${days} days after the slot ends.`
              : `Nothing was erased: the booked job is under way until ${formatInZone(row.slotEnd, row.timeZone)}, and the provider may still need the customer's contact. Send this erasure again after that.`
        })
      )

    const readRequest = (partner: Partner["Service"], ref: string) =>
      repo.findRequest(partner.id, ref).pipe(Effect.catch(persistenceUnavailable("erase", steps.unreadable)))

    const recipientsOf = (id: string) =>
      repo.requestRecipients(id).pipe(Effect.catch(persistenceUnavailable("erase", steps.unreadable)))

    const requestData = Effect.fn("PersonalData.request")(function* (ref: string, partner: Partner["Service"]) {
      const row = yield* readRequest(partner, ref)
      if (row === undefined) return yield* requestNotFound(partner, ref)
      return requestReport(row, yield* recipientsOf(row.id), days, requestPath(ref))
    })

    /**
     * An erasure on request, the same steps for a booking and a request: the key; the subject read
     * (its 404 when it is not the partner's); a replay, or the answer again for one already erased;
     * the subject's refusal, checked before and again on the locked row; then, in one transaction,
     * the key claimed, the personal data erased and the providers who received it told.
     */
    const eraseOnRequest =
      <
        Row extends { readonly id: string; readonly erasedAt: Date | null; readonly erasureId: string | null },
        E1,
        E2,
        E3,
        E4,
        E5,
        E6
      >(
        what: "booking" | "request",
        subject: {
          readonly read: (partner: Partner["Service"], ref: string) => Effect.Effect<Row | undefined, E1>
          readonly notFound: (partner: Partner["Service"], ref: string) => E2
          readonly report: (row: Row, at: Date, ref: string) => Effect.Effect<PersonalDataResponse, E3>
          readonly refusal: (row: Row, at: Date) => Effect.Effect<void, E4>
          readonly lock: (id: string) => Effect.Effect<Row | undefined, E5>
          readonly erase: (locked: Row, at: Date, erasureId: string) => Effect.Effect<ReadonlyArray<Notification>, E6>
        }
      ) =>
      (ref: string, body: ErasePersonalDataRequest, headerKey: string | undefined, partner: Partner["Service"]) =>
        Effect.gen(function* () {
          const key = yield* keyOf(body.idempotency_key, headerKey)
          const at = yield* now
          const found = yield* subject.read(partner, ref)
          if (found === undefined) return yield* Effect.fail(subject.notFound(partner, ref))
          const hash = fingerprintHash({ erase: what, id: found.id })
          const answer = (replay: boolean) =>
            Effect.gen(function* () {
              const row = yield* subject.read(partner, found.id)
              if (row === undefined) return yield* Effect.fail(subject.notFound(partner, ref))
              return yield* withNotices(yield* subject.report(row, at, ref), row.erasureId, replay)
            })
          const replayOf = replayWith(partner.id, key, hash, answer)
          const replayed = yield* replayOf()
          if (Option.isSome(replayed)) return replayed.value
          if (found.erasedAt !== null) return yield* answer(false)
          yield* subject.refusal(found, at)

          return yield* Effect.gen(function* () {
            yield* claim(partner.id, key, hash, found.id)
            const locked = yield* subject.lock(found.id)
            if (locked === undefined || locked.erasedAt !== null) return [] as ReadonlyArray<string>
            yield* subject.refusal(locked, at)
            const notices = yield* subject.erase(locked, at, randomUUID())
            yield* notifier.enqueue(notices, at)
            return notices.map((notice) => notice.id)
          }).pipe((erasure) => committed(erasure, replayOf, answer))
        })

    const eraseBooking = Effect.fn("PersonalData.eraseBooking")(
      eraseOnRequest("booking", {
        read: readBooking,
        notFound: bookingNotFound,
        report: (row, at, ref) => Effect.succeed(bookingReport(row, days, at, bookingPath(ref))),
        refusal: (row, at) => (bookingActive(row, at) ? activeBooking(row, at) : Effect.void),
        lock: repo.lockBooking,
        erase: (locked, at, erasureId) =>
          Effect.as(
            repo.eraseBookings([locked.id], "request", at, erasureId),
            noticesOf(
              erasureId,
              [
                {
                  providerId: locked.providerId,
                  ...notifier.channelFor(
                    "provider",
                    { email: locked.notifyEmail, webhookUrl: locked.notifyWebhookUrl },
                    locked.sandbox
                  )
                }
              ],
              personalDataErasedForProvider({
                reference: locked.requestId,
                what: "booking",
                serviceLabelSv: locked.serviceLabelSv
              })
            )
          )
      })
    )

    const eraseRequest = Effect.fn("PersonalData.eraseRequest")(
      eraseOnRequest("request", {
        read: readRequest,
        notFound: requestNotFound,
        report: (row, _at, ref) =>
          Effect.map(recipientsOf(row.id), (recipients) => requestReport(row, recipients, days, requestPath(ref))),
        refusal: (row) =>
          row.status === "withdrawn"
            ? Effect.void
            : Effect.fail(
                new RequestActive({
                  issues: ["request_id: the follow-up request is not withdrawn"],
                  request_id: row.id,
                  safe_next_step: `Nothing was erased: the follow-up request is open, so providers may still contact the customer about it. If the user wants it erased now, withdraw it first (POST /api/public/requests/${row.id}/withdraw; the providers are told), then send this erasure again.`
                })
              ),
        lock: repo.lockRequest,
        erase: (locked, at, erasureId) =>
          Effect.gen(function* () {
            // Only a provider the request reached holds its data; a sandbox request reached nobody.
            const received = (yield* repo.requestRecipients(locked.id)).filter(
              (recipient) =>
                recipient.status === "sent" && (recipient.channel === "email" || recipient.channel === "webhook")
            )
            yield* repo.eraseRequests([locked.id], "request", at, erasureId)
            const label = Option.match(catalog.jobType(locked.verticalId, locked.jobTypeId), {
              onNone: () => locked.jobTypeId,
              onSome: (jobType) => jobType.label_sv
            })
            return noticesOf(
              erasureId,
              received.map((recipient) => ({
                providerId: recipient.providerId,
                channel: recipient.channel,
                address: recipient.address
              })),
              personalDataErasedForProvider({ reference: locked.sessionId, what: "request", serviceLabelSv: label })
            )
          })
      })
    )

    /**
     * One retention pass: every booking whose slot ended (or that was cancelled) and every request
     * last changed more than PERSONAL_DATA_RETENTION_DAYS ago, erased a batch per transaction.
     */
    const retentionPass = Effect.fn("PersonalData.retentionPass")(function* () {
      const at = yield* now
      const cutoff = new Date(at.getTime() - days * DAY)
      /** Batches of due rows erased, each in its own transaction, until a batch comes back short. */
      const drain = <E, R>(
        due: Effect.Effect<ReadonlyArray<{ readonly id: string }>, E, R>,
        erase: typeof repo.eraseBookings
      ) =>
        Effect.gen(function* () {
          let total = 0
          for (;;) {
            const erased = yield* Effect.flatMap(due, (rows) =>
              erase(
                rows.map((row) => row.id),
                "retention",
                at,
                null
              )
            ).pipe(sql.withTransaction)
            total += erased.length
            if (erased.length < repo.batch) return total
          }
        })
      const bookings = yield* drain(repo.dueBookings(cutoff), repo.eraseBookings)
      const requests = yield* drain(repo.dueRequests(cutoff), repo.eraseRequests)
      return { bookings, requests }
    })

    return { bookingData, eraseBooking, requestData, eraseRequest, retentionPass } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([Catalog.Default, NotifierLive, Idempotency.Default, BookingsRepo.Default, RequestsRepo.Default])
  )
}

/** How often the retention pass runs: a value is erased within this of its `erase_after`. */
export const retentionPassInterval = Duration.hours(1)

/** The retention pass: at start, then hourly, on the service's clock. A failed pass is logged and the next one tries again. */
export const PersonalDataRetentionLive = Layer.effectDiscard(
  Effect.flatMap(PersonalData, (personalData) =>
    personalData.retentionPass().pipe(
      Effect.catchCause((cause) => logFailureWarning("personal data retention pass failed", cause)),
      Effect.repeat(Schedule.spaced(retentionPassInterval)),
      Effect.forkScoped
    )
  )
).pipe(Layer.provide(PersonalData.Default))
