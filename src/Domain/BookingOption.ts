import { Either, Redacted, Schema } from "effect"
import { VerticalId } from "./Catalog.js"
import { ContractError } from "./Errors.js"
import { ProviderId, ServiceId } from "./Ids.js"

// Bounded so that even a claim set of worst-case strings (six JSON bytes per UTF-16 unit)
// signs to a booking_option_id well under the spec's 24000 characters.
const Claim = Schema.String.pipe(Schema.maxLength(256))

const Sek = Schema.Int.pipe(Schema.nonNegative())

/** Milliseconds since the epoch, within the range a Date can hold. */
const EpochMillis = Schema.Int.pipe(Schema.between(0, 8_640_000_000_000_000))

/** A five-digit Swedish postcode as a number: "111 22" is 11122. */
const PostcodeNumber = Schema.Int.pipe(Schema.between(10000, 99999))

/** Everything the confirm step needs to revalidate an option without trusting the caller. */
export const SignedOption = Schema.Struct({
  providerId: Claim.pipe(Schema.compose(ProviderId)),
  serviceId: Claim.pipe(Schema.compose(ServiceId)),
  verticalId: VerticalId,
  jobTypeId: Claim,
  amountSek: Sek,
  pricingModel: Claim,
  priceType: Claim,
  unitPriceSek: Schema.optional(Sek),
  unit: Schema.optional(Claim),
  quantity: Schema.optional(Schema.Finite.pipe(Schema.nonNegative())),
  slotStart: EpochMillis,
  slotEnd: EpochMillis,
  termsVersion: Claim,
  originPostcode: PostcodeNumber,
  destinationPostcode: Schema.optional(PostcodeNumber),
  /** The zone the search was made in; the confirmation labels the slot in it. */
  timeZone: Schema.optional(Claim),
  expiresAt: EpochMillis,
  nonce: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{16}$/))
}).pipe(
  Schema.filter((option) => option.slotStart < option.slotEnd || "slotStart must be before slotEnd", {
    identifier: "SignedOption"
  })
)
export type SignedOption = typeof SignedOption.Type

/** What a caller states; the signer adds the expiry and the nonce. */
export type OptionClaims = Omit<SignedOption, "nonce" | "expiresAt">

export class OptionInvalid extends ContractError<OptionInvalid>()(
  "option_invalid",
  409,
  "The booking_option_id was not issued by this service or was altered; issues say which",
  ["issues", "option_refresh_required"]
) {}

export class OptionExpired extends ContractError<OptionExpired>()(
  "option_expired",
  409,
  "The booking option has expired",
  ["option_refresh_required"]
) {}

export class SigningNotConfigured extends ContractError<SigningNotConfigured>()(
  "signing_not_configured",
  503,
  "Production has no booking option signing key configured"
) {}

const MIN_SECRET_BYTES = 32
const kidPattern = /^[A-Za-z0-9_-]{1,32}$/

export interface SigningKey {
  readonly kid: string
  readonly secret: Redacted.Redacted<string>
}

/**
 * `kid:secret,kid2:secret2`, blanks ignored. The message of a Left never quotes a secret,
 * since it ends up in the start-up error.
 */
export const parseSigningKeys = (raw: string): Either.Either<ReadonlyArray<SigningKey>, string> => {
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  const keys: Array<SigningKey> = []
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(":")
    const kid = colon < 0 ? "" : entry.slice(0, colon)
    const secret = entry.slice(colon + 1)
    if (!kidPattern.test(kid)) {
      return Either.left(`entry ${index + 1} is not kid:secret with a kid of 1 to 32 characters from A-Z a-z 0-9 _ -`)
    }
    if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES) {
      return Either.left(`key "${kid}" has a secret shorter than ${MIN_SECRET_BYTES} bytes`)
    }
    if (keys.some((key) => key.kid === kid)) return Either.left(`key "${kid}" is listed twice`)
    keys.push({ kid, secret: Redacted.make(secret) })
  }
  return Either.right(keys)
}
