import { describe, expect, it } from "@effect/vitest"
import { fragmentJsonUtf8, jsonUtf8 } from "../../src/Http/HandBuiltJson.js"
import { binaryString, fc, propSettings } from "../support/Props.js"

const { parameters, timeout } = propSettings("search response bytes", { quick: 300, deep: 5000 }, 5)

const encoder = new TextEncoder()

/** Any code point, Latin-1 and the en dash of slot labels often, and lone surrogates, which JSON.stringify escapes. */
const anyText = fc.oneof(
  binaryString(),
  fc.string({ unit: fc.constantFrom("a", "å", "ö", "é", "–", "²", "\u2028", "\ud83d\ude00") }),
  fc.string({
    unit: fc.oneof(
      binaryString({ minLength: 1, maxLength: 1 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit))
    )
  })
)

const anyBody = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    anyText,
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(anyText, tie("value"), { maxKeys: 5 })
  )
})).value

describe("the search response's bytes", () => {
  // fast-check itself: Effect 4's it.prop takes its own Arbitrary or a Schema.
  it(
    "jsonUtf8 gives the bytes TextEncoder gives for JSON.stringify (what jsonUnsafe sends)",
    () => {
      fc.assert(
        fc.property(fc.dictionary(anyText, anyBody, { maxKeys: 8 }), (body) => {
          expect(Buffer.from(jsonUtf8(body)).equals(Buffer.from(encoder.encode(JSON.stringify(body))))).toBe(true)
        }),
        parameters
      )
    },
    timeout
  )

  it(
    "fragmentJsonUtf8, which copies the bytes of frozen values once encoded, gives the bytes of JSON.stringify, again and again",
    () => {
      /** The body with some objects and arrays frozen, deep, as shared cached values are. */
      const freezeSome = (value: unknown, choices: Array<boolean>): unknown => {
        if (typeof value !== "object" || value === null) return value
        for (const inner of Object.values(value)) freezeSome(inner, choices)
        if (choices.shift() === true) Object.freeze(value)
        return value
      }
      const withUndefined = fc.dictionary(anyText, fc.oneof(anyBody, fc.constant(undefined)), { maxKeys: 8 })
      fc.assert(
        fc.property(
          fc.array(withUndefined, { minLength: 1, maxLength: 4 }),
          fc.array(fc.boolean(), { maxLength: 64 }),
          (parts, choices) => {
            const frozen = parts.map((part) => freezeSome(part, [...choices]))
            // The same frozen values twice in one body, and the body twice: the second from the cache.
            const body = { first: frozen, again: frozen, missing: undefined, list: [undefined, ...frozen] }
            for (let round = 0; round < 2; round++) {
              expect(fragmentJsonUtf8(body).equals(Buffer.from(encoder.encode(JSON.stringify(body))))).toBe(true)
            }
          }
        ),
        parameters
      )
    },
    timeout
  )

  it("an answer longer than any before it gives the same bytes as a short one", () => {
    const long = { label: "måndag 08:00–10:00 ".repeat(20_000), emoji: "\ud83d\ude00" }
    for (const body of [long, { ok: true }, long]) {
      expect(Buffer.from(jsonUtf8(body)).equals(Buffer.from(encoder.encode(JSON.stringify(body))))).toBe(true)
    }
  })
})
