import { Redacted, Result, Schema } from "effect"
import { VerticalId } from "./Catalog.js"
import { ContractError } from "./Errors.js"
import { matching } from "./Input.js"

// Branded as Ids.ts brands ProviderId and ServiceId, on the bounded claim. Bounded so that even a claim set of worst-case strings (six JSON bytes per UTF-16 unit)
// signs to a booking_option_id well under the spec's 24000 characters.
const Claim = Schema.String.check(Schema.isMaxLength(256))

const Sek = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** Milliseconds since the epoch, within the range a Date can hold. */
const EpochMillis = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 8_640_000_000_000_000 }))

/** A five-digit Swedish postcode as a number: "111 22" is 11122. */
const PostcodeNumber = Schema.Int.check(Schema.isBetween({ minimum: 10000, maximum: 99999 }))

/** Everything the confirm step needs to revalidate an option without trusting the caller. */
export const SignedOption = Schema.Struct({
  providerId: Claim.pipe(Schema.brand("ProviderId")),
  serviceId: Claim.pipe(Schema.brand("ServiceId")),
  verticalId: VerticalId,
  jobTypeId: Claim,
  amountSek: Sek,
  pricingModel: Claim,
  priceType: Claim,
  unitPriceSek: Schema.optional(Sek),
  unit: Schema.optional(Claim),
  quantity: Schema.optional(Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0))),
  slotStart: EpochMillis,
  slotEnd: EpochMillis,
  termsVersion: Claim,
  originPostcode: PostcodeNumber,
  destinationPostcode: Schema.optional(PostcodeNumber),
  /** The zone the search was made in; the confirmation labels the slot in it. */
  timeZone: Schema.optional(Claim),
  expiresAt: EpochMillis,
  nonce: Schema.String.check(matching(/^[A-Za-z0-9_-]{16}$/))
}).check(
  Schema.makeFilter((option) => option.slotStart < option.slotEnd || "slotStart must be before slotEnd", {
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
  {
    carries: ["issues", "option_refresh_required"],
    retrySafe: false,
    recovery: "Use a booking_option_id exactly as a search answer returned it, or search again."
  }
) {}

export class OptionExpired extends ContractError<OptionExpired>()(
  "option_expired",
  409,
  "The booking option has expired",
  {
    carries: ["option_refresh_required"],
    retrySafe: false,
    recovery:
      "Search again and confirm a fresh option; the user's choice must be shown again if price, time or terms differ."
  }
) {}

export class SigningNotConfigured extends ContractError<SigningNotConfigured>()(
  "signing_not_configured",
  503,
  "Production has no booking option signing key configured",
  {
    retrySafe: false,
    recovery:
      "The service's operator has not configured the option signing key: tell the user booking is unavailable now; retrying does not help until it is configured."
  }
) {}

const MIN_SECRET_BYTES = 32
const kidPattern = /^[A-Za-z0-9_-]{1,32}$/

export interface SigningKey {
  readonly kid: string
  readonly secret: Redacted.Redacted<string>
}

/**
 * `kid:secret,kid2:secret2`, blanks ignored. The message of a failure never quotes a secret,
 * since it ends up in the start-up error.
 */
export const parseSigningKeys = (raw: string): Result.Result<ReadonlyArray<SigningKey>, string> => {
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
      return Result.fail(`entry ${index + 1} is not kid:secret with a kid of 1 to 32 characters from A-Z a-z 0-9 _ -`)
    }
    if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES) {
      return Result.fail(`key "${kid}" has a secret shorter than ${MIN_SECRET_BYTES} bytes`)
    }
    if (keys.some((key) => key.kid === kid)) return Result.fail(`key "${kid}" is listed twice`)
    keys.push({ kid, secret: Redacted.make(secret) })
  }
  return Result.succeed(keys)
}
