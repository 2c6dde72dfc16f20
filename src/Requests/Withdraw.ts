import { randomUUID } from "node:crypto"
import { Context, Effect, Layer, Option } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { NotifierLive } from "../Bookings/NotifierLive.js"
import { Catalog } from "../Catalog/Catalog.js"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import { IdempotencyKeyReused } from "../Domain/Errors.js"
import { requestWithdrawnForProvider } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import type { WithdrawRequest } from "../Domain/Request.js"
import { RequestAlreadyWithdrawn, type ServiceRequestResponse } from "../Domain/Request.js"
import type { StoredRequest } from "../Domain/RequestRecord.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { requestWithdrawn } from "../Domain/WebhookEvents.js"
import { formatInZone, providerTimeZone } from "../Domain/Zone.js"
import { statesOrUnknown } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import {
  fingerprintHash,
  Idempotency,
  persistenceUnavailable,
  requiredKeyOf,
  type StoredKey,
  sqlStateOf
} from "../Shared/Idempotency.js"
import { answerWithStates, requestNotFound, subjectsOf } from "./Answers.js"
import { RequestsRepo } from "./RequestsRepo.js"

const steps = {
  beforeWriting:
    "The withdrawal could not be checked or saved because the database does not answer. This attempt changed nothing and told nobody; if an earlier attempt with the same idempotency_key succeeded, the request is withdrawn. Do not tell the user it is withdrawn. Retry the same call (same idempotency_key) in a moment.",
  outcomeUnknown:
    "The outcome is unknown: the database stopped answering while the withdrawal was being saved, so the request may or may not be withdrawn. Do not tell the user either. Retry the same call with the same idempotency_key (safe: it answers the withdrawal if it was saved, and withdraws it if not).",
  replayUnreadable:
    "A withdrawal was already made with this idempotency_key, but it cannot be read right now because the database does not answer. Retry the same call in a moment."
}

const alreadyWithdrawn = (stored: StoredRequest, surface: Surface) =>
  new RequestAlreadyWithdrawn({
    issues: [
      `request_id: ${stored.id} was withdrawn at ${stored.withdrawnAt === null ? "an earlier time" : formatInZone(stored.withdrawnAt, providerTimeZone)} by a call with another idempotency_key; this call changed nothing and told nobody`
    ],
    request_id: stored.id,
    safe_next_step: `The request stays withdrawn and nothing is booked. Look it up with ${surface.requestStatus(stored.id)} to see whether the providers who had it were told; do not withdraw it again.`
  })

