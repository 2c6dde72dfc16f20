import { Context, Effect, Layer, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import { keysetAfter, positionColumn } from "../Database/Keyset.js"
import { decodedAs, rowsOf } from "../Database/Rows.js"
import { Customer } from "../Domain/Booking.js"
import { type NewBooking, StoredBooking } from "../Domain/BookingRecord.js"
import { isUuid } from "../Domain/Ids.js"
import type { PageQuery } from "../Domain/ListPage.js"
import { areaOf, BookingDataRow, consentKept, type ErasedBy } from "../Domain/Retention.js"
import { BookingRow, ConflictedBooking, ConflictRow, FeedJobRow } from "../Providers/CalendarRows.js"

export const BookingChangeRow = Schema.Struct({
  id: Schema.String,
  bookingId: Schema.String,
  kind: Schema.Literals(["cancel", "reschedule"]),
  version: Schema.Int,
  previousSlotStart: Schema.Date,
  previousSlotEnd: Schema.Date
})
export type BookingChangeRow = typeof BookingChangeRow.Type

const IdRow = Schema.Struct({ id: Schema.String })

const EventFactsRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  partnerId: Schema.String,
  providerId: Schema.String,
  serviceId: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  priceSek: Schema.Int,
  sandbox: Schema.Boolean,
  timeZone: Schema.String
})

/** Whom a change of a booking is told to, and the words its messages need. */
const BookingContact = Schema.Struct({
  customer: Customer,
  serviceLocation: Schema.Struct({ address: Schema.String, postcode: Schema.String }),
  serviceLabelSv: Schema.String,
  labelEn: Schema.NullOr(Schema.String),
  termsUrl: Schema.String,
  notifyEmail: Schema.NullOr(Schema.String),
  notifyWebhookUrl: Schema.NullOr(Schema.String)
})
export type BookingContact = typeof BookingContact.Type

