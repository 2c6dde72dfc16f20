import { Context, Duration, Effect, Fiber, FiberSet, Layer, Option } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import { isUuid } from "../Domain/Ids.js"
import type { Notification } from "../Domain/Outbox.js"
import { makeDeliverDue } from "./Attempts.js"
import { present } from "./Delivery.js"
import type { ChannelChoice, Contact, DeliveryState, RecipientRole, SubjectDeliveryState } from "./DeliveryState.js"
import { makeEmail } from "./Email.js"
import { makeOutboxRepo } from "./OutboxRepo.js"

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const outbox = yield* makeOutboxRepo
  const email = yield* makeEmail
  const deliverDue = yield* makeDeliverDue(outbox, email)

  /**
   * Where a recipient is told: providers prefer their webhook; e-mail only when SMTP is configured.
   * A sandbox partner's messages all go to the sandbox sink: kept in the outbox row, skipped, sent to no one.
   */
  const channelFor = (role: RecipientRole, contact: Contact, sandbox = false): ChannelChoice => {
    const webhookUrl = present(contact.webhookUrl)
    const emailAddress = present(contact.email)
    if (sandbox) return { channel: "sandbox", address: (role === "provider" ? webhookUrl : null) ?? emailAddress }
    if (role === "provider" && webhookUrl !== null) return { channel: "webhook", address: webhookUrl }
    if (email.configured && emailAddress !== null) return { channel: "email", address: emailAddress }
    return { channel: "none", address: null }
  }

  /** Writes outbox rows in one statement, inside the caller's transaction when there is one. */
  const enqueue = Effect.fn("Notifier.enqueue")(function* (notifications: ReadonlyArray<Notification>, now: Date) {
    for (const statement of outbox.insert(notifications, now)) yield* sql`${statement}`
  })

  // Deliveries started by deliverNow run in the service's scope with its context, not the caller's:
  // they outlive the request and never see the caller's transaction.
  const runInBackground = yield* FiberSet.makeRuntime<never, void, never>()

  /**
   * Attempts the given pending rows, waits at most NOTIFY_WAIT_MS, and answers their states then.
   * Attempts still running go on in the background and record their outcome themselves.
   */
  const deliverNow = Effect.fn("Notifier.deliverNow")(function* (ids: ReadonlyArray<string>) {
    const wanted = [...new Set(ids)].filter((id) => isUuid(id))
    if (wanted.length === 0) return [] as ReadonlyArray<DeliveryState>
    const delivering = yield* Effect.sync(() => runInBackground(deliverDue(Option.some(wanted))))
    yield* Fiber.await(delivering).pipe(Effect.timeout(Duration.millis(config.notifyWaitMs)), Effect.ignore)
    // A failed read is the caller's to report as unknown: an empty list would read as "nothing sent".
    return yield* outbox.readStates("id", wanted)
  })

  /** The notifications of the given bookings or requests. */
  const statesOf = Effect.fn("Notifier.statesOf")(function* (subjectIds: ReadonlyArray<string>) {
    const wanted = [...new Set(subjectIds)].filter((id) => isUuid(id))
    if (wanted.length === 0) return [] as ReadonlyArray<SubjectDeliveryState>
    return yield* outbox.readStates("subject_id", wanted)
  })

  /** One dispatcher pass: every due row, claimed and attempted at once. */
  const dispatch = deliverDue(Option.none())

  return {
    channelFor,
    outboxInsert: outbox.insert,
    enqueue,
    deliverNow,
    statesOf,
    dispatch,
    handedTo: outbox.handedTo,
    requestRecipients: outbox.requestRecipients,
    redactPersonalData: outbox.redactPersonalData,
    stopPending: outbox.stopPending
  } as const
})

/**
 * Customer and provider notifications through the transactional outbox: rows are written with the
 * booking, tried once right after commit (deliverNow) and retried by the dispatcher until sent or
 * given up. Delivery is at least once; a failure never touches the booking.
 */
export class Notifier extends Context.Service<Notifier>()("Booking/Notifier", {
  make: make
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(WebhookOutbox.Default))
}
