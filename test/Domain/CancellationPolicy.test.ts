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
/** A week before: every deadline is still to come. */
const weekBefore = slotStart - 7 * 24 * HOUR

const deadlinesLaw = "both deadlines are at or before the start, and a fee is charged only after the free period"
const deadlines = propSettings(deadlinesLaw, { quick: 200, deep: 20_000 })

describe("a cancellation policy on a slot", () => {
  it("states its deadlines in the caller's zone and its fee as what the provider may charge", () => {
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm", weekBefore)
    expect(terms).toEqual({
      free_until: "2026-11-29T08:00:00+01:00",
      free_cancellation_available: true,
      late_fee_sek: 495,
      change_until: "2026-11-29T08:00:00+01:00",
      change_available: true,
      summary_sv:
        "Kostnadsfri avbokning fram till söndag 29 november kl. 08:00. Vid senare avbokning får utföraren enligt sina villkor ta ut en avgift på 495 kr inkl. moms. Tiden kan ändras fram till söndag 29 november kl. 08:00.",
      summary_en:
        "Free cancellation until Sunday 29 November at 08:00. After that the provider may charge a fee of SEK 495 incl. VAT under its terms. The time can be changed until Sunday 29 November at 08:00."
    })
    for (const text of [terms.summary_sv, terms.summary_en]) expect(text).not.toMatch(/du är skyldig|you owe|must pay/i)
    const london = policyTerms(plumber, slotStart, "Europe/London", weekBefore)
    expect(london.free_until).toBe("2026-11-29T07:00:00+00:00")
    expect(london.summary_en).toContain("Sunday 29 November at 07:00 (Europe/London)")
  })

  it("without a fee, cancelling is free until the start", () => {
    const free = policyTerms(
      { freeCancellationHours: 48, lateFeeSek: 0, changeHours: 2 },
      slotStart,
      "Europe/Stockholm",
      weekBefore
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
    // "Until X" is before X: at the deadline itself the free period is over.
    expect(cancellationAt(plumber, slotStart, slotStart - 24 * HOUR - 1)).toMatchObject({
      feeSek: 0,
      withinFreePeriod: true
    })
    expect(cancellationAt(plumber, slotStart, slotStart - 24 * HOUR)).toMatchObject({
      feeSek: 495,
      withinFreePeriod: false
    })
    expect(cancellationAt(plumber, slotStart, slotStart - 23 * HOUR)).toMatchObject({
      feeSek: 495,
      withinFreePeriod: false
    })
    expect(cancellationAt(plumber, slotStart, slotStart)).toEqual({ _tag: "Started" })
    expect(changeableAt(plumber, slotStart, slotStart - 24 * HOUR - 1)).toBe(true)
    expect(changeableAt(plumber, slotStart, slotStart - 24 * HOUR)).toBe(false)
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
              expect(cancelled.feeSek).toBe(now < freeUntil ? 0 : policy.lateFeeSek)
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
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm", weekBefore)
    expect(policyTerms({ ...plumber }, slotStart, "Europe/Stockholm", weekBefore - HOUR)).toBe(terms)
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
    const forward = inputs.map(([policy, start, zone]) => policyTerms(policy, start, zone, weekBefore))
    const backward = [...inputs].reverse().map(([policy, start, zone]) => fresh(policy, start, zone, weekBefore))
    expect(forward).toEqual([...backward].reverse())
    expect(new Set(forward).size).toBe(inputs.length)
  })

  it("are kept for at most two thousand slots, the oldest let go first", () => {
    const first = policyTerms(plumber, slotStart - 5000 * HOUR, "Europe/Stockholm", weekBefore - 6000 * HOUR)
    for (let hour = 1; hour < 2100; hour++)
      policyTerms(plumber, slotStart - 5000 * HOUR + hour * HOUR, "Europe/Stockholm", weekBefore - 6000 * HOUR)
    const again = policyTerms(plumber, slotStart - 5000 * HOUR, "Europe/Stockholm", weekBefore - 6000 * HOUR)
    expect(again).not.toBe(first)
    expect(again).toEqual(first)
  })
})

const clockLaw =
  "over search time, slot time and policy, no answer states a passed deadline as still to come, and free_cancellation_available is exactly now < free_until"
const clock = propSettings(clockLaw, { quick: 300, deep: 30_000 })

/** The words that offer a deadline as one still to come. */
const offersFree =
  /Free cancellation until|Cancelling is free until|Kostnadsfri avbokning fram till|Avbokning är kostnadsfri fram till/
const offersChange = /can be changed until|kan ändras fram till/

describe("a policy as it stands at the time of the answer", () => {
  it("a search at 19:33 for tomorrow 08:00 under a 24-hour policy states the free period as passed", () => {
    const now = Date.parse("2026-11-30T19:33:00+01:00")
    const tomorrow = Date.parse("2026-12-01T08:00:00+01:00")
    const terms = policyTerms(plumber, tomorrow, "Europe/Stockholm", now)
    expect(terms).toMatchObject({
      free_until: "2026-11-30T08:00:00+01:00",
      free_cancellation_available: false,
      change_until: "2026-11-30T08:00:00+01:00",
      change_available: false
    })
    expect(terms.summary_en).toBe(
      "No free cancellation: the deadline (Monday 30 November at 08:00) has passed; the provider may charge a fee of SEK 495 incl. VAT under its terms if the booking is cancelled. The time can no longer be changed: the deadline (Monday 30 November at 08:00) has passed."
    )
    expect(terms.summary_sv).toBe(
      "Ingen kostnadsfri avbokning: tiden för den gick ut måndag 30 november kl. 08:00. Vid avbokning får utföraren enligt sina villkor ta ut en avgift på 495 kr inkl. moms. Tiden kan inte längre ändras: tiden för ändring gick ut måndag 30 november kl. 08:00."
    )
    // The same slot asked a week earlier keeps its own words: the cache tells the two apart.
    expect(policyTerms(plumber, tomorrow, "Europe/Stockholm", now - 7 * 24 * HOUR).summary_en).toMatch(
      /^Free cancellation until Monday 30 November at 08:00/
    )
  })

  it("a booking whose time has started offers neither cancelling nor changing", () => {
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm", slotStart + HOUR)
    expect(terms).toMatchObject({ free_cancellation_available: false, change_available: false })
    expect(terms.summary_en).toMatch(/^The booked time has started/)
    expect(terms.summary_sv).toMatch(/^Den bokade tiden har börjat/)
  })

  it(
    clockLaw,
    () => {
      fc.assert(
        fc.property(
          fc.record({
            freeCancellationHours: fc.integer({ min: 0, max: 24 * 30 }),
            lateFeeSek: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000 })),
            changeHours: fc.integer({ min: 0, max: 24 * 30 })
          }),
          // Slots start on whole minutes, as every slot does; the search may be at any millisecond.
          fc.integer({ min: Date.parse("2026-01-01") / 60_000, max: Date.parse("2028-01-01") / 60_000 }),
          fc.integer({ min: -40 * 24 * HOUR, max: 3 * HOUR }),
          fc.constantFrom("Europe/Stockholm", "Europe/London", "America/New_York", "Asia/Tokyo"),
          (policy, startMinute, offset, zone) => {
            const start = startMinute * 60_000
            const now = start + offset
            const terms = policyTerms(policy, start, zone, now)
            const freeUntil = Date.parse(terms.free_until)
            const changeUntil = Date.parse(terms.change_until)
            expect(terms.free_cancellation_available).toBe(now < freeUntil)
            expect(terms.change_available).toBe(now < changeUntil)
            for (const summary of [terms.summary_sv, terms.summary_en]) {
              expect(offersFree.test(summary)).toBe(terms.free_cancellation_available)
              expect(offersChange.test(summary)).toBe(terms.change_available)
            }
            if (!terms.free_cancellation_available)
              expect(terms.summary_en).toMatch(/No free cancellation: the deadline .* has passed|has started/)
            // What a cancel now would charge agrees with what the answer says.
            const cancelled = cancellationAt(policy, start, now)
            if (cancelled._tag === "Open") expect(cancelled.withinFreePeriod).toBe(terms.free_cancellation_available)
            else expect(now).toBeGreaterThanOrEqual(start)
            expect(changeableAt(policy, start, now)).toBe(terms.change_available)
          }
        ),
        clock.parameters
      )
    },
    clock.timeout
  )
})
