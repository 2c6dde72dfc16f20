import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import {
  DateTimeString,
  nestingDepth,
  TimeZoneInput,
  text,
  unstorableMessage,
  unstorableStrings
} from "../../src/Domain/Input.js"
import { fc, propSettings } from "../support/Props.js"

const { parameters } = propSettings("input schemas", { quick: 100, deep: 2000 })

const accepts =
  <A, I>(schema: Schema.Codec<A, I>) =>
  (input: unknown) =>
    Result.isSuccess(Schema.decodeUnknownResult(schema)(input))

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

describe("input schemas", () => {
  it("a date-time is accepted exactly when its fields name a real instant, with an offset", () => {
    const dateTime = accepts(DateTimeString)
    fc.assert(
      fc.property(
        fc.integer({ min: 1900, max: 2100 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 0, max: 61 }),
        fc.constantFrom("Z", "+01:00", "-05:30", "+14:00", ""),
        (year, month, day, hour, second, offset) => {
          const s = `${year}-${pad(month)}-${pad(day)}T${pad(hour)}:30:${pad(second)}${offset}`
          const utc = new Date(Date.UTC(year, month - 1, day, hour, 30, second))
          const real =
            utc.getUTCFullYear() === year &&
            utc.getUTCMonth() === month - 1 &&
            utc.getUTCDate() === day &&
            utc.getUTCHours() === hour &&
            utc.getUTCSeconds() === second
          expect(dateTime(s), s).toBe(real && offset !== "")
        }
      ),
      parameters
    )
    expect(dateTime("2026-11-23T08:00+01:00")).toBe(true)
    expect(dateTime("2026-11-23T08:00:00.123456789Z")).toBe(true)
    for (const bad of [
      "1",
      "2026-02-30T05:59:00Z",
      "2026-11-23 08:00:00Z",
      "2026-11-23T08:00:00+24:00",
      "20261123T080000Z"
    ]) {
      expect(dateTime(bad), bad).toBe(false)
    }
  })

  it("text bounds count code points, so an emoji is one character", () => {
    const description = accepts(text(10, 5000))
    expect(description("🚰".repeat(5000))).toBe(true)
    expect(description("🚰".repeat(5001))).toBe(false)
    expect(description("🚰".repeat(9))).toBe(false)
    expect(accepts(text(2, 2))("é😀")).toBe(true)
  })

  it("whitespace alone is blank; the empty string is too short", () => {
    const issue = (input: string) =>
      Result.match(Schema.decodeUnknownResult(text(1, 80))(input), {
        onFailure: (error) => error.message,
        onSuccess: () => "accepted"
      })
    expect(issue(" \t\n\u00a0\u3000")).toMatch(/must not be blank$/)
    expect(issue("")).toMatch(/Expected a string at least 1 character\(s\) long$/)
    expect(issue(" a ")).toBe("accepted")
  })

  it("a time zone is one this runtime knows", () => {
    const zone = accepts(TimeZoneInput)
    expect(zone("Europe/Stockholm")).toBe(true)
    expect(zone("UTC")).toBe(true)
    expect(zone("Mars/Phobos")).toBe(false)
    expect(zone("+01:00")).toBe(false)
  })

  it("nesting depth is counted no further than the limit needs", () => {
    expect(nestingDepth("x", 32)).toBe(0)
    expect(nestingDepth({ a: [1, { b: {} }] }, 32)).toBe(4)
    const nested = (levels: number) => JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`)
    expect(nestingDepth(nested(32), 32)).toBe(32)
    expect(nestingDepth(nested(33), 32)).toBeGreaterThan(32)
    expect(nestingDepth(nested(100_000), 32)).toBeGreaterThan(32)
  })

  it("strings PostgreSQL cannot store are found at any depth, keys named by their object", () => {
    const body = {
      name: "Anna\u0000",
      fine: ["😀", "å", "\u0001"],
      details: { "k\ud800": 1, notes: [{ text: "\udc00" }], pair: "\ud83d\ude00" }
    }
    expect(unstorableStrings(body, 20)).toEqual([
      { path: ["name"], message: unstorableMessage },
      { path: ["details"], message: `keys ${unstorableMessage}` },
      { path: ["details", "notes", 0, "text"], message: unstorableMessage }
    ])
    expect(
      unstorableStrings(
        Array.from({ length: 1000 }, () => "\u0000"),
        20
      )
    ).toHaveLength(20)
  })
})
