import { Cause, Effect, Exit, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import * as fc from "fast-check"
import { appConfigFrom } from "../../src/AppConfig.js"
import { Bookings } from "../../src/Bookings/Bookings.js"
import { Changes } from "../../src/Bookings/Changes.js"
import { pgClientLayer } from "../../src/Database/Database.js"
import { BookingConfirmationRequest, type ConfirmedBooking } from "../../src/Domain/Booking.js"
import {
  CancelBookingRequest,
  type CancelBookingResponse,
  RescheduleBookingRequest,
  type RescheduleBookingResponse,
  type ReschedulePreview
} from "../../src/Domain/BookingChange.js"
import type { OptionClaims } from "../../src/Domain/BookingOption.js"
import { consumerTermsVersion } from "../../src/Domain/ConsumerInformation.js"
import { HoldRequest } from "../../src/Domain/Hold.js"
import { ProviderId, ServiceId } from "../../src/Domain/Ids.js"
import type { Partner } from "../../src/Domain/Partner.js"
import { formatPostcode } from "../../src/Domain/Supply.js"
import { Holds } from "../../src/Holds/Holds.js"
import { BookingOptions } from "../../src/Shared/BookingOptions.js"
import { OptionSigner } from "../../src/Shared/OptionSigner.js"
import { Supply } from "../../src/Supply/Supply.js"
import { freshDatabaseUrl } from "./Database.js"
import { clearBookings } from "./Fixtures.js"
import { testEnv, testNow } from "./Server.js"

// fast-check, configured here once for every property of the suite. Effect 4 has its own
// Arbitrary module and no longer bundles fast-check; the suite's properties use fast-check itself.

export { fc }

const requested = Number.parseInt(process.env.NUM_RUNS ?? "", 10)
const deep = process.env.PROPS === "deep"
const seed = process.env.SEED ? Number(process.env.SEED) : requested > 0 || deep ? Date.now() : undefined
const path = process.env.FC_PATH

if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed })

/**
 * Runs, seed and timeout of a property. `npm test` runs `quick`; `PROPS=deep` (what `npm run
 * test:props` sets) runs `deep`; `NUM_RUNS` sets every property's count and `SEED` (with
 * `FC_PATH` from a failure report) replays one; a deep or counted run prints the seed it uses.
 */
export const propSettings = (law: string, runs: { readonly quick: number; readonly deep: number }, msPerRun = 400) => {
  const numRuns = requested > 0 ? requested : deep ? runs.deep : runs.quick
  if (seed !== undefined) console.log(`[${law}] seed ${seed}, ${numRuns} runs${path ? `, path ${path}` : ""}`)
  const parameters: Pick<fc.Parameters, "numRuns" | "seed" | "path"> = {
    numRuns,
    ...(seed === undefined ? {} : { seed }),
    ...(path === undefined ? {} : { path })
  }
  return { numRuns, parameters, timeout: 60_000 + numRuns * msPerRun }
}

/** One code point of the whole of Unicode but the surrogates: what fast-check's `binary` unit draws. */
const binaryUnit = (() => {
  const drawn = fc.mapToConstant(
    { num: 0xd800, build: (index) => String.fromCodePoint(index) },
    { num: 0x10ffff - 0xe000 + 1, build: (index) => String.fromCodePoint(0xe000 + index) }
  )
  class CodePoint extends fc.Arbitrary<string> {
    generate(random: fc.Random, biasFactor: number | undefined) {
      return drawn.generate(random, biasFactor)
    }
    canShrinkWithoutContext(value: unknown): value is string {
      if (typeof value !== "string" || value.length === 0) return false
      const point = value.codePointAt(0)!
      return String.fromCodePoint(point) === value && (point < 0xd800 || point > 0xdfff)
    }
    shrink(value: string, context: unknown) {
      return drawn.shrink(value, context)
    }
  }
  return new CodePoint()
})()

/**
 * `fc.string({ unit: "binary", ...constraints })`: the same strings from the same seed, without
 * the second of CPU it costs to build. fast-check asks the unit, character by character, which
 * of its built-in dangerous strings ("__proto__", "constructor", ...) it can produce, and its
 * binary unit answers from a map of all 1,112,064 code points that it builds on the first
 * question; this one answers from the code point itself. Shrinking still uses fast-check's own.
 */
