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
import { fc, propSettings } from "../support/Props.js"

const plumber: CancellationPolicy = { freeCancellationHours: 24, lateFeeSek: 495, changeHours: 24 }
/** Monday 30 November 2026 08:00 in Stockholm. */
const slotStart = Date.parse("2026-11-30T08:00:00+01:00")
/** A week before: every deadline is still to come. */
const weekBefore = slotStart - 7 * 24 * HOUR
/** Booked a month ahead: by the week before the slot the 14-day withdrawal period has ended, so the provider's terms apply. */
const bookedMonthAhead = slotStart - 30 * 24 * HOUR

const deadlinesLaw = "both deadlines are at or before the start, and a fee is charged only after the free period"
const deadlines = propSettings(deadlinesLaw, { quick: 200, deep: 20_000 })

describe("a cancellation policy on a slot", () => {
  it("after the withdrawal period (konsumenttjänstlagen 42–43 §§): states its deadlines in the caller's zone and its fee as the provider's term that must be reasonable", () => {
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm", weekBefore, bookedMonthAhead)
    expect(terms).toEqual({
      free_until: "2026-11-29T08:00:00+01:00",
      withdrawal_until: "2026-11-17T00:00:00+01:00",
      free_cancellation_available: true,
      late_fee_sek: 495,
      change_until: "2026-11-29T08:00:00+01:00",
      change_available: true,
      summary_sv:
        "Ångerfristen gällde till och med måndag 16 november kl. 23:59. Nu är avbokning kostnadsfri enligt utförarens villkor fram till söndag 29 november kl. 08:00; vid senare avbokning får utföraren ta ut 495 kr inkl. moms, en avgift som är utförarens villkor enligt konsumenttjänstlagen och bara gäller om den är skälig. Tiden kan ändras fram till söndag 29 november kl. 08:00.",
      summary_en:
        "The withdrawal period lasted until Monday 16 November at 23:59. Now cancelling is free under the provider's terms until Sunday 29 November at 08:00; after that the provider may charge SEK 495 incl. VAT, a fee that is the provider's term under the Consumer Services Act and applies only if it is reasonable. The time can be changed until Sunday 29 November at 08:00."
    })
    for (const text of [terms.summary_sv, terms.summary_en]) expect(text).not.toMatch(/du är skyldig|you owe|must pay/i)
    const london = policyTerms(plumber, slotStart, "Europe/London", weekBefore, bookedMonthAhead)
    expect(london.free_until).toBe("2026-11-29T07:00:00+00:00")
    expect(london.summary_en).toContain("Sunday 29 November at 07:00 (Europe/London)")
  })

  it("without a fee, cancelling is free until the start", () => {
    const free = policyTerms(
      { freeCancellationHours: 48, lateFeeSek: 0, changeHours: 2 },
      slotStart,
      "Europe/Stockholm",
      weekBefore,
      bookedMonthAhead
    )
    expect(free.free_until).toBe("2026-11-30T08:00:00+01:00")
    expect(free.summary_en).toMatch(/Now cancelling is free until the start under the provider's terms/)
    expect(
      cancellationAt(
        { freeCancellationHours: 48, lateFeeSek: 0, changeHours: 2 },
        slotStart,
        slotStart - 1,
        bookedMonthAhead
      )
    ).toEqual({
      _tag: "Open",
      withinFreePeriod: true,
      feeSek: 0,
      freeUntil: slotStart,
      withdrawalUntil: Date.parse("2026-11-17T00:00:00+01:00"),
      legalBasis: "provider_terms"
    })
  })

  it("after the withdrawal period, what cancelling costs now: free before the deadline, the fee after it, nothing once the slot has started", () => {
    expect(cancellationAt(plumber, slotStart, slotStart - 25 * HOUR, bookedMonthAhead)).toMatchObject({
      feeSek: 0,
      withinFreePeriod: true
    })
    // "Until X" is before X: at the deadline itself the free period is over.
    expect(cancellationAt(plumber, slotStart, slotStart - 24 * HOUR - 1, bookedMonthAhead)).toMatchObject({
      feeSek: 0,
      withinFreePeriod: true
    })
    expect(cancellationAt(plumber, slotStart, slotStart - 24 * HOUR, bookedMonthAhead)).toMatchObject({
      feeSek: 495,
      withinFreePeriod: false
    })
    expect(cancellationAt(plumber, slotStart, slotStart - 23 * HOUR, bookedMonthAhead)).toMatchObject({
      feeSek: 495,
      withinFreePeriod: false
    })
    expect(cancellationAt(plumber, slotStart, slotStart, bookedMonthAhead)).toMatchObject({ _tag: "Started" })
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
            // Booked long before: outside the withdrawal period only the provider's terms decide.
            const cancelled = cancellationAt(policy, start, now, start - 400 * 24 * HOUR)
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
  "over booking time, search time, slot time and policy, no answer states a passed deadline as still to come, and free_cancellation_available is exactly now < free_until or within the withdrawal period before the start"
const clock = propSettings(clockLaw, { quick: 300, deep: 30_000 })

/** The words that offer cancelling as free now. */
const offersFree = /cancelling is free|cancelling before the start is free|Kostnadsfri|kostnadsfri/i
const offersChange = /can be changed until|kan ändras fram till/

describe("a policy as it stands at the time of the answer", () => {
  it("a booking made a month ago, seen at 19:33 for tomorrow 08:00 under a 24-hour policy, states the free period as passed", () => {
    const now = Date.parse("2026-11-30T19:33:00+01:00")
    const tomorrow = Date.parse("2026-12-01T08:00:00+01:00")
    const terms = policyTerms(plumber, tomorrow, "Europe/Stockholm", now, now - 30 * 24 * HOUR)
    expect(terms).toMatchObject({
      free_until: "2026-11-30T08:00:00+01:00",
      free_cancellation_available: false,
      change_until: "2026-11-30T08:00:00+01:00",
      change_available: false
    })
    expect(terms.summary_en).toBe(
      "The withdrawal period lasted until Monday 16 November at 23:59. Now the provider may charge SEK 495 incl. VAT if the booking is cancelled, a fee that is the provider's term under the Consumer Services Act and applies only if it is reasonable. The time can no longer be changed: the deadline (Monday 30 November at 08:00) has passed."
    )
    expect(terms.summary_sv).toBe(
      "Ångerfristen gällde till och med måndag 16 november kl. 23:59. Nu får utföraren vid avbokning ta ut 495 kr inkl. moms, en avgift som är utförarens villkor enligt konsumenttjänstlagen och bara gäller om den är skälig. Tiden kan inte längre ändras: tiden för ändring gick ut måndag 30 november kl. 08:00."
    )
    // The same slot asked a week earlier keeps its own words: the cache tells the two apart.
    expect(
      policyTerms(plumber, tomorrow, "Europe/Stockholm", now - 7 * 24 * HOUR, now - 30 * 24 * HOUR).summary_en
    ).toMatch(/cancelling is free under the provider's terms until Monday 30 November at 08:00/)
  })

  it("a booking whose time has started offers neither cancelling nor changing", () => {
    const terms = policyTerms(plumber, slotStart, "Europe/Stockholm", slotStart + HOUR, bookedMonthAhead)
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
          fc.integer({ min: 0, max: 60 * 24 * HOUR }),
          (policy, startMinute, offset, zone, bookedBefore) => {
            const start = startMinute * 60_000
            const now = start + offset
            const concludedAt = Math.min(now, start) - bookedBefore
            const terms = policyTerms(policy, start, zone, now, concludedAt)
            const freeUntil = Date.parse(terms.free_until)
            const withdrawalEnd = Date.parse(terms.withdrawal_until)
            const changeUntil = Date.parse(terms.change_until)
            const free = now < freeUntil || (now < withdrawalEnd && now < start)
            expect(terms.free_cancellation_available).toBe(free)
            expect(terms.change_available).toBe(now < changeUntil)
            for (const summary of [terms.summary_sv, terms.summary_en]) {
              expect(offersChange.test(summary)).toBe(terms.change_available)
              if (now >= start) expect(offersFree.test(summary)).toBe(false)
              // Never "no right of withdrawal": no 2 kap. 11 § exception applies before the work is done.
              expect(summary).not.toMatch(/no right of withdrawal|ingen ångerrätt/i)
            }
            if (free) expect(offersFree.test(terms.summary_en)).toBe(true)
            // What a cancel now would charge agrees with what the answer says.
            const cancelled = cancellationAt(policy, start, now, concludedAt)
            if (cancelled._tag === "Open") expect(cancelled.feeSek === 0).toBe(free || policy.lateFeeSek === 0)
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
