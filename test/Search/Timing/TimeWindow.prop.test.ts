import { describe, expect, it } from "@effect/vitest"
import { wallClockToInstant } from "../../../src/Domain/Zone.js"
import { defaultDays, horizonDays, parseTimeWindow, type TimeWindow } from "../../../src/Search/Timing/TimeWindow.js"
import { binaryString, fc, propSettings } from "../../support/Props.js"

const { parameters, timeout } = propSettings("time windows", { quick: 200, deep: 2000 }, 5)

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

/** Words that bound, negate or join a day phrase: each changes what the phrase means. */
const boundWords = [
  "",
  "",
  "",
  "inte ",
  "not ",
  "efter ",
  "after ",
  "före ",
  "från ",
  "senast ",
  "utom ",
  "inte efter "
]
const joinWords = [" eller ", " or ", " och ", " till ", " men inte ", " but not ", " annars "]

/**
 * Texts composed of the vocabulary: a day phrase (bound, negated or joined to a second one) and an
 * optional qualifier, in either order, with filler.
 */
const vocabularyText = (now: Date): fc.Arbitrary<string> =>
  fc
    .record({
      day: fc.option(fc.oneof(fc.constantFrom(...dayPhrases), isoNear(now)), { nil: undefined }),
      bound: fc.constantFrom(...boundWords),
      second: fc.option(fc.tuple(fc.constantFrom(...joinWords), fc.constantFrom(...boundWords, ...dayPhrases)), {
        nil: undefined,
        freq: 3
      }),
      qualifier: fc.option(fc.constantFrom(...qualifierPhrases), { nil: undefined }),
      qualifierFirst: fc.boolean(),
      prefix: fc.constantFrom("", "helst ", "Kan ni komma ", "please come ", "gärna "),
      suffix: fc.constantFrom("", "!", "?", ".", ", tack", " thanks"),
      shout: fc.boolean()
    })
    .map(({ bound, day: bare, prefix, qualifier, qualifierFirst, second, shout, suffix }) => {
      const day =
        bare === undefined ? undefined : `${bound}${bare}${second === undefined ? "" : `${second[0]}${second[1]}`}`
      const parts = [day, qualifier].filter((part) => part !== undefined)
      const body = (qualifierFirst ? parts.reverse() : parts).join(" ")
      const text = `${prefix}${body}${suffix}`
      return shout ? text.toUpperCase() : text
    })

const randomText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  binaryString({ maxLength: 40 })
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
        parameters
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
        parameters
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
        parameters
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
        parameters
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
        parameters
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
        parameters
      )
    },
    timeout
  )

  it(
    "an ISO date within the horizon is that whole local day",
    () => {
      fc.assert(
        fc.property(anyNow, anyZone, fc.integer({ min: 1, max: horizonDays - 2 }), (now, timeZone, days) => {
          // Calendar days from today's local date: on a 25-hour day, now + 24 h can still be today.
          const [year, month, day] = wallClockDate(now, timeZone).split("-").map(Number) as [number, number, number]
          const date = new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10)
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
        parameters
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
        parameters
      )
    },
    timeout
  )

  it(
    "excluded dates lie inside the window, never on its first or last day",
    () => {
      fc.assert(
        fc.property(anyInput, (input) => {
          const window = parseTimeWindow(input)
          if (window.excludedDates === undefined) return
          expect(window.excludedDates.length).toBeGreaterThan(0)
          const first = wallClockDate(window.start, input.timeZone)
          const last = wallClockDate(new Date(window.end.getTime() - 1), input.timeZone)
          for (const date of window.excludedDates) {
            expect(date > first && date < last, `${date} in ${first}..${last}`).toBe(true)
          }
        }),
        parameters
      )
    },
    timeout
  )

  it(
    "for phrases built from known parts, the window contains the meant instant",
    () => {
      fc.assert(
        fc.property(meantPhrase, ({ meant, now, text, timeZone }) => {
          const window = parseTimeWindow({ now, timeZone, preferredTimeText: text })
          expect(window.understood, `${text}: ${window.label}`).toBe(true)
          expect(admits(window, meant, timeZone), `${text} → ${window.label}`).toBe(true)
        }),
        parameters
      )
    },
    timeout
  )

  it(
    "a phrase with a part about time that is not understood is never read confidently",
    () => {
      fc.assert(
        fc.property(
          meantPhrase,
          fc.constantFrom("sportlovet", "höstlovet", "semestern", "midnatt", "fortnight"),
          fc.constantFrom("{phrase} eller {word}", "{word}, {phrase}", "{phrase} men inte {word}", "{phrase} {word}"),
          ({ now, text, timeZone }, word, shape) => {
            const composed = shape.replace("{phrase}", text).replace("{word}", word)
            const window = parseTimeWindow({ now, timeZone, preferredTimeText: composed })
            expect(window.understood, `${composed}: ${window.label}`).toBe(false)
            expect(window.start.getTime()).toBe(now.getTime())
            expect(window.label).toContain(`”${word}”`)
          }
        ),
        parameters
      )
    },
    timeout
  )
})

// ---------------------------------------------------------------------------------------------
// Phrases built from known parts, with the instant they mean.
// ---------------------------------------------------------------------------------------------

