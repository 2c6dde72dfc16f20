import { Effect, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { rowsOf } from "../Database/Rows.js"
import { Customer } from "../Domain/Booking.js"
import { isUuid } from "../Domain/Ids.js"
import { ErasedBy, erasedMessageBody } from "../Domain/Retention.js"

const Location = Schema.Struct({
  address: Schema.optional(Schema.String),
  postcode: Schema.optional(Schema.String),
  input: Schema.optional(Schema.String)
})

const Channel = Schema.Literals(["email", "webhook", "none", "sandbox"])
const OutboxStatus = Schema.Literals(["pending", "sent", "failed", "skipped"])

/** A booking as its personal data is reported and erased: the values, who had them, and when they go. */
export const BookingDataRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  providerId: Schema.String,
  providerName: Schema.String,
  serviceLabelSv: Schema.String,
  status: Schema.Literals(["confirmed", "cancelled"]),
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  timeZone: Schema.String,
  cancelledAt: Schema.NullOr(Schema.Date),
  sandbox: Schema.Boolean,
  customer: Schema.NullOr(Customer),
  serviceLocation: Location,
  destinationLocation: Schema.NullOr(Location),
  consentStatement: Schema.NullOr(Schema.String),
  earlyStartStatement: Schema.NullOr(Schema.String),
  cancelReason: Schema.NullOr(Schema.String),
  erasedAt: Schema.NullOr(Schema.Date),
  erasedBy: Schema.NullOr(ErasedBy),
  erasureId: Schema.NullOr(Schema.String),
  notifyEmail: Schema.NullOr(Schema.String),
  notifyWebhookUrl: Schema.NullOr(Schema.String),
  providerChannel: Schema.NullOr(Channel),
  providerDelivery: Schema.NullOr(OutboxStatus)
})
export type BookingDataRow = typeof BookingDataRow.Type

export const RequestDataRow = Schema.Struct({
  id: Schema.String,
  sessionId: Schema.String,
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  status: Schema.Literals(["ready_to_send", "withdrawn"]),
  updatedAt: Schema.Date,
  sandbox: Schema.Boolean,
  customer: Schema.NullOr(Customer),
  location: Schema.NullOr(Location),
  description: Schema.NullOr(Schema.String),
  details: Schema.NullOr(Schema.String),
  consentStatement: Schema.NullOr(Schema.String),
  withdrawReason: Schema.NullOr(Schema.String),
  erasedAt: Schema.NullOr(Schema.Date),
  erasedBy: Schema.NullOr(ErasedBy),
  erasureId: Schema.NullOr(Schema.String)
})
export type RequestDataRow = typeof RequestDataRow.Type

/** A provider a request was handed to, and how far that got. */
export const RequestRecipientRow = Schema.Struct({
  providerId: Schema.String,
  providerName: Schema.String,
  channel: Channel,
  address: Schema.NullOr(Schema.String),
  status: OutboxStatus
})
export type RequestRecipientRow = typeof RequestRecipientRow.Type

const IdRow = Schema.Struct({ id: Schema.String })

/** The consent record without its free text: that it was given, when, and under which terms. */
const consentKept = `jsonb_strip_nulls(jsonb_build_object(
  'user_consent_confirmed', consent->'user_consent_confirmed', 'collected_at', consent->'collected_at',
  'source', consent->'source', 'booking_terms_accepted', consent->'booking_terms_accepted',
  'booking_terms_version', consent->'booking_terms_version',
  'booking_terms_accepted_at', consent->'booking_terms_accepted_at', 'recorded_at', consent->'recorded_at',
  'statement_erased', true))`

/** An address reduced to its area: the postcode (the calendar feed's) and the country. */
const areaOf = (column: string) =>
  `jsonb_strip_nulls(jsonb_build_object('postcode', ${column}->'postcode', 'country_code', ${column}->'country_code'))`

/** The topics whose messages carry the customer's details; the others never did. */
const topicsWithPersonalData = ["booking_confirmed", "booking_cancelled", "booking_rescheduled", "request_created"]

/**
 * The SQL of erasure: the one place that rewrites a booking's, a request's and their outbox rows'
 * personal data. Partner webhooks never carried any (Domain/WebhookEvents.ts), so they are not touched.
 */
