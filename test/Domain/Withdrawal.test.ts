import { describe, expect, it } from "@effect/vitest"
import { type CancellationPolicy, cancellationAt, policyTerms } from "../../src/Domain/CancellationPolicy.js"
import { earlyStartOf } from "../../src/Domain/EarlyStart.js"
import { withdrawalUntil } from "../../src/Domain/Withdrawal.js"
import { DAY, HOUR } from "../../src/Domain/Zone.js"
import { fc, propSettings } from "../support/Props.js"

const plumber: CancellationPolicy = { freeCancellationHours: 24, lateFeeSek: 495, changeHours: 24 }
const at = (iso: string) => Date.parse(iso)

describe("the withdrawal period (2005:59, 2 kap. 10 and 12 §§; lag 1930:173)", () => {
  it("ends with the fourteenth day after the day of booking, in Swedish time", () => {
    // Booked Monday 23 November 2026: the days counted are 24 November to Monday 7 December.
    expect(withdrawalUntil(at("2026-11-23T09:00:00+01:00"))).toBe(at("2026-12-08T00:00:00+01:00"))
    expect(withdrawalUntil(at("2026-11-23T23:59:00+01:00"))).toBe(at("2026-12-08T00:00:00+01:00"))
    // 23:30 UTC on the 22nd is already the 23rd in Stockholm.
    expect(withdrawalUntil(at("2026-11-22T23:30:00Z"))).toBe(at("2026-12-08T00:00:00+01:00"))
  })

  it("runs on over a Saturday, a Sunday and a public holiday to the next working day", () => {
    // 14 days after Saturday 31 October is Saturday 14 November: it runs on to Monday 16 November.
    expect(withdrawalUntil(at("2026-10-31T10:00:00+01:00"))).toBe(at("2026-11-17T00:00:00+01:00"))
    // 14 days after 10 December is Christmas Eve; then Christmas, Boxing Day, a weekend: Monday 28 December.
    expect(withdrawalUntil(at("2026-12-10T10:00:00+01:00"))).toBe(at("2026-12-29T00:00:00+01:00"))
  })

  it("runs on over each year's own holidays: Easter and Midsummer move, the turn of the year spans two years", () => {
    // 14 days after 12 March 2027 is Good Friday; then Easter's weekend (clocks go forward) and Easter Monday.
    expect(withdrawalUntil(at("2027-03-12T10:00:00+01:00"))).toBe(at("2027-03-31T00:00:00+02:00"))
    // 14 days after 11 June 2027 is Midsummer Eve, Friday 25 June: it runs on to Monday 28 June.
    expect(withdrawalUntil(at("2027-06-11T10:00:00+02:00"))).toBe(at("2027-06-29T00:00:00+02:00"))
    // 14 days after 17 December 2026 is New Year's Eve; then New Year's Day 2027 and a weekend.
    expect(withdrawalUntil(at("2026-12-17T10:00:00+01:00"))).toBe(at("2027-01-05T00:00:00+01:00"))
    // An ordinary Friday is a working day: 14 days after 4 June 2027 is Friday 18 June.
    expect(withdrawalUntil(at("2027-06-04T10:00:00+02:00"))).toBe(at("2027-06-19T00:00:00+02:00"))
  })
})

describe("a cancel within the withdrawal period, before the start (2 kap. 10 and 15 §§, 1 kap. 4 §)", () => {
  it("costs nothing whatever the late-fee policy says: a plumber booked for next week and cancelled the day before", () => {
    const booked = at("2026-11-23T09:00:00+01:00")
    const start = at("2026-11-30T08:00:00+01:00")
    const dayBefore = start - 20 * HOUR
    expect(cancellationAt(plumber, start, dayBefore, booked)).toMatchObject({
      _tag: "Open",
      feeSek: 0,
      withinFreePeriod: false,
      legalBasis: "withdrawal_right"
    })
    const terms = policyTerms(plumber, start, "Europe/Stockholm", dayBefore, booked)
    expect(terms.free_cancellation_available).toBe(true)
    expect(terms.summary_en).toContain("so cancelling before the start is free")
    for (const text of [terms.summary_sv, terms.summary_en]) expect(text).not.toMatch(/495/)
  })

  it("after the period, the policy applies as the provider's term (konsumenttjänstlagen 42–43 §§)", () => {
    const booked = at("2026-11-01T09:00:00+01:00")
    const start = at("2026-11-30T08:00:00+01:00")
    expect(cancellationAt(plumber, start, start - 20 * HOUR, booked)).toMatchObject({
      feeSek: 495,
      legalBasis: "provider_terms"
    })
  })
})