/** The `bookings` table: the one place that writes and reads it. */
export class BookingsRepo extends Context.Service<BookingsRepo>()("Booking/BookingsRepo", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /**
     * The statement that records a booking, run with the calendar booking whose id it shares. Its
     * values are built in code and typed, so they are not decoded again.
     */
    const insertion = (booking: NewBooking) => sql`
        INSERT INTO bookings (id, request_id, partner_id, provider_id, provider_name, service_id, vertical_id,
          job_type_id, service_label_sv, slot_start, slot_end, slot_label, time_zone, price_sek, pricing_model,
          price_type, unit_price_sek, unit, quantity, terms_version, terms_url, scope, customer, service_location,
          destination_location, consent, source, external_reference, confirmed_at, sandbox, tax_deduction,
          tax_deduction_requested, free_cancellation_hours, late_fee_sek, change_hours, early_start_requested,
          early_start_statement, updated_at)
        VALUES (${booking.id}::uuid, ${booking.requestId}, ${booking.partnerId}, ${booking.providerId},
          ${booking.providerName}, ${booking.serviceId}, ${booking.verticalId}, ${booking.jobTypeId},
          ${booking.serviceLabelSv}, ${booking.slotStart}, ${booking.slotEnd}, ${booking.slotLabel}, ${booking.timeZone},
          ${booking.priceSek}, ${booking.pricingModel}, ${booking.priceType}, ${booking.unitPriceSek}, ${booking.unit},
          ${booking.quantity}, ${booking.termsVersion}, ${booking.termsUrl}, ${JSON.stringify(booking.scope)}::jsonb,
          ${JSON.stringify(booking.customer)}::jsonb, ${JSON.stringify(booking.serviceLocation)}::jsonb,
          ${booking.destinationLocation === null ? null : JSON.stringify(booking.destinationLocation)}::jsonb,
          ${JSON.stringify(booking.consent)}::jsonb, ${booking.source}, ${booking.externalReference},
          ${booking.confirmedAt}, ${booking.sandbox},
          ${booking.taxDeduction === null ? null : JSON.stringify(booking.taxDeduction)}::jsonb,
          ${booking.taxDeductionRequested}, ${booking.freeCancellationHours}, ${booking.lateFeeSek},
          ${booking.changeHours}, ${booking.earlyStartRequested}, ${booking.earlyStartStatement}, ${booking.confirmedAt})`

    const columns = sql.literal(`id, request_id, provider_id, provider_name, service_id, slot_start, slot_end,
      slot_label, time_zone, price_sek, pricing_model, price_type, unit_price_sek, unit, quantity::float8 AS quantity,
      terms_version, confirmed_at, sandbox, tax_deduction, tax_deduction_requested, free_cancellation_hours,
      late_fee_sek, change_hours, early_start_requested, early_start_statement, status, version,
      coalesce(notice_subject_id, id)::text AS notice_subject_id, cancelled_at, cancelled_by, cancel_reason,
      cancel_fee_sek, cancel_within_free_period, cancel_free_until, cancel_legal_basis`)

    /** The partner's booking by its `booking.id` or its `request_id`. */
    const findByRef = SqlSchema.findOneOption({
      Request: Schema.Struct({ partnerId: Schema.String, ref: Schema.String }),
      Result: StoredBooking,
      execute: ({ partnerId, ref }) =>
        sql`SELECT ${columns} FROM bookings
          WHERE partner_id = ${partnerId} AND ${isUuid(ref) ? sql`id = ${ref}::uuid` : sql`request_id = ${ref}`}`
    })

    /**
     * The partner's bookings of this very option (provider, service, slot), with the customer each
     * was made for: what a confirm refused for the slot may be up against. At most a few rows (one
     * live, one per sandbox).
     */
    const findSameOption = SqlSchema.findAll({
      Request: Schema.Struct({
        partnerId: Schema.String,
        providerId: Schema.String,
        serviceId: Schema.String,
        slotStart: Schema.Date,
        slotEnd: Schema.Date
      }),
      Result: Schema.Struct({ ...StoredBooking.fields, customer: Customer }),
      execute: (option) =>
        sql`
        SELECT ${columns}, customer FROM bookings
        WHERE partner_id = ${option.partnerId} AND provider_id = ${option.providerId}
          AND service_id = ${option.serviceId} AND slot_start = ${option.slotStart} AND slot_end = ${option.slotEnd}
          AND customer IS NOT NULL
        ORDER BY confirmed_at`
    })

    const ListedBooking = Schema.Struct({ ...StoredBooking.fields, positionAt: Schema.String })

    /** A page of the partner's bookings, last changed first: one more row than asked, to tell a next page exists. */
    const listPage = (partnerId: string, page: PageQuery) =>
      sql`
        SELECT ${columns}, ${positionColumn(sql, "updated_at")} FROM bookings
        WHERE partner_id = ${partnerId}
          ${page.filters.status === undefined ? sql`` : sql`AND status = ${page.filters.status}`}
          ${page.filters.updatedSince === undefined ? sql`` : sql`AND updated_at >= ${page.filters.updatedSince}::timestamptz`}
          ${keysetAfter(sql, "updated_at", { column: "id", type: "uuid" }, page.after)}
        ORDER BY updated_at DESC, id DESC LIMIT ${page.limit + 1}`.pipe(
        rowsOf(ListedBooking),
        Effect.withSpan("BookingsRepo.listPage")
      )

    /** The booking, locked until the transaction ends: a change reads it so, and racing changes wait. */
    const lockById = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: StoredBooking,
      execute: (id) => sql`SELECT ${columns} FROM bookings WHERE id = ${id}::uuid FOR UPDATE`
    })

    /** Whom a change of the booking is told to, and the words its messages need; none once its personal data is erased. */
    const contactOf = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: BookingContact,
      execute: (id) => sql`
        SELECT b.customer, b.service_location, b.service_label_sv, s.label_en, b.terms_url, p.notify_email,
          p.notify_webhook_url
        FROM bookings b JOIN providers p ON p.id = b.provider_id
        LEFT JOIN provider_services s ON s.provider_id = b.provider_id AND s.service_id = b.service_id
        WHERE b.id = ${id}::uuid AND b.customer IS NOT NULL`
    })

    /** A change of a booking, as an idempotency key of a cancel or a reschedule holds it. */
    const findChange = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: BookingChangeRow,
      execute: (id) => sql`
        SELECT id::text, booking_id::text, kind, version, previous_slot_start, previous_slot_end
        FROM booking_changes WHERE id = ${id}::uuid`
    })

    // A change of a booking: its row and the booking_changes row, inside the change's transaction.

    /** Writes the cancellation `after` holds and records it as change `changeId` of the slot `before` held. */
    const recordCancel = Effect.fn("BookingsRepo.recordCancel")(function* (
      before: StoredBooking,
      after: StoredBooking,
      changeId: string,
      now: Date
    ) {
      yield* sql`UPDATE bookings SET status = 'cancelled', version = ${after.version}, cancelled_at = ${now},
          cancelled_by = ${after.cancelledBy}, cancel_reason = ${after.cancelReason}, cancel_fee_sek = ${after.cancelFeeSek},
          cancel_within_free_period = ${after.cancelWithinFreePeriod}, cancel_free_until = ${after.cancelFreeUntil},
          cancel_legal_basis = ${after.cancelLegalBasis}, updated_at = greatest(updated_at, ${now})
        WHERE id = ${before.id}::uuid`
      yield* sql`INSERT INTO booking_changes (id, booking_id, kind, version, previous_slot_start, previous_slot_end, created_at)
        VALUES (${changeId}::uuid, ${before.id}::uuid, 'cancel', ${after.version}, ${before.slotStart}, ${before.slotEnd}, ${now})`
    })

    /** Writes the new slot, price and terms `after` holds and records the move as change `changeId`. */
    const recordMove = Effect.fn("BookingsRepo.recordMove")(function* (
      before: StoredBooking,
      after: StoredBooking,
      termsUrl: string,
      changeId: string,
      now: Date
    ) {
      yield* sql`UPDATE bookings SET slot_start = ${after.slotStart}, slot_end = ${after.slotEnd},
          slot_label = ${after.slotLabel}, time_zone = ${after.timeZone}, price_sek = ${after.priceSek},
          pricing_model = ${after.pricingModel}, price_type = ${after.priceType}, unit_price_sek = ${after.unitPriceSek},
          unit = ${after.unit}, quantity = ${after.quantity}, terms_version = ${after.termsVersion},
          tax_deduction = ${JSON.stringify(after.taxDeduction)}::jsonb, terms_url = ${termsUrl},
          free_cancellation_hours = ${after.freeCancellationHours}, late_fee_sek = ${after.lateFeeSek},
          change_hours = ${after.changeHours}, version = ${after.version}, notice_subject_id = ${changeId}::uuid,
          updated_at = greatest(updated_at, ${now})
        WHERE id = ${before.id}::uuid`
      yield* sql`INSERT INTO booking_changes (id, booking_id, kind, version, previous_slot_start, previous_slot_end,
          slot_start, slot_end, created_at)
        VALUES (${changeId}::uuid, ${before.id}::uuid, 'reschedule', ${after.version}, ${before.slotStart},
          ${before.slotEnd}, ${after.slotStart}, ${after.slotEnd}, ${now})`
    })

    // The provider's side: its jobs, its feed, its cancels, and the busy times its own calendar imports.

    /** Whether an imported busy time overlaps the booking `b`. */
    const busyOverlap = sql.literal(
      "EXISTS (SELECT 1 FROM provider_busy_times t WHERE t.provider_id = b.provider_id AND t.during && tstzrange(b.slot_start, b.slot_end, '[)'))"
    )

    /** The provider's live bookings overlapping [from, to), each flagged when a busy time overlaps it. */
    const providerJobs = (providerId: string, from: Date, to: Date) =>
      sql`
        SELECT id, request_id, service_id, service_label_sv, vertical_id, job_type_id, slot_start, slot_end,
          slot_label, price_sek, pricing_model, price_type, unit_price_sek, unit, quantity::float8 AS quantity,
          terms_version, terms_url, scope, customer, service_location, destination_location, confirmed_at,
          status, version, free_cancellation_hours, late_fee_sek, change_hours, cancelled_at, cancelled_by,
          cancel_fee_sek, cancel_within_free_period, cancel_free_until, cancel_legal_basis,
          early_start_requested, early_start_statement, personal_data_erased_at,
          (status = 'confirmed' AND ${busyOverlap}) AS conflicts_with_busy_time
        FROM bookings b
        WHERE provider_id = ${providerId} AND NOT sandbox AND slot_start < ${to} AND slot_end > ${from}
        ORDER BY slot_start, id`.pipe(decodedAs(BookingRow))

    /** What holds the provider's live calendar over [start, end) at `at`: a booking (named), a block or a hold. */
    const slotHolder = (providerId: string, start: Date, end: Date, at: Date) =>
      sql`
        SELECT c.booking_id AS id, c.kind, b.request_id, b.provider_name, b.service_id, lower(c.during) AS slot_start,
          upper(c.during) AS slot_end, b.slot_label, c.expires_at
        FROM calendar_bookings c LEFT JOIN bookings b ON b.id = c.booking_id
        WHERE c.provider_id = ${providerId} AND c.calendar = 'live' AND c.released_at IS NULL
          AND (c.expires_at IS NULL OR c.expires_at > ${at})
          AND c.during && tstzrange(${start}, ${end}, '[)')
        ORDER BY c.kind, lower(c.during) LIMIT 1`.pipe(decodedAs(ConflictRow))

    /** The provider's live jobs ending after `since`, as its calendar feed lists them: no customer contact. */
    const feedJobs = (providerId: string, since: Date) =>
      sql`
        SELECT b.id, b.request_id, b.service_label_sv, b.slot_start, b.slot_end,
          b.service_location->>'postcode' AS postcode, b.status, b.version,
          coalesce((SELECT max(c.created_at) FROM booking_changes c WHERE c.booking_id = b.id), b.confirmed_at)
            AS changed_at
        FROM bookings b
        WHERE b.provider_id = ${providerId} AND NOT b.sandbox AND b.slot_end > ${since}
        ORDER BY b.slot_start, b.id`.pipe(decodedAs(FeedJobRow))

    /** The partner a provider's live booking was made by; none for another provider's or a sandbox booking. */
    const partnerOfJob = (providerId: string, bookingId: string) =>
      sql<{ partnerId: string }>`
        SELECT partner_id FROM bookings
        WHERE id = ${bookingId}::uuid AND provider_id = ${providerId} AND NOT sandbox`.pipe(
        Effect.map((rows) => rows[0]?.partnerId)
      )

    /** The booking as the partner's events about it read it, with its partner. */
    const eventFacts = (id: string) =>
      sql`
        SELECT id, request_id, partner_id, provider_id, service_id, slot_start, slot_end, price_sek, sandbox, time_zone
        FROM bookings WHERE id = ${id}`.pipe(
        rowsOf(EventFactsRow),
        Effect.map((rows) => rows[0])
      )

    /** The provider's confirmed, coming bookings that an imported busy time overlaps. */
    const busyConflicts = (providerId: string, at: Date) =>
      sql`
        SELECT b.id, b.request_id, b.service_label_sv, b.slot_start, b.slot_end, p.notify_email, p.notify_webhook_url
        FROM bookings b JOIN providers p ON p.id = b.provider_id
        WHERE b.provider_id = ${providerId} AND NOT b.sandbox AND b.status = 'confirmed' AND b.slot_end > ${at}
          AND ${busyOverlap}
        ORDER BY b.slot_start, b.id`.pipe(decodedAs(ConflictedBooking))

    // Personal data: what a booking keeps about its customer, who received it, and its erasure.

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

    /** The partner's booking's personal data by `booking.id` or `request_id`; none for another partner's. */
    const personalData = (partnerId: string, ref: string) =>
      sql`SELECT ${bookingColumns} FROM ${bookingFrom}
        WHERE b.partner_id = ${partnerId} AND ${isUuid(ref) ? sql`b.id = ${ref}::uuid` : sql`b.request_id = ${ref}`}`.pipe(
        rowsOf(BookingDataRow),
        Effect.map((rows) => rows[0])
      )

    const lockPersonalData = (id: string) =>
      sql`SELECT ${bookingColumns} FROM ${bookingFrom} WHERE b.id = ${id}::uuid FOR UPDATE OF b`.pipe(
        rowsOf(BookingDataRow),
        Effect.map((rows) => rows[0])
      )

    /** Erases these bookings' personal data; answers the ids it erased and theirs and their changes' (the messages' subjects). */
    const erasePersonalData = Effect.fn("BookingsRepo.erasePersonalData")(function* (
      ids: ReadonlyArray<string>,
      by: ErasedBy,
      now: Date,
      erasureId: string | null
    ) {
      if (ids.length === 0) return { erased: [], subjects: [] }
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
      if (erasedIds.length === 0) return { erased: erasedIds, subjects: [] }
      const changes = yield* sql`
        SELECT id::text AS id FROM booking_changes WHERE booking_id IN ${sql.in(erasedIds)}`.pipe(rowsOf(IdRow))
      return { erased: erasedIds, subjects: [...erasedIds, ...changes.map((row) => row.id)] }
    })

    /** The bookings due for erasure at `cutoff` (their slot's end or cancellation before it), locked, `limit` at a time. */
    const dueForErasure = (cutoff: Date, limit: number) =>
      sql`SELECT id::text AS id FROM bookings
        WHERE personal_data_erased_at IS NULL AND coalesce(cancelled_at, slot_end) <= ${cutoff}
        ORDER BY coalesce(cancelled_at, slot_end) LIMIT ${limit} FOR UPDATE SKIP LOCKED`.pipe(rowsOf(IdRow))

    return {
      personalData,
      lockPersonalData,
      erasePersonalData,
      dueForErasure,
      providerJobs,
      slotHolder,
      feedJobs,
      partnerOfJob,
      eventFacts,
      busyConflicts,
      recordCancel,
      recordMove,
      insertion,
      // A stored row that does not decode is a damaged table or a bug: a defect, not the client's answer.
      lockById: (id: string) => lockById(id).pipe(Effect.catchTag("SchemaError", Effect.die)),
      contactOf: (id: string) => contactOf(id).pipe(Effect.catchTag("SchemaError", Effect.die)),
      findChange: (id: string) => findChange(id).pipe(Effect.catchTag("SchemaError", Effect.die)),
      findSameOption,
      listPage,
      findByRef: (partnerId: string, ref: string) =>
        findByRef({ partnerId, ref }).pipe(Effect.withSpan("BookingsRepo.findByRef"))
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
