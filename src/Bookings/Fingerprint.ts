import { Result } from "effect"
import type { BookingConfirmationLocation, BookingConfirmationRequest } from "../Domain/Booking.js"
import { customerIdentity } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import { sameText } from "../Domain/Input.js"
import { postcodeNumber } from "../Domain/Supply.js"
import { fingerprintHash } from "../Shared/Idempotency.js"

/** The option's facts that decide what is booked: not its expiry, nonce or the zone its labels are in. */
const optionIdentity = ({ expiresAt: _e, nonce: _n, timeZone: _z, ...what }: SignedOption) => what

const locationIdentity = (location: BookingConfirmationLocation) => ({
  country_code: location.country_code,
  address: sameText(location.address),
  postcode: postcodeNumber(location.postcode)
})

/**
 * What makes two confirms the same booking request: the option (its facts, or the id as sent when
 * it does not verify), the customer, the service and destination locations, the terms version
 * accepted and whether the tax deduction is asked for. Acceptance and consent stamps, consent wording, `source`, `external_reference` and
 * `spec_version` are how it was asked, not what, so a retry that changes only them replays.
 */
export const confirmFingerprint = (request: BookingConfirmationRequest, opened: Result.Result<SignedOption, unknown>) =>
  fingerprintHash({
    option: Result.isSuccess(opened) ? optionIdentity(opened.success) : request.booking_option_id,
    customer: customerIdentity(request.customer),
    service_location: locationIdentity(request.service_location),
    destination_location:
      request.destination_location === undefined ? null : locationIdentity(request.destination_location),
    terms_version: request.booking_terms_version,
    // Only when asked, so the fingerprints of requests without it stay those already stored.
    ...(request.tax_deduction_requested === true ? { tax_deduction_requested: true } : {})
  })
