import { Effect, Option, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import { AppConfig } from "../AppConfig.js"
import { rowsOf } from "../Database/Rows.js"
import type { Notification, OutboxRow } from "../Domain/Outbox.js"
import { erasedMessageBody, RequestRecipientRow } from "../Domain/Retention.js"
import { Channel, DeliveryStatus, isDeliverable, RecipientRole, type SubjectDeliveryState } from "./DeliveryState.js"

export const ClaimedRow = Schema.Struct({
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
export type ClaimedRow = typeof ClaimedRow.Type

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

const HandedTo = Schema.Struct({ providerId: Schema.String, channel: Channel, address: Schema.NullOr(Schema.String) })

const OutboxStatusRow = Schema.Struct({ id: Schema.String, status: DeliveryStatus })

/** Longer than an attempt can take (a claim's rows are all attempted at once), so no row is sent twice at once. */
const LEASE_SECONDS = 60
const BATCH_SIZE = 20

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
  ...row,
  nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null
})

/** The SQL of `notification_outbox`, its one owner. */
/** The topics whose messages carry the customer's details; the others never did. */
const topicsWithPersonalData = ["booking_confirmed", "booking_cancelled", "booking_rescheduled", "request_created"]

export const makeOutboxRepo = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig

  /**
   * The statement that writes outbox rows (none for no rows), for a writer to run with what they
   * announce, so the rows commit or roll back with it. A row whose id is already written is left
   * as it is, so a notification given an id of its own is written once however often it is asked for.
   */
  const insert = (notifications: ReadonlyArray<Notification>, now: Date): ReadonlyArray<Statement.Fragment> => {
    if (notifications.length === 0) return []
    // A row without a channel, or a sandbox row, is skipped at once; the others are retried until the give-up time.
    const giveUpAt = new Date(now.getTime() + config.notifyGiveUpHours * 3_600_000)
    const rows = notifications.map((row) =>
      outboxRecord({ ...row, status: isDeliverable(row.channel) ? "pending" : "skipped", giveUpAt })
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
        status text, give_up_at timestamptz)
      ON CONFLICT (id) DO NOTHING`
    ]
  }

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

  /** The statuses of every row of one subject (a request's provider hand-offs). */
  const statusesOfSubject = (subjectId: string) =>
    sql`SELECT id, status FROM notification_outbox WHERE subject_id = ${subjectId}`.pipe(rowsOf(OutboxStatusRow))

  const readStates = (column: "id" | "subject_id", values: ReadonlyArray<string>) =>
    sql`
      SELECT id, subject_id, recipient_role, channel, status, attempts, next_attempt_at, last_error, sent_at
      FROM notification_outbox WHERE ${sql.in(column, values)}
      ORDER BY created_at, recipient_role, id`.pipe(
      rowsOf(StateRow),
      Effect.map((rows) => rows.map(toState))
    )

  /**
   * The providers a request was handed to who have it or may still get it (a copy sent, or still
   * pending and perhaps being sent right now), locked so a racing attempt records after the caller.
   */
  const handedTo = (requestId: string) =>
    sql`
      SELECT provider_id, channel, address FROM notification_outbox
      WHERE subject_id = ${requestId}::uuid AND topic = 'request_created' AND recipient_role = 'provider'
        AND status IN ('sent', 'pending') AND channel IN ('email', 'webhook')
      ORDER BY created_at, id FOR UPDATE`.pipe(rowsOf(HandedTo))

  /** Stops a request's copies not yet delivered: a withdrawn request reaches nobody new. */
  const stopPending = (requestId: string) =>
    sql`
      UPDATE notification_outbox SET status = 'skipped', last_error = 'withdrawn before delivery'
      WHERE subject_id = ${requestId}::uuid AND topic = 'request_created' AND status = 'pending'`

  /** Every provider a request was handed to, with its name, and whether the copy reached it. */
  const requestRecipients = (requestId: string) =>
    sql`
      SELECT o.provider_id, p.name AS provider_name, o.channel, o.address, o.status
      FROM notification_outbox o JOIN providers p ON p.id = o.provider_id
      WHERE o.subject_id = ${requestId}::uuid AND o.topic = 'request_created' AND o.recipient_role = 'provider'
      ORDER BY o.created_at, o.id`.pipe(rowsOf(RequestRecipientRow))

  /**
   * The outbox rows of these subjects that carried personal data: the customer's address goes, the
   * text and payload are replaced, an error (which may quote an address) is dropped, and a row not
   * yet delivered is stopped: it would carry what is erased.
   */
  const redactPersonalData = (subjects: ReadonlyArray<string>) =>
    subjects.length === 0
      ? Effect.void
      : sql`
      UPDATE notification_outbox SET
        address = CASE WHEN recipient_role = 'customer' THEN NULL ELSE address END,
        body = ${erasedMessageBody},
        payload = '{"personal_data_erased": true}'::jsonb,
        last_error = CASE WHEN status = 'pending' THEN 'stopped: personal data erased before delivery' END,
        status = CASE WHEN status = 'pending' THEN 'skipped' ELSE status END
      WHERE subject_id IN ${sql.in(subjects)} AND topic IN ${sql.in(topicsWithPersonalData)}`.pipe(Effect.asVoid)

  return {
    insert,
    requestRecipients,
    redactPersonalData,
    claim,
    recordSent,
    recordSkipped,
    recordFailure,
    statusesOfSubject,
    readStates,
    handedTo,
    stopPending
  } as const
})

export type OutboxRepo = Effect.Success<typeof makeOutboxRepo>
