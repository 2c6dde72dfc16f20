import {
  Context,
  Data,
  DateTime,
  Duration,
  Effect,
  Fiber,
  FiberSet,
  Layer,
  Metric,
  Option,
  Random,
  Redacted,
  Schema
} from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import nodemailer from "nodemailer"
import { AppConfig } from "../AppConfig.js"
import { DirectQuery } from "../Database/Database.js"
import { rowsOf } from "../Database/Rows.js"
import { isUuid } from "../Domain/Ids.js"
import type { Notification, OutboxRow } from "../Domain/Outbox.js"
import { logFailure } from "../Http/FailureSummary.js"
import { notifications as notificationsTotal } from "../Http/Metrics.js"
import { bookingConfirmationFailed, type Handoff, requestHandoffChanged } from "../Webhooks/Events.js"
import { WebhookOutbox } from "../Webhooks/Outbox.js"
import { providerSignedHeaders } from "../Webhooks/Signing.js"

const RecipientRole = Schema.Literals(["customer", "provider"])
export type RecipientRole = typeof RecipientRole.Type
const Channel = Schema.Literals(["email", "webhook", "none", "sandbox"])
export type Channel = typeof Channel.Type
const DeliveryStatus = Schema.Literals(["pending", "sent", "failed", "skipped"])
export type DeliveryStatus = typeof DeliveryStatus.Type

export interface DeliveryState {
  readonly id: string
  readonly recipientRole: RecipientRole
  readonly channel: Channel
  readonly status: DeliveryStatus
  readonly attempts: number
  /** Only while pending. */
  readonly nextAttemptAt: Date | null
  readonly lastError: string | null
  readonly sentAt: Date | null
}

export interface SubjectDeliveryState extends DeliveryState {
  readonly subjectId: string
}

export interface Contact {
  readonly email?: string | null | undefined
  readonly webhookUrl?: string | null | undefined
}

export interface ChannelChoice {
  readonly channel: Channel
  readonly address: string | null
}

const ClaimedRow = Schema.Struct({
  id: Schema.String,
  topic: Schema.String,
  subjectId: Schema.String,
  recipientRole: RecipientRole,
  providerId: Schema.NullOr(Schema.String),
  channel: Channel,
  address: Schema.NullOr(Schema.String),
  subject: Schema.String,
  body: Schema.String,
  payload: Schema.Record(Schema.String, Schema.Unknown),
  attempts: Schema.Int
})
type ClaimedRow = typeof ClaimedRow.Type

const SecretRow = Schema.Struct({ notifyWebhookSecret: Schema.NullOr(Schema.String) })

const StatusRow = Schema.Struct({ status: DeliveryStatus })

const StateRow = Schema.Struct({
  id: Schema.String,
  subjectId: Schema.String,
  recipientRole: RecipientRole,
  channel: Channel,
  status: DeliveryStatus,
  attempts: Schema.Int,
  nextAttemptAt: Schema.Date,
  lastError: Schema.NullOr(Schema.String),
  sentAt: Schema.NullOr(Schema.Date)
})
type StateRow = typeof StateRow.Type

/** Longer than an attempt can take (a claim's rows are all attempted at once), so no row is sent twice at once. */
const LEASE_SECONDS = 60
const ATTEMPT_TIMEOUT = Duration.seconds(20)
const WEBHOOK_TIMEOUT = Duration.seconds(10)
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 10_000 }
const BATCH_SIZE = 20
const FIRST_RETRY_MS = 30_000
const MAX_RETRY_MS = 30 * 60_000

/**
 * The wait after the `failedAttempts`-th failure: 30 s doubling up to 30 min, less up to a fifth
 * at random (`random` in [0, 1)) so rows that failed together do not retry together.
 */
export const retryDelayMs = (failedAttempts: number, random: number): number =>
  Math.round(Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_MS) * (1 - 0.2 * random))

