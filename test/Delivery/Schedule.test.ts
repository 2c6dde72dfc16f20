import { describe, expect, it } from "@effect/vitest"
import { disableAfterMs, nextAttempt, retryDelaysMs, shouldDisableEndpoint } from "../../src/Delivery/Schedule.js"
import { fc, propSettings } from "../support/Props.js"

const now = new Date("2025-03-04T08:00:00.000Z")
const later = (ms: number) => new Date(now.getTime() + ms)
const second = 1_000
const minute = 60 * second
const hour = 60 * minute

describe("nextAttempt", () => {
  it.each([
    [0, 0],
    [1, 5 * second],
    [2, 5 * minute],
    [3, 30 * minute],
    [4, 2 * hour],
    [5, 5 * hour],
    [6, 10 * hour],
    [7, 14 * hour],
    [8, 20 * hour],
    [9, 24 * hour]
  ])("after %i attempts, without jitter, is %i ms later", async (attempts, delay) => {
    expect(nextAttempt(attempts, now, { jitter: false })).toEqual({ kind: "retry", at: later(delay) })
  })

  it("gives up after the tenth attempt", async () => {
    expect(nextAttempt(10, now, { jitter: false })).toEqual({ kind: "give_up" })
    expect(nextAttempt(11, now)).toEqual({ kind: "give_up" })
  })

  it("sends the first attempt at once even with jitter", async () => {
    expect(nextAttempt(0, now, { random: () => 0.99 })).toEqual({ kind: "retry", at: now })
  })

  it("adds jitter of up to a tenth of the delay, never less than the schedule", async () => {
    const { parameters } = propSettings("jitter only delays, by at most a tenth", { quick: 200, deep: 5000 })
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: retryDelaysMs.length - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempts, draw) => {
          const next = nextAttempt(attempts, now, { random: () => draw })
          const delay = retryDelaysMs[attempts]!
          if (next.kind !== "retry") throw new Error("expected a retry")
          expect(next.at.getTime()).toBeGreaterThanOrEqual(now.getTime() + delay)
          expect(next.at.getTime()).toBeLessThanOrEqual(now.getTime() + Math.round(delay * 1.1))
        }
      ),
      parameters
    )
  })

  it("spreads endpoints that failed together", async () => {
    const draws = [0.05, 0.5, 0.95]
    const times = draws.map((draw) => nextAttempt(4, now, { random: () => draw }))
    expect(new Set(times.map((time) => (time.kind === "retry" ? time.at.getTime() : 0))).size).toBe(3)
  })
})

describe("shouldDisableEndpoint", () => {
  it("disables an endpoint that has failed for five days, and no sooner", async () => {
    expect(shouldDisableEndpoint(null, now)).toBe(false)
    expect(shouldDisableEndpoint(new Date(now.getTime() - disableAfterMs + 1), now)).toBe(false)
    expect(shouldDisableEndpoint(new Date(now.getTime() - disableAfterMs), now)).toBe(true)
    expect(shouldDisableEndpoint(new Date(now.getTime() - 6 * 24 * hour), now)).toBe(true)
  })

  it("ends one message's retries before five days, so only an endpoint that keeps failing later messages is disabled", async () => {
    const schedule = retryDelaysMs.reduce((total, delay) => total + delay * 1.1, 0)
    expect(schedule).toBeLessThan(disableAfterMs)
  })
})
