import { describe, expect, it } from "@effect/vitest"
import { easterSunday, type NamedDay, namedDays, nextOccurrence } from "../../src/Domain/Holidays.js"
import { fc, propSettings } from "../support/Props.js"

const { parameters } = propSettings("holidays", { quick: 100, deep: 2000 })

const iso = (day: number): string => new Date(day).toISOString().slice(0, 10)
const day = (date: string): number => Date.parse(`${date}T00:00:00Z`)
const weekday = (date: number): number => ((new Date(date).getUTCDay() + 6) % 7) + 1

describe("Swedish named days", () => {
  it.each([
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2028, "2028-04-16"],
    [2038, "2038-04-25"],
    [2285, "2285-03-22"]
  ])("Easter Sunday %i is %s", (year, date) => {
    expect(iso(easterSunday(year))).toBe(date)
  })

  it.each<[NamedDay, number, string, string]>([
    ["langfredag", 2027, "2027-03-26", "2027-03-26"],
    ["annandagPask", 2026, "2026-04-06", "2026-04-06"],
    ["pask", 2026, "2026-04-03", "2026-04-06"],
    ["kristiHimmelsfard", 2026, "2026-05-14", "2026-05-14"],
    ["kristiHimmelsfard", 2027, "2027-05-06", "2027-05-06"],
    ["pingstdagen", 2026, "2026-05-24", "2026-05-24"],
    ["morsDag", 2026, "2026-05-31", "2026-05-31"],
    ["midsommarafton", 2026, "2026-06-19", "2026-06-19"],
    ["midsommarafton", 2027, "2027-06-25", "2027-06-25"],
    ["midsommar", 2025, "2025-06-20", "2025-06-22"],
    ["allaHelgonsDag", 2026, "2026-10-31", "2026-10-31"],
    ["allaHelgonsDag", 2027, "2027-11-06", "2027-11-06"],
    ["farsDag", 2026, "2026-11-08", "2026-11-08"],
    ["jul", 2026, "2026-12-24", "2026-12-26"],
    ["mellandagarna", 2026, "2026-12-27", "2026-12-30"],
    ["nyar", 2026, "2026-12-31", "2027-01-01"],
    ["trettondagen", 2027, "2027-01-06", "2027-01-06"]
  ])("%s %i is %s to %s", (name, year, first, last) => {
    const span = namedDays[name].span(year)
    expect([iso(span.first), iso(span.last)]).toEqual([first, last])
  })

  it("the next occurrence is this year's until it has ended, then next year's", () => {
    expect(iso(nextOccurrence("julafton", day("2026-11-23")).first)).toBe("2026-12-24")
    expect(iso(nextOccurrence("julafton", day("2026-12-24")).first)).toBe("2026-12-24")
    expect(iso(nextOccurrence("julafton", day("2026-12-25")).first)).toBe("2027-12-24")
    expect(iso(nextOccurrence("nyar", day("2027-01-01")).first)).toBe("2026-12-31")
    expect(iso(nextOccurrence("trettondagen", day("2026-11-23")).first)).toBe("2027-01-06")
  })

  it("Easter Sunday is a Sunday between 22 March and 25 April", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1583, max: 4099 }), (year) => {
        const easter = easterSunday(year)
        expect(weekday(easter)).toBe(7)
        expect(easter).toBeGreaterThanOrEqual(Date.UTC(year, 2, 22))
        expect(easter).toBeLessThanOrEqual(Date.UTC(year, 3, 25))
      }),
      parameters
    )
  })

  it("midsommarafton is the Friday of 19-25 June, alla helgons dag the Saturday of 31 October-6 November", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1953, max: 2200 }), (year) => {
        const eve = namedDays.midsommarafton.span(year).first
        expect(weekday(eve)).toBe(5)
        expect(new Date(eve).getUTCMonth()).toBe(5)
        expect(new Date(eve).getUTCDate()).toBeGreaterThanOrEqual(19)
        expect(new Date(eve).getUTCDate()).toBeLessThanOrEqual(25)
        const allSaints = namedDays.allaHelgonsDag.span(year).first
        expect(weekday(allSaints)).toBe(6)
        expect(allSaints).toBeGreaterThanOrEqual(Date.UTC(year, 9, 31))
        expect(allSaints).toBeLessThanOrEqual(Date.UTC(year, 10, 6))
      }),
      parameters
    )
  })
})
