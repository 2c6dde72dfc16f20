import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from "node:crypto"
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Config, ConfigProvider, Context, Effect, Layer, Option, Redacted, Result, Schema } from "effect"
import { AppConfig } from "../AppConfig.js"
import {
  type OptionClaims,
  OptionExpired,
  OptionInvalid,
  parseSigningKeys,
  SignedOption,
  SigningNotConfigured
} from "../Domain/BookingOption.js"
import { decodable } from "../Domain/Decodable.js"
import { drawRandom } from "./References.js"

const KEYS = "BOOKING_OPTION_SIGNING_KEYS"
const VERSION = "o1"
const tokenPattern = /^o1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/
const MAX_TOKEN_LENGTH = 24000
export const developmentKeyFile = "option-signing-key"

const ioProblem = (path: string) => (cause: unknown) =>
  new Config.ConfigError(
    new ConfigProvider.SourceError({
      message: `cannot read or create the development signing key ${path}: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause
    })
  )

/**
 * Development without configured keys signs with a key kept under DATA_DIR, so options survive
 * a restart. The file is written aside and hard-linked into place, so processes starting at the
 * same moment (parallel test workers) all end up with the one key that won.
 */
const developmentKeys = (dataDir: string) =>
  Effect.gen(function* () {
    const path = join(dataDir, developmentKeyFile)
    const existing = yield* Effect.tryPromise({
      try: () => readFile(path, "utf8").then(Option.some),
      catch: (cause) => cause
    }).pipe(
      Effect.catchIf(
        (cause) => (cause as NodeJS.ErrnoException).code === "ENOENT",
        () => Effect.succeed(Option.none<string>())
      ),
      Effect.mapError(ioProblem(path))
    )
    const content = Option.isSome(existing)
      ? existing.value
      : yield* Effect.tryPromise({
          try: async () => {
            await mkdir(dataDir, { recursive: true, mode: 0o700 })
            const aside = `${path}.${randomBytes(6).toString("hex")}.tmp`
            const fresh = `dev-${randomBytes(4).toString("hex")}:${randomBytes(32).toString("base64url")}`
            await writeFile(aside, fresh, { mode: 0o600, flag: "wx" })
            try {
              await link(aside, path)
            } catch (cause) {
              if ((cause as NodeJS.ErrnoException).code !== "EEXIST") throw cause
            } finally {
              await unlink(aside)
            }
            return readFile(path, "utf8")
          },
          catch: ioProblem(path)
        })
    const keys = parseSigningKeys(content)
    if (Result.isFailure(keys) || keys.success.length === 0) {
      const problem = Result.isFailure(keys) ? keys.failure : "it is empty"
      return yield* Effect.fail(
        new Config.ConfigError(
          new ConfigProvider.SourceError({
            message: `${path} must hold kid:secret (delete it to have one made): ${problem}`
          })
        )
      )
    }
    return keys.success
  })

/** Each secret's HMAC key is made once, not on every sign and verify. */
const hmacKeys = new WeakMap<Redacted.Redacted<string>, KeyObject>()
const hmacKey = (secret: Redacted.Redacted<string>) => {
  let key = hmacKeys.get(secret)
  if (key === undefined) {
    key = createSecretKey(Buffer.from(Redacted.value(secret), "utf8"))
    hmacKeys.set(secret, key)
  }
  return key
}

const tagOf = (secret: Redacted.Redacted<string>, signed: string) =>
  createHmac("sha256", hmacKey(secret)).update(signed, "utf8").digest("base64url")

const nonce = () => drawRandom(12, (bytes) => bytes.toString("base64url"))

const encodeOption = Schema.encodeResult(SignedOption)
/** What `verify` will accept: the claims as decoding checks them, ids' length bounds included. */
const verifiable = decodable(SignedOption)
const payloadKeys = Object.keys(SignedOption.fields) as ReadonlyArray<keyof SignedOption>

/**
 * The option's defined fields in the schema's order, and no others: what decoding gives back and
 * what encoding writes, every field's encoded form being the value itself.
 */
const inSchemaOrder = (option: SignedOption): SignedOption => {
  const ordered: Record<string, unknown> = {}
  for (const key of payloadKeys) if (option[key] !== undefined) ordered[key] = option[key]
  return ordered as SignedOption
}

/**
 * A verified payload's claims as decoding `Schema.parseJson(SignedOption)` gives them (a test
 * holds the two equal): the JSON checked by the schema's own rules, then only the schema's keys
 * in its order, without decoding's copy of every field (every confirm verifies one).
 */
export const claimsOf = (json: string): SignedOption | undefined => {
  let parsed: unknown
  try {
    parsed = JSON.parse(json)
  } catch {
    return undefined
  }
  return verifiable(parsed) ? inSchemaOrder(parsed) : undefined
}

export interface SignedToken {
  readonly token: string
  readonly expiresAt: Date
}

/** An option ready to be handed out: its claims with expiry and nonce, and their JSON as `claimsOf` reads it. */
export interface SealedOption {
  readonly option: SignedOption
  readonly json: string
}

const refresh = {
  option_refresh_required: true,
  safe_next_step:
    "Search again and use a booking_option_id from the new results, passed on exactly as the search returned it."
}

/** Why an id is refused, in the caller's terms; never the key or its name. */
const invalidBecause = (issue: string) => new OptionInvalid({ ...refresh, issues: [`booking_option_id: ${issue}`] })
export const optionRefusals = {
  malformed: invalidBecause(
    "is not a booking option id: it is malformed, mistyped or cut short (pass it on exactly as the search returned it)"
  ),
  unknownKey: invalidBecause(
    "was signed with a key this service does not hold: it comes from another server or environment (or from a key since retired)"
  ),
  altered: invalidBecause(
    "does not match its signature: it was altered or mistyped (or it comes from another server, or from a key since retired)"
  ),
  unreadable: invalidBecause("is signed but does not hold a booking option this service can read"),
  notOnRecord: invalidBecause(
    "is signed by this service but its option is not on record: it comes from another environment, or the record was lost"
  )
} as const
const expired = new OptionExpired(refresh)
const notConfigured = new SigningNotConfigured({
  safe_next_step: `The service has no booking option signing key; the operator must set ${KEYS}.`
})

/** Written so that an invalid `now` (NaN) counts as expired. */
export const hasExpired = (option: { readonly expiresAt: number }, now: Date) => !(now.getTime() < option.expiresAt)

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const { optionSigningKeys: configured, optionTtlSeconds: ttlSeconds } = config
  const keys =
    configured.length > 0 ? configured : config.appEnv === "development" ? yield* developmentKeys(config.dataDir) : []
  if (keys.length === 0) yield* Effect.logWarning(`${KEYS} is not set: no booking option can be signed`)
  const signer = Option.fromNullishOr(keys[0])
  const verifiers = new Map(keys.map((key) => [key.kid, key.secret]))

  /**
   * One option with its expiry and nonce, and its payload JSON, or (Left) what to die with: claims
   * outside the schema are the caller's bug. Refusing them here means every option sealed verifies.
   */
  const seal = (claims: OptionClaims, now: Date): Result.Result<SealedOption, unknown> => {
    const option: SignedOption = {
      ...claims,
      // An option never outlives the start of its slot.
      expiresAt: Math.min(now.getTime() + ttlSeconds * 1000, claims.slotStart),
      nonce: nonce()
    }
    // Every field's encoded form is the value itself: checking and copying in order gives the
    // bytes encoding would, for a fraction of the cost (a search signs up to ten options).
    if (verifiable(option)) return Result.succeed({ option, json: JSON.stringify(inSchemaOrder(option)) })
    const refused = encodeOption(option)
    return Result.fail(Result.isFailure(refused) ? refused.failure : option)
  }

  /** A long `o1` token: searches hand out short ids, but tokens signed before them still verify. */
  const sign = (claims: OptionClaims, now: Date): Effect.Effect<SignedToken, SigningNotConfigured> =>
    Effect.suspend(() => {
      if (Option.isNone(signer)) return notConfigured
      const { kid, secret } = signer.value
      const sealed = seal(claims, now)
      if (Result.isFailure(sealed)) return Effect.die(sealed.failure)
      const { option, json } = sealed.success
      const signed = `${VERSION}.${kid}.${Buffer.from(json, "utf8").toString("base64url")}`
      return Effect.succeed({ token: `${signed}.${tagOf(secret, signed)}`, expiresAt: new Date(option.expiresAt) })
    })

  /** The option a token carries, once its signature holds, whether or not it has expired. */
  const open = (token: string): Result.Result<SignedOption, OptionInvalid> => {
    const parts = token.length <= MAX_TOKEN_LENGTH ? tokenPattern.exec(token) : null
    if (parts === null) return Result.fail(optionRefusals.malformed)
    const [, kid = "", payload = "", tag = ""] = parts
    const secret = verifiers.get(kid)
    if (secret === undefined) return Result.fail(optionRefusals.unknownKey)
    // Compared as the canonical base64url text: decoding first would accept the variants
    // that differ only in the unused low bits of the last character.
    const expected = Buffer.from(tagOf(secret, `${VERSION}.${kid}.${payload}`), "utf8")
    const presented = Buffer.from(tag, "utf8")
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return Result.fail(optionRefusals.altered)
    }
    const option = claimsOf(Buffer.from(payload, "base64url").toString("utf8"))
    return option === undefined ? Result.fail(optionRefusals.unreadable) : Result.succeed(option)
  }

  // No span: every confirm verifies, and nothing exports traces.
  const verify = (token: string, now: Date): Effect.Effect<SignedOption, OptionInvalid | OptionExpired> =>
    Effect.suspend((): Effect.Effect<SignedOption, OptionInvalid | OptionExpired> => {
      const opened = open(token)
      if (Result.isFailure(opened)) return Effect.fail(opened.failure)
      return hasExpired(opened.success, now) ? Effect.fail(expired) : Effect.succeed(opened.success)
    })

  /** Search answers 503 without a key even when it would find nothing to sign. */
  const ensureConfigured: Effect.Effect<void, SigningNotConfigured> = Option.isSome(signer)
    ? Effect.void
    : Effect.fail(notConfigured)

  /**
   * A secret for another purpose (`label`) from every key by its kid, the signing key's first, so
   * a development server needs no second key file and a rotation keeps what was signed before it.
   */
  const derivedSecrets = (label: string) =>
    keys.map((key) => ({
      kid: key.kid,
      secret: createHmac("sha256", Redacted.value(key.secret)).update(label, "utf8").digest()
    }))
  const derivedSecret = (label: string) => Option.fromNullishOr(derivedSecrets(label)[0]?.secret)

  return {
    ttlSeconds,
    ensureConfigured,
    notConfigured,
    seal,
    sign,
    open,
    verify,
    expiredRefusal: expired,
    derivedSecret,
    derivedSecrets
  } as const
})

/**
 * A booking_option_id is `o1.<kid>.<payload>.<tag>`: the payload is the base64url JSON of a
 * SignedOption and the tag its HMAC-SHA256 over `o1.<kid>.<payload>`. The first key signs and
 * every key verifies, so a rotation keeps the options already handed out.
 */
export class OptionSigner extends Context.Service<OptionSigner>()("Booking/OptionSigner", {
  make: make
}) {
  static readonly Default = Layer.effect(this, this.make)
}
