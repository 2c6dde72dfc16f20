import { describe, expect, it } from "@effect/vitest"
import { wallClockToInstant } from "../../../src/Domain/Zone.js"
import { defaultDays, horizonDays, parseTimeWindow, type TimeWindow } from "../../../src/Search/Timing/TimeWindow.js"

const HOUR = 3_600_000
const DAY = 24 * HOUR

// Saturday and Wednesday, Stockholm winter time (UTC+1).
const saturday = new Date("2026-11-21T10:00:00+01:00")
const wednesday = new Date("2026-11-25T10:00:00+01:00")

const parse = (text: string, now: Date = saturday, timeZone = "Europe/Stockholm"): TimeWindow =>
  parseTimeWindow({ preferredTimeText: text, timeZone, now })

/** Stockholm wall-clock time in winter (UTC+1), as an ISO instant. */
const cet = (local: string): string => new Date(`${local}+01:00`).toISOString()

const span = (window: TimeWindow): readonly [string, string] => [window.start.toISOString(), window.end.toISOString()]

/** The general window, with the label saying why: `reason` is the Swedish and English between "Tiden …" and "; söker". */
const expectFallback = (window: TimeWindow, now: Date, reason?: { readonly sv: string; readonly en: string }): void => {
  expect(window.understood).toBe(false)
  expect(span(window)).toEqual([now.toISOString(), new Date(now.getTime() + defaultDays * DAY).toISOString()])
  expect(window.label).toBe(
    reason === undefined
      ? "Tiden kunde inte tolkas; söker de närmaste 14 dagarna (time not understood; searching the next 14 days)"
      : `Tiden ${reason.sv}; söker de närmaste 14 dagarna (time ${reason.en}; searching the next 14 days)`
  )
  expect(window.dailyHours).toBeUndefined()
  expect(window.excludedDates).toBeUndefined()
}

