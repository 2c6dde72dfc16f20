import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { type BusyTimes, busyTimes } from "../../src/Providers/BusyTimes.js"
import { fc, propSettings } from "../support/Props.js"

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")

const window = (start: string, end: string) => ({ start: new Date(start), end: new Date(end) })

/** The intervals as [start, end] in UTC, to the minute: what the expectations below are written in. */
const utcPairs = (result: BusyTimes) => {
  if (!result.ok) throw new Error(`expected busy times, got: ${result.error}`)
  return result.intervals.map(({ start, end }) => [start.toISOString().slice(0, 16), end.toISOString().slice(0, 16)])
}

const noneIgnored = { cancelled: 0, transparent: 0, invalid: 0, unsupported: 0, truncated: 0, unknownTimeZones: 0 }

describe("busyTimes from Google Calendar's public feed", () => {
  const result = busyTimes(fixture("google.ics"), window("2026-03-01T00:00:00Z", "2026-04-15T00:00:00Z"))

  it("expands the weekly series in both zones' offsets, less its EXDATE, its moved and its cancelled instance", () => {
    expect(utcPairs(result)).toEqual([
      ["2026-03-02T07:00", "2026-03-02T08:30"],
      ["2026-03-09T07:00", "2026-03-09T08:30"],
      // 16 March: EXDATE.
      ["2026-03-11T08:00", "2026-03-11T11:00"],
      // 23 March moved to Tuesday 24th, 13:00 CET.
      ["2026-03-24T12:00", "2026-03-24T13:30"],
      // The all-day trip, 25-27 March (DTEND exclusive), Swedish midnight to midnight.
      ["2026-03-24T23:00", "2026-03-27T23:00"],
      // 01:30 CET to 04:00 CEST across the spring-forward night: an hour and a half.
      ["2026-03-29T00:30", "2026-03-29T02:00"],
      // After 29 March, 08:00 is summer time.
      ["2026-03-30T06:00", "2026-03-30T07:30"],
      // 6 April: cancelled instance.
      ["2026-04-13T06:00", "2026-04-13T07:30"]
    ])
  })

  it("merges the overlapping visits of 11 March and leaves out the free, cancelled and later events", () => {
    expect(result.ok && result.ignored).toEqual({ ...noneIgnored, cancelled: 2, transparent: 1 })
  })

  it("clips an interval to the window", () => {
    const clipped = busyTimes(fixture("google.ics"), window("2026-03-25T12:00:00Z", "2026-03-26T12:00:00Z"))
    expect(utcPairs(clipped)).toEqual([["2026-03-25T12:00", "2026-03-26T12:00"]])
  })
})

describe("busyTimes from Google without a VTIMEZONE", () => {
  const result = busyTimes(
    fixture("google-without-vtimezone.ics"),
    window("2026-03-01T00:00:00Z", "2026-04-15T00:00:00Z")
  )

  it("reads TZID=Europe/Stockholm by its IANA rules, so an UNTIL at the last instance's UTC keeps it", () => {
    expect(utcPairs(result).filter(([start]) => start!.endsWith("T08:00") || start!.endsWith("T07:00"))).toEqual([
      ["2026-03-03T08:00", "2026-03-03T09:00"],
      ["2026-03-10T08:00", "2026-03-10T09:00"],
      ["2026-03-17T08:00", "2026-03-17T09:00"],
      ["2026-03-24T08:00", "2026-03-24T09:00"],
      ["2026-03-31T07:00", "2026-03-31T08:00"]
    ])
  })

  it("finds the IANA name behind a vendor's prefix, and reads an unknown zone as Stockholm and says so", () => {
    expect(utcPairs(result)).toContainEqual(["2026-03-05T11:00", "2026-03-05T12:00"])
    expect(utcPairs(result)).toContainEqual(["2026-03-06T11:00", "2026-03-06T12:00"])
    expect(result.ok && result.ignored).toEqual({ ...noneIgnored, unknownTimeZones: 1 })
  })
})

describe("busyTimes from Outlook / Exchange", () => {
  const result = busyTimes(fixture("outlook.ics"), window("2026-10-19T00:00:00Z", "2026-11-02T00:00:00Z"))

  it("reads Windows zone names, with and without a VTIMEZONE, across the fall-back night of 25 October", () => {
    expect(utcPairs(result)).toEqual([
      ["2026-10-22T06:00", "2026-10-22T06:30"],
      ["2026-10-23T06:00", "2026-10-23T06:30"],
      ["2026-10-24T06:00", "2026-10-24T06:30"],
      // 01:00 CEST to 04:00 CET: four hours.
      ["2026-10-24T23:00", "2026-10-25T03:00"],
      ["2026-10-25T07:00", "2026-10-25T07:30"],
      // Romance Standard Time (Paris) without a VTIMEZONE.
      ["2026-10-25T13:00", "2026-10-25T14:00"],
      ["2026-10-26T07:00", "2026-10-26T07:30"],
      // Two visits back to back are one busy stretch.
      ["2026-10-26T09:00", "2026-10-26T11:00"],
      // UNTIL=20261027T070000Z is this instance's start: it is kept.
      ["2026-10-27T07:00", "2026-10-27T07:30"],
      ["2026-10-27T23:00", "2026-10-28T23:00"],
      // The last weekday of October (BYSETPOS=-1) is Friday the 30th.
      ["2026-10-30T15:00", "2026-10-30T16:00"]
    ])
    expect(result.ok && result.ignored).toEqual({ ...noneIgnored, transparent: 1 })
  })
})