export const binaryString = (constraints: Omit<fc.StringConstraints, "unit"> = {}) =>
  fc.string({ ...constraints, unit: binaryUnit })

/**
 * The booking services on this file's own database, without HTTP or a server (a test that calls the
 * API builds `TestServer`); the suite writes its own supply.
 */
export const PropLayer = (options?: { readonly maxConnections?: number }) =>
  Layer.mergeAll(
    Bookings.Default,
    Changes.Default,
    Holds.Default,
    Supply.Default,
    OptionSigner.Default,
    BookingOptions.Default
  ).pipe(
    Layer.provideMerge(
      Layer.unwrap(
        Effect.map(freshDatabaseUrl, ({ url }) =>
          pgClientLayer(Redacted.make(url), { maxConnections: options?.maxConnections ?? 10 })
        )
      ).pipe(Layer.orDie)
    ),
    Layer.provideMerge(appConfigFrom({ ...testEnv, DEMO_SUPPLY: "false" }))
  )

export type PropServices = Bookings | Changes | Holds | Supply | OptionSigner | BookingOptions | SqlClient.SqlClient

export type PropRun = <A, E>(effect: Effect.Effect<A, E, PropServices>) => Promise<A>

/** Runs Effects from inside fast-check's async properties, with the services of the suite's layer. */
export const propRunner = Effect.map(
  Effect.context<PropServices>(),
  (runtime): PropRun =>
    (effect) =>
      Effect.runPromiseWith(runtime)(effect)
)

export const partner: Partner["Service"] = { id: "partner-prop", name: "Property partner", sandbox: false }
export const otherPartner: Partner["Service"] = { id: "partner-other", name: "Other partner", sandbox: false }

/** Options are signed at the search, Monday 23 November 2026 09:00 in Stockholm, and confirmed then too. */
export const searchedAt = new Date(testNow)

const MINUTE = 60_000
export const STEP_MINUTES = 30

/** Tuesday 24 November 2026 00:00 in Stockholm (+01:00 all week); day 1 is Wednesday, day 2 Thursday. */
const firstDay = Date.parse("2026-11-24T00:00:00+01:00")
const firstIsoWeekday = 2

export interface Slot {
  readonly start: number
  readonly end: number
}

/** A slot on the half-hour grid of a local day: starting `startStep` half hours after midnight. */
export const slotAt = (day: number, startStep: number, durationSteps: number): Slot => {
  const start = firstDay + day * 24 * 60 * MINUTE + startStep * STEP_MINUTES * MINUTE
  return { start, end: start + durationSteps * STEP_MINUTES * MINUTE }
}

export const isoWeekdayOf = (day: number) => ((firstIsoWeekday - 1 + day) % 7) + 1

/** Half-open ranges: [a, b) and [b, c) touch without overlapping. */
export const overlaps = (a: Slot, b: Slot) => a.start < b.end && b.start < a.end

export const showSlot = (slot: Slot) =>
  `${new Date(slot.start).toISOString().slice(5, 16)}..${new Date(slot.end).toISOString().slice(11, 16)}Z`

export interface Hours {
  readonly iso_weekday: number
  readonly opens: string
  readonly closes: string
}

export const allDay: ReadonlyArray<Hours> = [1, 2, 3, 4, 5, 6, 7].map((iso_weekday) => ({
  iso_weekday,
  opens: "00:00",
  closes: "23:59"
}))

export const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))

/** The reference for working hours: the slot lies in one opening of its own local day. */
export const withinHours = (hours: ReadonlyArray<Hours>, day: number, startStep: number, durationSteps: number) => {
  const from = startStep * STEP_MINUTES
  const to = from + durationSteps * STEP_MINUTES
  return hours.some(
    (h) => h.iso_weekday === isoWeekdayOf(day) && minutesOf(h.opens) <= from && to <= minutesOf(h.closes)
  )
}

export const serviceId = "prop_flat_service"
const verticalId = "vvs"
const jobTypeId = "install_faucet"