/** A follow-up request withdrawn by its partner: the providers who had it are told, once per key. */
export class RequestWithdrawals extends Context.Service<RequestWithdrawals>()("Booking/RequestWithdrawals", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const catalog = yield* Catalog
    const requests = yield* RequestsRepo
    const notifier = yield* Notifier
    const idempotency = yield* Idempotency
    const webhookOutbox = yield* WebhookOutbox

    const answer = (stored: StoredRequest, surface: Surface, replay: boolean) =>
      Effect.map(statesOrUnknown(notifier.statesOf(subjectsOf(stored))), (states): ServiceRequestResponse => {
        const { safe_next_step, ...rest } = answerWithStates(stored, states, surface, config.notifyGiveUpHours)
        return { ...rest, idempotent_replay: replay, safe_next_step }
      })

    const reread = (partner: Partner["Service"], id: string, step: string) =>
      requests.findById(partner.id, id).pipe(
        Effect.catch(persistenceUnavailable("withdraw", step)),
        Effect.flatMap((found) =>
          Option.isSome(found)
            ? Effect.succeed(found.value)
            : persistenceUnavailable("withdraw", step)("request vanished")
        )
      )

    /** A used key answers its withdrawal again, or names the request it holds when this call asks otherwise. */
    const replayOf = (partner: Partner["Service"], current: StoredRequest, hash: string, surface: Surface) =>
      Effect.fnUntraced(function* (stored: StoredKey) {
        if (stored.resourceId !== current.id || stored.requestHash !== hash) {
          return yield* new IdempotencyKeyReused({
            issues: ["idempotency_key: already holds a withdrawal with other details"],
            request_id: stored.resourceId,
            safe_next_step: `This idempotency_key already withdrew follow-up request ${stored.resourceId}; this call changed nothing. Look that request up with ${surface.requestStatus(stored.resourceId)}. To withdraw another request, send a new idempotency_key.`
          })
        }
        return yield* answer(yield* reread(partner, current.id, steps.replayUnreadable), surface, true)
      })

    const noticesTo = (
      stored: StoredRequest,
      withdrawalId: string,
      handedTo: ReadonlyArray<{ providerId: string; channel: Notification["channel"]; address: string | null }>
    ): ReadonlyArray<Notification> => {
      const jobTypeLabelSv = Option.match(catalog.jobType(stored.verticalId, stored.jobTypeId), {
        onNone: () => stored.jobTypeId,
        onSome: (jobType) => jobType.label_sv
      })
      const message = requestWithdrawnForProvider({ requestId: stored.sessionId, jobTypeLabelSv })
      return handedTo.map(({ providerId, channel, address }) => ({
        id: randomUUID(),
        topic: "request_withdrawn",
        subjectId: withdrawalId,
        recipientRole: "provider",
        providerId,
        channel,
        address,
        ...message
      }))
    }

    /** In one transaction: the key, the request locked and marked, its undelivered copies stopped, the notices and the event. */
    const write = (
      partner: Partner["Service"],
      current: StoredRequest,
      key: string,
      hash: string,
      reason: string | null,
      now: Date,
      surface: Surface
    ) =>
      Effect.gen(function* () {
        yield* sql`INSERT INTO idempotency_keys (partner_id, scope, key, request_hash, resource_id)
          VALUES (${partner.id}, 'withdraw', ${key}, ${hash}, ${current.id}::uuid)`
        const locked = yield* requests.lockById(current.id)
        if (Option.isNone(locked)) return yield* requestNotFound(partner, current.id)
        if (locked.value.status === "withdrawn") return yield* alreadyWithdrawn(locked.value, surface)
        const withdrawalId = randomUUID()
        // Sandbox copies were recorded, never sent: nobody had the request, so nobody is told.
        const notices = noticesTo(locked.value, withdrawalId, yield* notifier.handedTo(current.id))
        yield* notifier.stopPending(current.id)
        yield* requests.withdraw(current.id, { id: withdrawalId, reason }, now)
        yield* notifier.enqueue(notices, now)
        yield* webhookOutbox.emit(
          { partnerId: partner.id, sandbox: locked.value.sandbox },
          requestWithdrawn(locked.value, notices.length, now),
          now
        )
        return notices.map((notice) => notice.id)
      }).pipe(sql.withTransaction)

    const withdraw = Effect.fn("Requests.withdraw")(function* (
      requestId: string,
      body: WithdrawRequest,
      headerKey: string | undefined,
      partner: Partner["Service"],
      now: Date
    ) {
      const surface = yield* CurrentSurface
      const key = yield* requiredKeyOf(
        body.idempotency_key,
        headerKey,
        "Send the withdrawal again with an idempotency_key, and the same key on every retry of it."
      )
      const found = yield* requests
        .find(partner.id, requestId)
        .pipe(Effect.catch(persistenceUnavailable("withdraw", steps.beforeWriting)))
      if (Option.isNone(found)) return yield* requestNotFound(partner, requestId)
      const current = found.value
      const hash = fingerprintHash({ request_id: current.id, reason: body.reason ?? null })
      const replay = replayOf(partner, current, hash, surface)
      const existing = yield* idempotency
        .find(partner.id, "withdraw", key)
        .pipe(Effect.catch(persistenceUnavailable("withdraw", steps.beforeWriting)))
      if (Option.isSome(existing)) return yield* replay(existing.value)
      if (current.status === "withdrawn") return yield* alreadyWithdrawn(current, surface)

      const written = yield* write(partner, current, key, hash, body.reason ?? null, now, surface).pipe(
        Effect.map(Option.some),
        Effect.catchTag("SqlError", (error) =>
          // A concurrent call with the same key committed first: answer what it did.
          sqlStateOf(error) === "23505"
            ? Effect.succeed(Option.none<ReadonlyArray<string>>())
            : persistenceUnavailable("withdraw", steps.outcomeUnknown)(error)
        ),
        Effect.catchTag("SchemaError", (error) => Effect.die(error))
      )
      if (Option.isNone(written)) {
        const raced = yield* idempotency
          .find(partner.id, "withdraw", key)
          .pipe(Effect.catch(persistenceUnavailable("withdraw", steps.replayUnreadable)))
        if (Option.isNone(raced))
          return yield* persistenceUnavailable("withdraw", steps.replayUnreadable)("key vanished")
        return yield* replay(raced.value)
      }
      // Told within the bounded wait; the dispatcher retries what is left.
      yield* Effect.ignore(notifier.deliverNow(written.value))
      return yield* answer(yield* reread(partner, current.id, steps.replayUnreadable), surface, false)
    })

    return { withdraw } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([Catalog.Default, RequestsRepo.Default, NotifierLive, Idempotency.Default, WebhookOutbox.Default])
  )
}
