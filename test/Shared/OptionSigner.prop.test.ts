import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Result, Schema } from "effect"
import { appConfigFrom } from "../../src/AppConfig.js"
import { type OptionClaims, SignedOption } from "../../src/Domain/BookingOption.js"
import { claimsOf, OptionSigner } from "../../src/Shared/OptionSigner.js"
import { fc, propSettings } from "../support/Props.js"

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

/**
 * Any claims the schema accepts, written for fast-check: Effect 4's Arbitrary is its own, no longer
 * fast-check's, and finds no SignedOption through the schema's checks. The bounds are the schema's.
 */
const claim = fc.string({ minLength: 0, maxLength: 256 })
const sek = fc.nat({ max: 100_000_000 })
const epochMillis = fc.integer({ min: 1, max: 8_640_000_000_000_000 })
const postcode = fc.integer({ min: 10000, max: 99999 })
const anyClaims: fc.Arbitrary<OptionClaims> = fc
  .record(
    {
      providerId: claim,
      serviceId: claim,
      verticalId: fc.constantFrom("vvs", "electrician", "moving", "cleaning"),
      jobTypeId: claim,
      amountSek: sek,
      pricingModel: claim,
      priceType: claim,
      unitPriceSek: sek,
      unit: claim,
      quantity: fc.double({ min: 0, max: 1e9, noNaN: true, noDefaultInfinity: true }),
      slotStart: epochMillis,
      length: fc.integer({ min: 1, max: 86_400_000 }),
      termsVersion: claim,
      originPostcode: postcode,
      destinationPostcode: postcode,
      timeZone: claim
    },
    {
      requiredKeys: [
        "providerId",
        "serviceId",
        "verticalId",
        "jobTypeId",
        "amountSek",
        "pricingModel",
        "priceType",
        "slotStart",
        "length",
        "termsVersion",
        "originPostcode"
      ]
    }
  )
  .filter((claims) => claims.slotStart + claims.length <= 8_640_000_000_000_000)
  .map(({ length, ...claims }) => ({ ...claims, slotEnd: claims.slotStart + length }) as unknown as OptionClaims)

/** A whole signed option: the claims with an expiry and a nonce. */
const anySigned: fc.Arbitrary<SignedOption> = fc
  .record({
    claims: anyClaims,
    expiresAt: fc.integer({ min: 0, max: 8_640_000_000_000_000 }),
    nonce: fc.stringMatching(/^[A-Za-z0-9_-]{16}$/)
  })
  .map(({ claims, expiresAt, nonce }) => ({ ...claims, expiresAt, nonce }) as SignedOption)

/** Claims, and a `now` at or after 1970 but before the slot starts, so the option is live. */
const anyOffer = fc
  .record({ claims: anyClaims, lead: fc.integer({ min: 1, max: 30 * 24 * 3_600_000 }) })
  .map(({ claims, lead }) => ({ claims, now: new Date(Math.max(0, claims.slotStart - lead)) }))

/**
 * Effect 3's `it.effect.prop`, on fast-check itself (Effect 4's takes its own Arbitrary or a
 * Schema): each run is an Effect run with the test's services.
 */
const effectProp = <A extends Record<string, unknown>, R>(
  test: { readonly effect: (name: string, self: () => Effect.Effect<void, unknown, any>, timeout?: number) => void },
  name: string,
  arbitraries: { readonly [K in keyof A]: fc.Arbitrary<A[K]> },
  body: (value: A) => Effect.Effect<void, unknown, R>,
  settings: typeof options
) =>
  test.effect(
    name,
    () =>
      Effect.flatMap(Effect.context<R>(), (context) =>
        Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.record(arbitraries) as fc.Arbitrary<A>, (value) =>
              Effect.runPromiseWith(context)(body(value))
            ),
            settings.fastCheck
          )
        )
      ),
    settings.timeout
  )

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
    effectProp(
      it,
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

    effectProp(
      it,
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

    effectProp(
      it,
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

    effectProp(
      it,
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

  effectProp(
    it,
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
  const decode = Schema.decodeUnknownResult(Schema.fromJsonString(SignedOption))
  const payloads = fc.oneof(
    anySigned.map((option) => JSON.stringify(option)),
    fc
      .record({ option: anySigned, extra: fc.dictionary(fc.string(), fc.jsonValue()) })
      .map(({ option, extra }) => JSON.stringify({ ...extra, ...option })),
    fc.record({ option: anySigned, key: fc.nat(), value: fc.jsonValue() }).map(({ option, key, value }) => {
      const keys = Object.keys(option)
      return JSON.stringify({ ...option, [keys[key % keys.length]!]: value })
    }),
    fc.json(),
    fc.string()
  )

  it("are what decoding the JSON with the schema gives, or none where decoding fails", () => {
    fc.assert(
      fc.property(payloads, (json) => {
        const decoded = decode(json)
        const claims = claimsOf(json)
        if (Result.isFailure(decoded)) expect(claims).toBeUndefined()
        else {
          expect(claims).toEqual(decoded.success)
          expect(Object.keys(claims!)).toEqual(Object.keys(decoded.success))
        }
      }),
      claimsRuns
    )
  })
})