describe("parseTimeWindow", () => {
  describe("single days", () => {
    it.each(["idag", "i dag", "Idag!", "today", "TODAY please"])("%s is the rest of today", (text) => {
      const window = parse(text)
      expect(window.understood).toBe(true)
      expect(window.label).toBe("idag (today)")
      expect(span(window)).toEqual([saturday.toISOString(), cet("2026-11-22T00:00")])
    })

    it.each(["imorgon", "i morgon", "imorn", "tomorrow", "Kan ni komma i morgon?"])("%s is tomorrow", (text) => {
      const window = parse(text)
      expect(window.label).toBe("imorgon (tomorrow)")
      expect(span(window)).toEqual([cet("2026-11-22T00:00"), cet("2026-11-23T00:00")])
    })

    it.each(["i övermorgon", "övermorgon", "i overmorgon", "the day after tomorrow", "Day after tomorrow."])(
      "%s is the day after tomorrow",
      (text) => {
        const window = parse(text)
        expect(window.label).toBe("i övermorgon (the day after tomorrow)")
        expect(span(window)).toEqual([cet("2026-11-23T00:00"), cet("2026-11-24T00:00")])
      }
    )

    it.each([
      ["om 3 dagar", "om 3 dagar (in 3 days)"],
      ["om tre dagar", "om 3 dagar (in 3 days)"],
      ["in 3 days", "om 3 dagar (in 3 days)"],
      ["in three days", "om 3 dagar (in 3 days)"]
    ])("%s is that day", (text, label) => {
      const window = parse(text, wednesday)
      expect(window.label).toBe(label)
      expect(span(window)).toEqual([cet("2026-11-28T00:00"), cet("2026-11-29T00:00")])
    })

    it("om en dag is tomorrow, labelled in the singular", () => {
      const window = parse("om en dag", wednesday)
      expect(window.label).toBe("om 1 dag (in 1 day)")
      expect(span(window)).toEqual([cet("2026-11-26T00:00"), cet("2026-11-27T00:00")])
    })
  })

  describe("weekdays, seen from Wednesday 2026-11-25", () => {
    it.each([
      ["måndag", "monday", "2026-11-30"],
      ["tisdag", "tuesday", "2026-12-01"],
      ["torsdag", "thursday", "2026-11-26"],
      ["fredag", "friday", "2026-11-27"],
      ["lördag", "saturday", "2026-11-28"],
      ["söndag", "sunday", "2026-11-29"]
    ])("%s / %s is the next %s", (sv, en, date) => {
      const next = new Date(new Date(`${date}T00:00:00+01:00`).getTime() + DAY).toISOString()
      for (const text of [sv, en, en.toUpperCase(), `på ${sv}`, `on ${en}`]) {
        const window = parse(text, wednesday)
        expect(window.understood).toBe(true)
        expect(span(window)).toEqual([cet(`${date}T00:00`), next])
        expect(window.label).toContain(date)
      }
    })

    it.each(["lordag", "sondag", "mandag"])("ascii fallback %s is understood", (text) => {
      expect(parse(text, wednesday).understood).toBe(true)
    })

    it("the weekday of today is next week's when less than an hour of today is left", () => {
      const window = parse("onsdag", new Date("2026-11-25T23:30:00+01:00"))
      expect(span(window)).toEqual([cet("2026-12-02T00:00"), cet("2026-12-03T00:00")])
    })

    it("the weekday of today is today while time remains", () => {
      expect(span(parse("onsdag", wednesday))).toEqual([wednesday.toISOString(), cet("2026-11-26T00:00")])
      const lateEvening = new Date("2026-11-25T22:00:00+01:00")
      expect(span(parse("wednesday", lateEvening))).toEqual([lateEvening.toISOString(), cet("2026-11-26T00:00")])
    })

    it("the weekday of today is next week once the asked-for part of today is over", () => {
      const afterLunch = new Date("2026-11-25T13:00:00+01:00")
      const window = parse("onsdag förmiddag", afterLunch)
      expect(span(window)).toEqual([cet("2026-12-02T08:00"), cet("2026-12-02T12:00")])
      expect(window.label).toBe("onsdag 2026-12-02 förmiddag (Wednesday 2026-12-02 morning)")
    })

    it.each(["nästa fredag", "nasta fredag", "next friday", "Next Friday"])(
      "%s is Friday of the following ISO week, not the coming one",
      (text) => {
        const window = parse(text, wednesday)
        expect(span(window)).toEqual([cet("2026-12-04T00:00"), cet("2026-12-05T00:00")])
        expect(window.label).toBe("nästa fredag 2026-12-04 (next Friday 2026-12-04)")
      }
    )

    it.each(["fredag nästa vecka", "friday next week", "nästa vecka fredag", "fredag om en vecka"])(
      "%s is the Friday inside next week",
      (text) => {
        const window = parse(text, wednesday)
        expect(span(window)).toEqual([cet("2026-12-04T00:00"), cet("2026-12-05T00:00")])
        expect(window.label).toBe("fredag 2026-12-04 (Friday 2026-12-04)")
      }
    )

    it.each(["på fredag", "nu på fredag", "this friday", "kommande fredag"])("%s is the coming Friday", (text) => {
      expect(span(parse(text, wednesday))).toEqual([cet("2026-11-27T00:00"), cet("2026-11-28T00:00")])
    })

    it("on Saturday, lördag is today and nästa lördag a week later", () => {
      expect(span(parse("lördag"))).toEqual([saturday.toISOString(), cet("2026-11-22T00:00")])
      expect(span(parse("nästa lördag"))).toEqual([cet("2026-11-28T00:00"), cet("2026-11-29T00:00")])
      expect(span(parse("fredag"))).toEqual([cet("2026-11-27T00:00"), cet("2026-11-28T00:00")])
    })
  })

  describe("weeks and weekends", () => {
    it.each(["nästa vecka", "Nästa vecka.", "nasta vecka", "next week"])("%s is the following ISO week", (text) => {
      const window = parse(text, wednesday)
      expect(window.label).toBe("nästa vecka (next week)")
      expect(span(window)).toEqual([cet("2026-11-30T00:00"), cet("2026-12-07T00:00")])
      expect(span(parse(text, saturday))).toEqual([cet("2026-11-23T00:00"), cet("2026-11-30T00:00")])
    })

    it.each(["denna vecka", "den här veckan", "i veckan", "this week"])("%s is now to Sunday 24:00", (text) => {
      const window = parse(text, wednesday)
      expect(window.label).toBe("denna vecka (this week)")
      expect(span(window)).toEqual([wednesday.toISOString(), cet("2026-11-30T00:00")])
    })

    it.each(["i helgen", "helgen", "this weekend", "the weekend"])("%s is Saturday and Sunday", (text) => {
      const window = parse(text, wednesday)
      expect(window.label).toBe("i helgen (this weekend)")
      expect(span(window)).toEqual([cet("2026-11-28T00:00"), cet("2026-11-30T00:00")])
    })

    it("i helgen on a Saturday is the current weekend", () => {
      expect(span(parse("i helgen"))).toEqual([saturday.toISOString(), cet("2026-11-23T00:00")])
    })

    it.each(["nästa helg", "next weekend"])("%s is the weekend of the following week", (text) => {
      expect(span(parse(text, wednesday))).toEqual([cet("2026-12-05T00:00"), cet("2026-12-07T00:00")])
    })

    it.each(["om två veckor", "om 2 veckor", "in two weeks", "in 2 weeks"])("%s is the ISO week two ahead", (text) => {
      const window = parse(text, wednesday)
      expect(window.label).toBe("om 2 veckor (in 2 weeks)")
      expect(span(window)).toEqual([cet("2026-12-07T00:00"), cet("2026-12-14T00:00")])
    })

    it.each(["vecka 49", "v.49", "week 49"])("%s is that ISO week", (text) => {
      expect(span(parse(text, wednesday))).toEqual([cet("2026-11-30T00:00"), cet("2026-12-07T00:00")])
    })

    it("a week number already past is next year's", () => {
      expect(span(parse("vecka 2", wednesday))).toEqual([cet("2027-01-11T00:00"), cet("2027-01-18T00:00")])
    })
  })

  describe("parts of the day", () => {
    it.each([
      ["imorgon förmiddag", "imorgon förmiddag (tomorrow morning)", "08:00", "12:00"],
      ["tomorrow morning", "imorgon förmiddag (tomorrow morning)", "08:00", "12:00"],
      ["i morgon bitti", "imorgon bitti (tomorrow early morning)", "07:00", "10:00"],
      ["imorgon bitti", "imorgon bitti (tomorrow early morning)", "07:00", "10:00"],
      ["imorgon eftermiddag", "imorgon eftermiddag (tomorrow afternoon)", "12:00", "17:00"],
      ["tomorrow afternoon", "imorgon eftermiddag (tomorrow afternoon)", "12:00", "17:00"],
      ["imorgon kväll", "imorgon kväll (tomorrow evening)", "17:00", "21:00"],
      ["tomorrow evening", "imorgon kväll (tomorrow evening)", "17:00", "21:00"],
      ["imorgon efter 15", "imorgon efter 15:00 (tomorrow after 15:00)", "15:00", "21:00"],
      ["tomorrow after 3 pm", "imorgon efter 15:00 (tomorrow after 15:00)", "15:00", "21:00"],
      ["imorgon kl 10", "imorgon kl 10:00 (tomorrow at 10:00)", "10:00", "14:00"],
      ["imorgon mellan 9 och 11", "imorgon kl 09:00–11:00 (tomorrow 09:00–11:00)", "09:00", "11:00"]
    ])("%s narrows tomorrow", (text, label, from, to) => {
      const window = parse(text)
      expect(window.label).toBe(label)
      expect(span(window)).toEqual([cet(`2026-11-22T${from}`), cet(`2026-11-22T${to}`)])
      expect(window.dailyHours).toBeUndefined()
    })

    it.each([
      "fredag efter 15",
      "fredag efter kl 15",
      "fredag efter kl. 15:00",
      "friday after 3 pm",
      "friday after 15:00"
    ])("%s is Friday 15-21", (text) => {
      const window = parse(text, wednesday)
      expect(span(window)).toEqual([cet("2026-11-27T15:00"), cet("2026-11-27T21:00")])
      expect(window.label).toBe("fredag 2026-11-27 efter 15:00 (Friday 2026-11-27 after 15:00)")
    })

    it("a qualifier on a multi-day range spans it and restricts each day through dailyHours", () => {
      const window = parse("nästa vecka förmiddag", wednesday)
      expect(span(window)).toEqual([cet("2026-11-30T08:00"), cet("2026-12-06T12:00")])
      expect(window.dailyHours).toEqual({ fromHour: 8, toHour: 12 })
      expect(window.label).toBe("nästa vecka förmiddag (next week morning)")
      expect(parse("next week in the afternoon", wednesday).dailyHours).toEqual({ fromHour: 12, toHour: 17 })
      expect(parse("i helgen efter 15:30", wednesday).dailyHours).toEqual({ fromHour: 15.5, toHour: 21 })
    })

    it.each([
      ["i förmiddag", "i förmiddag (this morning)", saturday.toISOString(), cet("2026-11-21T12:00")],
      ["this morning", "i förmiddag (this morning)", saturday.toISOString(), cet("2026-11-21T12:00")],
      ["i eftermiddag", "i eftermiddag (this afternoon)", cet("2026-11-21T12:00"), cet("2026-11-21T17:00")],
      ["this afternoon", "i eftermiddag (this afternoon)", cet("2026-11-21T12:00"), cet("2026-11-21T17:00")],
      ["ikväll", "i kväll (this evening)", cet("2026-11-21T17:00"), cet("2026-11-21T21:00")],
      ["i kväll", "i kväll (this evening)", cet("2026-11-21T17:00"), cet("2026-11-21T21:00")],
      ["tonight", "i kväll (this evening)", cet("2026-11-21T17:00"), cet("2026-11-21T21:00")],
      ["idag efter 15", "idag efter 15:00 (today after 15:00)", cet("2026-11-21T15:00"), cet("2026-11-21T21:00")]
    ])("%s is today's", (text, label, start, end) => {
      const window = parse(text)
      expect(window.label).toBe(label)
      expect(span(window)).toEqual([start, end])
      expect(window.dailyHours).toBeUndefined()
    })

    it.each([
      ["förmiddag", "förmiddag", "morning", 8, 12],
      ["förmiddagar", "förmiddag", "morning", 8, 12],
      ["helst förmiddag", "förmiddag", "morning", 8, 12],
      ["mornings", "förmiddag", "morning", 8, 12],
      ["på eftermiddagen", "eftermiddag", "afternoon", 12, 17],
      ["afternoons", "eftermiddag", "afternoon", 12, 17],
      ["kvällar", "kväll", "evening", 17, 21],
      ["evening", "kväll", "evening", 17, 21],
      ["efter 15", "efter 15:00", "after 15:00", 15, 21],
      ["after 3pm", "efter 15:00", "after 15:00", 15, 21],
      ["kl 10", "kl 10:00", "at 10:00", 10, 14],
      ["bitti", "bitti", "early morning", 7, 10],
      ["efter lunch", "efter lunch", "after lunch", 13, 17],
      ["lunchtid", "lunchtid", "lunchtime", 11, 13]
    ])("%s alone holds for every day of the next 14 days", (text, sv, en, fromHour, toHour) => {
      const window = parse(text, wednesday)
      expect(window.understood).toBe(true)
      expect(window.label).toBe(`${sv}, de närmaste 14 dagarna (${en}, the next 14 days)`)
      expect(window.dailyHours).toEqual({ fromHour, toHour })
      expect(window.end.toISOString()).toBe(cet(`2026-12-08T${String(toHour).padStart(2, "0")}:00`))
    })

    it("a part of the day alone starts with today's when enough of it is left, else tomorrow's", () => {
      expect(parse("kväll", new Date("2026-11-21T19:30:00+01:00")).start.toISOString()).toBe(cet("2026-11-21T19:30"))
      expect(parse("kväll", new Date("2026-11-21T20:30:00+01:00")).start.toISOString()).toBe(cet("2026-11-22T17:00"))
      expect(parse("eftermiddag", new Date("2026-11-21T18:00:00+01:00")).start.toISOString()).toBe(
        cet("2026-11-22T12:00")
      )
    })

    it("i kväll with less than an hour of the evening left cannot be searched", () => {
      const late = new Date("2026-11-21T20:30:00+01:00")
      expectFallback(parse("ikväll", late), late, {
        sv: "går inte att söka: i kväll har redan varit",
        en: "cannot be searched: this evening has already passed"
      })
    })

    it("'efter 3 dagar' is a delay, not a time of day: from three days on", () => {
      const window = parse("efter 3 dagar")
      expect(window.label).toBe("efter 3 dagar (after 3 days)")
      expect(span(window)).toEqual([cet("2026-11-24T00:00"), cet("2026-12-08T00:00")])
    })
  })

  describe("urgency", () => {
    it.each([
      "snarast",
      "Snarast möjligt!",
      "så snart som möjligt",
      "sa snart som mojligt",
      "så fort som möjligt",
      "asap",
      "ASAP",
      "as soon as possible",
      "akut",
      "Det är akut",
      "urgent",
      "brådskande"
    ])("%s is now to now + 3 days", (text) => {
      const window = parse(text)
      expect(window.label).toBe("snarast (as soon as possible)")
      expect(span(window)).toEqual([saturday.toISOString(), new Date(saturday.getTime() + 3 * DAY).toISOString()])
    })

    it.each(["inte akut", "ej brådskande", "not urgent", "non-urgent", "ingen brådska", "no rush", "när som helst"])(
      "%s is any time in the next 14 days",
      (text) => {
        const window = parse(text)
        expect(window.understood).toBe(true)
        expect(window.label).toBe("när som helst, de närmaste 14 dagarna (any time, the next 14 days)")
        expect(span(window)).toEqual([saturday.toISOString(), cet("2026-12-05T00:00")])
      }
    )

    it("within N days/weeks is now to now + N days", () => {
      expect(span(parse("inom en vecka"))).toEqual([
        saturday.toISOString(),
        new Date(saturday.getTime() + 7 * DAY).toISOString()
      ])
      expect(span(parse("within 2 days"))).toEqual([
        saturday.toISOString(),
        new Date(saturday.getTime() + 2 * DAY).toISOString()
      ])
    })

    it("the urgency text is parsed with the same vocabulary", () => {
      const window = parseTimeWindow({ urgency: "akut", timeZone: "Europe/Stockholm", now: saturday })
      expect(window.label).toBe("snarast (as soon as possible)")
      expect(parseTimeWindow({ urgency: "helst imorgon", timeZone: "Europe/Stockholm", now: saturday }).label).toBe(
        "imorgon (tomorrow)"
      )
    })

    it("preferred_time_text wins when both are understood", () => {
      const window = parseTimeWindow({
        preferredTimeText: "nästa vecka",
        urgency: "akut",
        timeZone: "Europe/Stockholm",
        now: saturday
      })
      expect(window.label).toBe("nästa vecka (next week)")
    })

    it("urgency is used when preferred_time_text says nothing about time", () => {
      const window = parseTimeWindow({
        preferredTimeText: "ring innan ni kommer",
        urgency: "urgent",
        timeZone: "Europe/Stockholm",
        now: saturday
      })
      expect(window.label).toBe("snarast (as soon as possible)")
    })

    it("urgency is used when preferred_time_text is not understood, and the label says what was not", () => {
      const window = parseTimeWindow({
        preferredTimeText: "under sportlovet",
        urgency: "urgent",
        timeZone: "Europe/Stockholm",
        now: saturday
      })
      expect(window.understood).toBe(true)
      expect(window.label).toBe(
        "snarast; förstod inte ”sportlovet” (skollov skiljer sig mellan kommuner) " +
          "(as soon as possible; did not understand “sportlovet” (school holidays differ between municipalities))"
      )
    })

    it("urgency is used when preferred_time_text is understood but already over", () => {
      const lateNight = new Date("2026-11-21T23:59:00+01:00")
      const window = parseTimeWindow({
        preferredTimeText: "idag förmiddag",
        urgency: "akut",
        timeZone: "Europe/Stockholm",
        now: lateNight
      })
      expect(window.label).toBe(
        "snarast; i förmiddag har redan varit (as soon as possible; this morning has already passed)"
      )
    })

    it("a part of the day on asap restricts each day", () => {
      const window = parse("snarast förmiddag")
      expect(window.dailyHours).toEqual({ fromHour: 8, toHour: 12 })
      expect(window.label).toBe("snarast förmiddag (as soon as possible morning)")
    })

    it("a preference after asap does not narrow it, and the label keeps it", () => {
      const window = parse("snarast, helst förmiddag")
      expect(window.dailyHours).toBeUndefined()
      expect(span(window)).toEqual([saturday.toISOString(), new Date(saturday.getTime() + 3 * DAY).toISOString()])
      expect(window.label).toBe("snarast; helst ”förmiddag” (as soon as possible; preferably “förmiddag”)")
    })
  })

  describe("ISO 8601", () => {
    it("a date is that whole local day", () => {
      const window = parse("2026-12-03")
      expect(window.label).toBe("2026-12-03")
      expect(span(window)).toEqual([cet("2026-12-03T00:00"), cet("2026-12-04T00:00")])
    })

    it("a date with surrounding words and a qualifier", () => {
      const window = parse("Helst den 2026-12-03, på eftermiddagen.")
      expect(span(window)).toEqual([cet("2026-12-03T12:00"), cet("2026-12-03T17:00")])
      expect(window.label).toBe("2026-12-03 eftermiddag (2026-12-03 afternoon)")
    })

    it("a local date-time is a 4-hour window from that wall-clock time", () => {
      const window = parse("2026-12-03T10:00")
      expect(span(window)).toEqual([cet("2026-12-03T10:00"), cet("2026-12-03T14:00")])
      expect(window.label).toBe("2026-12-03T10:00")
      expect(span(parse("2026-12-03 10:00"))).toEqual([cet("2026-12-03T10:00"), cet("2026-12-03T14:00")])
    })

    it("a date-time with Z or an offset is that instant", () => {
      expect(span(parse("2026-12-03T10:00Z"))).toEqual(["2026-12-03T10:00:00.000Z", "2026-12-03T14:00:00.000Z"])
      expect(span(parse("2026-12-03t10:00:00+05:30"))).toEqual(["2026-12-03T04:30:00.000Z", "2026-12-03T08:30:00.000Z"])
    })

    it("a date interval runs from the first day's start to the end of the last day", () => {
      const window = parse("2026-12-03/2026-12-05")
      expect(span(window)).toEqual([cet("2026-12-03T00:00"), cet("2026-12-06T00:00")])
      expect(window.label).toBe("2026-12-03/2026-12-05")
      expect(parse("2026-12-03/2026-12-05 förmiddag").dailyHours).toEqual({ fromHour: 8, toHour: 12 })
    })

    it("a date-time interval is exactly that", () => {
      expect(span(parse("2026-12-03T08:00/2026-12-03T12:00"))).toEqual([
        cet("2026-12-03T08:00"),
        cet("2026-12-03T12:00")
      ])
      expect(span(parse("2026-12-03T08:00/2026-12-04"))).toEqual([cet("2026-12-03T08:00"), cet("2026-12-05T00:00")])
    })

    it("a window partly beyond the horizon is clipped to it, and the label says so", () => {
      const window = parse("2027-01-10/2027-02-28")
      expect(window.understood).toBe(true)
      expect(window.end.getTime()).toBe(saturday.getTime() + horizonDays * DAY)
      expect(window.label).toBe(
        "2027-01-10/2027-02-28; bara till 2027-01-20 (60 dagar fram) (2027-01-10/2027-02-28; only until 2027-01-20 (60 days ahead))"
      )
    })

    it.each([
      [
        "a past date",
        "2026-11-01",
        "går inte att söka: 2026-11-01 har redan varit",
        "cannot be searched: 2026-11-01 has already passed"
      ],
      [
        "a date beyond the horizon",
        "2027-06-01",
        "går inte att söka: 2027-06-01 ligger mer än 60 dagar fram",
        "cannot be searched: 2027-06-01 is more than 60 days ahead"
      ],
      [
        "an impossible date",
        "2026-02-30",
        "kunde inte tolkas: förstod inte ”2026-02-30” (datumet eller tiden finns inte)",
        "not understood: did not understand “2026-02-30” (no such date or time)"
      ],
      [
        "an impossible time",
        "2026-12-03T25:00",
        "kunde inte tolkas: förstod inte ”2026-12-03T25:00” (datumet eller tiden finns inte)",
        "not understood: did not understand “2026-12-03T25:00” (no such date or time)"
      ],
      [
        "a reversed interval",
        "2026-12-05/2026-12-03",
        "kunde inte tolkas: förstod inte ”2026-12-05/2026-12-03” (slutet ligger före början)",
        "not understood: did not understand “2026-12-05/2026-12-03” (the end is before the start)"
      ]
    ])("%s falls back and says why", (_, text, sv, en) => {
      expectFallback(parse(text), saturday, { sv, en })
    })

    it("a date-time earlier today is clipped to now", () => {
      expect(span(parse("2026-11-21T08:00"))).toEqual([saturday.toISOString(), cet("2026-11-21T12:00")])
    })
  })

  describe("DST in Europe/Stockholm", () => {
    it("2027-03-28 (spring forward) spans 23 hours", () => {
      const window = parse("2027-03-28", new Date("2027-03-01T12:00:00+01:00"))
      expect(window.start.toISOString()).toBe("2027-03-27T23:00:00.000Z")
      expect(window.end.getTime() - window.start.getTime()).toBe(23 * HOUR)
    })

    it.each(["2026-10-25", "2027-10-31"])("%s (fall back) spans 25 hours", (date) => {
      const window = parse(date, new Date(`${date.slice(0, 8)}01T12:00:00+02:00`))
      expect(window.start.toISOString()).toBe(new Date(`${date}T00:00:00+02:00`).toISOString())
      expect(window.end.getTime() - window.start.getTime()).toBe(25 * HOUR)
    })

    it("part-of-day hours are wall-clock hours on the day of the change", () => {
      const window = parse("2027-03-28 förmiddag", new Date("2027-03-01T12:00:00+01:00"))
      expect(span(window)).toEqual(["2027-03-28T06:00:00.000Z", "2027-03-28T10:00:00.000Z"])
    })

    it("a weekend across the change is 47 hours long", () => {
      const window = parse("i helgen", new Date("2027-03-24T10:00:00+01:00"))
      expect(window.end.getTime() - window.start.getTime()).toBe(47 * HOUR)
    })

    it("a wall-clock time in the gap moves forward by the gap", () => {
      const gap = wallClockToInstant({ year: 2027, month: 3, day: 28, hour: 2, minute: 30 }, "Europe/Stockholm")
      expect(gap.toISOString()).toBe("2027-03-28T01:30:00.000Z")
    })

    it("a wall-clock time in the overlap is its earlier occurrence", () => {
      const overlap = wallClockToInstant({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, "Europe/Stockholm")
      expect(overlap.toISOString()).toBe("2026-10-25T00:30:00.000Z")
    })

    it("a local date-time in the gap is read as the time after it", () => {
      expect(parse("2027-03-28T02:30", new Date("2027-03-01T12:00:00+01:00")).start.toISOString()).toBe(
        "2027-03-28T01:30:00.000Z"
      )
    })
  })

  describe("time zones", () => {
    it("today is the local calendar day of the zone", () => {
      // 2026-11-21T10:00+01:00 is 18:00 in Tokyo and 04:00 in New York.
      expect(span(parse("idag", saturday, "Asia/Tokyo"))).toEqual([saturday.toISOString(), "2026-11-21T15:00:00.000Z"])
      expect(span(parse("idag", saturday, "America/New_York"))).toEqual([
        saturday.toISOString(),
        "2026-11-22T05:00:00.000Z"
      ])
      expect(span(parse("tomorrow", saturday, "UTC"))).toEqual(["2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z"])
    })

    it("Lord Howe's half-hour DST change gives a 23.5-hour day", () => {
      const window = parse("2026-10-04", new Date("2026-10-01T00:00:00Z"), "Australia/Lord_Howe")
      expect(window.end.getTime() - window.start.getTime()).toBe(23.5 * HOUR)
    })

    it("an unknown zone is treated as Europe/Stockholm instead of throwing", () => {
      expect(parse("imorgon", saturday, "Mars/Olympus_Mons")).toEqual(parse("imorgon", saturday, "Europe/Stockholm"))
      expect(parse("imorgon", saturday, "")).toEqual(parse("imorgon", saturday))
    })
  })

  describe("fallback", () => {
    it.each(["hej hej", "??", "ring innan ni kommer"])("%s says nothing about time", (text) => {
      expectFallback(parse(text), saturday)
    })

    it("no text at all falls back", () => {
      expectFallback(parseTimeWindow({ timeZone: "Europe/Stockholm", now: saturday }), saturday)
    })

    it("idag at 23:59 with nothing else to go on falls back, saying today is over", () => {
      const lateNight = new Date("2026-11-21T23:59:00+01:00")
      expectFallback(parse("idag", lateNight), lateNight, {
        sv: "går inte att söka: idag har redan varit",
        en: "cannot be searched: today has already passed"
      })
      expectFallback(parse("idag kväll", lateNight), lateNight, {
        sv: "går inte att söka: i kväll har redan varit",
        en: "cannot be searched: this evening has already passed"
      })
    })

    it("a window under way with less than an hour left is over, an explicit short future one is not", () => {
      const elevenPm = new Date("2026-11-21T23:00:00+01:00")
      expect(span(parse("idag", elevenPm))).toEqual([elevenPm.toISOString(), cet("2026-11-22T00:00")])
      expectFallback(parse("idag", new Date("2026-11-21T23:00:01+01:00")), new Date("2026-11-21T23:00:01+01:00"), {
        sv: "går inte att söka: idag har redan varit",
        en: "cannot be searched: today has already passed"
      })
      expect(span(parse("2026-12-03T10:00/2026-12-03T10:30"))).toEqual([
        cet("2026-12-03T10:00"),
        cet("2026-12-03T10:30")
      ])
    })

    it("an alternative after 'annars' widens the window; a preference after 'gärna' does not narrow it", () => {
      const either = parse("fredag, annars nästa vecka", wednesday)
      expect(either.label).toBe("fredag 2026-11-27 eller nästa vecka (Friday 2026-11-27 or next week)")
      expect(span(either)).toEqual([cet("2026-11-27T00:00"), cet("2026-12-07T00:00")])
      expect(either.excludedDates).toEqual(["2026-11-28", "2026-11-29"])
      const preferably = parse("nästa vecka, gärna fredag", wednesday)
      expect(preferably.label).toBe("nästa vecka; helst ”fredag” (next week; preferably “fredag”)")
      expect(span(preferably)).toEqual([cet("2026-11-30T00:00"), cet("2026-12-07T00:00")])
    })
  })

  describe("the same text again later the same day", () => {
    // A text's tokens are kept for the day: what follows from the current instant must not be.
    const morning = new Date("2026-11-23T08:00:00+01:00")
    const afternoon = new Date("2026-11-23T15:30:00+01:00")
    const late = new Date("2026-11-23T23:30:00+01:00")

    it.each([
      ["snarast", 3 * DAY],
      ["inom 2 veckor", 14 * DAY],
      ["within a fortnight", 14 * DAY],
      ["de närmaste dagarna", 5 * DAY],
      ["inom 3 timmar", 3 * HOUR]
    ] as const)("%s runs from the instant of each reading", (text, length) => {
      expect(span(parse(text, morning))).toEqual([
        morning.toISOString(),
        new Date(morning.getTime() + length).toISOString()
      ])
      expect(span(parse(text, afternoon))).toEqual([
        afternoon.toISOString(),
        new Date(afternoon.getTime() + length).toISOString()
      ])
    })

    it("idag is the rest of the day in the morning and over at 23:30", () => {
      expect(span(parse("idag", morning))).toEqual([morning.toISOString(), cet("2026-11-24T00:00")])
      const window = parse("idag", late)
      expect(window.understood).toBe(false)
      expect(window.start.toISOString()).toBe(late.toISOString())
    })
  })

  describe("decisions, seen from Monday 2026-11-23 09:00", () => {
    const monday = new Date("2026-11-23T09:00:00+01:00")

    it.each([
      ["förra veckan", "förra veckan", "last week"],
      ["i förra veckan", "förra veckan", "last week"],
      ["last week", "förra veckan", "last week"],
      ["förra månaden", "förra månaden", "last month"],
      ["last month", "förra månaden", "last month"],
      ["förra året", "förra året", "last year"],
      ["i fjol", "förra året", "last year"],
      ["förra helgen", "förra helgen", "last weekend"],
      ["last weekend", "förra helgen", "last weekend"],
      ["slutet av förra veckan", "slutet av förra veckan", "late last week"],
      ["början av november 2025", "början av november 2025", "early November 2025"]
    ])("%s has passed: never read as this week, month, year or weekend", (text, sv, en) => {
      expectFallback(parse(text, monday), monday, {
        sv: `går inte att söka: ${sv} har redan varit`,
        en: `cannot be searched: ${en} has already passed`
      })
    })

    it("a word about time that nothing reads is named, never dropped", () => {
      expectFallback(parse("förra", monday), monday, {
        sv: "kunde inte tolkas: förstod inte ”förra”",
        en: "not understood: did not understand “förra”"
      })
      expectFallback(parse("varannan vecka", monday), monday, {
        sv: "kunde inte tolkas: förstod inte ”varannan”, ”vecka”",
        en: "not understood: did not understand “varannan”, “vecka”"
      })
    })

    it("från before one date is from that day on; before two it begins their range", () => {
      const from = parse("från 3 december", monday)
      expect(span(from)).toEqual([cet("2026-12-03T00:00"), cet("2026-12-17T00:00")])
      expect(from.label).toBe("från torsdag 2026-12-03 (from Thursday 2026-12-03)")
      expect(span(parse("från den 3 december", monday))).toEqual(span(from))
      expect(span(parse("from 3 December", monday))).toEqual(span(from))
      expect(span(parse("från 3 till 5 december", monday))).toEqual([cet("2026-12-03T00:00"), cet("2026-12-06T00:00")])
    })

    it("N veckor från nu is om N veckor; N days from today is in N days", () => {
      expect(parse("tre veckor från nu", monday)).toEqual(parse("om 3 veckor", monday))
      expect(parse("10 days from today", monday)).toEqual(parse("in 10 days", monday))
    })

    it("an open-ended bound after inte leaves out what it bounds: inte efter fredag ends with Friday", () => {
      for (const text of ["inte efter fredag", "not after Friday", "not later than Friday", "utom efter fredag"]) {
        const window = parse(text, monday)
        expect(window.understood, text).toBe(true)
        expect(span(window), text).toEqual([monday.toISOString(), cet("2026-11-28T00:00")])
      }
      expect(span(parse("inte från fredag", monday))).toEqual([monday.toISOString(), cet("2026-11-27T00:00")])
    })

    it("a date or month without a year that passed lately has passed; it is not next year's", () => {
      const tuesday = new Date("2026-12-08T10:15:00+01:00")
      for (const [text, sv, en] of [
        ["3/12", "torsdag 2026-12-03", "Thursday 2026-12-03"],
        ["den 20 november", "fredag 2026-11-20", "Friday 2026-11-20"],
        ["måndag 7/12", "måndag 2026-12-07", "Monday 2026-12-07"],
        ["1-3 december", "2026-12-01–2026-12-03", "2026-12-01–2026-12-03"],
        ["november", "november 2026", "November 2026"]
      ] as const) {
        expectFallback(parse(text, tuesday), tuesday, {
          sv: `går inte att söka: ${sv} har redan varit`,
          en: `cannot be searched: ${en} has already passed`
        })
      }
      // Longer ago, the date is next year's.
      expectFallback(parse("15 juni", tuesday), tuesday, {
        sv: "går inte att söka: tisdag 2027-06-15 ligger mer än 60 dagar fram",
        en: "cannot be searched: Tuesday 2027-06-15 is more than 60 days ahead"
      })
    })

    it("what is said once holds for the alternatives and range ends beside it", () => {
      const tuesday = new Date("2026-12-08T10:15:00+01:00")
      // Hours alone after a day are on that day.
      const friday = parse("fredag 10-12 eller 14-16", tuesday)
      expect(span(friday)).toEqual([cet("2026-12-11T10:00"), cet("2026-12-11T16:00")])
      // "nästa" said once is next week's for the weekday after it too.
      for (const text of ["nästa tisdag eller onsdag", "next Tue or Wed"]) {
        expect(span(parse(text, tuesday)), text).toEqual([cet("2026-12-15T00:00"), cet("2026-12-17T00:00")])
      }
      // Hours alone after a day without hours are hours on any day.
      expect(parse("fredag eller 14-16", tuesday).label).toContain("eller kl 14:00–16:00, de närmaste 14 dagarna")
      // A period said after a range of weekdays holds for its start too, unless the start would then come after the end.
      expect(span(parse("fredag till måndag nästa vecka", tuesday))).toEqual([
        cet("2026-12-11T00:00"),
        cet("2026-12-15T00:00")
      ])
      for (const text of ["tisdag till torsdag nästa vecka", "Tue-Thu next week", "tis-tor nästa vecka"]) {
        expect(span(parse(text, tuesday)), text).toEqual([cet("2026-12-15T00:00"), cet("2026-12-18T00:00")])
      }
    })

    it("an alternative whose hours have run out today is left out too", () => {
      const evening = new Date("2026-12-12T19:30:00+01:00")
      const window = parse("idag kl 15 eller imorgon", evening)
      expect(span(window)).toEqual([cet("2026-12-13T00:00"), cet("2026-12-14T00:00")])
      expect(window.label).toBe("imorgon; idag kl 15:00 har redan varit (tomorrow; today at 15:00 has already passed)")
    })

    it("a bound beside a time that bounds nothing is named, not dropped", () => {
      const tuesday = new Date("2026-12-08T10:15:00+01:00")
      const window = parse("innan vi flyttar den 20 december", tuesday)
      expect(window.understood).toBe(false)
      expect(window.label).toBe(
        "Tiden kunde bara delvis tolkas: förstod söndag 2026-12-20 men inte ”innan”; söker de närmaste 14 dagarna " +
          "(time only partly understood: understood Sunday 2026-12-20 but not “innan”; searching the next 14 days)"
      )
    })

    it("an alternative that has passed or lies beyond the horizon is left out, and the label says so", () => {
      const tuesday = new Date("2026-12-08T10:15:00+01:00")
      const today = parse("igår eller idag", tuesday)
      expect(span(today)).toEqual([tuesday.toISOString(), cet("2026-12-09T00:00")])
      expect(today.label).toBe("idag; igår har redan varit (today; yesterday has already passed)")
      const thursday = parse("3/12 eller 10/12", tuesday)
      expect(span(thursday)).toEqual([cet("2026-12-10T00:00"), cet("2026-12-11T00:00")])
      expect(thursday.label).toBe(
        "torsdag 2026-12-10; torsdag 2026-12-03 har redan varit (Thursday 2026-12-10; Thursday 2026-12-03 has already passed)"
      )
      expect(parse("fredag eller 15 juni", tuesday).label).toBe(
        "fredag 2026-12-11; tisdag 2027-06-15 ligger mer än 60 dagar fram (Friday 2026-12-11; Tuesday 2027-06-15 is more than 60 days ahead)"
      )
      expectFallback(parse("i tisdags eller onsdags", tuesday), tuesday, {
        sv: "går inte att söka: tisdag 2026-12-01 eller onsdag 2026-12-02 har redan varit",
        en: "cannot be searched: Tuesday 2026-12-01 or Wednesday 2026-12-02 has already passed"
      })
    })

    it.each([
      "fredag passar inte",
      "fredag inte",
      "fredag är dåligt",
      "fredag kan jag inte",
      "fredag är jag bortrest",
      "Friday doesn't work",
      "Friday is bad",
      "Friday I'm busy",
      "anything but Friday",
      "any day but Friday",
      "inga fredagar",
      "ingen fredag"
    ])("%s is every day but Fridays, the same as inte fredag", (text) => {
      const window = parse(text, monday)
      const notFriday = parse("inte fredag", monday)
      expect(window.understood, text).toBe(true)
      expect(span(window), text).toEqual(span(notFriday))
      expect(window.excludedDates, text).toEqual(["2026-11-27", "2026-12-04"])
    })

    it.each([
      ["måndag och tisdag funkar inte, onsdag går bra", "onsdag", ["måndag", "tisdag"]],
      ["inte på fredag, lördag går bra", "lördag", ["fredag"]],
      ["not Friday, Saturday is fine", "lördag", ["fredag"]],
      ["inte på fredag utan på lördag", "lördag", ["fredag"]],
      ["Friday is no good, Saturday works", "lördag", ["fredag"]],
      ["tisdag kan jag, måndag kan jag inte", "tisdag", ["måndag"]],
      ["fredag nej, lördag ja", "lördag", ["fredag"]]
    ] as const)("%s: the day that suits is searched, the one that does not is left out", (text, wanted, left) => {
      const window = parse(text, monday)
      expect(window.understood, text).toBe(true)
      expect(span(window), text).toEqual(span(parse(wanted, monday)))
      for (const day of left) expect(window.label, text).toContain(`utom ${day}ar`)
    })

    it("doubt is not a no, and a bare no before what suits leaves nothing out", () => {
      for (const text of [
        "fredag? vet inte",
        "fredag? ingen aning",
        "nej, fredag går bra",
        "No, Friday",
        "Friday is no problem",
        "fredag är inga problem",
        "fredag är inte omöjligt",
        "fredag, varför inte",
        "fredag om det inte regnar",
        "ingen fara, fredag"
      ]) {
        expect(span(parse(text, monday)), text).toEqual(span(parse("fredag", monday)))
      }
    })

    it("a question with inte asks; it is not read as a no", () => {
      for (const text of ["fredag passar inte?", "kan ni inte komma på fredag?"]) {
        const window = parse(text, monday)
        expect(window.understood, text).toBe(false)
        expect(window.label, text).toContain("(en fråga, inte ett nej)")
      }
    })

    it("a clause after a comma that only says a day suits narrows what came before", () => {
      expect(span(parse("nästa vecka, fredag går bra", monday))).toEqual(span(parse("fredag nästa vecka", monday)))
      expect(span(parse("nej, nästa vecka", monday))).toEqual(span(parse("nästa vecka", monday)))
      expect(span(parse("ingen preferens, nästa vecka", monday))).toEqual(span(parse("nästa vecka", monday)))
    })

    it("a condition is not read; a time of day outside the part said beside it does not add up", () => {
      expect(parse("om inte fredag så måndag", monday).label).toContain("”om inte” (villkor läses inte)")
      expect(parse("eftermiddag kl 9", monday).label).toContain("(tiderna går inte ihop)")
      expect(parse("om ca 2 timmar", monday).label).toContain("förstod inte ”2”, ”timmar”")
    })

    it("a day.month that has passed is not a date the text could mean, so 10.10 in December is a time", () => {
      const december = new Date("2026-12-08T10:15:00+01:00")
      expect(parse("10.10", december).dailyHours).toEqual({ fromHour: 10 + 10 / 60, toHour: 14 + 10 / 60 })
    })

    it("the Sundays of Advent are those Sundays", () => {
      expect(span(parse("3:e advent", monday))).toEqual([cet("2026-12-13T00:00"), cet("2026-12-14T00:00")])
      expect(parse("första advent", monday).label).toBe(
        "första advent 2026-11-29 (the first Sunday of Advent 2026-11-29)"
      )
    })

    it("a bound between a day and an event is named, not read as after the day", () => {
      for (const text of ["fredag efter skolan", "Friday after school", "måndag innan skolan"]) {
        expect(parse(text, monday).understood, text).toBe(false)
      }
      expect(parse("fredag senast, tack", monday).label).toBe("senast fredag 2026-11-27 (by Friday 2026-11-27)")
    })

    it("a comma between days left out lists them; varken … eller leaves out both", () => {
      expect(parse("inte måndag, onsdag", monday).excludedDates).toEqual(["2026-11-25", "2026-11-30", "2026-12-02"])
      for (const text of ["varken lördag eller söndag", "neither Saturday nor Sunday"]) {
        expect(parse(text, monday).excludedDates, text).toEqual(["2026-11-28", "2026-11-29"])
      }
      expect(span(parse("torsdag, kl 13", monday))).toEqual(span(parse("torsdag kl 13", monday)))
    })

    it("a negation after alternatives leaves out each of them", () => {
      expect(parse("fredag eller lördag går inte", monday).excludedDates).toEqual([
        "2026-11-27",
        "2026-11-28",
        "2026-12-04",
        "2026-12-05"
      ])
    })

    it("not until a day, or away until it, is from that day on", () => {
      for (const text of ["inte förrän fredag", "not until Friday", "no sooner than Friday", "bortrest till fredag"]) {
        const window = parse(text, monday)
        expect(span(window), text).toEqual([cet("2026-11-27T00:00"), cet("2026-12-11T00:00")])
        expect(window.label, text).toBe("från fredag 2026-11-27 (from Friday 2026-11-27)")
      }
      expect(parse("jobbar till 16", monday).dailyHours).toEqual({ fromHour: 16, toHour: 21 })
    })

    it("hours left out keep the part of the day with waking hours, and name it when another part is lost", () => {
      expect(parse("vi jobbar dagtid", monday).dailyHours).toEqual({ fromHour: 17, toHour: 24 })
      const lunch = parse("inte mellan 12 och 13", monday)
      expect(lunch.dailyHours).toEqual({ fromHour: 13, toHour: 24 })
      expect(lunch.label).toBe(
        "de närmaste 14 dagarna, utom kl 12:00–13:00; söker bara kl 13:00–24:00 " +
          "(the next 14 days, except 12:00–13:00; searching only 13:00–24:00)"
      )
    })

    it("a day said to be best after any time is a preference, not the only day", () => {
      const window = parse("när som helst, men fredag är bäst", monday)
      expect(span(window)).toEqual([monday.toISOString(), cet("2026-12-07T00:00")])
      expect(window.label).toBe(
        "när som helst, de närmaste 14 dagarna; helst ”fredag” (any time, the next 14 days; preferably “fredag”)"
      )
    })

    it("the week or weekend before or after a holiday is that whole week or weekend, not this one", () => {
      expect(span(parse("veckan före jul", monday))).toEqual([cet("2026-12-14T00:00"), cet("2026-12-21T00:00")])
      expect(span(parse("the week before Christmas", monday))).toEqual(span(parse("veckan före jul", monday)))
      expect(span(parse("helgen före jul", monday))).toEqual([cet("2026-12-19T00:00"), cet("2026-12-21T00:00")])
      const after = parse("veckan efter jul", monday)
      expect(span(after)).toEqual([cet("2026-12-28T00:00"), cet("2027-01-04T00:00")])
      expect(after.label).toBe(
        "veckan efter julen 2026-12-28–2027-01-03 (the week after Christmas 2026-12-28–2027-01-03)"
      )
    })

    it("as soon as possible within later days starts with them; by the end of a period runs from now", () => {
      expect(span(parse("snarast nästa vecka", monday))).toEqual([cet("2026-11-30T00:00"), cet("2026-12-03T00:00")])
      const deadline = parse("by the end of the month", monday)
      expect(span(deadline)).toEqual([monday.toISOString(), cet("2026-12-01T00:00")])
      expect(deadline.label).toBe("senast slutet av denna månad (by late this month)")
    })

    it("after one time and before another is the range between them", () => {
      for (const text of ["efter 10 och före 14", "efter 10 men före 14", "från 10-14", "after 10 and before 2pm"]) {
        expect(parse(text, monday).dailyHours, text).toEqual({ fromHour: 10, toHour: 14 })
      }
    })

    it("alternatives' own hours: each day is searched in hours that cover them all, and the label says so", () => {
      const window = parse("fredag efter 15 eller lördag", monday)
      expect(span(window)).toEqual([cet("2026-11-27T00:00"), cet("2026-11-29T00:00")])
      expect(window.label).toBe(
        "fredag 2026-11-27 efter 15:00 eller lördag 2026-11-28; söker hela dagarna " +
          "(Friday 2026-11-27 after 15:00 or Saturday 2026-11-28; searching the whole of each day)"
      )
      expect(parse("i helgen eller måndag förmiddag", monday).label).toContain(
        "; kl 08:00–12:00 alla dagarna (this weekend or Monday 2026-11-23 morning; 08:00–12:00 on each day)"
      )
    })

    it("a wish with its alternatives is the wish: helst fredag, annars måndag searches both days", () => {
      for (const text of [
        "helst fredag eller måndag",
        "helst fredag, annars måndag",
        "preferably Friday, otherwise Monday"
      ]) {
        const window = parse(text, monday)
        // Monday is today, Friday this week's.
        expect(span(window), text).toEqual([monday.toISOString(), cet("2026-11-28T00:00")])
        expect(window.excludedDates, text).toEqual(["2026-11-24", "2026-11-25", "2026-11-26"])
      }
      expect(parse("nästa vecka, gärna fredag eller måndag", monday).label).toBe(
        "nästa vecka; helst ”fredag”; helst ”måndag” (next week; preferably “fredag”; preferably “måndag”)"
      )
    })

    it("beside the evening, a clock time before noon is in the evening", () => {
      const seven = parse("ikväll kl 7", monday)
      expect(span(seven)).toEqual([cet("2026-11-23T19:00"), cet("2026-11-23T21:00")])
      expect(seven.label).toBe("idag kväll kl 19:00 (today evening at 19:00)")
      const eight = parse("tonight after 8", monday)
      expect(span(eight)).toEqual([cet("2026-11-23T20:00"), cet("2026-11-23T21:00")])
      expect(eight.label).toBe("idag efter 20:00 kväll (today after 20:00 evening)")
      expect(parse("kl 8 på kvällen", monday).dailyHours).toEqual({ fromHour: 20, toHour: 21 })
    })

    it("a holiday that ended lately is that one: after it is from now, it and before it have passed", () => {
      const lateDecember = new Date("2026-12-30T14:00:00+01:00")
      const after = parse("efter jul", lateDecember)
      expect(after.understood).toBe(true)
      expect(after.start.toISOString()).toBe(lateDecember.toISOString())
      expect(after.label).toBe("efter julen 2026-12-24–2026-12-26 (after Christmas 2026-12-24–2026-12-26)")
      expectFallback(parse("jul", lateDecember), lateDecember, {
        sv: "går inte att söka: julen 2026-12-24–2026-12-26 har redan varit",
        en: "cannot be searched: Christmas 2026-12-24–2026-12-26 has already passed"
      })
      expectFallback(parse("före jul", lateDecember), lateDecember, {
        sv: "går inte att söka: före julen 2026-12-24–2026-12-26 har redan varit",
        en: "cannot be searched: before Christmas 2026-12-24–2026-12-26 has already passed"
      })
    })

    it("numbers of the job said with the time are not read as times", () => {
      for (const [text, same] of [
        ["fredag, 1:a hand", "fredag"],
        ["fredag, vi bor på 2:a våningen", "fredag"],
        ["lägenheten är en 3:a, fredag passar", "fredag"],
        ["fredag, 3 rok", "fredag"],
        ["3 timmar räcker, fredag", "fredag"],
        ["75 kvm, helst nästa vecka", "nästa vecka"],
        ["Portkod 1234, kom på fredag", "fredag"],
        ["Det tar ca 2 timmar, helst imorgon", "imorgon"],
        ["10 fönster, efter 16", "efter 16"]
      ] as const) {
        const window = parse(text, monday)
        expect(window.understood, text).toBe(true)
        expect(span(window), text).toEqual(span(parse(same, monday)))
      }
    })

    it("common phrasings read as their plainer twins", () => {
      for (const [text, same] of [
        ["varje dag", "alla dagar"],
        ["kommande helg", "i helgen"],
        ["nästkommande vecka", "nästa vecka"],
        ["nästa veckan", "nästa vecka"],
        ["kring 10", "kl 10"],
        ["vecka 2 2027", "vecka 2"],
        ["week 2 of 2027", "vecka 2"]
      ] as const) {
        const window = parse(text, monday)
        expect(window.understood, text).toBe(true)
        expect({ ...window, label: "" }, text).toEqual({ ...parse(same, monday), label: "" })
      }
    })

    it("an abbreviation that is also a word counts after a dash: fre-sön is Friday to Sunday", () => {
      for (const text of ["fre-sön", "Fri-Sun", "fredag-sön"]) {
        expect(span(parse(text, monday)), text).toEqual([cet("2026-11-27T00:00"), cet("2026-11-30T00:00")])
      }
      expect(span(parse("lör-sön", monday))).toEqual([cet("2026-11-28T00:00"), cet("2026-11-30T00:00")])
    })

    it("inte i helgen leaves out this weekend, inte helger every weekend", () => {
      expect(parse("inte i helgen", monday).excludedDates).toEqual(["2026-11-28", "2026-11-29"])
      // The next weekend is searched.
      expect(span(parse("inte i helgen", monday))).toEqual([monday.toISOString(), cet("2026-12-07T00:00")])
      expect(parse("helgen funkar inte", monday).excludedDates).toEqual(["2026-11-28", "2026-11-29"])
      // The window ends with the last day kept, Friday 4 December, so the second weekend is not listed.
      expect(span(parse("inte helger", monday))).toEqual([monday.toISOString(), cet("2026-12-05T00:00")])
      expect(parse("inte helger", monday).excludedDates).toEqual(["2026-11-28", "2026-11-29"])
    })

    it("just after a holiday or a week number, the week after it and the week that ended are those", () => {
      const lateDecember = new Date("2026-12-30T14:00:00+01:00")
      expect(span(parse("veckan efter jul", lateDecember))).toEqual([
        lateDecember.toISOString(),
        cet("2027-01-04T00:00")
      ])
      expectFallback(parse("vecka 52", lateDecember), lateDecember, {
        sv: "går inte att söka: vecka 52 har redan varit",
        en: "cannot be searched: week 52 has already passed"
      })
      expect(span(parse("vecka 1", lateDecember))).toEqual([cet("2027-01-04T00:00"), cet("2027-01-11T00:00")])
    })

    it("an ordinal weekday of a month is that day", () => {
      expect(span(parse("sista fredagen i december", monday))).toEqual([
        cet("2026-12-25T00:00"),
        cet("2026-12-26T00:00")
      ])
      expect(span(parse("the first Monday of January", monday))).toEqual([
        cet("2027-01-04T00:00"),
        cet("2027-01-05T00:00")
      ])
      expectFallback(parse("femte fredagen i januari", monday), monday, {
        sv: "går inte att söka: fredag 2027-01-29 ligger mer än 60 dagar fram",
        en: "cannot be searched: Friday 2027-01-29 is more than 60 days ahead"
      })
      expectFallback(parse("fifth Monday of February 2027", monday), monday, {
        sv: "kunde inte tolkas: förstod inte ”fifth Monday of February 2027” (den dagen finns inte den månaden)",
        en: "not understood: did not understand “fifth Monday of February 2027” (that month has no such day)"
      })
    })

    it("half past nine is 09:30 as halv tio is; a quarter is 15 minutes either side", () => {
      for (const text of ["half past nine", "halv tio"]) {
        expect(parse(text, monday).dailyHours, text).toEqual({ fromHour: 9.5, toHour: 13.5 })
      }
      expect(parse("quarter past ten", monday).dailyHours).toEqual({ fromHour: 10.25, toHour: 14.25 })
      expect(parse("kvart i tio", monday).dailyHours).toEqual({ fromHour: 9.75, toHour: 13.75 })
    })

    it("24:00 ends a range but as a time names no day: it is not read, and the label says why", () => {
      expect(parse("8-24", monday).dailyHours).toEqual({ fromHour: 8, toHour: 24 })
      expectFallback(parse("kl 24", monday), monday, {
        sv: "kunde inte tolkas: förstod inte ”kl 24” (24:00 är midnatt, mellan två dagar)",
        en: "not understood: did not understand “kl 24” (24:00 is midnight, between two days)"
      })
    })

    it("days all left out of a future period leave no time; they have not passed", () => {
      expectFallback(parse("i helgen men inte lördag eller söndag", monday), monday, {
        sv: "går inte att söka: i helgen, utom lördagar, utom söndagar lämnar ingen tid att söka i",
        en: "cannot be searched: this weekend, except Saturdays, except Sundays leaves no time to search"
      })
    })

    it("a month that runs past the horizon is searched up to it, and the label says where it stops", () => {
      const january = parse("i januari", monday)
      expect(span(january)).toEqual([
        cet("2027-01-01T00:00"),
        new Date(monday.getTime() + horizonDays * DAY).toISOString()
      ])
      expect(january.label).toBe(
        "januari 2027; bara till 2027-01-22 (60 dagar fram) (January 2027; only until 2027-01-22 (60 days ahead))"
      )
      expect(parse("i december", monday).label).toBe("december 2026 (December 2026)")
    })

    it("a weekday that disagrees with the date keeps the date, adds the nearest such weekday and says so", () => {
      const window = parse("fredag den 3 december", monday)
      expect(window.understood).toBe(true)
      expect(span(window)).toEqual([cet("2026-12-03T00:00"), cet("2026-12-05T00:00")])
      expect(window.label).toBe(
        "torsdag 2026-12-03 eller fredag 2026-12-04; 2026-12-03 är en torsdag, inte en fredag " +
          "(Thursday 2026-12-03 or Friday 2026-12-04; 2026-12-03 is a Thursday, not a Friday)"
      )
    })

    it("the weekday added beside a date that disagrees is never one that has passed", () => {
      const tuesday = new Date("2026-12-08T10:15:00+01:00")
      const window = parse("måndag den 9 december", tuesday)
      expect(window.label).toBe(
        "onsdag 2026-12-09 eller måndag 2026-12-14; 2026-12-09 är en onsdag, inte en måndag " +
          "(Wednesday 2026-12-09 or Monday 2026-12-14; 2026-12-09 is a Wednesday, not a Monday)"
      )
      // Both passed: the reason follows what was asked, the note after it.
      expectFallback(parse("fredag den 3 december", tuesday), tuesday, {
        sv: "går inte att söka: torsdag 2026-12-03 eller fredag 2026-12-04 har redan varit; 2026-12-03 är en torsdag, inte en fredag",
        en: "cannot be searched: Thursday 2026-12-03 or Friday 2026-12-04 has already passed; 2026-12-03 is a Thursday, not a Friday"
      })
    })

    it("a weekday that agrees with the date is that date, never this week's weekday", () => {
      expect(span(parse("torsdag den 3 december kl 13", monday))).toEqual([
        cet("2026-12-03T13:00"),
        cet("2026-12-03T17:00")
      ])
      expect(span(parse("2/12 kl 10", monday))).toEqual([cet("2026-12-02T10:00"), cet("2026-12-02T14:00")])
    })

    it("day and month are in the Swedish order: 12/3 is 12 March, out of reach, not 3 December", () => {
      expectFallback(parse("12/3", monday), monday, {
        sv: "går inte att söka: fredag 2027-03-12 ligger mer än 60 dagar fram",
        en: "cannot be searched: Friday 2027-03-12 is more than 60 days ahead"
      })
    })

    it("2.12 is a date and 14.30 a time; 10.10 reads both ways in September, so neither is guessed", () => {
      expect(span(parse("2.12", monday))).toEqual([cet("2026-12-02T00:00"), cet("2026-12-03T00:00")])
      expect(parse("14.30", monday).dailyHours).toEqual({ fromHour: 14.5, toHour: 18.5 })
      const september = new Date("2026-09-14T09:00:00+02:00")
      expectFallback(parse("10.10", september), september, {
        sv: "kunde inte tolkas: förstod inte ”10.10” (kan vara ett datum eller ett klockslag)",
        en: "not understood: did not understand “10.10” (could be a date or a time)"
      })
    })

    it("a part not understood beside one that is: the general window, and the label names both", () => {
      const window = parse("torsdag den 3 december kl 13, eller sportlovet", monday)
      expect(window.understood).toBe(false)
      expect(span(window)).toEqual([monday.toISOString(), new Date(monday.getTime() + 14 * DAY).toISOString()])
      expect(window.label).toBe(
        "Tiden kunde bara delvis tolkas: förstod torsdag 2026-12-03 kl 13:00 men inte ”sportlovet” " +
          "(skollov skiljer sig mellan kommuner); söker de närmaste 14 dagarna " +
          "(time only partly understood: understood Thursday 2026-12-03 at 13:00 but not “sportlovet” " +
          "(school holidays differ between municipalities); searching the next 14 days)"
      )
    })

    it("the general window reaches as far as what was understood", () => {
      const window = parse("den 20 december eller sportlovet", monday)
      expect(span(window)).toEqual([monday.toISOString(), cet("2026-12-21T00:00")])
      expect(window.label).toContain("söker fram till 2026-12-20 (")
    })

    it("a bare number next to a day is not guessed to be a time or a date", () => {
      expectFallback(parse("torsdag 13", monday), monday, {
        sv: "kunde inte tolkas: förstod inte ”13”",
        en: "not understood: did not understand “13”"
      })
    })

    it("alternative times of day widen each day to cover both", () => {
      const window = parse("kl 8 eller kl 14", monday)
      expect(window.dailyHours).toEqual({ fromHour: 8, toHour: 18 })
      expect(window.label).toBe(
        "kl 08:00 eller kl 14:00, de närmaste 14 dagarna; söker kl 08:00–18:00 alla dagarna " +
          "(at 08:00 or at 14:00, the next 14 days; searching 08:00–18:00 on each day)"
      )
      expect(parse("efter 16 eller i helgen", monday).dailyHours).toBeUndefined()
    })

    it("a weekday after 'inte' is every such day; a named day is that day", () => {
      expect(parse("inte måndag", monday).excludedDates).toEqual(["2026-11-30"])
      expect(parse("december, inte fredagar", monday).excludedDates).toEqual([
        "2026-12-04",
        "2026-12-11",
        "2026-12-18",
        "2026-12-25"
      ])
      expect(parse("nästa vecka, inte den 2 december", monday).excludedDates).toEqual(["2026-12-02"])
    })

    it("saying when one is busy leaves that out", () => {
      const window = parse("Jobbar dagtid, så helst efter 17 på vardagar", monday)
      expect(window.dailyHours).toEqual({ fromHour: 17, toHour: 21 })
      expect(window.excludedDates).toEqual(["2026-11-28", "2026-11-29"])
      expect(parse("vi jobbar hemifrån på fredag", monday).label).toBe("fredag 2026-11-27 (Friday 2026-11-27)")
    })

    it("morgonen is the early morning of any day, imorgon is tomorrow", () => {
      expect(parse("på morgonen", monday).dailyHours).toEqual({ fromHour: 7, toHour: 10 })
      expect(span(parse("imorgon", monday))).toEqual([cet("2026-11-24T00:00"), cet("2026-11-25T00:00")])
    })
  })
})
