import { Array as Arr, Context, Effect, Layer } from "effect"
import { AppConfig } from "../AppConfig.js"

import { Catalog } from "../Catalog/Catalog.js"
import type { OptionClaims } from "../Domain/BookingOption.js"
import { policyTerms } from "../Domain/CancellationPolicy.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import type { VerticalId } from "../Domain/Catalog.js"
import { DatabaseUnavailable, InvalidRequest, UnsupportedJobType, UnsupportedVertical } from "../Domain/Errors.js"
import { slotLabel } from "../Domain/Labels.js"
import type { Partner } from "../Domain/Partner.js"
import { personalDataIn, personalDataIssue, stringsIn } from "../Domain/PersonalData.js"
import { type PriceKind, priceKind, quantityBounds, quote } from "../Domain/Pricing.js"
import { emergencyStep, isEmergency } from "../Domain/Safety.js"
import type { BookingOption, BookingSearchRequest, BookingSearchResponse } from "../Domain/Search.js"
import { bufferMinutes, freeSlots, type Interval, longestWorkingDayMinutes } from "../Domain/Slots.js"
import { postcodeNumber } from "../Domain/Supply.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { taxDeduction } from "../Domain/TaxDeduction.js"
import { deductionAnswer, type TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { formatInZone, MINUTE } from "../Domain/Zone.js"
import { failLogged } from "../Http/FailureSummary.js"
import { Calendar, type Candidate, calendarOf } from "../Shared/Calendar.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { parseTimeWindow } from "./Timing/TimeWindow.js"

/** At most this many options, and at most this many per provider (spec 4.2 leaves both open). */
export const maxOptions = 10
export const maxOptionsPerProvider = 2

const destinationRequired = new Set(["moving_home", "moving_office", "moving_piano"])
const movingHomeDetails = ["home_size_sqm", "boxes", "elevator_origin", "elevator_destination"] as const

const noOptionsStep = (surface: Surface) =>
  `No direct booking is available for this job now. Tell the user nothing is booked, and offer to send the job to providers as a follow-up request (${surface.createRequest}) once the user consents to sharing contact details.`

/** What a quantity key asks the user for, in words an assistant can repeat. */
const quantityQuestions: Readonly<Record<string, string>> = {
  area_sqm: "the area in square metres",
  home_size_sqm: "the home's size in square metres",
  window_count: "the number of windows",
  hours: "the number of hours",
  item_count: "the number of items"
}

const askFor = (keys: ReadonlyArray<string>) =>
  keys.map((key) => `${quantityQuestions[key] ?? key} (details.${key})`).join(" or ")

/**
 * The price is per unit and the search did not say how many: the fix is the user's answer, so it
 * comes before any fallback.
 */
const missingQuantityStep = (surface: Surface, keys: ReadonlyArray<string>) =>
  `Nothing is booked. This job is priced per unit, so the search needs ${askFor(keys)}: ask the user and search again (${surface.search}) with it in details. Only if they cannot say, offer a follow-up request (${surface.createRequest}) once they consent to sharing contact details.`

/** A detail the search needs is missing or out of bounds: ask the user, then search again. */
const detailsStep = (surface: Surface, issues: ReadonlyArray<string>) =>
  `Nothing is booked. Ask the user for the details named in issues (${issues.map((issue) => issue.split(":")[0]).join(", ")}) and search again (${surface.search}) with the corrected values.`
const priceNotes: Record<PriceKind, string> = {
  fixed: "a price_type avg_fixed amount is the exact price of the described work",
  starting:
    'a price_type starting_price amount is a from-price: say "from" and that the provider sets the final price on site',
  unit: "a unit price (price_type avg_unit or avg_recurring) covers the quantity and unit stated in the option"
}

/** How to say the options' deductions: both figures and the condition, never the lower one as a promise. */
const deductionNote = (deductions: ReadonlyArray<TaxDeductionAnswer>) => {
  const claimed = deductions.filter((d) => d.kind !== "none")
  const names = [...new Set(claimed.map((d) => d.kind.toUpperCase()))].join(" or ")
  const withFigures =
    claimed.length === 0
      ? ""
      : ` Where price.tax_deduction has kind rut or rot, say both figures and the condition, as its conditions_en words them: "X SEK, or Y SEK after ${names} if you are eligible and have room under this year's cap; the provider deducts it on the invoice". Never give the after-deduction figure alone or as certain, keep "from" on a starting price's figures, and do not ask for or pass on any identity number: the provider collects the details it needs.`
  const without = deductions.some((d) => d.kind === "none")
    ? " Where price.tax_deduction has kind none, say the price without a deduction and promise none."
    : ""
  return withFigures + without
}

/**
 * The options' prices worded by kind, so no starting price is ever repeated as exact. The step
 * depends only on the surface, the price kinds and the deduction kinds in their order, and whether
 * an option has none (see deductionNote): a few combinations, each worded once.
 */
const optionsStep = (
  surface: Surface,
  kinds: ReadonlySet<PriceKind>,
  deductions: ReadonlyArray<TaxDeductionAnswer>
) => {
  const claimed = new Set(deductions.flatMap((d) => (d.kind === "none" ? [] : [d.kind])))
  const key = `${[...kinds].join(" ")}|${[...claimed].join(" ")}|${deductions.some((d) => d.kind === "none")}`
  let steps = optionsSteps.get(surface)
  if (steps === undefined) {
    steps = new Map()
    optionsSteps.set(surface, steps)
  }
  const cached = steps.get(key)
  if (cached !== undefined) return cached
  const step = optionsStepOf(surface, kinds, deductions)
  if (steps.size >= 100) steps.delete(steps.keys().next().value!)
  steps.set(key, step)
  return step
}

const optionsSteps = new WeakMap<Surface, Map<string, string>>()

const optionsStepOf = (
  surface: Surface,
  kinds: ReadonlySet<PriceKind>,
  deductions: ReadonlyArray<TaxDeductionAnswer>
) =>
  `Show the user each option's provider, price, time and terms. Prices: ${[...kinds].map((kind) => priceNotes[kind]).join("; ")}; amount_sek is the price before any tax deduction.${deductionNote(deductions)} Only after the user picks one and consents to sharing contact details, confirm it with ${surface.confirm} before expires_at. Nothing is booked until that confirmation succeeds.`

const unavailableStep =
  "Search is unavailable because the database does not answer. A search never books anything, so nothing was booked. Retry the same search in a moment."

/** The moving facts of section 4.2; the destination matters only for moving. */
const movesBetweenPostcodes = (verticalId: VerticalId) => verticalId === "moving"

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

interface Found {
  readonly candidate: Candidate
  readonly slot: Interval
  readonly quote: Extract<ReturnType<typeof quote>, { _tag: "Quoted" }>["quote"]
}

/** Turns a search request into signed, bookable options, or the fallback when there are none. */
export class BookingSearch extends Context.Service<BookingSearch>()("Booking/BookingSearch", {
  make: Effect.gen(function* () {
    const catalog = yield* Catalog
    const calendar = yield* Calendar
    const signer = yield* OptionSigner
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
        const destination = movesBetweenPostcodes(verticalId) ? request.destination_location : undefined
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

    /** The deduction under the rule in force on the slot's date, for the price as quoted. */
    const deductionOf = ({ candidate, slot, quote }: Found) =>
      deductionAnswer(
        taxDeduction(
          {
            amountSek: quote.amountSek,
            pricingModel: candidate.pricingModel,
            priceType: candidate.priceType,
            unitPriceSek: quote.unitPriceSek,
            quantity: quote.quantity
          },
          candidate.taxDeduction ?? undefined,
          slot.start
        )
      )

    const toOption = (
      request: BookingSearchRequest,
      verticalId: VerticalId,
      found: Found,
      signed: { readonly token: string; readonly expiresAt: Date },
      now: Date
    ): BookingOption => {
      const { candidate, slot } = found
      return {
        booking_option_id: signed.token,
        expires_at: formatInZone(signed.expiresAt, request.timezone),
        provider: {
          id: candidate.providerId,
          name: candidate.providerName,
          city: candidate.city,
          ...(candidate.ratingLabel === null ? {} : { rating_label: candidate.ratingLabel })
        },
        service: {
          service_id: candidate.serviceId,
          vertical_id: verticalId,
          job_type_id: request.job_type_id,
          label_sv: candidate.labelSv,
          ...(candidate.labelEn === null ? {} : { label_en: candidate.labelEn })
        },
        slot: {
          start_at: formatInZone(slot.start, request.timezone),
          end_at: formatInZone(slot.end, request.timezone),
          label: slotLabel(slot, request.timezone)
        },
        price: {
          amount_sek: found.quote.amountSek,
          currency: "SEK",
          pricing_model: candidate.pricingModel,
          price_type: candidate.priceType,
          ...(found.quote.unitPriceSek === undefined ? {} : { unit_price_sek: found.quote.unitPriceSek }),
          ...(found.quote.unit === undefined ? {} : { unit: found.quote.unit }),
          ...(found.quote.quantity === undefined ? {} : { quantity: found.quote.quantity }),
          tax_deduction: deductionOf(found)
        },
        scope: candidate.scope,
        terms: {
          version: candidate.termsVersion,
          url: candidate.termsUrl,
          sections: candidate.termsSections,
          source_urls: candidate.termsSourceUrls
        },
        cancellation_policy: policyTerms(candidate.cancellationPolicy, slot.start, request.timezone, now.getTime())
      }
    }

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
      const candidates = yield* calendar
        .availability({
          verticalId,
          jobTypeId: jobType.job_type_id,
          postcode: postcodeNumber(request.location.postcode),
          destinationPostcode: destination && postcodeNumber(destination.postcode),
          range: { start: window.start.getTime() - buffer, end: window.end.getTime() + buffer },
          calendar: calendarOf(partner)
        })
        .pipe(
          Effect.catchTag(
            "SqlError",
            failLogged(
              "search could not read availability",
              () => new DatabaseUnavailable({ safe_next_step: unavailableStep })
            )
          )
        )

      const missingQuantity = new Set<string>()
      const missingKeys = new Set<string>()
      let unpriced = 0
      const priced: Array<{ readonly durationMinutes: number; readonly longestDayMinutes: number }> = []
      const found: Array<Found> = []
      for (const candidate of candidates) {
        const quoted = quote(candidate, request.details)
        if (quoted._tag === "MissingQuantity") {
          missingQuantity.add(quoted.keys.map((key) => `details.${key}`).join(" or "))
          for (const key of quoted.keys) missingKeys.add(key)
          unpriced += 1
          continue
        }
        priced.push({
          durationMinutes: quoted.quote.durationMinutes,
          longestDayMinutes: longestWorkingDayMinutes(candidate.hours)
        })
        const slots = freeSlots({
          hours: candidate.hours,
          busy: candidate.busy.map(([start, end]) => ({ start, end })),
          durationMinutes: quoted.quote.durationMinutes,
          window: { start: window.start.getTime(), end: window.end.getTime() },
          dailyHours: window.dailyHours,
          excludedDates: window.excludedDates,
          windowTimeZone: request.timezone,
          now: now.getTime(),
          limit: maxOptionsPerProvider
        })
        for (const slot of slots) found.push({ candidate, slot, quote: quoted.quote })
      }
      found.sort((a, b) => a.slot.start - b.slot.start || a.candidate.providerId.localeCompare(b.candidate.providerId))
      const perProvider = new Map<string, number>()
      const chosen = found
        .filter((f) => {
          const count = perProvider.get(f.candidate.providerId) ?? 0
          if (count >= maxOptionsPerProvider) return false
          perProvider.set(f.candidate.providerId, count + 1)
          return true
        })
        .slice(0, maxOptions)
      const tokens = yield* signer.signAll(
        chosen.map((f) => claimsOf(request, verticalId, destination, f)),
        now
      )
      const options = Arr.zipWith(chosen, tokens, (f, signed) => toOption(request, verticalId, f, signed, now))
      const longest = found.length === 0 && priced.length > 0 ? Math.max(...priced.map((p) => p.durationMinutes)) : 0

      const reason =
        candidates.length === 0
          ? `No provider offers a fixed-price ${jobType.label_en.toLowerCase()} service at postcode ${request.location.postcode}${destination ? ` and ${destination.postcode}` : ""}.`
          : unpriced === candidates.length
            ? `The fixed price for this job is per unit and needs ${[...missingQuantity].join(" / ")} in the search, which it did not include.`
            : priced.every((p) => p.durationMinutes > p.longestDayMinutes)
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
            ? optionsStep(
                surface,
                new Set(chosen.map((f) => priceKind(f.candidate))),
                options.map((option) => option.price.tax_deduction)
              )
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
    Layer.provide([Catalog.Default, Calendar.Default, OptionSigner.Default])
  )
}
