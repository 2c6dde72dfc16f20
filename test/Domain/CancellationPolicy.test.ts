import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import {
  type CancellationPolicy,
  cancellationAt,
  changeableAt,
  deadlinesOf,
  policyTerms
} from "../../src/Domain/CancellationPolicy.js"
import { HOUR } from "../../src/Domain/Zone.js"
import { fc, propSettings } from "../support/FastCheck.js"

const plumber: CancellationPolicy = { freeCancellationHours: 24, lateFeeSek: 495, changeHours: 24 }
/** Monday 30 November 2026 08:00 in Stockholm. */
const slotStart = Date.parse("2026-11-30T08:00:00+01:00")

const deadlinesLaw = "both deadlines are at or before the start, and a fee is charged only after the free period"
const deadlines = propSettings(deadlinesLaw, { quick: 200, deep: 20_000 })

describe("a cancellation policy on a slot", () => {
  it("states its deadlines in the caller's zone and its fee as what the provider may charge", () => {
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm")
    expect(terms).toEqual({
      free_until: "2026-11-29T08:00:00+01:00",
      late_fee_sek: 495,
      change_until: "2026-11-29T08:00:00+01:00",
      summary_sv:
        "Kostnadsfri avbokning fram till söndag 29 november kl. 08:00. Vid senare avbokning får utföraren enligt sina villkor ta ut en avgift på 495 kr inkl. moms. Tiden kan ändras fram till söndag 29 november kl. 08:00.",
      summary_en:
        "Free cancellation until Sunday 29 November at 08:00. After that the provider may charge a fee of SEK 495 incl. VAT under its terms. The time can be changed until Sunday 29 November at 08:00."
    })
    for (const text of [terms.summary_sv, terms.summary_en]) expect(text).not.toMatch(/du är skyldig|you owe|must pay/i)
    const london = policyTerms(plumber, slotStart, "Europe/London")
    expect(london.free_until).toBe("2026-11-29T07:00:00+00:00")
    expect(london.summary_en).toContain("Sunday 29 November at 07:00 (Europe/London)")
  })

  it("without a fee, cancelling is free until the start", () => {
    const free = policyTerms(
      { freeCancellationHours: 48, lateFeeSek: 0, changeHours: 2 },
      slotStart,
      "Europe/Stockholm"
    )
    expect(free.free_until).toBe("2026-11-30T08:00:00+01:00")
    expect(free.summary_en).toMatch(/^Cancelling is free until the start/)
    expect(
      cancellationAt({ freeCancellationHours: 48, lateFeeSek: 0, changeHours: 2 }, slotStart, slotStart - 1)
    ).toEqual({
      _tag: "Open",
      withinFreePeriod: true,
      feeSek: 0,
      freeUntil: slotStart
    })
  })

  it("what cancelling costs now: free before the deadline, the fee after it, nothing once the slot has started", () => {
    expect(cancellationAt(plumber, slotStart, slotStart - 25 * HOUR)).toMatchObject({
      feeSek: 0,
      withinFreePeriod: true
    })
    expect(cancellationAt(plumber, slotStart, slotStart - 24 * HOUR)).toMatchObject({
      feeSek: 0,
      withinFreePeriod: true
    })
    expect(cancellationAt(plumber, slotStart, slotStart - 23 * HOUR)).toMatchObject({
      feeSek: 495,
      withinFreePeriod: false
    })
    expect(cancellationAt(plumber, slotStart, slotStart)).toEqual({ _tag: "Started" })
    expect(changeableAt(plumber, slotStart, slotStart - 24 * HOUR)).toBe(true)
    expect(changeableAt(plumber, slotStart, slotStart - 24 * HOUR + 1)).toBe(false)
  })

  it(
    deadlinesLaw,
    () => {
      fc.assert(
        fc.property(
          fc.record({
            freeCancellationHours: fc.integer({ min: 0, max: 24 * 30 }),
            lateFeeSek: fc.integer({ min: 0, max: 100_000 }),
            changeHours: fc.integer({ min: 0, max: 24 * 30 })
          }),
          fc.integer({ min: Date.parse("2026-01-01"), max: Date.parse("2028-01-01") }),
          fc.integer({ min: -60 * 24 * HOUR, max: 2 * HOUR }),
          (policy, start, offset) => {
            const { freeUntil, changeUntil } = deadlinesOf(policy, start)
            expect(freeUntil).toBeLessThanOrEqual(start)
            expect(changeUntil).toBeLessThanOrEqual(start)
            const now = start + offset
            const cancelled = cancellationAt(policy, start, now)
            if (now >= start) expect(cancelled._tag).toBe("Started")
            else if (cancelled._tag === "Open") {
              expect(cancelled.feeSek).toBe(now <= freeUntil ? 0 : policy.lateFeeSek)
              expect(cancelled.feeSek === 0 || !cancelled.withinFreePeriod).toBe(true)
            }
          }
        ),
        deadlines.parameters
      )
    },
    deadlines.timeout
  )
})

describe("a slot's terms, worded once", () => {
  it("are the same answer each time a search offers the slot, and never another slot's, policy's or zone's", async () => {
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm")
    expect(policyTerms({ ...plumber }, slotStart, "Europe/Stockholm")).toBe(terms)
    const policies: ReadonlyArray<CancellationPolicy> = [
      plumber,
      { ...plumber, freeCancellationHours: 48 },
      { ...plumber, lateFeeSek: 0 },
      { ...plumber, lateFeeSek: 595 },
      { ...plumber, changeHours: 6 }
    ]
    const inputs = policies.flatMap((policy) =>
      [slotStart, slotStart + HOUR, Date.parse("2026-03-29T09:00:00+02:00")].flatMap((start) =>
        ["Europe/Stockholm", "Europe/London", "America/New_York"].map((zone) => [policy, start, zone] as const)
      )
    )
    // A module of its own, with nothing worded yet, answers the same inputs in the reverse order:
    // two inputs sharing terms they should not would get the first one asked in each.
    vi.resetModules()
    const fresh = (await import("../../src/Domain/CancellationPolicy.js")).policyTerms
    expect(fresh).not.toBe(policyTerms)
    const forward = inputs.map(([policy, start, zone]) => policyTerms(policy, start, zone))
    const backward = [...inputs].reverse().map(([policy, start, zone]) => fresh(policy, start, zone))
    expect(forward).toEqual([...backward].reverse())
    expect(new Set(forward).size).toBe(inputs.length)
  })

  it("are kept for at most two thousand slots, the oldest let go first", () => {
    const first = policyTerms(plumber, slotStart - 5000 * HOUR, "Europe/Stockholm")
    for (let hour = 1; hour < 2100; hour++)
      policyTerms(plumber, slotStart - 5000 * HOUR + hour * HOUR, "Europe/Stockholm")
    const again = policyTerms(plumber, slotStart - 5000 * HOUR, "Europe/Stockholm")
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})
