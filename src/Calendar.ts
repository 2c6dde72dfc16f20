import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { Interval, WorkingHours } from "./Domain/Slots.js"
import type { ServiceScope } from "./Domain/Supply.js"
import { Supply } from "./Supply.js"

export interface Candidate {
  readonly providerId: string
  readonly providerName: string
  readonly city: string
  readonly ratingLabel: string | null
  readonly serviceId: string
  readonly labelSv: string
  readonly labelEn: string | null
  readonly pricingModel: string
  readonly priceType: string
  readonly amountSek: number | null
  readonly unitPriceSek: number | null
  readonly unit: string | null
  readonly durationMinutes: number
  readonly scope: ServiceScope
  readonly termsVersion: string
  readonly termsUrl: string
  readonly termsSections: ReadonlyArray<Record<string, unknown>>
  readonly termsSourceUrls: ReadonlyArray<string>
  readonly hours: ReadonlyArray<WorkingHours>
  readonly busy: ReadonlyArray<readonly [number, number]>
}

export interface CurrentOffer {
  readonly providerActive: boolean
  readonly providerName: string
  readonly notifyEmail: string | null
  readonly notifyWebhookUrl: string | null
  readonly serviceActive: boolean | null
  readonly labelSv: string | null
  readonly labelEn: string | null
  readonly pricingModel: string | null
  readonly priceType: string | null
  readonly amountSek: number | null
  readonly unitPriceSek: number | null
  readonly unit: string | null
  readonly durationMinutes: number | null
  readonly scope: ServiceScope | null
  readonly termsVersion: string | null
  readonly termsUrl: string | null
  readonly servesPostcode: boolean
  readonly servesDestination: boolean
  readonly hours: ReadonlyArray<WorkingHours>
}

export interface CalendarBooking {
  readonly id: string
  readonly providerId: string
  readonly serviceId: string
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
    const availability = Effect.fn("Calendar.availability")(function* (input: {
      readonly verticalId: string
      readonly jobTypeId: string
      readonly postcode: number
      readonly destinationPostcode: number | undefined
      readonly range: Interval
    }) {
      const candidates = yield* sql<Omit<Candidate, "busy"> & { busy: ReadonlyArray<readonly [number, number]> }>`
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
      return candidates as ReadonlyArray<Candidate>
    })

    /** The provider and service as they are now, for confirm to compare with the signed option. */
    const current = Effect.fn("Calendar.current")(function* (input: {
      readonly providerId: string
      readonly serviceId: string
      readonly postcode: number
      readonly destinationPostcode: number | undefined
    }) {
      const rows = yield* sql<CurrentOffer>`
        SELECT p.active AS provider_active, p.name AS provider_name, p.notify_email, p.notify_webhook_url,
          s.active AS service_active, s.label_sv, s.label_en, s.pricing_model, s.price_type, s.amount_sek,
          s.unit_price_sek, s.unit, s.duration_minutes, s.scope, s.terms_version, s.terms_url,
          ${servesPostcodeOfP(input.postcode)} AS serves_postcode,
          ${servesDestinationOfP(input.destinationPostcode)} AS serves_destination,
          ${workingHoursOfP} AS hours
        FROM providers p
        LEFT JOIN provider_services s ON s.provider_id = p.id AND s.service_id = ${input.serviceId}
        WHERE p.id = ${input.providerId}`
      return rows[0]
    })

    /** Takes the slot; the calendar's exclusion constraint refuses an overlap (23P01) whatever ran before. */
    const book = Effect.fn("Calendar.book")(function* (booking: CalendarBooking) {
      yield* sql`
        INSERT INTO calendar_bookings (id, provider_id, service_id, during, sandbox)
        VALUES (${booking.id}::uuid, ${booking.providerId}, ${booking.serviceId},
                tstzrange(${booking.slotStart}, ${booking.slotEnd}, '[)'), ${booking.sandbox})`
    })

    return { availability, current, book } as const
  }),
  dependencies: [Supply.Default]
}) {}