describe("the early-start record (2 kap. 11 § 1 p. and 15 §)", () => {
  const facts = {
    earlyStartStatement: null,
    slotStart: new Date("2026-11-30T08:00:00+01:00"),
    confirmedAt: new Date("2026-11-23T09:00:00+01:00"),
    timeZone: "Europe/Stockholm"
  }
  it("not asked for, a withdrawal within the period owes nothing, even for work done", () => {
    const early = earlyStartOf({ ...facts, earlyStartRequested: null })
    expect(early).toMatchObject({ requested: false, slot_within_withdrawal_period: true })
    expect(early.summary_en).toContain("owes nothing, even for work already done")
  })
  it("asked for, a withdrawal after the work has begun costs the part done", () => {
    const early = earlyStartOf({ ...facts, earlyStartRequested: true, earlyStartStatement: "Ja, börja tidigare." })
    expect(early).toMatchObject({ requested: true, statement: "Ja, börja tidigare." })
    expect(early.summary_en).toContain("costs the part already done")
  })
  it("a slot after the period leaves the request without effect", () => {
    const early = earlyStartOf({
      ...facts,
      slotStart: new Date("2027-01-30T08:00:00+01:00"),
      earlyStartRequested: true
    })
    expect(early.slot_within_withdrawal_period).toBe(false)
  })
})

const feeLaw =
  "over booking time, slot time and cancel time: a cancel before the start within 14 days of booking is free with legal basis withdrawal_right; after that the fee is the policy's, on the provider's terms"
const feeRuns = propSettings(feeLaw, { quick: 300, deep: 30_000 })

describe("the fee rule", () => {
  it(
    feeLaw,
    () => {
      fc.assert(
        fc.property(
          fc.record({
            freeCancellationHours: fc.integer({ min: 0, max: 24 * 30 }),
            lateFeeSek: fc.integer({ min: 0, max: 20_000 }),
            changeHours: fc.integer({ min: 0, max: 24 * 30 })
          }),
          fc.integer({ min: at("2026-01-01T00:00:00Z"), max: at("2028-01-01T00:00:00Z") }),
          fc.integer({ min: 0, max: 60 * DAY }),
          fc.integer({ min: 0, max: 62 * DAY }),
          (policy, booked, lead, after) => {
            const start = booked + lead
            const now = booked + after
            const cancelled = cancellationAt(policy, start, now, booked)
            if (now >= start) {
              expect(cancelled._tag).toBe("Started")
              return
            }
            if (cancelled._tag !== "Open") throw new Error("a cancel before the start is open")
            // Fourteen whole days after the booking always lie within the period; sixteen days
            // plus the longest run of closed days (Christmas to the first weekday) never do.
            if (now - booked < 14 * DAY) expect(cancelled.legalBasis).toBe("withdrawal_right")
            if (now - booked >= 21 * DAY) expect(cancelled.legalBasis).toBe("provider_terms")
            if (cancelled.legalBasis === "withdrawal_right") expect(cancelled.feeSek).toBe(0)
            else {
              expect(now).toBeGreaterThanOrEqual(withdrawalUntil(booked))
              expect(cancelled.feeSek).toBe(now < cancelled.freeUntil ? 0 : policy.lateFeeSek)
            }
            const terms = policyTerms(policy, start, "Europe/Stockholm", now, booked)
            expect(terms.free_cancellation_available).toBe(cancelled.feeSek === 0 || now < cancelled.freeUntil)
          }
        ),
        feeRuns.parameters
      )
    },
    feeRuns.timeout
  )
})
