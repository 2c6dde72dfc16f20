import { Effect } from "effect"
import type { BookingConfirmationRequest } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import { formatPostcode, postcodeNumber } from "../Domain/Supply.js"
import { idempotencyKeyOf } from "../Shared/Idempotency.js"

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
  Effect.flatMap(idempotencyKeyOf(request.idempotency_key, headerKey), (key) =>
    key === undefined
      ? Effect.fail(
          new InvalidRequest({
            issues: ["idempotency_key: is required (in the body, or as the Idempotency-Key header)"]
          })
        )
      : Effect.succeed(key)
  )

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