export interface ProviderSpec {
  readonly id: string
  readonly amountSek: number
  readonly termsVersion: string
  readonly hours: ReadonlyArray<Hours>
  readonly active?: boolean
  readonly serviceActive?: boolean
  readonly serviceListed?: boolean
  readonly areas?: ReadonlyArray<{ readonly from: string; readonly to: string }>
  /** The provider's cancellation policy as the supply file states it; none stated when absent. */
  readonly policy?: {
    readonly free_cancellation_hours: number
    readonly late_fee_sek: number
    readonly change_hours: number
  }
}

export const termsOf = (providerId: string) => `${providerId}/${serviceId}/2026-11-01.v1`

export const provider = (id: string, amountSek = 1990, hours: ReadonlyArray<Hours> = allDay): ProviderSpec => ({
  id,
  amountSek,
  termsVersion: termsOf(id),
  hours
})

/** Who every provider of the harness is, as its supply file states it and its terms' consumer information carries it. */
const identityOf = (p: ProviderSpec) => ({
  name: `Leverantör ${p.id}`,
  organisationNumber: "559260-1446",
  email: "kundservice@ror.example",
  phone: "08-123 456",
  address: "Sveavägen 1, 111 22 Stockholm"
})

/** The terms version an option of the provider carries: the file's, with the consumer information's fingerprint. */
export const offeredTermsOf = (p: ProviderSpec) => consumerTermsVersion(p.termsVersion, identityOf(p))

/** A supply file of one flat-priced service per provider, serving postcodes 100 00 to 199 99. */
export const supplyFile = (providers: ReadonlyArray<ProviderSpec>) => ({
  providers: providers.map((p) => ({
    id: p.id,
    name: identityOf(p).name,
    organisation_number: identityOf(p).organisationNumber,
    contact: { email: identityOf(p).email, phone: identityOf(p).phone, address: identityOf(p).address },
    city: "Stockholm",
    active: p.active ?? true,
    areas: p.areas ?? [{ from: "100 00", to: "199 99" }],
    working_hours: p.hours,
    ...(p.policy ? { cancellation_policy: p.policy } : {}),
    services:
      p.serviceListed === false
        ? []
        : [
            {
              service_id: serviceId,
              vertical_id: verticalId,
              job_type_id: jobTypeId,
              label_sv: "Byte av blandare",
              pricing_model: "flat",
              price_type: "avg_fixed",
              amount_sek: p.amountSek,
              duration_minutes: 60,
              scope: {},
              terms: {
                version: p.termsVersion,
                url: `https://villkor.example/${p.id}`,
                sections: [],
                source_urls: []
              },
              tax_deduction: { kind: "rot", labour: { share: 0.9 } },
              active: p.serviceActive ?? true
            }
          ]
  }))
})

export const importSupply = (providers: ReadonlyArray<ProviderSpec>) =>
  Effect.flatMap(Supply, (supply) => supply.importFile(supplyFile(providers))).pipe(Effect.orDie)

export const defaultPostcode = 11122

/** The claims a search would have signed for this provider's service and slot. */
export const claimsFor = (p: ProviderSpec, slot: Slot, originPostcode = defaultPostcode): OptionClaims => ({
  providerId: ProviderId.make(p.id),
  serviceId: ServiceId.make(serviceId),
  verticalId,
  jobTypeId,
  amountSek: p.amountSek,
  pricingModel: "flat",
  priceType: "avg_fixed",
  slotStart: slot.start,
  slotEnd: slot.end,
  termsVersion: offeredTermsOf(p),
  originPostcode
})

/** The option issued as a search issues it: on record, under a short id. */
export const sign = (claims: OptionClaims, now: Date = searchedAt) =>
  Effect.flatMap(BookingOptions, (options) => options.issue([claims], now)).pipe(
    Effect.map((tokens) => tokens[0]!),
    Effect.orDie
  )

