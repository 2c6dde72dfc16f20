import { describe, expect, it } from "@effect/vitest"
import ICAL from "ical.js"
import { busyTimes } from "../../src/Providers/BusyTimes.js"
import { calendarFeed, type FeedEvent } from "../../src/Providers/CalendarFeed.js"
import { binaryString, fc, propSettings } from "../support/Props.js"

const { parameters, timeout } = propSettings("the feed reads back as the bookings", { quick: 100, deep: 1000 }, 50)

const MINUTE = 60_000

// The instants Stockholm changes its clocks (01:00 UTC), so that bookings start, end and span them.
const clockChanges = ["2026-03-29", "2026-10-25", "2027-03-28", "2027-10-31"].map((day) =>
  Date.parse(`${day}T01:00:00Z`)
)

const anyStart = fc.oneof(
  fc.integer({ min: Date.parse("2026-01-01T00:00:00Z") / MINUTE, max: Date.parse("2027-12-31T00:00:00Z") / MINUTE }),
  fc
    .tuple(fc.constantFrom(...clockChanges), fc.integer({ min: -12 * 60, max: 12 * 60 }))
    .map(([change, offset]) => change / MINUTE + offset)
)

/** Any text but control characters (the feed drops them), with line breaks and tabs, which it keeps. */
const anyText = fc
  .array(fc.oneof({ weight: 8, arbitrary: binaryString({ maxLength: 40 }) }, fc.constantFrom("\n", "\t", "å", "🧹")), {
    maxLength: 6
  })
  .map((parts) => parts.join("").replace(/[^\P{Cc}\t\n]/gu, ""))

const anyBooking = (index: number): fc.Arbitrary<FeedEvent> =>
  fc
    .record({
      uid: fc.constantFrom("", ",", ";", "\\").map((special) => `bk_${index}${special}@boka.example.se`),
      sequence: fc.nat({ max: 1000 }),
      status: fc.constantFrom("confirmed" as const, "cancelled" as const),
      start: anyStart.map((minutes) => new Date(minutes * MINUTE)),
      durationMinutes: fc.integer({ min: 15, max: 12 * 60 }),
      summary: anyText,
      description: fc.option(anyText, { nil: undefined }),
      location: fc.option(anyText, { nil: undefined }),
      lastModified: fc
        .integer({ min: Date.parse("2025-01-01T00:00:00Z") / 1000, max: Date.parse("2027-12-31T00:00:00Z") / 1000 })
        .map((seconds) => new Date(seconds * 1000))
    })
    .map(({ durationMinutes, ...event }) => ({
      ...event,
      end: new Date(event.start.getTime() + durationMinutes * MINUTE)
    }))

const anyBookings = fc
  .integer({ min: 0, max: 12 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => anyBooking(index))))

const feedOf = (events: ReadonlyArray<FeedEvent>) =>
  calendarFeed({ calendarName: "Bokningar, Åsa; VVS 🔧", productId: "-//Boka Hem AB//Bokningar//SV", events })

const mergedBusy = (events: ReadonlyArray<FeedEvent>) => {
  const busy = events
    .filter((event) => event.status === "confirmed")
    .map((event) => ({ start: event.start.getTime(), end: event.end.getTime() }))
    .sort((a, b) => a.start - b.start)
  const merged: Array<{ start: number; end: number }> = []
  for (const next of busy) {
    const last = merged.at(-1)
    if (last && next.start <= last.end) last.end = Math.max(last.end, next.end)
    else merged.push({ ...next })
  }
  return merged.map(({ start, end }) => ({ start: new Date(start), end: new Date(end) }))
}

const law = (name: string, check: (events: ReadonlyArray<FeedEvent>, feed: string) => void) =>
  it(
    name,
    () =>
      fc.assert(
        fc.property(anyBookings, (events) => check(events, feedOf(events))),
        parameters
      ),
    timeout
  )

describe("calendarFeed round trip", () => {
  law("every line of the feed is at most 75 octets, whole UTF-8 characters, and ends in CRLF", (_, feed) => {
    expect(feed.endsWith("\r\n")).toBe(true)
    for (const line of feed.split("\r\n").slice(0, -1)) {
      expect(line).not.toMatch(/[\r\n]/)
      const octets = Buffer.from(line, "utf8")
      expect(octets.length).toBeLessThanOrEqual(75)
      expect(new TextDecoder("utf-8", { fatal: true }).decode(octets)).toBe(line)
    }
  })

  law("ical.js reads back every booking: its UID, SEQUENCE, STATUS, instants and texts", (events, feed) => {
    const calendar = new ICAL.Component(ICAL.parse(feed))
    // X- properties are TEXT (RFC 5545 3.8.8.2); ical.js, not knowing this one, hands it over still escaped.
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Bokningar\\, Åsa\\; VVS 🔧")
    const read = calendar.getAllSubcomponents("vevent").map((vevent) => {
      const event = new ICAL.Event(vevent)
      const text = (name: string) => (vevent.getFirstPropertyValue(name) as string | null) ?? undefined
      return {
        uid: event.uid,
        sequence: event.sequence,
        status: String(vevent.getFirstPropertyValue("status")).toLowerCase(),
        start: new Date(event.startDate.toUnixTime() * 1000),
        end: new Date(event.endDate.toUnixTime() * 1000),
        summary: event.summary,
        description: text("description"),
        location: text("location"),
        lastModified: new Date((vevent.getFirstPropertyValue("last-modified") as ICAL.Time).toUnixTime() * 1000)
      }
    })
    const byUid = (a: { uid: string }, b: { uid: string }) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0)
    // An empty description or location is no property at all.
    const written = events.map((event) => ({
      ...event,
      description: event.description || undefined,
      location: event.location || undefined
    }))
    expect(read.sort(byUid)).toEqual(written.sort(byUid))
  })

  law(
    "busyTimes reads back exactly the confirmed bookings' time, merged, and counts the cancelled ones",
    (events, feed) => {
      const result = busyTimes(feed, { start: new Date("2025-12-01T00:00:00Z"), end: new Date("2028-01-01T00:00:00Z") })
      expect(result).toEqual({
        ok: true,
        intervals: mergedBusy(events),
        ignored: {
          cancelled: events.filter((event) => event.status === "cancelled").length,
          transparent: 0,
          invalid: 0,
          unsupported: 0,
          truncated: 0,
          unknownTimeZones: 0
        }
      })
    }
  )
})
