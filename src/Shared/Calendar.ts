import { Context, Effect, Layer, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { decodedOnce } from "../Database/StoredJson.js"
import type { BookingId, ProviderId, ServiceId } from "../Domain/Ids.js"
import { OfferedService } from "../Domain/Supply.js"
import { Supply } from "../Supply/Supply.js"

/** An offered service with its provider's confirmed bookings in the searched range, epoch ms. */
export const Candidate = Schema.Struct({
  ...OfferedService.fields,
  busy: Schema.Array(Schema.Tuple([Schema.Number, Schema.Number]))
})
export type Candidate = typeof Candidate.Type

/** A search's question to the calendar: a job at a postcode (and destination), over a range in epoch ms. */
const AvailabilityQuery = Schema.Struct({
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  postcode: Schema.Number,
  destinationPostcode: Schema.UndefinedOr(Schema.Number),
  range: Schema.Struct({ start: Schema.Number, end: Schema.Number }),
  /** Whose bookings are busy besides the real ones: `calendarOf` the caller. */
  calendar: Schema.String,
  /** The service's clock, epoch ms: a hold that has run out by then takes no time. */
  now: Schema.Number
})
export type AvailabilityQuery = typeof AvailabilityQuery.Type

/** A candidate as the statement returns it: the offer as JSON text, the bookings as JSON. */
const CandidateRow = Schema.Struct({ offer: Schema.String, busy: Candidate.fields.busy })

const decodeRows = Schema.decodeUnknownSync(Schema.Array(CandidateRow))

/** Each distinct offer text decoded once (see decodedOnce). */
const offerOf = decodedOnce(OfferedService)

/** The real calendar every booking of a live partner takes time in. */
export const liveCalendar = "live"

/**
 * The calendar a caller books in and searches against: the real one, or a sandbox partner's own
 * (partner ids hold no colon, so a sandbox's name is never another's). A search sees the real
 * bookings and, for a sandbox partner, its own sandbox's too.
 */
export const calendarOf = (partner: { readonly id: string; readonly sandbox: boolean } | undefined) =>
  partner?.sandbox === true ? `sandbox:${partner.id}` : liveCalendar

export interface CalendarBooking {
  readonly id: BookingId
  readonly providerId: ProviderId
  readonly serviceId: ServiceId
  readonly slotStart: Date
  readonly slotEnd: Date
  /** A sandbox booking takes its slot in its partner's sandbox calendar, never the provider's real one. */
  readonly calendar: string
  /** The booking that holds the slot, when the slot is not its first (a move): by default `id`. */
  readonly bookingId?: BookingId
  /** The service's clock: the holds over the slot that have run out by then are freed first. */
  readonly at: Date
  /** The holder's own hold on the slot, which this booking takes over. */
  readonly replaces?: string
}

/** A partner's hold on a slot: it takes the time until `expiresAt`, on the service's clock. */
export interface CalendarHold {
  readonly id: string
  readonly providerId: string
  readonly serviceId: string
  readonly slotStart: Date
  readonly slotEnd: Date
  readonly calendar: string
  readonly expiresAt: Date
  readonly at: Date
}

/** Free slots and the atomic booking of provider time (PostgreSQL). */
export class Calendar extends Context.Service<Calendar>()("Booking/Calendar", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { cancellationPolicyOfS, servesDestinationOfP, servesPostcodeOfP, workingHoursOfP } = yield* Supply

    /**
     * Everything a search needs in one round trip: the active providers serving the postcode(s)
     * with an active fixed-price service for the job, their working hours, and what takes their
     * time in the searched range: confirmed bookings and blocks, busy times imported from their
     * own calendar, and their dates off (whole Stockholm days). The offer comes as JSON text, keyed as
     * `OfferedService` is and in its order, so `offerOf` reads each distinct text once.
     */
    const statement = (input: AvailabilityQuery) =>
      sql<typeof CandidateRow.Encoded>`
        SELECT json_build_object('providerId', p.id, 'providerName', p.name, 'city', p.city,
          'ratingLabel', p.rating_label, 'serviceId', s.service_id, 'labelSv', s.label_sv, 'labelEn', s.label_en,
          'pricingModel', s.pricing_model, 'priceType', s.price_type, 'amountSek', s.amount_sek,
          'unitPriceSek', s.unit_price_sek, 'unit', s.unit, 'durationMinutes', s.duration_minutes, 'scope', s.scope,
          'termsVersion', s.terms_version, 'termsUrl', s.terms_url, 'taxDeduction', s.tax_deduction,
          'termsSections', s.terms_sections,
          'termsSourceUrls', s.terms_source_urls, 'hours', ${workingHoursOfP},
          'cancellationPolicy', ${cancellationPolicyOfS})::text AS offer,
          coalesce((
            SELECT json_agg(json_build_array(
              (extract(epoch FROM lower(x.during)) * 1000)::bigint, (extract(epoch FROM upper(x.during)) * 1000)::bigint))
            FROM (
              SELECT b.during FROM calendar_bookings b
              WHERE b.provider_id = p.id AND b.released_at IS NULL AND b.calendar IN (${liveCalendar}, ${input.calendar})
                AND b.during && r.range AND (b.expires_at IS NULL OR b.expires_at > ${new Date(input.now)})
              UNION ALL
              SELECT t.during FROM provider_busy_times t WHERE t.provider_id = p.id AND t.during && r.range
              UNION ALL
              SELECT tstzrange(d.date::timestamp AT TIME ZONE 'Europe/Stockholm',
                (d.date + 1)::timestamp AT TIME ZONE 'Europe/Stockholm') FROM provider_dates_off d
              WHERE d.provider_id = p.id
                AND d.date BETWEEN (lower(r.range) AT TIME ZONE 'Europe/Stockholm')::date - 1
                  AND (upper(r.range) AT TIME ZONE 'Europe/Stockholm')::date
            ) x
          ), '[]') AS busy
        FROM provider_services s
        JOIN providers p ON p.id = s.provider_id
        CROSS JOIN (SELECT tstzrange(${new Date(input.range.start)}, ${new Date(input.range.end)}) AS range) r
        WHERE s.active AND p.active AND s.vertical_id = ${input.verticalId} AND s.job_type_id = ${input.jobTypeId}
          AND ${servesPostcodeOfP(input.postcode)} AND ${servesDestinationOfP(input.destinationPostcode)}
        ORDER BY p.id, s.service_id`

    /**
     * A stored row that does not decode is a bug or a damaged table, not an answer for the client:
     * the ParseError thrown by `decodeRows` or `offerOf` is a defect. The rows are decoded in one
     * synchronous step and there is no span: this runs on every search, where SqlSchema's Effect
     * steps around the statement and a no-op span (nothing exports traces) cost more than decoding.
     */
    const availability = (input: AvailabilityQuery): Effect.Effect<ReadonlyArray<Candidate>, SqlError> =>
      Effect.map(statement(input), (rows) =>
        decodeRows(rows).map((row): Candidate => ({ ...offerOf(row.offer), busy: row.busy }))
      )

    /**
     * The statement that takes the slot, for the writer to run; the calendar's exclusion constraint
     * refuses an overlap (23P01) whatever ran before.
     */
    const booking = (booking: CalendarBooking) => sql`
        INSERT INTO calendar_bookings (id, provider_id, service_id, during, sandbox, calendar, booking_id,
                claimed_at, replaces)
        VALUES (${booking.id}::uuid, ${booking.providerId}, ${booking.serviceId},
                tstzrange(${booking.slotStart}, ${booking.slotEnd}, '[)'), ${booking.calendar !== liveCalendar},
                ${booking.calendar}, ${booking.bookingId ?? booking.id}::uuid, ${booking.at},
                ${booking.replaces ?? null}::uuid)`

    /** The statement that takes the slot for a hold, refused by the same constraint as a booking. */
    const hold = (hold: CalendarHold) => sql`
        INSERT INTO calendar_bookings (id, provider_id, service_id, during, sandbox, calendar, kind, expires_at, claimed_at)
        VALUES (${hold.id}::uuid, ${hold.providerId}, ${hold.serviceId},
                tstzrange(${hold.slotStart}, ${hold.slotEnd}, '[)'), ${hold.calendar !== liveCalendar},
                ${hold.calendar}, 'hold', ${hold.expiresAt}, ${hold.at})`

    /** Frees a hold's time (released or run out), for the writer to run. */
    const releaseHold = (holdId: string, at: Date) => sql`
        UPDATE calendar_bookings SET released_at = least(${at}, expires_at)
        WHERE id = ${holdId}::uuid AND kind = 'hold' AND released_at IS NULL`

    /**
     * Frees the time of every hold that has run out by the clock: what the insert trigger does for
     * the slot it takes, for all of them, so the calendar's rows say what holds the time.
     */
    const sweepHolds = (at: Date) => sql`
        UPDATE calendar_bookings SET released_at = expires_at
        WHERE kind = 'hold' AND released_at IS NULL AND expires_at <= ${at}`

    /** Frees every slot the booking holds (kept as its history), for the writer to run. */
    const release = (bookingId: BookingId, at: Date) => sql`
        UPDATE calendar_bookings SET released_at = ${at} WHERE booking_id = ${bookingId}::uuid AND released_at IS NULL`

    /** Whether another held slot of the provider, in the real calendar or the given one, overlaps the range. */
    const isFree = (input: {
      readonly providerId: string
      readonly calendar: string
      readonly start: Date
      readonly end: Date
      readonly except: BookingId
      readonly at: Date
      /** The caller's own hold on the range, which takes no time from it. */
      readonly ownHold?: string
    }) =>
      Effect.map(
        sql<{ readonly taken: boolean }>`
        SELECT EXISTS (SELECT 1 FROM calendar_bookings b WHERE b.provider_id = ${input.providerId}
          AND b.released_at IS NULL AND b.booking_id <> ${input.except}::uuid AND (b.expires_at IS NULL OR b.expires_at > ${input.at})
          AND b.id <> ${input.ownHold ?? input.except}::uuid
          AND b.calendar IN (${liveCalendar}, ${input.calendar}) AND b.during && tstzrange(${input.start}, ${input.end}, '[)')) AS taken`,
        (rows) => rows[0]?.taken !== true
      )

    return { availability, booking, hold, release, releaseHold, sweepHolds, isFree } as const
  })
}) {
  /** Without the services it needs, for tests that provide their own. */
  static readonly DefaultWithoutDependencies = Layer.effect(this, this.make)
  static readonly Default = this.DefaultWithoutDependencies.pipe(Layer.provide([Supply.Default]))
}