export const customers = [
  { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" },
  { first_name: "Nils", last_name: "Holgersson", phone: "0701234567", email: "nils@example.se" },
  { name: "Greta Berg", phone: "08-123 456", email: "greta@example.se" }
] as const

/** The i-th customer: one of the three above, then as many distinct others as a property needs. */
export const customerAt = (i: number) =>
  customers[i] ?? { name: `Kund ${i}`, phone: `+46 70 200 ${String(i).padStart(4, "0")}`, email: `kund${i}@example.se` }

const decodeRequest = Schema.decodeUnknownSync(BookingConfirmationRequest)

/** A valid confirm body, decoded as the endpoint would decode it. */
export const requestFor = (input: {
  readonly token: string
  readonly claims: OptionClaims
  readonly key: string
  readonly customer?: number
}) =>
  decodeRequest({
    booking_option_id: input.token,
    customer: customerAt(input.customer ?? 0),
    service_location: {
      country_code: "SE",
      address: "Drottninggatan 12",
      postcode: formatPostcode(input.claims.originPostcode)
    },
    user_consent_confirmed: true,
    booking_terms_accepted: true,
    booking_terms_version: input.claims.termsVersion,
    booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
    idempotency_key: input.key
  })

/** Signs an option and wraps it in a confirm body: what a partner sends after a search. */
export const optionRequest = (p: ProviderSpec, slot: Slot, key: string, customer = 0, now: Date = searchedAt) =>
  Effect.map(sign(claimsFor(p, slot), now), ({ token }) =>
    requestFor({ token, claims: claimsFor(p, slot), key, customer })
  )

export type Outcome =
  | {
      readonly _tag: "Confirmed"
      /** A retry's answer (200 over HTTP) rather than a booking made now (201). */
      readonly replay: boolean
      readonly requestId: string
      readonly booking: ConfirmedBooking
    }
  | {
      readonly _tag: "Rejected"
      readonly code: string
      readonly refresh: boolean | undefined
      /** The booking a refusal names (a used key, an option already booked), and what it tells to do. */
      readonly bookingId?: string | undefined
      readonly step?: string | undefined
    }
  | { readonly _tag: "Defect"; readonly cause: string }

/** What a partner would see of one confirm, with a defect kept as a value so a property can name it. */
export const confirm = (
  request: BookingConfirmationRequest,
  now: Date = searchedAt,
  who = partner,
  headerKey: string | undefined = undefined
) =>
  Effect.flatMap(Bookings, (bookings) => Effect.exit(bookings.confirm(request, headerKey, who, now))).pipe(
    Effect.map((exit): Outcome => {
      if (Exit.isSuccess(exit)) {
        const body = exit.value
        return {
          _tag: "Confirmed",
          replay: body.idempotent_replay,
          requestId: body.request_id,
          booking: body.booking
        }
      }
      const failure = Cause.findErrorOption(exit.cause)
      return Option.isSome(failure)
        ? {
            _tag: "Rejected",
            code: failure.value._tag,
            refresh: "option_refresh_required" in failure.value ? failure.value.option_refresh_required : undefined,
            ...("booking_id" in failure.value ? { bookingId: failure.value.booking_id } : {}),
            ...("safe_next_step" in failure.value ? { step: failure.value.safe_next_step } : {})
          }
        : { _tag: "Defect", cause: Cause.pretty(exit.cause) }
    })
  )

export const describeOutcome = (outcome: Outcome) =>
  outcome._tag === "Confirmed"
    ? `${outcome.replay ? "200 replay" : "201"} ${outcome.booking.id}`
    : outcome._tag === "Rejected"
      ? outcome.code
      : `defect: ${outcome.cause}`

/** Every run starts from an empty calendar; the order follows the foreign keys. */
export const resetBookings = clearBookings({ keys: true })

export const rowCounts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ bookings: number; calendar: number; outbox: number; keys: number }>`
    SELECT (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM calendar_bookings) AS calendar,
      (SELECT count(*)::int FROM notification_outbox) AS outbox, (SELECT count(*)::int FROM idempotency_keys) AS keys`
  return row!
}).pipe(Effect.orDie)

export interface CalendarRow {
  readonly id: string
  readonly providerId: string
  readonly start: number
  readonly end: number
}

