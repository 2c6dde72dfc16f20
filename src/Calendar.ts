import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { BookingId, ProviderId, ServiceId } from "./Domain/Ids.js"
import { asStored, OfferedService } from "./Domain/Supply.js"
import { Supply } from "./Supply.js"

/** An offered service with its provider's confirmed bookings in the searched range, epoch ms. */
export const Candidate = Schema.Struct({
  ...OfferedService.fields,
  busy: Schema.Array(Schema.Tuple(Schema.Number, Schema.Number))
}).annotations(asStored)
export type Candidate = typeof Candidate.Type

/** A search's question to the calendar: a job at a postcode (and destination), over a range in epoch ms. */
const AvailabilityQuery = Schema.Struct({
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  postcode: Schema.Number,
  destinationPostcode: Schema.UndefinedOr(Schema.Number),
  range: Schema.Struct({ start: Schema.Number, end: Schema.Number })
})
type AvailabilityQuery = typeof AvailabilityQuery.Type

export interface CalendarBooking {
  readonly id: BookingId
  readonly providerId: ProviderId
  readonly serviceId: ServiceId
  readonly slotStart: Date
  readonly slotEnd: Date
  /** A sandbox booking takes its slot in the sandbox calendar, never the provider's real one. */
  readonly sandbox: boolean
}

/** Free slots and the atomic booking of provider time (PostgreSQL). */
export class Calendar extends Effect.Service<Calendar>()("Booking/Calendar", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { servesDestinationOfP, servesPostcodeOfP, workingHoursOfP } = yield* Supply

    /**
     * Everything a search needs in one round trip: the active providers serving the postcode(s)
     * with an active fixed-price service for the job, their working hours, and their confirmed
     * bookings overlapping the searched range.
     */
    const findCandidates = SqlSchema.findAll({
      Request: AvailabilityQuery,
      Result: Candidate,
      execute: (input) => sql`
        SELECT p.id AS provider_id, p.name AS provider_name, p.city, p.rating_label,
          s.service_id, s.label_sv, s.label_en, s.pricing_model, s.price_type, s.amount_sek, s.unit_price_sek,
          s.unit, s.duration_minutes, s.scope, s.terms_version, s.terms_url, s.terms_sections, s.terms_source_urls,
          ${workingHoursOfP} AS hours,
          coalesce((
            SELECT json_agg(json_build_array(
              (extract(epoch FROM lower(b.during)) * 1000)::bigint, (extract(epoch FROM upper(b.during)) * 1000)::bigint))
            FROM calendar_bookings b
            WHERE b.provider_id = p.id AND NOT b.sandbox AND b.during && tstzrange(${new Date(input.range.start)}, ${new Date(input.range.end)})
          ), '[]') AS busy
        FROM provider_services s
        JOIN providers p ON p.id = s.provider_id
        WHERE s.active AND p.active AND s.vertical_id = ${input.verticalId} AND s.job_type_id = ${input.jobTypeId}
          AND ${servesPostcodeOfP(input.postcode)} AND ${servesDestinationOfP(input.destinationPostcode)}
        ORDER BY p.id, s.service_id`
    })

    const availability = (input: AvailabilityQuery) =>
      // A stored row that does not decode is a bug or a damaged table, not an answer for the client.
      // The span captures no stack: an Error made on every search for it cost more than the span.
      findCandidates(input).pipe(
        Effect.catchTag("ParseError", Effect.die),
        Effect.withSpan("Calendar.availability", { captureStackTrace: false })
      )

    /**
     * The statement that takes the slot, for the writer to run; the calendar's exclusion constraint
     * refuses an overlap (23P01) whatever ran before.
     */
    const booking = (booking: CalendarBooking) => sql`
        INSERT INTO calendar_bookings (id, provider_id, service_id, during, sandbox)
        VALUES (${booking.id}::uuid, ${booking.providerId}, ${booking.serviceId},
                tstzrange(${booking.slotStart}, ${booking.slotEnd}, '[)'), ${booking.sandbox})`

    return { availability, booking } as const
  }),
  dependencies: [Supply.Default]
}) {}