export const makeErasureRepo = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const bookingColumns = sql.literal(`b.id::text AS id, b.request_id, b.provider_id, b.provider_name,
    b.service_label_sv, b.status, b.slot_start, b.slot_end, b.time_zone, b.cancelled_at, b.sandbox, b.customer,
    b.service_location, b.destination_location, b.consent->>'statement' AS consent_statement, b.early_start_statement, b.cancel_reason,
    b.personal_data_erased_at AS erased_at, b.personal_data_erased_by AS erased_by,
    b.personal_data_erasure_id::text AS erasure_id, p.notify_email, p.notify_webhook_url,
    o.channel AS provider_channel, o.status AS provider_delivery`)

  const bookingFrom = sql.literal(`bookings b JOIN providers p ON p.id = b.provider_id
    LEFT JOIN LATERAL (SELECT channel, status FROM notification_outbox
      WHERE subject_id = b.id AND topic = 'booking_confirmed' AND recipient_role = 'provider'
      ORDER BY created_at LIMIT 1) o ON true`)

  /** The partner's booking by `booking.id` or `request_id`; none for another partner's. */
  const findBooking = (partnerId: string, ref: string) =>
    sql`SELECT ${bookingColumns} FROM ${bookingFrom}
      WHERE b.partner_id = ${partnerId} AND ${isUuid(ref) ? sql`b.id = ${ref}::uuid` : sql`b.request_id = ${ref}`}`.pipe(
      rowsOf(BookingDataRow),
      Effect.map((rows) => rows[0])
    )

  const lockBooking = (id: string) =>
    sql`SELECT ${bookingColumns} FROM ${bookingFrom} WHERE b.id = ${id}::uuid FOR UPDATE OF b`.pipe(
      rowsOf(BookingDataRow),
      Effect.map((rows) => rows[0])
    )

  const requestColumns = sql.literal(`id::text AS id, session_id, vertical_id, job_type_id, status, updated_at,
    sandbox, body->'customer' AS customer, body->'location' AS location, body->>'description' AS description,
    CASE WHEN body ? 'details' THEN (body->'details')::text END AS details,
    consent->>'statement' AS consent_statement, withdraw_reason, personal_data_erased_at AS erased_at,
    personal_data_erased_by AS erased_by, personal_data_erasure_id::text AS erasure_id`)

  const findRequest = (partnerId: string, ref: string) =>
    sql`SELECT ${requestColumns} FROM service_requests
      WHERE partner_id = ${partnerId} AND ${isUuid(ref) ? sql`id = ${ref}::uuid` : sql`session_id = ${ref}`}`.pipe(
      rowsOf(RequestDataRow),
      Effect.map((rows) => rows[0])
    )

  const lockRequest = (id: string) =>
    sql`SELECT ${requestColumns} FROM service_requests WHERE id = ${id}::uuid FOR UPDATE`.pipe(
      rowsOf(RequestDataRow),
      Effect.map((rows) => rows[0])
    )

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
  const redactOutbox = (subjects: ReadonlyArray<string>) =>
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

  /** Erases these bookings' personal data and their messages'; answers the ids it erased. */
  const eraseBookings = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
    Effect.gen(function* () {
      if (ids.length === 0) return [] as ReadonlyArray<string>
      const erased = yield* sql`
        UPDATE bookings SET customer = NULL,
          service_location = ${sql.literal(areaOf("service_location"))},
          destination_location = CASE WHEN destination_location IS NULL THEN NULL
            ELSE ${sql.literal(areaOf("destination_location"))} END,
          consent = ${sql.literal(consentKept)},
          cancel_reason = NULL, early_start_statement = NULL,
          personal_data_erased_at = ${now}, personal_data_erased_by = ${by},
          personal_data_erasure_id = ${erasureId}::uuid
        WHERE id IN ${sql.in(ids)} AND personal_data_erased_at IS NULL
        RETURNING id::text AS id`.pipe(rowsOf(IdRow))
      const erasedIds = erased.map((row) => row.id)
      if (erasedIds.length === 0) return erasedIds
      const changes = yield* sql`
        SELECT id::text AS id FROM booking_changes WHERE booking_id IN ${sql.in(erasedIds)}`.pipe(rowsOf(IdRow))
      yield* redactOutbox([...erasedIds, ...changes.map((row) => row.id)])
      return erasedIds
    })

  /** Erases these requests' personal data and their hand-offs'; answers the ids it erased. */
  const eraseRequests = (ids: ReadonlyArray<string>, by: ErasedBy, now: Date, erasureId: string | null) =>
    Effect.gen(function* () {
      if (ids.length === 0) return [] as ReadonlyArray<string>
      const erased = yield* sql`
        UPDATE service_requests SET
          body = jsonb_strip_nulls(jsonb_build_object('vertical_id', body->'vertical_id',
            'job_type_id', body->'job_type_id',
            'location', CASE WHEN body->'location' ? 'postcode'
              THEN jsonb_build_object('postcode', body->'location'->'postcode') END)),
          consent = ${sql.literal(consentKept)},
          withdraw_reason = NULL,
          personal_data_erased_at = ${now}, personal_data_erased_by = ${by},
          personal_data_erasure_id = ${erasureId}::uuid
        WHERE id IN ${sql.in(ids)} AND personal_data_erased_at IS NULL
        RETURNING id::text AS id, withdrawal_id::text AS withdrawal_id`.pipe(
        rowsOf(Schema.Struct({ id: Schema.String, withdrawalId: Schema.NullOr(Schema.String) }))
      )
      yield* redactOutbox(erased.flatMap((row) => (row.withdrawalId === null ? [row.id] : [row.id, row.withdrawalId])))
      return erased.map((row) => row.id)
    })

  const batch = 200

  /** The bookings due for erasure at `cutoff` (their slot's end or cancellation before it), locked, a batch at a time. */
  const dueBookings = (cutoff: Date) =>
    sql`SELECT id::text AS id FROM bookings
      WHERE personal_data_erased_at IS NULL AND coalesce(cancelled_at, slot_end) <= ${cutoff}
      ORDER BY coalesce(cancelled_at, slot_end) LIMIT ${batch} FOR UPDATE SKIP LOCKED`.pipe(rowsOf(IdRow))

  const dueRequests = (cutoff: Date) =>
    sql`SELECT id::text AS id FROM service_requests
      WHERE personal_data_erased_at IS NULL AND updated_at <= ${cutoff}
      ORDER BY updated_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`.pipe(rowsOf(IdRow))

  return {
    findBooking,
    lockBooking,
    findRequest,
    lockRequest,
    requestRecipients,
    eraseBookings,
    eraseRequests,
    dueBookings,
    dueRequests,
    batch
  } as const
})

export type ErasureRepo = Effect.Success<typeof makeErasureRepo>