export const calendarRows = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: string; providerId: string; slotStart: Date; slotEnd: Date }>`
    SELECT id, provider_id, lower(during) AS slot_start, upper(during) AS slot_end
    FROM calendar_bookings ORDER BY provider_id, lower(during)`
  return rows.map(
    (row): CalendarRow => ({
      id: row.id,
      providerId: row.providerId,
      start: row.slotStart.getTime(),
      end: row.slotEnd.getTime()
    })
  )
}).pipe(Effect.orDie)

/** The booking each stored idempotency key points at, with what was booked. */
export const bookingsByKey = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ key: string; bookingId: string | null; slotStart: Date | null; customer: unknown }>`
    SELECT k.key, b.id AS booking_id, b.slot_start, b.customer
    FROM idempotency_keys k LEFT JOIN bookings b ON b.id = k.resource_id
    WHERE k.partner_id = ${partner.id} AND k.scope = 'booking'
    ORDER BY k.key`
}).pipe(Effect.orDie)

/** A cancel's or a reschedule's answer, or its refusal, as a partner would see it. */
export type ChangeOutcome<A> =
  | { readonly _tag: "Done"; readonly body: A }
  | {
      readonly _tag: "Rejected"
      readonly code: string
      readonly refresh: boolean | undefined
      readonly bookingId?: string | undefined
      readonly step?: string | undefined
      readonly cancellation?: unknown
    }
  | { readonly _tag: "Defect"; readonly cause: string }

const changeOutcome = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit): ChangeOutcome<A> => {
    if (Exit.isSuccess(exit)) return { _tag: "Done", body: exit.value }
    const failure = Cause.findErrorOption(exit.cause)
    if (Option.isNone(failure)) return { _tag: "Defect", cause: Cause.pretty(exit.cause) }
    const error = failure.value as unknown as Record<string, unknown> & { readonly _tag: string }
    return {
      _tag: "Rejected",
      code: error._tag,
      refresh: error.option_refresh_required as boolean | undefined,
      ...(typeof error.booking_id === "string" ? { bookingId: error.booking_id } : {}),
      ...(typeof error.safe_next_step === "string" ? { step: error.safe_next_step } : {}),
      ...(error.cancellation === undefined ? {} : { cancellation: error.cancellation })
    }
  })

const decodeCancel = Schema.decodeUnknownSync(CancelBookingRequest)
const decodeReschedule = Schema.decodeUnknownSync(RescheduleBookingRequest)

/** A cancel body, decoded as the endpoint would decode it. */
export const cancelRequest = (input: {
  readonly key: string
  readonly by?: "customer" | "partner"
  readonly dryRun?: boolean
  readonly expectedVersion?: number
  readonly reason?: string
}) =>
  decodeCancel({
    idempotency_key: input.key,
    ...(input.by === undefined ? {} : { cancelled_by: input.by }),
    ...(input.dryRun === undefined ? {} : { dry_run: input.dryRun }),
    ...(input.expectedVersion === undefined ? {} : { expected_version: input.expectedVersion }),
    ...(input.reason === undefined ? {} : { reason: input.reason })
  })

/** A reschedule body for a fresh option of this provider's slot, as a partner sends it after a new search. */
export const rescheduleRequest = (
  p: ProviderSpec,
  slot: Slot,
  input: { readonly key: string; readonly dryRun?: boolean; readonly expectedVersion?: number },
  now: Date = searchedAt
) =>
  Effect.map(sign(claimsFor(p, slot), now), ({ token }) =>
    decodeReschedule({
      booking_option_id: token,
      idempotency_key: input.key,
      booking_terms_accepted: true,
      booking_terms_version: offeredTermsOf(p),
      booking_terms_accepted_at: "2026-11-23T08:59:30+01:00",
      ...(input.dryRun === undefined ? {} : { dry_run: input.dryRun }),
      ...(input.expectedVersion === undefined ? {} : { expected_version: input.expectedVersion })
    })
  )

export const cancel = (ref: string, request: CancelBookingRequest, now: Date = searchedAt, who = partner) =>
  changeOutcome<CancelBookingResponse, unknown, Changes>(
    Effect.flatMap(Changes, (changes) => changes.cancel(ref, request, undefined, who, now))
  )