describe("busyTimes from iCloud", () => {
  const result = busyTimes(fixture("icloud.ics"), window("2027-03-15T00:00:00Z", "2027-04-05T00:00:00Z"))

  it("covers the spring-forward week of 28 March 2027: COUNT, DURATION, RDATE, floating, UTC and all-day times", () => {
    expect(utcPairs(result)).toEqual([
      ["2027-03-21T09:00", "2027-03-21T10:00"],
      ["2027-03-22T11:00", "2027-03-22T12:00"],
      // Floating 09:00 is Stockholm's.
      ["2027-03-23T08:00", "2027-03-23T09:00"],
      ["2027-03-24T12:00", "2027-03-24T13:00"],
      // DURATION:PT1H30M.
      ["2027-03-26T14:00", "2027-03-26T15:30"],
      ["2027-03-28T08:00", "2027-03-28T09:00"],
      // An all-day date without DTEND is that one day, in summer time now.
      ["2027-03-28T22:00", "2027-03-29T22:00"],
      ["2027-03-30T10:00", "2027-03-30T11:00"],
      ["2027-03-31T10:00", "2027-03-31T11:00"],
      // The fourth and last of COUNT=4.
      ["2027-04-04T08:00", "2027-04-04T09:00"]
    ])
    expect(result.ok && result.ignored).toEqual(noneIgnored)
  })
})

describe("busyTimes on rules without end", () => {
  const week = window("2026-06-01T00:00:00Z", "2026-06-08T00:00:00Z")

  it("reaches this week of a daily series begun in 1990, and stops rules it cannot finish", () => {
    const result = busyTimes(fixture("huge-rrules.ics"), week)
    expect(utcPairs(result)).toEqual(
      ["01", "02", "03", "04", "05", "06", "07"].map((day) => [`2026-06-${day}T07:00`, `2026-06-${day}T08:00`])
    )
    // A million days from 2000 passes the instance limit before 2026; 30 February never comes.
    expect(result.ok && result.ignored).toEqual({ ...noneIgnored, truncated: 2, unsupported: 1 })
  })

  it("walks no more instances per event than asked", () => {
    const result = busyTimes(fixture("huge-rrules.ics"), window("2000-01-01T00:00:00Z", "2000-02-01T00:00:00Z"), {
      maxInstancesPerEvent: 10
    })
    expect(utcPairs(result).filter(([start]) => start!.endsWith("T11:00"))).toHaveLength(10)
  })

  it("refuses more busy times in the window than asked for", () => {
    expect(busyTimes(fixture("huge-rrules.ics"), week, { maxIntervals: 6 })).toEqual({
      ok: false,
      error: "more than 6 busy times in the window"
    })
  })
})

describe("busyTimes on what is not a calendar", () => {
  const anyWeek = window("2026-03-01T00:00:00Z", "2026-03-08T00:00:00Z")

  it.each([
    ["an empty body", ""],
    ["an HTML login page", "<!DOCTYPE html><html><body>Logga in</body></html>"],
    ["a calendar cut off mid-way", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\n"],
    ["binary", "\u0000\u0001\u0002\u00ff\ufffd PNG"],
    ["a VEVENT without a VCALENDAR", "BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260302T090000Z\r\nEND:VEVENT\r\n"]
  ])("%s is an error with a reason", (_, text) => {
    const result = busyTimes(text, anyWeek)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error.length).toBeGreaterThan(0)
  })

  it("refuses a body larger than the limit before parsing it", () => {
    expect(busyTimes(fixture("google.ics"), anyWeek, { maxInputBytes: 1000 })).toEqual({
      ok: false,
      error: "the calendar is larger than 1000 bytes"
    })
  })

  it("refuses a window that ends before it starts", () => {
    expect(busyTimes(fixture("google.ics"), window("2026-03-08T00:00:00Z", "2026-03-01T00:00:00Z")).ok).toBe(false)
  })

  it("counts an event with an unreadable date and still reads the others", () => {
    const text = [
      "BEGIN:VCALENDAR",
      "BEGIN:VEVENT",
      "UID:bad",
      "DTSTART:2026-03-02 kl 9",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:good",
      "DTSTART:20260302T090000Z",
      "DTEND:20260302T100000Z",
      "END:VEVENT",
      "END:VCALENDAR",
      ""
    ].join("\r\n")
    const result = busyTimes(text, anyWeek)
    expect(utcPairs(result)).toEqual([["2026-03-02T09:00", "2026-03-02T10:00"]])
    expect(result.ok && result.ignored).toEqual({ ...noneIgnored, invalid: 1 })
  })

  const { parameters, timeout } = propSettings("busyTimes never throws", { quick: 200, deep: 3000 }, 10)
  const lines = fc.constantFrom(
    "BEGIN:VCALENDAR",
    "END:VCALENDAR",
    "BEGIN:VEVENT",
    "END:VEVENT",
    "DTSTART;TZID=Europe/Stockholm:20260302T090000",
    "DTSTART;VALUE=DATE:20260302",
    "DTEND:20260302T100000Z",
    "DURATION:-P1D",
    "RRULE:FREQ=DAILY;BYMONTHDAY=-1",
    "RRULE:FREQ=WEEKLY;BYDAY=1MO",
    "RRULE:FREQ=YEARLY;BYWEEKNO=60",
    "EXDATE:garbage",
    "RECURRENCE-ID:20260302T090000Z",
    "STATUS:CANCELLED",
    "UID:x"
  )
  it(
    "returns a result, never throws, for any text and for shuffled calendar lines",
    () => {
      const anyText = fc.oneof(
        fc.string(),
        fc.array(fc.oneof(lines, fc.string()), { maxLength: 30 }).map((all) => all.join("\r\n"))
      )
      fc.assert(
        fc.property(anyText, (text) => {
          const result = busyTimes(text, anyWeek)
          expect(typeof result.ok).toBe("boolean")
        }),
        parameters
      )
    },
    timeout
  )
})