class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{ readonly reason: string }> {}

const fail = (reason: string) => Effect.fail(new DeliveryFailed({ reason }))

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

const present = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? ""
  return trimmed === "" ? null : trimmed
}

const couldNotConnect = "could not connect to the SMTP server"

const smtpProblems: Record<string, string> = {
  ECONNECTION: couldNotConnect,
  ETIMEDOUT: "the SMTP server did not answer in time",
  ESOCKET: "the SMTP connection failed",
  EAUTH: "the SMTP server refused the login",
  ETLS: "the SMTP TLS handshake failed",
  EENVELOPE: "the SMTP server refused the sender or recipient",
  EMESSAGE: "the SMTP server refused the message",
  EPROTOCOL: "the SMTP server broke the protocol"
}

const errorCode = (value: unknown) => (typeof value === "string" && /^[A-Z][A-Z0-9_]*$/.test(value) ? value : undefined)

// Server replies can quote the addresses, so only error codes and the reply code are kept.
const smtpProblem = (error: unknown) => {
  const fields = (error ?? {}) as { code?: unknown; originalCode?: unknown; responseCode?: unknown; syscall?: unknown }
  const code = errorCode(fields.code)
  const cause = errorCode(fields.originalCode)
  const problem =
    fields.syscall === "connect" || fields.syscall === "getaddrinfo"
      ? couldNotConnect
      : ((code && smtpProblems[code]) ?? "sending the e-mail failed")
  const detail = [cause ?? code, typeof fields.responseCode === "number" ? fields.responseCode : undefined]
    .filter((part) => part !== undefined)
    .join(" ")
  return detail === "" ? problem : `${problem} (${detail})`
}

const networkProblem = (error: unknown) => {
  const code = errorCode((error as { cause?: { code?: unknown } } | undefined)?.cause?.code)
  return `the webhook request failed (${code ?? "network error"})`
}

/**
 * An outbox row as `jsonb_to_recordset` reads it: the table's column names, dates as ISO text.
 * Mapped by hand rather than by OutboxRow's encoder: the rows are built in code and typed, and
 * the encoder was a tenth of the cost of writing a confirmation.
 */
const outboxRecord = (row: OutboxRow) => ({
  id: row.id,
  topic: row.topic,
  subject_id: row.subjectId,
  recipient_role: row.recipientRole,
  provider_id: row.providerId,
  channel: row.channel,
  address: row.address,
  subject: row.subject,
  body: row.body,
  payload: row.payload,
  status: row.status,
  give_up_at: row.giveUpAt.toISOString()
})

const toState = (row: StateRow): SubjectDeliveryState => ({
  id: row.id,
  subjectId: row.subjectId,
  recipientRole: row.recipientRole,
  channel: row.channel,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
  lastError: row.lastError,
  sentAt: row.sentAt
})

/** The hand-off as a request's status tells it, from its provider rows' states (Requests.handoffOf for a queued plan). */
const handoffFrom = (statuses: ReadonlyArray<DeliveryStatus>): Handoff => {
  const reached = statuses.filter((status) => status === "sent").length
  const pending = statuses.filter((status) => status === "pending").length
  return {
    status: reached > 0 ? "sent" : pending > 0 ? "queued" : "not_sent",
    providers_reached: reached,
    providers_pending: pending
  }
}

const BookingFactsRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  partnerId: Schema.String,
  providerId: Schema.String,
  serviceId: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  priceSek: Schema.Int,
  sandbox: Schema.Boolean
})

const RequestFactsRow = Schema.Struct({ partnerId: Schema.String, sandbox: Schema.Boolean })