export const reschedule = (ref: string, request: RescheduleBookingRequest, now: Date = searchedAt, who = partner) =>
  changeOutcome<RescheduleBookingResponse | ReschedulePreview, unknown, Changes>(
    Effect.flatMap(Changes, (changes) => changes.reschedule(ref, request, undefined, who, now))
  )

export const describeChange = (outcome: ChangeOutcome<unknown>) =>
  outcome._tag === "Done" ? "200" : outcome._tag === "Rejected" ? outcome.code : `defect: ${outcome.cause}`

/** The slots bookings hold now (not released), one per booking, named by the booking. */
export const heldRows = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ bookingId: string; providerId: string; slotStart: Date; slotEnd: Date }>`
    SELECT booking_id::text, provider_id, lower(during) AS slot_start, upper(during) AS slot_end
    FROM calendar_bookings WHERE released_at IS NULL AND kind = 'booking' ORDER BY booking_id`
  return rows.map((row) => ({
    id: row.bookingId,
    providerId: row.providerId,
    start: row.slotStart.getTime(),
    end: row.slotEnd.getTime()
  }))
}).pipe(Effect.orDie)

/** Each booking's status and version as stored, and how many slots it has released (its history). */
export const bookingStates = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ id: string; status: string; version: number; released: number }>`
    SELECT b.id::text, b.status, b.version,
      (SELECT count(*)::int FROM calendar_bookings c WHERE c.booking_id = b.id AND c.released_at IS NOT NULL) AS released
    FROM bookings b ORDER BY b.id`
}).pipe(Effect.orDie)

const decodeHold = Schema.decodeUnknownSync(HoldRequest)

/** A hold body for a signed option, decoded as the endpoint would decode it. */
export const holdRequest = (token: string, key: string, seconds?: number) =>
  decodeHold({
    booking_option_id: token,
    idempotency_key: key,
    ...(seconds === undefined ? {} : { hold_seconds: seconds })
  })

/** The Holds service reads the service's clock itself: run it with the clock standing at `now`. */
const at =
  (now: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.andThen(TestClock.setTime(now), effect).pipe(Effect.provide(TestClock.layer()))

export type HoldOutcome =
  | { readonly _tag: "Done"; readonly body: any }
  | { readonly _tag: "Rejected"; readonly code: string }
  | { readonly _tag: "Defect"; readonly cause: string }

const outcomeOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.exit(effect), (exit): HoldOutcome => {
    if (Exit.isSuccess(exit)) return { _tag: "Done", body: exit.value }
    const failure = Cause.findErrorOption(exit.cause)
    return Option.isSome(failure)
      ? { _tag: "Rejected", code: (failure.value as { readonly _tag: string })._tag }
      : { _tag: "Defect", cause: Cause.pretty(exit.cause) }
  })

export const holdAt = (request: HoldRequest, who: Partner["Service"], now: number) =>
  outcomeOf(Effect.flatMap(Holds, (holds) => holds.hold(request, who)).pipe(at(now)))

export const releaseAt = (holdId: string, who: Partner["Service"], now: number) =>
  outcomeOf(Effect.flatMap(Holds, (holds) => holds.release(holdId, who)).pipe(at(now)))

export const describeHold = (outcome: HoldOutcome) =>
  outcome._tag === "Done" ? "done" : outcome._tag === "Rejected" ? outcome.code : `defect: ${outcome.cause}`

/**
 * What takes a provider's time at `now` by the calendar's rows: bookings and blocks not released,
 * and holds not released that have not run out, whether or not anything has freed them yet.
 */
export const takingTimeAt = (now: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      id: string
      kind: string
      providerId: string
      calendar: string
      slotStart: Date
      slotEnd: Date
    }>`
      SELECT id::text, kind, provider_id, calendar, lower(during) AS slot_start, upper(during) AS slot_end
      FROM calendar_bookings
      WHERE released_at IS NULL AND (expires_at IS NULL OR expires_at > ${new Date(now)})
      ORDER BY provider_id, lower(during)`
    return rows.map((row) => ({ ...row, start: row.slotStart.getTime(), end: row.slotEnd.getTime() }))
  }).pipe(Effect.orDie)
