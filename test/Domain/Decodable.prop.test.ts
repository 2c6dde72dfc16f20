import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { SignedOption } from "../../src/Domain/BookingOption.js"
import { decodable } from "../../src/Domain/Decodable.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { searchBody } from "../support/Http.js"
import { fc, propSettings } from "../support/Props.js"

const { parameters } = propSettings("decodable", { quick: 2000, deep: 50_000 }, 0.2)

/** A value of the schema with one field replaced, removed or pushed past its bounds. */
const mutated = <A>(valid: fc.Arbitrary<A>) =>
  fc
    .record({
      value: valid,
      field: fc.nat(),
      change: fc.oneof(
        fc.constant({ remove: true as const }),
        fc.record({ to: fc.oneof(fc.anything(), fc.string({ minLength: 250, maxLength: 300 }), fc.double()) })
      )
    })
    .map(({ value, field, change }) => {
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
      const keys = Object.keys(copy)
      const key = keys[field % Math.max(1, keys.length)] ?? "x"
      if ("remove" in change) delete copy[key]
      else copy[key] = change.to
      return copy
    })

/** A signed option's claims as a search signs them, the base the changes start from. */
const anOption = {
  providerId: "norrmalms-ror-sthlm",
  serviceId: "vvs_install_faucet_standard",
  verticalId: "vvs",
  jobTypeId: "install_faucet",
  amountSek: 2190,
  pricingModel: "flat",
  priceType: "avg_fixed",
  slotStart: 1_796_022_000_000,
  slotEnd: 1_796_029_200_000,
  termsVersion: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-10-01.v3",
  originPostcode: 11122,
  expiresAt: 1_795_692_440_823,
  nonce: "aH6uvXsQfu9Vq4Nl"
}

describe("decodable", () => {
  // Effect 4's Arbitrary is its own (no longer fast-check's), and finds no valid SignedOption
  // through its checks in a thousand tries: the changes start from a valid option instead.
  it("answers as decoding does for signed options changed, or anything at all", () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(anOption), mutated(fc.constant(anOption)), fc.anything()), (value) => {
        const decoded = Result.isSuccess(Schema.decodeUnknownResult(SignedOption)(value))
        expect(decodable(SignedOption)(value)).toBe(decoded)
      }),
      parameters
    )
  })

  it("checks both sides of a composed brand and the struct's own rule, unlike Schema.is", () => {
    const option = {
      providerId: "norrmalms-ror-sthlm",
      serviceId: "vvs_install_faucet_standard",
      verticalId: "vvs",
      jobTypeId: "install_faucet",
      amountSek: 2190,
      pricingModel: "flat",
      priceType: "avg_fixed",
      slotStart: 1_796_022_000_000,
      slotEnd: 1_796_029_200_000,
      termsVersion: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-10-01.v3",
      originPostcode: 11122,
      expiresAt: 1_795_692_440_823,
      nonce: "aH6uvXsQfu9Vq4Nl"
    }
    const isVerifiable = decodable(SignedOption)
    expect(isVerifiable(option)).toBe(true)
    // The claim's 256-character bound is on the encoded side, which Schema.is does not look at.
    const longId = { ...option, providerId: "p".repeat(257) }
    // Effect 4's Schema.is sees it too: the bound is on the branded claim's type side.
    expect(Schema.is(SignedOption)(longId)).toBe(false)
    expect(isVerifiable(longId)).toBe(false)
    expect(isVerifiable({ ...option, slotEnd: option.slotStart })).toBe(false)
  })

  it("decodes a schema it cannot check as it is: a search request has defaults and an index signature", () => {
    const isRequest = decodable(BookingSearchRequest)
    expect(isRequest(searchBody)).toBe(true)
    expect(isRequest({ ...searchBody, location: { country_code: "NO", postcode: "111 22" } })).toBe(false)
  })
})
