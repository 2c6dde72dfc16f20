import { describe, expect, it } from "@effect/vitest"
import { wallClockToInstant } from "../../../src/Domain/Zone.js"
import { parseTimeWindow } from "../../../src/Search/Timing/TimeWindow.js"
import { fc, propSettings } from "../../support/Props.js"

const { parameters, timeout } = propSettings("month-bounded weeks", { quick: 300, deep: 3000 }, 5)

const zone = "Europe/Stockholm"

const midnight = (year: number, month: number, day: number) =>
  wallClockToInstant({ year, month, day, hour: 0, minute: 0 }, zone).toISOString()

const window = (text: string, now: Date) => {
  const found = parseTimeWindow({ preferredTimeText: text, timeZone: zone, now })
  return { start: found.start.toISOString(), end: found.end.toISOString(), understood: found.understood }
}

// Tuesday 1 December 2026, 10:00 in Stockholm: January is next year's.
const firstOfDecember = new Date("2026-12-01T10:00:00+01:00")
// Monday 1 February 2027: February has 28 days, and starts on a Monday.
const firstOfFebruary = new Date("2027-02-01T08:00:00+01:00")

describe("a week of a month stays inside the month", () => {
  it.each([
    ["första veckan i januari", [2027, 1, 1], [2027, 1, 8]],
    ["first week of January", [2027, 1, 1], [2027, 1, 8]],
    ["the first week of January", [2027, 1, 1], [2027, 1, 8]],
    ["i första veckan av januari", [2027, 1, 1], [2027, 1, 8]],
    ["andra veckan i januari", [2027, 1, 8], [2027, 1, 15]],
    ["the second week of January", [2027, 1, 8], [2027, 1, 15]],
    ["tredje veckan i januari", [2027, 1, 15], [2027, 1, 22]],
    ["fjärde veckan i januari", [2027, 1, 22], [2027, 1, 29]],
    ["sista veckan i december", [2026, 12, 25], [2027, 1, 1]],
    ["last week of December", [2026, 12, 25], [2027, 1, 1]]
  ] as const)("%s, said on 1 December 2026", (text, [y1, m1, d1], [y2, m2, d2]) => {
    expect(window(text, firstOfDecember)).toEqual({
      start: midnight(y1, m1, d1),
      end: midnight(y2, m2, d2),
      understood: true
    })
  })

  it.each([
    ["första veckan i februari", [2027, 2, 1], [2027, 2, 8]],
    ["the first week of February", [2027, 2, 1], [2027, 2, 8]],
    ["sista veckan i februari", [2027, 2, 22], [2027, 3, 1]],
    ["last week of February", [2027, 2, 22], [2027, 3, 1]],
    ["sista veckan i mars", [2027, 3, 25], [2027, 4, 1]],
    ["the last week of March", [2027, 3, 25], [2027, 4, 1]],
    ["first week of March", [2027, 3, 1], [2027, 3, 8]]
  ] as const)("%s, said on 1 February 2027", (text, [y1, m1, d1], [y2, m2, d2]) => {
    const found = window(text, firstOfFebruary)
    expect(found.understood).toBe(true)
    // A window under way starts now, not at midnight: the 1st of February is today.
    expect(found.start).toBe(m1 === 2 && d1 === 1 ? firstOfFebruary.toISOString() : midnight(y1, m1, d1))
    expect(found.end).toBe(midnight(y2, m2, d2))
  })
})

const months = [
  ["januari", "January"],
  ["februari", "February"],
  ["mars", "March"],
  ["april", "April"],
  ["maj", "May"],
  ["juni", "June"],
  ["juli", "July"],
  ["augusti", "August"],
  ["september", "September"],
  ["oktober", "October"],
  ["november", "November"],
  ["december", "December"]
] as const

const ordinals = [
  ["första", "first"],
  ["andra", "second"],
  ["tredje", "third"],
  ["fjärde", "fourth"],
  ["sista", "last"]
] as const

/** A month-bounded week phrase about month `month` of `year`, and a now up to 40 days before that month ends. */
const anyPhrase = fc
  .record({
    year: fc.integer({ min: 2026, max: 2030 }),
    month: fc.integer({ min: 1, max: 12 }),
    ordinal: fc.integer({ min: 0, max: 4 }),
    english: fc.boolean(),
    withYear: fc.boolean(),
    daysBefore: fc.integer({ min: 0, max: 40 * 24 * 60 })
  })
  .map(({ daysBefore, english, month, ordinal, withYear, year }) => {
    const [sv, en] = months[month - 1]!
    const [svOrdinal, enOrdinal] = ordinals[ordinal]!
    const suffix = withYear ? ` ${year}` : ""
    const text = english ? `the ${enOrdinal} week of ${en}${suffix}` : `${svOrdinal} veckan i ${sv}${suffix}`
    const monthStart = Date.parse(midnight(year, month, 1))
    const monthEnd = Date.parse(month === 12 ? midnight(year + 1, 1, 1) : midnight(year, month + 1, 1))
    return { text, monthStart, monthEnd, now: new Date(monthEnd - daysBefore * 60_000) }
  })

describe("month-bounded week laws", () => {
  it(
    "every month-bounded week phrase resolves inside its month, or is said to be over",
    () => {
      fc.assert(
        fc.property(anyPhrase, ({ monthEnd, monthStart, now, text }) => {
          const found = parseTimeWindow({ preferredTimeText: text, timeZone: zone, now })
          if (found.understood) {
            expect(found.start.getTime(), found.label).toBeGreaterThanOrEqual(monthStart)
            expect(found.end.getTime(), found.label).toBeLessThanOrEqual(monthEnd)
          } else {
            // Only a week that is over by now (or under way with too little left) is not searched.
            expect(found.label).toMatch(/^Tiden går inte att söka/)
          }
          if (now.getTime() < monthStart) expect(found.understood, found.label).toBe(true)
        }),
        parameters
      )
    },
    timeout
  )
})
