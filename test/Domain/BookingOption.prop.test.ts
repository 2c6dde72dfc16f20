import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Schema } from "effect"
import { fitsSignedOption, SignedOption } from "../../src/Domain/BookingOption.js"
import { fc, propSettings } from "../support/FastCheck.js"

const { parameters, timeout } = propSettings("fitsSignedOption", { quick: 2000, deep: 50_000 }, 1)

const isSignedOption = Schema.is(SignedOption)

/** Values at and just past every bound of the schema, and of every wrong type. */
const edges: ReadonlyArray<unknown> = [
  undefined,
  null,
  true,
  {},
  [],
  "",
  "x".repeat(16),
  "x".repeat(256),
  "x".repeat(257),
  "abcdefghijklmno",
  "abcdefghijklmnop",
  "abcdefghijklmno=",
  "abcdefghijklmnopq",
  "vvs",
  "moving",
  "plumbing",
  -1,
  -0,
  0,
  0.5,
  1,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  9999,
  10000,
  99999,
  100000,
  8_640_000_000_000_000,
  8_640_000_000_000_001,
  Number.MAX_SAFE_INTEGER + 1
]

const fields = Object.keys(SignedOption.from.fields)

/** A valid option with one field replaced by an edge value or removed, or its slot turned around or emptied. */
const anyCandidate = fc
  .tuple(
    Arbitrary.make(SignedOption),
    fc.constantFrom(...fields),
    fc.oneof(
      fc.constantFrom(...edges).map((value) => ({ value })),
      fc.constant("remove" as const),
      fc.constant("swap slot" as const),
      fc.constant("empty slot" as const),
      fc.constant("unchanged" as const)
    )
  )
  .map(([option, field, edit]): unknown => {
    const copy: Record<string, unknown> = { ...option }
    if (edit === "remove") delete copy[field]
    else if (edit === "swap slot") [copy.slotStart, copy.slotEnd] = [copy.slotEnd, copy.slotStart]
    else if (edit === "empty slot") copy.slotEnd = copy.slotStart
    else if (edit !== "unchanged") copy[field] = edit.value
    return copy
  })

describe("fitsSignedOption", () => {
  it.prop(
    "answers as Schema.is(SignedOption) for valid options and for each one edited at a bound",
    { candidate: fc.oneof(anyCandidate, fc.constantFrom(...edges)) },
    ({ candidate }) => {
      expect(fitsSignedOption(candidate as SignedOption)).toBe(isSignedOption(candidate))
    },
    { timeout, fastCheck: parameters }
  )
})
