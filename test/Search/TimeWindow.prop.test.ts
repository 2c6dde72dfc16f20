import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { defaultDays, horizonDays, parseTimeWindow } from "../../src/Search/TimeWindow.js"

const numRuns = (() => {
  const parsed = Number.parseInt(process.env.NUM_RUNS ?? "", 10)
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 200
})()

// Generous enough for large NUM_RUNS (a run takes well under a millisecond).
const timeout = Math.max(30_000, numRuns * 5)

const HOUR = 3_600_000
const DAY = 24 * HOUR

const timeZones = ["Europe/Stockholm", "UTC", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe"] as const

// Days on which at least one of the zones above changes its clocks.
const dstDays = [
  "2025-03-30",
  "2025-10-26",
  "2026-03-08",
  "2026-03-29",
  "2026-04-05",
  "2026-10-04",
  "2026-10-25",
  "2026-11-01",
  "2027-03-28",
  "2027-10-31"
]

const anyNow: fc.Arbitrary<Date> = fc.oneof(
  fc.date({ min: new Date("2025-01-01T00:00:00Z"), max: new Date("2028-12-31T23:59:59Z"), noInvalidDate: true }),
  // Around the changes, where day lengths are 23, 23.5, 24.5 or 25 hours.
  fc
    .tuple(fc.constantFrom(...dstDays), fc.integer({ min: -36 * 60, max: 36 * 60 }))
    .map(([day, minutes]) => new Date(new Date(`${day}T12:00:00Z`).getTime() + minutes * 60_000))
)

const anyZone = fc.constantFrom(...timeZones)

const dayPhrases = [
  "idag",
  "i dag",
  "today",
  "imorgon",
  "i morgon",
  "tomorrow",
  "i övermorgon",
  "övermorgon",
  "the day after tomorrow",
  "måndag",
  "tisdag",
  "onsdag",
  "torsdag",
  "fredag",
  "lördag",
  "söndag",
  "lordag",
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "på fredag",
  "nästa fredag",
  "next friday",
  "nästa söndag",
  "fredag nästa vecka",
  "nästa vecka",
  "next week",
  "denna vecka",
  "this week",
  "i helgen",
  "helgen",
  "this weekend",
  "nästa helg",
  "om två veckor",
  "om 2 veckor",
  "in two weeks",
  "om 3 dagar",
  "in 10 days",
  "om 59 dagar",
  "in 61 days",
  "vecka 12",
  "week 52",
  "snarast",
  "så snart som möjligt",
  "asap",
  "as soon as possible",
  "akut",
  "urgent",
  "inom en vecka"
]

const qualifierPhrases = [
  "förmiddag",
  "morning",
  "eftermiddag",
  "afternoon",
  "kväll",
  "evening",
  "efter 15",
  "efter kl 15",
  "after 3 pm",
  "after 15:00",
  "efter 22",
  "kl 10",
  "mellan 9 och 11",
  "före 12"
]

const two = (n: number): string => String(n).padStart(2, "0")

/** ISO dates, date-times and intervals within a few days either side of the horizon. */
const isoNear = (now: Date): fc.Arbitrary<string> => {
  const date = fc
    .integer({ min: -5, max: horizonDays + 5 })
    .map((days) => new Date(now.getTime() + days * DAY).toISOString().slice(0, 10))
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${two(h)}:${two(m)}`)
  const offset = fc.constantFrom("", "Z", "+01:00", "-05:00", "+10:30")
  const dateTime = fc.tuple(date, time, offset).map(([d, t, o]) => `${d}T${t}${o}`)
  const point = fc.oneof(date, dateTime)
  return fc.oneof(
    date,
    dateTime,
    fc.tuple(point, point).map(([a, b]) => `${a}/${b}`)
  )
}

/** Texts composed of the vocabulary: a day phrase and an optional qualifier, in either order, with filler. */
const vocabularyText = (now: Date): fc.Arbitrary<string> =>
  fc
    .record({
      day: fc.option(fc.oneof(fc.constantFrom(...dayPhrases), isoNear(now)), { nil: undefined }),
      qualifier: fc.option(fc.constantFrom(...qualifierPhrases), { nil: undefined }),
      qualifierFirst: fc.boolean(),
      prefix: fc.constantFrom("", "helst ", "Kan ni komma ", "please come ", "gärna "),
      suffix: fc.constantFrom("", "!", "?", ".", ", tack", " thanks"),
      shout: fc.boolean()
    })
    .map(({ day, prefix, qualifier, qualifierFirst, shout, suffix }) => {
      const parts = [day, qualifier].filter((part) => part !== undefined)
      const body = (qualifierFirst ? parts.reverse() : parts).join(" ")
      const text = `${prefix}${body}${suffix}`
      return shout ? text.toUpperCase() : text
    })

const randomText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 })
)

const anyText = (now: Date): fc.Arbitrary<string | undefined> =>
  fc.option(fc.oneof(randomText, vocabularyText(now)), { nil: undefined, freq: 8 })

const anyInput = anyNow.chain((now) =>
  fc.record({
    now: fc.constant(now),
    timeZone: anyZone,
    preferredTimeText: anyText(now),
    urgency: anyText(now)
  })
)

// No vowels, digits, f or m: none of the vocabulary (not even "fm" or "kl 10") can be spelled with these.
const gibberish: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(..."bcdghjklnpqrstvwxzBCDGHJKLNPQRSTVWXZ .,!?-/:;()🙂ß".split("")),
  minLength: 2,
  maxLength: 60
})

const dateFormats = new Map(
  timeZones.map((timeZone) => [
    timeZone,
    new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
  ])
)
const timeFormats = new Map(
  timeZones.map((timeZone) => [
    timeZone,
    new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
  ])
)

/** YYYY-MM-DD on the zone's calendar, formatted independently of the code under test. */
const wallClockDate = (instant: Date, timeZone: (typeof timeZones)[number]): string =>
  dateFormats.get(timeZone)?.format(instant) ?? ""

const wallClockTime = (instant: Date, timeZone: (typeof timeZones)[number]): string =>
  timeFormats.get(timeZone)?.format(instant) ?? ""

describe("parseTimeWindow laws", () => {
  it(
    "any window is non-empty",
    () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          const window = parseTimeWindow(input)
          expect(window.start.getTime()).toBeLessThan(window.end.getTime())
        }),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "any window starts no earlier than now",
    () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          expect(parseTimeWindow(input).start.getTime()).toBeGreaterThanOrEqual(input.now.getTime())
        }),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "any window ends within the horizon",
    () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          expect(parseTimeWindow(input).end.getTime()).toBeLessThanOrEqual(input.now.getTime() + horizonDays * DAY)
        }),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "any daily hours lie within one day",
    () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          const { dailyHours } = parseTimeWindow(input)
          if (dailyHours === undefined) return
          expect(dailyHours.fromHour).toBeGreaterThanOrEqual(0)
          expect(dailyHours.fromHour).toBeLessThan(dailyHours.toHour)
          expect(dailyHours.toHour).toBeLessThanOrEqual(24)
        }),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "unparseable text falls back to the next 14 days",
    () => {
      fc.assert(
        fc.property(
          anyNow,
          anyZone,
          fc.option(gibberish, { nil: undefined }),
          fc.option(gibberish, { nil: undefined }),
          (now, timeZone, preferredTimeText, urgency) => {
            const window = parseTimeWindow({ now, timeZone, preferredTimeText, urgency })
            expect(window.understood).toBe(false)
            expect(window.start.getTime()).toBe(now.getTime())
            expect(window.end.getTime()).toBe(now.getTime() + defaultDays * DAY)
            expect(window.dailyHours).toBeUndefined()
            expect(window.label).toContain("time not understood")
          }
        ),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "the parser is deterministic",
    () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          const again = { ...input, now: new Date(input.now.getTime()) }
          expect(parseTimeWindow(again)).toEqual(parseTimeWindow(input))
        }),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "an ISO date within the horizon is that whole local day",
    () => {
      fc.assert(
        fc.property(anyNow, anyZone, fc.integer({ min: 1, max: horizonDays - 2 }), (now, timeZone, days) => {
          const date = wallClockDate(new Date(now.getTime() + days * DAY), timeZone)
          const window = parseTimeWindow({ now, timeZone, preferredTimeText: `den ${date}` })
          expect(window.understood).toBe(true)
          expect(window.label).toBe(date)
          expect(wallClockDate(window.start, timeZone)).toBe(date)
          expect(wallClockTime(window.start, timeZone)).toBe("00:00")
          expect(wallClockTime(window.end, timeZone)).toBe("00:00")
          // The next local midnight, however long the day is.
          expect(wallClockDate(new Date(window.end.getTime() - 1), timeZone)).toBe(date)
          expect(window.end.getTime() - window.start.getTime()).toBeGreaterThanOrEqual(23 * HOUR)
          expect(window.end.getTime() - window.start.getTime()).toBeLessThanOrEqual(25 * HOUR)
        }),
        { numRuns }
      )
    },
    timeout
  )

  it(
    "composed vocabulary within reach is understood",
    () => {
      // Phrases that always name something in the next few days, whatever `now` is.
      const nearPhrases = [
        "imorgon",
        "tomorrow",
        "i övermorgon",
        "nästa vecka",
        "next week",
        "fredag",
        "om 2 veckor",
        "snarast"
      ]
      fc.assert(
        fc.property(
          anyNow,
          anyZone,
          fc.constantFrom(...nearPhrases),
          fc.constantFrom("", " förmiddag", " afternoon", " kväll", " efter 15"),
          (now, timeZone, day, qualifier) => {
            expect(parseTimeWindow({ now, timeZone, preferredTimeText: `${day}${qualifier}` }).understood).toBe(true)
          }
        ),
        { numRuns }
      )
    },
    timeout
  )
})
