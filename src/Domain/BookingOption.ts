import { Either, Redacted, Schema } from "effect"
import { VerticalId } from "./Catalog.js"
import { ContractError } from "./Errors.js"
import { ProviderId, ServiceId } from "./Ids.js"

// Bounded so that even a claim set of worst-case strings (six JSON bytes per UTF-16 unit)
// signs to a booking_option_id well under the spec's 24000 characters.
const MAX_CLAIM_LENGTH = 256
const Claim = Schema.String.pipe(Schema.maxLength(MAX_CLAIM_LENGTH))

const Sek = Schema.Int.pipe(Schema.nonNegative())

/** Milliseconds since the epoch, within the range a Date can hold. */
const MAX_EPOCH_MILLIS = 8_640_000_000_000_000
const EpochMillis = Schema.Int.pipe(Schema.between(0, MAX_EPOCH_MILLIS))

/** A five-digit Swedish postcode as a number: "111 22" is 11122. */
const PostcodeNumber = Schema.Int.pipe(Schema.between(10000, 99999))

const noncePattern = /^[A-Za-z0-9_-]{16}$/

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
  nonce: Schema.String.pipe(Schema.pattern(noncePattern))
}).pipe(
  Schema.filter((option) => option.slotStart < option.slotEnd || "slotStart must be before slotEnd", {
    identifier: "SignedOption"
  })
)
export type SignedOption = typeof SignedOption.Type

const isClaim = (u: unknown) => typeof u === "string" && u.length <= MAX_CLAIM_LENGTH
const isSek = (u: unknown) => typeof u === "number" && Number.isSafeInteger(u) && u >= 0
const isEpochMillis = (u: unknown) => isSek(u) && (u as number) <= MAX_EPOCH_MILLIS
const isPostcodeNumber = (u: unknown) => typeof u === "number" && Number.isSafeInteger(u) && u >= 10000 && u <= 99999
const verticalIds: ReadonlySet<unknown> = new Set(VerticalId.literals)

/**
 * `Schema.is(SignedOption)` written out, for the signer, which checks every option it signs (a
 * search signs up to ten): the schema's generic walk was half of signing's cost. It checks the
 * schema's type side as `Schema.is` does, so the ids are strings of any length there (their
 * 256-character bound is on the encoded side); a test holds the two to the same answers, so a
 * change to SignedOption must be made here too.
 */
export const fitsSignedOption = (o: SignedOption): boolean =>
  typeof o === "object" &&
  o !== null &&
  !Array.isArray(o) &&
  typeof o.providerId === "string" &&
  typeof o.serviceId === "string" &&
  verticalIds.has(o.verticalId) &&
  isClaim(o.jobTypeId) &&
  isSek(o.amountSek) &&
  isClaim(o.pricingModel) &&
  isClaim(o.priceType) &&
  (o.unitPriceSek === undefined || isSek(o.unitPriceSek)) &&
  (o.unit === undefined || isClaim(o.unit)) &&
  (o.quantity === undefined || (typeof o.quantity === "number" && Number.isFinite(o.quantity) && o.quantity >= 0)) &&
  isEpochMillis(o.slotStart) &&
  isEpochMillis(o.slotEnd) &&
  isClaim(o.termsVersion) &&
  isPostcodeNumber(o.originPostcode) &&
  (o.destinationPostcode === undefined || isPostcodeNumber(o.destinationPostcode)) &&
  (o.timeZone === undefined || isClaim(o.timeZone)) &&
  isEpochMillis(o.expiresAt) &&
  typeof o.nonce === "string" &&
  noncePattern.test(o.nonce) &&
  o.slotStart < o.slotEnd

/** What a caller states; the signer adds the expiry and the nonce. */
export type OptionClaims = Omit<SignedOption, "nonce" | "expiresAt">

export class OptionInvalid extends ContractError<OptionInvalid>()(
  "option_invalid",
  409,
  "The booking_option_id was not issued by this service or was altered",
  ["option_refresh_required"]
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