const OutboxStatusRow = Schema.Struct({ id: Schema.String, status: DeliveryStatus })

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const direct = yield* DirectQuery
  const config = yield* AppConfig
  const webhookOutbox = yield* WebhookOutbox
  const waitMs = config.notifyWaitMs

  const mailer = Option.map(config.smtpUrl, (url) =>
    nodemailer.createTransport({ url: Redacted.value(url), ...SMTP_TIMEOUTS })
  )
  if (Option.isSome(mailer)) {
    yield* Effect.addFinalizer(() => Effect.sync(() => mailer.value.close()))
  } else {
    yield* Effect.logWarning("SMTP_URL is not set: e-mail notifications are skipped")
  }

  /**
   * Where a recipient is told: providers prefer their webhook; e-mail only when SMTP is configured.
   * A sandbox partner's messages all go to the sandbox sink: kept in the outbox row, sent to no one.
   */
  const channelFor = (role: RecipientRole, contact: Contact, sandbox = false): ChannelChoice => {
    const webhookUrl = present(contact.webhookUrl)
    const email = present(contact.email)
    if (sandbox) return { channel: "sandbox", address: (role === "provider" ? webhookUrl : null) ?? email }
    if (role === "provider" && webhookUrl !== null) return { channel: "webhook", address: webhookUrl }
    if (Option.isSome(mailer) && email !== null) return { channel: "email", address: email }
    return { channel: "none", address: null }
  }

  /**
   * The statement that writes outbox rows (none for no rows), for a writer to run with what they
   * announce, so the rows commit or roll back with it.
   */
  const outboxInsert = (notifications: ReadonlyArray<Notification>, now: Date): ReadonlyArray<Statement.Fragment> => {
    if (notifications.length === 0) return []
    // A row without a channel is skipped at once; the others are retried until the give-up time.
    const giveUpAt = new Date(now.getTime() + config.notifyGiveUpHours * 3_600_000)
    const rows = notifications.map((row) =>
      outboxRecord({ ...row, status: row.channel === "none" ? "skipped" : "pending", giveUpAt })
    )
    // Written at the caller's time, due at once: the dispatcher and the give-up read the service's clock, not the database's.
    return [
      sql`
      INSERT INTO notification_outbox (id, topic, subject_id, recipient_role, provider_id, channel, address,
        subject, body, payload, status, give_up_at, next_attempt_at, created_at)
      SELECT x.id, x.topic, x.subject_id, x.recipient_role, x.provider_id, x.channel, x.address,
        x.subject, x.body, x.payload, x.status, x.give_up_at, ${now}::timestamptz, ${now}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id uuid, topic text, subject_id uuid,
        recipient_role text, provider_id text, channel text, address text, subject text, body text, payload jsonb,
        status text, give_up_at timestamptz)`
    ]
  }

  /** Writes outbox rows in one statement, inside the caller's transaction when there is one. */
  const enqueue = Effect.fn("Notifier.enqueue")(function* (notifications: ReadonlyArray<Notification>, now: Date) {
    for (const statement of outboxInsert(notifications, now)) yield* sql`${statement}`
  })

  /**
   * Takes due pending rows (only `ids` when given) and pushes them a lease into the future in one
   * statement; SKIP LOCKED and the lease keep two instances from taking one row at the same time.
   */
  const claim = (ids: Option.Option<ReadonlyArray<string>>, now: Date) =>
    sql`
      WITH due AS (
        SELECT id FROM notification_outbox
        WHERE status = 'pending' AND next_attempt_at <= ${now}::timestamptz
          ${Option.match(ids, { onNone: () => sql``, onSome: (list) => sql`AND id IN ${sql.in(list)}` })}
        ORDER BY next_attempt_at
        LIMIT ${Option.match(ids, { onNone: () => BATCH_SIZE, onSome: (list) => list.length })}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE notification_outbox o SET next_attempt_at = ${now}::timestamptz + make_interval(secs => ${LEASE_SECONDS})
      FROM due WHERE o.id = due.id
      RETURNING o.id, o.topic, o.subject_id, o.recipient_role, o.provider_id, o.channel, o.address, o.subject, o.body,
        o.payload, o.attempts`.pipe(rowsOf(ClaimedRow))

  const sendEmail = (row: ClaimedRow) => {
    if (Option.isNone(mailer)) return fail("SMTP_URL is not configured")
    if (row.address === null) return fail("the row has no e-mail address")
    const to = { name: "", address: row.address }
    return Effect.tryPromise({
      try: () => mailer.value.sendMail({ from: config.notifyFrom, to, subject: row.subject, text: row.body }),
      catch: (error) => new DeliveryFailed({ reason: smtpProblem(error) })
    })
  }

  const webhookSecret = (providerId: string) =>
    sql`SELECT notify_webhook_secret FROM providers WHERE id = ${providerId}`.pipe(
      rowsOf(SecretRow),
      Effect.map((rows) => present(rows[0]?.notifyWebhookSecret)),
      Effect.mapError(() => new DeliveryFailed({ reason: "the webhook secret could not be read" }))
    )

  const sendWebhook = Effect.fn("Notifier.sendWebhook")(function* (row: ClaimedRow) {
    const url = URL.canParse(row.address ?? "") ? new URL(row.address ?? "") : undefined
    if (url === undefined) return yield* fail("the webhook url is not a valid URL")
    const plainHttpAllowed = loopbackHosts.has(url.hostname) || config.appEnv === "development"
    if (url.protocol !== "https:" && !(url.protocol === "http:" && plainHttpAllowed)) {
      return yield* fail("the webhook url must be https")
    }
    if (row.providerId === null) return yield* fail("the webhook row names no provider")
    const secret = yield* webhookSecret(row.providerId)
    if (secret === null) return yield* fail("the provider has no webhook secret")
    const body = JSON.stringify(row.payload)
    const at = yield* DateTime.nowAsDate
    const response = yield* Effect.tryPromise({
      try: (signal) =>
        fetch(url, {
          method: "POST",
          body,
          signal,
          // A redirect would carry the signed payload somewhere the provider did not register.
          redirect: "manual",
          // Standard Webhooks: the row's id is the webhook-id of every attempt, so the provider can drop repeats.
          headers: { "content-type": "application/json", ...providerSignedHeaders({ id: row.id, at, body, secret }) }
        }),
      catch: (error) => new DeliveryFailed({ reason: networkProblem(error) })
    }).pipe(
      Effect.timeoutOrElse({
        duration: WEBHOOK_TIMEOUT,
        orElse: () => Effect.fail(new DeliveryFailed({ reason: "the webhook did not answer in time" }))
      })
    )
    yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve()).pipe(Effect.ignore)
    if (response.status < 200 || response.status > 299) return yield* fail(`the webhook answered ${response.status}`)
  })

  const send = (row: ClaimedRow): Effect.Effect<void, DeliveryFailed> => {
    switch (row.channel) {
      case "email":
        return sendEmail(row)
      case "webhook":
        return sendWebhook(row)
      case "none":
      case "sandbox":
        return Effect.void
    }
  }

  const recordSent = (row: ClaimedRow, now: Date) =>
    sql`
      UPDATE notification_outbox SET status = 'sent', sent_at = ${now}, attempts = attempts + 1, last_error = NULL
      WHERE id = ${row.id} AND status = 'pending'
      RETURNING status`.pipe(rowsOf(StatusRow))

  const recordSkipped = (row: ClaimedRow) =>
    sql`
      UPDATE notification_outbox SET status = 'skipped' WHERE id = ${row.id} AND status = 'pending'
      RETURNING status`.pipe(rowsOf(StatusRow))

  // The deadline is the row's give_up_at, and never later than NOTIFY_GIVE_UP_HOURS after it was written.
  const recordFailure = (row: ClaimedRow, reason: string, delayMs: number, now: Date) =>
    sql`
      UPDATE notification_outbox SET
        attempts = attempts + 1,
        last_error = ${reason},
        status = CASE
          WHEN ${now}::timestamptz >= LEAST(give_up_at, created_at + make_interval(hours => ${config.notifyGiveUpHours}))
          THEN 'failed' ELSE 'pending' END,
        next_attempt_at = LEAST(${now}::timestamptz + make_interval(secs => ${delayMs / 1000}),
          GREATEST(${now}::timestamptz, LEAST(give_up_at, created_at + make_interval(hours => ${config.notifyGiveUpHours}))))
      WHERE id = ${row.id} AND status = 'pending'
      RETURNING status`.pipe(rowsOf(StatusRow))

  /**
   * The partner's event for a row that reached a final state, in the transaction that records it:
   * a booking confirmation given up is booking.confirmation_failed; a provider's hand-off sent or
   * given up changes the request's hand-off. The request row is locked so two rows of one request
   * finishing at once tell the hand-off in order.
   */
  const announce = (row: ClaimedRow, outcome: "sent" | "failed", now: Date) =>
    Effect.gen(function* () {
      if (row.topic === "booking_confirmed" && outcome === "failed") {
        const [booking] = yield* sql`
          SELECT id, request_id, partner_id, provider_id, service_id, slot_start, slot_end, price_sek, sandbox
          FROM bookings WHERE id = ${row.subjectId}`.pipe(rowsOf(BookingFactsRow))
        if (booking === undefined) return
        yield* webhookOutbox.emit(
          { partnerId: booking.partnerId, sandbox: booking.sandbox },
          bookingConfirmationFailed(booking, row.recipientRole, now),
          now
        )
      }
      if (row.topic === "request_created") {
        const [request] = yield* sql`
          SELECT partner_id, sandbox FROM service_requests WHERE id = ${row.subjectId} FOR UPDATE`.pipe(
          rowsOf(RequestFactsRow)
        )
        if (request === undefined) return
        const states = yield* sql`
          SELECT id, status FROM notification_outbox WHERE subject_id = ${row.subjectId}`.pipe(rowsOf(OutboxStatusRow))
        const before = handoffFrom(states.map((state) => (state.id === row.id ? "pending" : state.status)))
        const after = handoffFrom(states.map((state) => state.status))
        yield* webhookOutbox.emit(
          { partnerId: request.partnerId, sandbox: request.sandbox },
          requestHandoffChanged({ id: row.subjectId, sandbox: request.sandbox }, after, before.status, now),
          now
        )
      }
    })

  const countOutcome = (row: ClaimedRow, outcome: string) =>
    Metric.update(Metric.withAttributes(notificationsTotal, { channel: row.channel, outcome }), 1)

  /** Sends one claimed row and records the outcome; never fails, and logs no personal data. */
  const attempt = (row: ClaimedRow) => {
    const log = { notification_id: row.id, topic: row.topic, role: row.recipientRole, channel: row.channel }
    const outcome = Effect.gen(function* () {
      if (row.channel === "none") {
        yield* recordSkipped(row)
        yield* countOutcome(row, "skipped")
        return yield* Effect.logInfo("notification skipped").pipe(Effect.annotateLogs({ ...log, outcome: "skipped" }))
      }
      const sent = yield* send(row).pipe(
        Effect.catchDefect(() => fail("unexpected error while sending")),
        Effect.timeoutOrElse({
          duration: ATTEMPT_TIMEOUT,
          orElse: () => Effect.fail(new DeliveryFailed({ reason: "timed out" }))
        }),
        Effect.result
      )
      if (sent._tag === "Success") {
        const now = yield* DateTime.nowAsDate
        yield* recordSent(row, now).pipe(
          Effect.flatMap((updated) => (updated.length > 0 ? announce(row, "sent", now) : Effect.void)),
          sql.withTransaction
        )
        yield* countOutcome(row, "sent")
        return yield* Effect.logInfo("notification sent").pipe(Effect.annotateLogs({ ...log, outcome: "sent" }))
      }
      const delayMs = retryDelayMs(row.attempts + 1, yield* Random.next)
      const now = yield* DateTime.nowAsDate
      const [updated] = yield* recordFailure(row, sent.failure.reason, delayMs, now).pipe(
        Effect.tap(([recorded]) => (recorded?.status === "failed" ? announce(row, "failed", now) : Effect.void)),
        sql.withTransaction
      )
      const gaveUp = updated?.status === "failed"
      yield* countOutcome(row, gaveUp ? "failed" : "retry")
      yield* Effect.logWarning(gaveUp ? "notification given up" : "notification attempt failed").pipe(
        Effect.annotateLogs({
          ...log,
          outcome: gaveUp ? "failed" : "retry",
          attempts: row.attempts + 1,
          reason: sent.failure.reason
        })
      )
    })
    return outcome.pipe(
      Effect.catchCause((cause) =>
        logFailure("notification outcome could not be recorded", cause).pipe(Effect.annotateLogs(log))
      ),
      Effect.withSpan("Notifier.attempt", { attributes: log })
    )
  }

  const deliverDue = (ids: Option.Option<ReadonlyArray<string>>) =>
    DateTime.nowAsDate.pipe(
      Effect.flatMap((now) => claim(ids, now)),
      Effect.flatMap((rows) => Effect.forEach(rows, attempt, { concurrency: "unbounded", discard: true })),
      Effect.catchCause((cause) => logFailure("notifications could not be claimed", cause))
    )

  // Within the request's database budget: a confirm or status read runs it.
  const readStates = (column: "id" | "subject_id", values: ReadonlyArray<string>) =>
    direct(sql`
      SELECT id, subject_id, recipient_role, channel, status, attempts, next_attempt_at, last_error, sent_at
      FROM notification_outbox WHERE ${sql.in(column, values)}
      ORDER BY created_at, recipient_role, id`).pipe(
      rowsOf(StateRow),
      Effect.map((rows) => rows.map(toState))
    )

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
    yield* Fiber.await(delivering).pipe(Effect.timeout(Duration.millis(waitMs)), Effect.ignore)
    // A failed read is the caller's to report as unknown: an empty list would read as "nothing sent".
    return yield* readStates("id", wanted)
  })

  /** The notifications of the given bookings or requests. */
  const statesOf = Effect.fn("Notifier.statesOf")(function* (subjectIds: ReadonlyArray<string>) {
    const wanted = [...new Set(subjectIds)].filter((id) => isUuid(id))
    if (wanted.length === 0) return [] as ReadonlyArray<SubjectDeliveryState>
    return yield* readStates("subject_id", wanted)
  })

  /** One dispatcher pass: every due row, claimed and attempted at once. */
  const dispatch = deliverDue(Option.none())

  return { channelFor, outboxInsert, enqueue, deliverNow, statesOf, dispatch } as const
})

/**
 * Delivery states, or none when they cannot be read: delivery is reported beside a booking or a
 * request and never decides it, and what could not be read is reported as unknown, not as unsent.
 */
export const statesOrUnknown = <A, E, R>(read: Effect.Effect<ReadonlyArray<A>, E, R>) =>
  read.pipe(
    Effect.map(Option.some),
    Effect.catch((error) => Effect.as(logFailure("notification states could not be read", error), Option.none()))
  )

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

/**
 * The outbox dispatcher: a pass every NOTIFY_POLL_MS on the service's clock, for as long as the
 * server runs. The first pass waits one interval too, so it never races a deliverNow right after start.
 */
export const NotificationDispatcherLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const notifier = yield* Notifier
    const config = yield* AppConfig
    yield* Effect.sleep(Duration.millis(config.notifyPollMs)).pipe(
      Effect.andThen(notifier.dispatch),
      Effect.forever,
      Effect.forkScoped
    )
  })
).pipe(Layer.provide(Notifier.Default))