const svMonths = [
  "januari",
  "februari",
  "mars",
  "april",
  "maj",
  "juni",
  "juli",
  "augusti",
  "september",
  "oktober",
  "november",
  "december"
]
const svMonthsShort = ["jan", "feb", "mars", "apr", "maj", "juni", "juli", "aug", "sep", "okt", "nov", "dec"]
const enMonths = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]
const svWeekdays = ["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag", "söndag"]
const svWeekdaysShort = ["mån", "tis", "ons", "tors", "fre", "lör", "sön"]
const enWeekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
const ordinal = (n: number): string =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`

interface LocalDay {
  readonly year: number
  readonly month: number
  readonly day: number
  /** 0 = Monday. */
  readonly weekday: number
}

/** How a person may name a day `ahead` days after today (1..6 can be a bare weekday). */
const dayForms = (d: LocalDay, ahead: number): ReadonlyArray<string> => {
  const sv = svMonths[d.month - 1] ?? ""
  const en = enMonths[d.month - 1] ?? ""
  const iso = `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`
  return [
    `den ${d.day} ${sv}`,
    `${d.day} ${svMonthsShort[d.month - 1]}`,
    `${d.day}:e ${sv}`,
    `${svWeekdays[d.weekday]} den ${d.day} ${sv}`,
    `${d.day}/${d.month}`,
    `${svWeekdaysShort[d.weekday]} ${d.day}/${d.month}`,
    `${d.day} ${sv} ${d.year}`,
    iso,
    `${en} ${ordinal(d.day)}`,
    `the ${ordinal(d.day)} of ${en}`,
    `${enWeekdays[d.weekday]} ${d.day} ${en}`,
    ...(ahead <= 6
      ? [`på ${svWeekdays[d.weekday]}`, `${enWeekdays[d.weekday]}`, `nu på ${svWeekdays[d.weekday]}`]
      : []),
    ...(ahead === 1 ? ["imorgon", "i morgon", "tomorrow"] : []),
    ...(ahead === 2 ? ["i övermorgon", "the day after tomorrow"] : [])
  ]
}

/** A time of day as said, and the minute of the day it means. */
const timeForm: fc.Arbitrary<readonly [string, number] | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: 7, max: 18 }).map((h) => [`kl ${h}`, h * 60 + 30] as const),
  fc
    .tuple(fc.integer({ min: 7, max: 18 }), fc.constantFrom("00", "15", "30", "45"))
    .chain(([h, m]) =>
      fc.constantFrom(
        [`kl ${h}:${m}`, h * 60 + Number(m)] as const,
        [`${String(h).padStart(2, "0")}:${m}`, h * 60 + Number(m)] as const,
        [`kl ${h}.${m}`, h * 60 + Number(m)] as const
      )
    ),
  fc.integer({ min: 7, max: 17 }).map((h) => [`${h}-${h + 2}`, h * 60 + 30] as const),
  fc.integer({ min: 7, max: 17 }).map((h) => [`kl ${String(h).padStart(2, "0")}:00–${h + 2}:00`, h * 60 + 30] as const),
  fc.integer({ min: 12, max: 19 }).map((h) => [`efter ${h}`, h * 60 + 60] as const),
  fc.integer({ min: 1, max: 8 }).map((h) => [`at ${h}pm`, (h + 12) * 60] as const),
  fc.constantFrom(
    ["förmiddag", 10 * 60] as const,
    ["på förmiddagen", 10 * 60] as const,
    ["in the morning", 10 * 60] as const,
    ["eftermiddag", 14 * 60] as const,
    ["afternoon", 14 * 60] as const,
    ["kväll", 18 * 60] as const,
    ["på kvällen", 18 * 60] as const,
    ["efter lunch", 14 * 60] as const
  )
)

const localDayOf = (instant: Date, timeZone: (typeof timeZones)[number]): LocalDay => {
  const [year, month, day] = wallClockDate(instant, timeZone).split("-").map(Number) as [number, number, number]
  return { year, month, day, weekday: (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7 }
}

const meantPhrase = fc
  .record({
    now: anyNow,
    timeZone: fc.constantFrom<(typeof timeZones)[number]>(
      "Europe/Stockholm",
      "Europe/Stockholm",
      "UTC",
      "America/New_York"
    ),
    ahead: fc.integer({ min: 1, max: 50 }),
    time: timeForm,
    timeFirst: fc.boolean(),
    pick: fc.nat(),
    prefix: fc.constantFrom("", "helst ", "Kan ni komma ", "gärna ", "please "),
    suffix: fc.constantFrom("", "!", ".", ", tack")
  })
  .map(({ ahead, now, pick, prefix, suffix, time, timeFirst, timeZone }) => {
    const today = localDayOf(now, timeZone)
    const target = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead))
    const day: LocalDay = {
      year: target.getUTCFullYear(),
      month: target.getUTCMonth() + 1,
      day: target.getUTCDate(),
      weekday: (target.getUTCDay() + 6) % 7
    }
    const forms = dayForms(day, ahead)
    const dayText = forms[pick % forms.length] ?? ""
    const minute = time?.[1] ?? 12 * 60
    const meant = wallClockToInstant(
      { year: day.year, month: day.month, day: day.day, hour: Math.floor(minute / 60), minute: minute % 60 },
      timeZone
    )
    const body = time === undefined ? dayText : timeFirst ? `${time[0]}, ${dayText}` : `${dayText} ${time[0]}`
    return { now, timeZone, meant, text: `${prefix}${body}${suffix}` }
  })

/** Whether the window, its daily hours and its left-out dates let the instant through (read with Intl, not the code under test). */
const admits = (window: TimeWindow, instant: Date, timeZone: (typeof timeZones)[number]): boolean => {
  if (instant < window.start || instant >= window.end) return false
  if (window.excludedDates?.includes(wallClockDate(instant, timeZone))) return false
  if (window.dailyHours === undefined) return true
  const [hour, minute] = wallClockTime(instant, timeZone).split(":").map(Number) as [number, number]
  const minutes = hour * 60 + minute
  return minutes >= window.dailyHours.fromHour * 60 && minutes < window.dailyHours.toHour * 60
}
