import { Array as Arr, Context, Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"
import { Catalog } from "../Catalog/Catalog.js"
import type { OptionClaims } from "../Domain/BookingOption.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import type { VerticalId } from "../Domain/Catalog.js"
import { DatabaseUnavailable, InvalidRequest, UnsupportedJobType, UnsupportedVertical } from "../Domain/Errors.js"
import type { Partner } from "../Domain/Partner.js"
import { personalDataIn, personalDataIssue, stringsIn } from "../Domain/PersonalData.js"
import { priceKind, quantityBounds } from "../Domain/Pricing.js"
import { emergencyStep, isEmergency } from "../Domain/Safety.js"
import type { BookingOption, BookingSearchRequest, BookingSearchResponse } from "../Domain/Search.js"
import { bufferMinutes, type Interval, longestWorkingDayMinutes } from "../Domain/Slots.js"
import { postcodeNumber } from "../Domain/Supply.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { DAY, formatInZone, MINUTE } from "../Domain/Zone.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { type AvailabilityQuery, Calendar, calendarOf } from "../Shared/Calendar.js"
import { failLogged } from "../Shared/FailureSummary.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { alternativesDays, choose, type Found, maxAlternatives, maxOptions, priceAll, slotsOf } from "./Choice.js"
import { optionBody } from "./OptionBody.js"
import {
  detailsStep,
  missingQuantityStep,
  noOptionsStep,
  type OfferedOptions,
  optionsStep,
  timeNotSearchedNote,
  unavailableStep
} from "./Steps.js"
import { parseTimeWindow } from "./Timing/TimeWindow.js"

const destinationRequired = new Set(["moving_home", "moving_office", "moving_piano"])
const movingHomeDetails = ["home_size_sqm", "boxes", "elevator_origin", "elevator_destination"] as const

/** The details keys search reads, checked against their bounds; other keys are ignored. */
const detailIssues = (details: Readonly<Record<string, unknown>> | undefined): Array<string> => {
  if (details === undefined) return []
  const issues: Array<string> = []
  for (const [key, bounds] of Object.entries(quantityBounds)) {
    const value = details[key]
    if (value === undefined) continue
    if (typeof value !== "number" || !Number.isFinite(value)) issues.push(`details.${key}: must be a number`)
    else if (bounds.integer && !Number.isInteger(value)) issues.push(`details.${key}: must be a whole number`)
    else if (value < bounds.min || value > bounds.max)
      issues.push(`details.${key}: must be from ${bounds.min} to ${bounds.max} ${bounds.unit} for one visit`)
  }
  for (const key of ["elevator_origin", "elevator_destination"]) {
    if (details[key] !== undefined && typeof details[key] !== "boolean")
      issues.push(`details.${key}: must be a boolean`)
  }
  return issues
}

const personalDataIssues = (request: BookingSearchRequest, surface: Surface): Array<string> => {
  const fields = [
    ...stringsIn(request.description, "description"),
    ...stringsIn(request.location.city, "location.city"),
    ...stringsIn(request.destination_location?.city, "destination_location.city"),
    ...stringsIn(request.timing, "timing"),
    ...stringsIn(request.details, "details")
  ]
  return fields.flatMap(([path, text]) => {
    const kind = personalDataIn(text)
    return kind === undefined ? [] : [personalDataIssue(path, kind, surface.confirm)]
  })
}

/** Truth rule 5: no options and no fallback, only the advice to call 112. */
const emergencyResponse: BookingSearchResponse = {
  ok: true,
  spec_version: bookingsSpecVersion,
  availability_checked: true,
  provider_selected: false,
  booking_created: false,
  direct_booking_available: false,
  option_count: 0,
  options: [],
  safe_next_step: emergencyStep
}

const stepOf = (
  surface: Surface,
  chosen: ReadonlyArray<Found>,
  options: ReadonlyArray<BookingOption>,
  offered: OfferedOptions,
  timeSearched: boolean
) => {
  const step = optionsStep(
    surface,
    new Set(chosen.map((f) => priceKind(f.candidate))),
    options.map((option) => option.price.tax_deduction),
    offered
  )
  return timeSearched ? step : timeNotSearchedNote + step
}

/** Turns a search request into signed, bookable options, or the fallback when there are none. */
export class BookingSearch extends Context.Service<BookingSearch>()("Booking/BookingSearch", {
  make: Effect.gen(function* () {
    const catalog = yield* Catalog
    const calendar = yield* Calendar
    const signer = yield* OptionSigner
    const bookingOptions = yield* BookingOptions
    const config = yield* AppConfig
    const fallbackEndpoint = `${config.publicBaseUrl}/api/public/requests`

    const validate = (request: BookingSearchRequest, surface: Surface) =>
      Effect.gen(function* () {
        const again = `search again (${surface.search})`
        const { vertical, jobType } = yield* catalog.resolve(request.vertical_id, request.job_type_id, again, {
          vertical: (details) => new UnsupportedVertical(details),
          jobType: (details) => new UnsupportedJobType(details)
        })
        const personal = personalDataIssues(request, surface)
        const issues: Array<string> = [...detailIssues(request.details)]
        if (destinationRequired.has(request.job_type_id) && request.destination_location === undefined) {
          issues.push(`destination_location: is required for ${request.job_type_id}`)
        }
        if (request.job_type_id === "moving_home") {
          if (request.details === undefined)
            issues.push(`details: is required for moving_home (${movingHomeDetails.join(", ")})`)
          else
            for (const key of movingHomeDetails)
              if (request.details[key] === undefined) issues.push(`details.${key}: is required for moving_home`)
        }
        if (personal.length > 0) {
          return yield* new InvalidRequest({
            issues: [...personal, ...issues],
            safe_next_step: `Nothing is booked. Search again (${surface.search}) without personal data: describe the job, the postcode and the time only. Names, phone numbers, e-mail and street addresses belong to the confirmation (${surface.confirm}), after the user's consent.`
          })
        }
        if (issues.length > 0)
          return yield* new InvalidRequest({ issues, safe_next_step: detailsStep(surface, issues) })
        const verticalId = vertical.vertical_id
        // The moving facts of section 4.2: the destination matters only for moving.
        const destination = verticalId === "moving" ? request.destination_location : undefined
        return { verticalId, jobType, destination }
      })

    /** What an option's id carries, for the confirmation to revalidate without trusting the caller. */
    const claimsOf = (
      request: BookingSearchRequest,
      verticalId: VerticalId,
      destination: BookingSearchRequest["destination_location"],
      found: Found
    ): OptionClaims => {
      const { candidate, slot } = found
      return {
        providerId: candidate.providerId,
        serviceId: candidate.serviceId,
        verticalId,
        jobTypeId: request.job_type_id,
        amountSek: found.quote.amountSek,
        pricingModel: candidate.pricingModel,
        priceType: candidate.priceType,
        ...(found.quote.unitPriceSek === undefined ? {} : { unitPriceSek: found.quote.unitPriceSek }),
        ...(found.quote.unit === undefined ? {} : { unit: found.quote.unit }),
        ...(found.quote.quantity === undefined ? {} : { quantity: found.quote.quantity }),
        slotStart: slot.start,
        slotEnd: slot.end,
        termsVersion: candidate.termsVersion,
        originPostcode: postcodeNumber(request.location.postcode),
        ...(destination ? { destinationPostcode: postcodeNumber(destination.postcode) } : {}),
        timeZone: request.timezone
      }
    }

    const unavailable = (what: string) =>
      failLogged(what, () => new DatabaseUnavailable({ safe_next_step: unavailableStep }))
    const readAvailability = (query: AvailabilityQuery) =>
      Effect.catchTag(calendar.availability(query), "SqlError", unavailable("search could not read availability"))

    /** The chosen slots issued as options, each on record and confirmable as it stands. */
    const signed = (
      request: BookingSearchRequest,
      verticalId: VerticalId,
      destination: BookingSearchRequest["destination_location"],
      chosen: ReadonlyArray<Found>,
      now: Date
    ) =>
      bookingOptions
        .issue(
          chosen.map((f) => claimsOf(request, verticalId, destination, f)),
          now
        )
        .pipe(
          Effect.catchTag("SqlError", unavailable("search could not store its options")),
          Effect.map((tokens) =>
            Arr.zipWith(chosen, tokens, (f, token) =>
              optionBody({ jobTypeId: request.job_type_id, timeZone: request.timezone, verticalId }, f, token, now)
            )
          )
        )

    /** `partner`: the caller when it sent a token; a sandbox partner's search also sees its own sandbox bookings. */
    const run = Effect.fnUntraced(function* (
      request: BookingSearchRequest,
      now: Date,
      partner: Partner["Service"] | undefined = undefined
    ) {
      const surface = yield* CurrentSurface
      const { verticalId, jobType, destination } = yield* validate(request, surface)
      if (isEmergency(jobType)) return emergencyResponse
      yield* signer.ensureConfigured
      const window = parseTimeWindow({
        preferredTimeText: request.timing.preferred_time_text,
        urgency: request.timing.urgency,
        timeZone: request.timezone,
        now
      })
      const buffer = bufferMinutes * MINUTE
      const query = (range: Interval): AvailabilityQuery => ({
        verticalId,
        jobTypeId: jobType.job_type_id,
        postcode: postcodeNumber(request.location.postcode),
        destinationPostcode: destination && postcodeNumber(destination.postcode),
        range: { start: range.start - buffer, end: range.end + buffer },
        calendar: calendarOf(partner),
        now: now.getTime()
      })
      const requested = { start: window.start.getTime(), end: window.end.getTime() }
      const candidates = yield* readAvailability(query(requested))

      const { priced, missing } = priceAll(candidates, request.details)
      const missingKeys = new Set(missing.flat())
      const found = slotsOf(priced, {
        window: requested,
        dailyHours: window.dailyHours,
        excludedDates: window.excludedDates,
        windowTimeZone: request.timezone,
        now: now.getTime()
      })
      const chosen = choose(found, maxOptions)
      const options = yield* signed(request, verticalId, destination, chosen, now)
      const fitsOneDay = priced.filter((p) => p.quote.durationMinutes <= longestWorkingDayMinutes(p.candidate.hours))

      // Only a full window for a job that fits, and no quantity to ask for first, asks once more, for the days after it.
      const alternatives =
        options.length === 0 && fitsOneDay.length > 0 && missingKeys.size === 0
          ? yield* Effect.gen(function* () {
              const nearby = { start: requested.start, end: requested.end + alternativesDays * DAY }
              const later = yield* readAvailability(query(nearby))
              const near = choose(
                slotsOf(priceAll(later, request.details).priced, {
                  window: nearby,
                  excludedDates: window.excludedDates,
                  windowTimeZone: request.timezone,
                  now: now.getTime()
                }),
                maxAlternatives
              )
              return { near, options: yield* signed(request, verticalId, destination, near, now) }
            })
          : { near: [], options: [] }
      const longest =
        found.length === 0 && priced.length > 0 ? Math.max(...priced.map((p) => p.quote.durationMinutes)) : 0

      const reason =
        candidates.length === 0
          ? `No provider offers a fixed-price ${jobType.label_en.toLowerCase()} service at postcode ${request.location.postcode}${destination ? ` and ${destination.postcode}` : ""}.`
          : priced.length === 0
            ? `The fixed price for this job is per unit and needs ${[...new Set(missing.map((keys) => keys.map((key) => `details.${key}`).join(" or ")))].join(" / ")} in the search, which it did not include.`
            : fitsOneDay.length === 0
              ? `The work takes about ${Math.round(longest / 60)} hours, more than one working day of the providers here, so it cannot be booked as one visit.`
              : `No provider offering a fixed price here has a free slot in the requested time (${window.label}).`
      const response: BookingSearchResponse = {
        ok: true,
        spec_version: bookingsSpecVersion,
        availability_checked: true,
        provider_selected: false,
        booking_created: false,
        direct_booking_available: options.length > 0,
        option_count: options.length,
        options,
        ...(alternatives.options.length > 0 ? { alternative_options: alternatives.options } : {}),
        requested_time_window: {
          start_at: formatInZone(window.start, request.timezone),
          end_at: formatInZone(window.end, request.timezone),
          label: window.label
        },
        ...(options.length === 0
          ? { fallback: { type: "provider_follow_up_request" as const, endpoint: fallbackEndpoint, reason } }
          : {}),
        safe_next_step:
          options.length > 0
            ? stepOf(surface, chosen, options, "options", window.understood)
            : alternatives.options.length > 0
              ? stepOf(surface, alternatives.near, alternatives.options, "alternative_options", window.understood)
              : missingKeys.size > 0
                ? missingQuantityStep(surface, [...missingKeys])
                : noOptionsStep(surface)
      }
      return response
    })

    // No span: nothing exports traces, and even a no-op span costs a search two fiber-ref writes.
    return { search: run } as const
  })
}) {
  /** Without the services it needs, for tests that provide their own. */
  static readonly DefaultWithoutDependencies = Layer.effect(this, this.make)
  static readonly Default = this.DefaultWithoutDependencies.pipe(
    Layer.provide([Catalog.Default, Calendar.Default, OptionSigner.Default, BookingOptions.Default])
  )
}
