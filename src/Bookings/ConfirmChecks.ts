import { Effect, Result } from "effect"
import {
  type BookingConfirmationRequest,
  type BookingUnavailable,
  PriceChanged,
  ProviderUnavailable,
  SlotTaken,
  TermsChanged
} from "../Domain/Booking.js"
import type { OptionExpired, OptionInvalid, SignedOption } from "../Domain/BookingOption.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { priceFor } from "../Domain/Pricing.js"
import { withinWorkingHours } from "../Domain/Slots.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import { type CurrentOffer, formatPostcode, postcodeNumber } from "../Domain/Supply.js"
import type { Surface } from "../Domain/Surface.js"
import type { TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { requiredKeyOf } from "../Shared/Idempotency.js"
import { hasExpired } from "../Shared/OptionSigner.js"
import { deductionOfOption } from "./Answers.js"
import type { HeldOption } from "./HeldOption.js"
import { newFigures } from "./NewFigures.js"
import { refreshWith } from "./Refusals.js"

/** What a confirm checked before it writes. */
export interface Prepared {
  readonly option: SignedOption
  readonly offer: CurrentOffer
  readonly deduction: TaxDeductionAnswer
}

export type PrepareError =
  | OptionInvalid
  | OptionExpired
  | InvalidRequest
  | ProviderUnavailable
  | TermsChanged
  | PriceChanged
  | SlotTaken
  | BookingUnavailable

/** The question of the offer an option was made from, as it is now. */
export const offerQueryOf = (option: SignedOption) => ({
  providerId: option.providerId,
  serviceId: option.serviceId,
  postcode: option.originPostcode,
  destinationPostcode: option.destinationPostcode
})

/** The offer as it is now against the option: what changed on our side since the search is a 409 with option_refresh_required. */
export const checkOffer = (option: SignedOption, surface: Surface, offer: CurrentOffer | undefined) =>
  Effect.gen(function* () {
    const refresh = refreshWith(surface)
    if (
      offer === undefined ||
      !offer.providerActive ||
      !offer.serviceActive ||
      !offer.servesPostcode ||
      !offer.servesDestination ||
      offer.pricingModel === null
    ) {
      return yield* new ProviderUnavailable({
        ...refresh,
        issues: ["booking_option_id: the provider no longer offers this service here"]
      })
    }
    if (offer.termsVersion !== option.termsVersion) {
      return yield* new TermsChanged({
        ...refresh,
        issues: [`booking_option_id: the provider's terms changed; now ${newFigures(offer)}`]
      })
    }
    const priced = priceFor(
      { ...offer, pricingModel: offer.pricingModel, durationMinutes: offer.durationMinutes ?? 0 },
      option.quantity
    )
    if (
      offer.pricingModel !== option.pricingModel ||
      priced._tag !== "Quoted" ||
      priced.quote.amountSek !== option.amountSek
    ) {
      return yield* new PriceChanged({ ...refresh, issues: ["booking_option_id: the provider's price changed"] })
    }
    if (!withinWorkingHours(offer.hours, { start: option.slotStart, end: option.slotEnd })) {
      return yield* new SlotTaken({ ...refresh, issues: ["booking_option_id: the slot is no longer available"] })
    }
    return offer
  })

/**
 * The deduction the option's price allows under the offer's declaration (unchanged since the
 * search: it changes only with the terms version). Asking for one the service does not have is
 * the client's mistake: telling the provider the customer wants it would state a false premise.
 */
const deductionFor = (
  request: BookingConfirmationRequest,
  option: SignedOption,
  offer: CurrentOffer,
  surface: Surface
): Effect.Effect<TaxDeductionAnswer, InvalidRequest> => {
  const deduction = deductionOfOption(option, offer)
  return request.tax_deduction_requested === true && deduction.kind === "none"
    ? Effect.fail(
        new InvalidRequest({
          issues: [
            `tax_deduction_requested: this option has no RUT or ROT deduction (price.tax_deduction.reason ${deduction.reason})`
          ],
          safe_next_step: `Nothing is booked. This option's price has no RUT or ROT deduction: tell the user so, and only if they still want it, confirm again (${surface.confirm}) without tax_deduction_requested.`
        })
      )
    : Effect.succeed(deduction)
}

/**
 * Before the key is claimed, since the write is one statement: the option still open, the
 * client's own statements against it, and the offer as it is now. A database failure here
 * wrote nothing.
 */
export const prepare = (
  request: BookingConfirmationRequest,
  opened: Result.Result<SignedOption, OptionInvalid | OptionExpired>,
  now: Date,
  surface: Surface,
  held: HeldOption,
  current: CurrentOffer | undefined,
  expiredRefusal: OptionExpired
): Effect.Effect<Prepared, PrepareError> =>
  Result.isFailure(opened)
    ? Effect.fail(opened.failure)
    : !held.live && hasExpired(opened.success, now)
      ? Effect.fail(expiredRefusal)
      : Effect.andThen(
          checkAgainstOption(request, opened.success),
          checkOffer(opened.success, surface, current).pipe(
            Effect.flatMap((offer) =>
              Effect.map(deductionFor(request, opened.success, offer, surface), (deduction) => ({
                option: opened.success,
                offer,
                deduction
              }))
            )
          )
        )

/** The client's own mistakes against the option it sent: 400 naming the field. */
export const checkAgainstOption = (request: BookingConfirmationRequest, option: SignedOption) => {
  const issues: Array<string> = []
  if (request.booking_terms_version !== option.termsVersion) {
    issues.push(`booking_terms_version: must equal the option's terms version ${option.termsVersion}`)
  }
  if (postcodeNumber(request.service_location.postcode) !== option.originPostcode) {
    issues.push(`service_location.postcode: must match the option's postcode ${formatPostcode(option.originPostcode)}`)
  }
  if (option.destinationPostcode !== undefined) {
    if (request.destination_location === undefined) {
      issues.push("destination_location: is required for this option")
    } else if (postcodeNumber(request.destination_location.postcode) !== option.destinationPostcode) {
      issues.push(
        `destination_location.postcode: must match the option's destination postcode ${formatPostcode(option.destinationPostcode)}`
      )
    }
  } else if (request.destination_location !== undefined) {
    issues.push("destination_location: the option has no destination")
  }
  return issues.length > 0 ? Effect.fail(new InvalidRequest({ issues })) : Effect.void
}

/** One key is required, in the body or the Idempotency-Key header. */
export const keyOf = (request: BookingConfirmationRequest, headerKey: string | undefined) =>
  requiredKeyOf(request.idempotency_key, headerKey)

export const checkStamps = (request: BookingConfirmationRequest, now: Date) => {
  const issues = futureStampIssues(
    [
      ["booking_terms_accepted_at", request.booking_terms_accepted_at],
      ["consent_collected_at", request.consent_collected_at]
    ],
    now
  )
  return issues.length > 0 ? Effect.fail(new InvalidRequest({ issues })) : Effect.void
}
