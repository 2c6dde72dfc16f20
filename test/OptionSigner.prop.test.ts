import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Layer, Result, Schema } from "effect"
import { appConfigFrom } from "../src/AppConfig.js"
import { type OptionClaims, SignedOption } from "../src/Domain/BookingOption.js"
import { claimsOf, OptionSigner } from "../src/OptionSigner.js"
import { fc, propSettings } from "./support/FastCheck.js"

const { parameters, timeout } = propSettings("signed options", { quick: 200, deep: 2000 }, 10)

const options = { timeout, fastCheck: parameters }

const signerLayer = (keys: string) => {
  const env = {
    APP_ENV: "production",
    PUBLIC_BASE_URL: "https://api.example.se",
    DATABASE_URL: "postgres://u@localhost/db",
    BOOKING_OPTION_SIGNING_KEYS: keys
  }
  return OptionSigner.Default.pipe(Layer.provide(appConfigFrom(env)))
}

const signerWith = (keys: string) => Effect.provide(OptionSigner, signerLayer(keys))

const tokenChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."

const withoutSignerFields = ({ nonce: _nonce, expiresAt: _expiresAt, ...claims }: SignedOption): OptionClaims => claims

/** Claims from the schema itself, and a `now` at or after 1970 but before the slot starts, so the option is live. */
const anyOffer = fc
  .record({
    claims: Arbitrary.make(SignedOption)
      .map(withoutSignerFields)
      .filter((claims) => claims.slotStart > 0),
    lead: fc.integer({ min: 1, max: 30 * 24 * 3_600_000 })
  })
  .map(({ claims, lead }) => ({ claims, now: new Date(Math.max(0, claims.slotStart - lead)) }))

const expectInvalid = (verification: Effect.Effect<unknown, { readonly _tag: string }>) =>
  Effect.map(Effect.flip(verification), (error) => expect(error._tag).toBe("option_invalid"))

const flipBit = (bytes: Buffer, bit: number) => {
  const flipped = Buffer.from(bytes)
  const index = Math.floor(bit / 8) % flipped.length
  flipped[index] = (flipped[index] ?? 0) ^ (1 << (bit % 8))
  return flipped
}

const K1 = "k1:first-key-secret-0123456789-abcdefghij"

describe("OptionSigner laws", () => {
  it.layer(signerLayer(K1))((it) => {
    it.effect.prop(
      "sign then verify returns the same claims for any option",
      { offer: anyOffer },
      ({ offer }) =>
        Effect.gen(function* () {
          const signer = yield* OptionSigner
          const { now } = offer
          const { token, expiresAt } = yield* signer.sign(offer.claims, now)
          const verified = yield* signer.verify(token, now)
          expect(verified).toEqual({ ...offer.claims, expiresAt: expiresAt.getTime(), nonce: verified.nonce })
          expect(expiresAt.getTime()).toBe(Math.min(now.getTime() + signer.ttlSeconds * 1000, offer.claims.slotStart))
          expect(token).toMatch(/^[A-Za-z0-9._-]{20,24000}$/)
        }),
      options
    )

    it.effect.prop(
      "changing any single character of a token makes it fail verification",
      {
        offer: anyOffer,
        // The last character of a base64url tag or payload has unused low bits, and a neighbouring
        // character can differ only in those: both are weighted so that case is not left to luck.
        fromEnd: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.nat()),
        shift: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: tokenChars.length - 1 }))
      },
      ({ offer, fromEnd, shift }) =>
        Effect.gen(function* () {
          const signer = yield* OptionSigner
          const { now } = offer
          const { token } = yield* signer.sign(offer.claims, now)
          const at = token.length - 1 - (fromEnd % token.length)
          const replacement = tokenChars[(tokenChars.indexOf(token[at]!) + shift) % tokenChars.length]
          const changed = token.slice(0, at) + replacement + token.slice(at + 1)
          expect(changed).not.toBe(token)
          yield* expectInvalid(signer.verify(changed, now))
        }),
      options
    )

    it.effect.prop(
      "flipping any bit of the decoded payload or tag fails",
      { offer: anyOffer, part: fc.constantFrom(2, 3), bit: fc.nat() },
      ({ offer, part, bit }) =>
        Effect.gen(function* () {
          const signer = yield* OptionSigner
          const { now } = offer
          const { token } = yield* signer.sign(offer.claims, now)
          const parts = token.split(".")
          parts[part] = flipBit(Buffer.from(parts[part]!, "base64url"), bit).toString("base64url")
          yield* expectInvalid(signer.verify(parts.join("."), now))
        }),
      options
    )

    it.effect.prop(
      "truncating or extending a token fails",
      {
        offer: anyOffer,
        cut: fc.nat(),
        extra: fc.string({ unit: fc.constantFrom(...tokenChars), minLength: 1, maxLength: 64 }),
        edit: fc.constantFrom(...(["drop the end", "drop the start", "append", "prepend"] as const))
      },
      ({ offer, cut, extra, edit }) =>
        Effect.gen(function* () {
          const signer = yield* OptionSigner
          const { now } = offer
          const { token } = yield* signer.sign(offer.claims, now)
          const kept = cut % token.length
          const edited = {
            "drop the end": token.slice(0, kept),
            "drop the start": token.slice(token.length - kept),
            append: token + extra,
            prepend: extra + token
          }[edit]
          yield* expectInvalid(signer.verify(edited, now))
        }),
      options
    )
  })

  it.effect.prop(
    "a token signed by an unknown key fails",
    {
      offer: anyOffer,
      kids: fc.tuple(fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/), fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/)),
      sameKid: fc.boolean(),
      secrets: fc
        .tuple(fc.stringMatching(/^[!-+\--~]{32,64}$/), fc.stringMatching(/^[!-+\--~]{32,64}$/))
        .filter(([secret1, secret2]) => secret1 !== secret2)
    },
    ({ offer, kids: [kid1, kid2], sameKid, secrets: [secret1, secret2] }) =>
      Effect.gen(function* () {
        const k1 = yield* signerWith(`${kid1}:${secret1}`)
        const k2 = yield* signerWith(`${sameKid ? kid1 : kid2}:${secret2}`)
        const { now } = offer
        const { token } = yield* k1.sign(offer.claims, now)
        expect((yield* k1.verify(token, now)).providerId).toBe(offer.claims.providerId)
        yield* expectInvalid(k2.verify(token, now))
      }),
    options
  )
})

describe("a verified payload's claims", () => {
  const { parameters: claimsRuns } = propSettings("payload claims", { quick: 1000, deep: 20_000 }, 0.2)
  const decode = Schema.decodeUnknownResult(Schema.parseJson(SignedOption))
  const payloads = fc.oneof(
    Arbitrary.make(SignedOption).map((option) => JSON.stringify(option)),
    fc
      .record({ option: Arbitrary.make(SignedOption), extra: fc.dictionary(fc.string(), fc.jsonValue()) })
      .map(({ option, extra }) => JSON.stringify({ ...extra, ...option })),
    fc
      .record({ option: Arbitrary.make(SignedOption), key: fc.nat(), value: fc.jsonValue() })
      .map(({ option, key, value }) => {
        const keys = Object.keys(option)
        return JSON.stringify({ ...option, [keys[key % keys.length]!]: value })
      }),
    fc.json(),
    fc.string()
  )

  it.prop(
    "are what decoding the JSON with the schema gives, or none where decoding fails",
    [payloads],
    ([json]) => {
      const decoded = decode(json)
      const claims = claimsOf(json)
      if (Result.isFailure(decoded)) expect(claims).toBeUndefined()
      else {
        expect(claims).toEqual(decoded.success)
        expect(Object.keys(claims!)).toEqual(Object.keys(decoded.success))
      }
    },
    { fastCheck: claimsRuns }
  )
})
