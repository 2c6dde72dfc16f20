import { describe, expect, it } from "@effect/vitest"
import ICAL from "ical.js"
import { type CalendarFeedInput, calendarFeed, type FeedEvent } from "../../src/Providers/CalendarFeed.js"

const booking = (overrides: Partial<FeedEvent> = {}): FeedEvent => ({
  uid: "bk_7f3a9c@boka.example.se",
  sequence: 2,
  status: "confirmed",
  start: new Date("2026-03-30T07:00:00Z"),
  end: new Date("2026-03-30T09:30:00Z"),
  summary: "Byte av blandare (VVS)",
  description: "Kund: Eva Ström\nPortkod 1234",
  location: "Götgatan 14, 118 46 Stockholm",
  lastModified: new Date("2026-03-20T15:04:05Z"),
  ...overrides
})

const feedOf = (events: ReadonlyArray<FeedEvent>, overrides: Partial<CalendarFeedInput> = {}) =>
  calendarFeed({
    calendarName: "Bokningar – Rörmokare Ström",
    productId: "-//Boka Hem AB//Bokningar//SV",
    events,
    ...overrides
  })

/** The content lines, folded lines joined again (RFC 5545 3.1). */
const contentLines = (feed: string) =>
  feed
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .slice(0, -1)

const veventLines = (feed: string) => {
  const lines = contentLines(feed)
  return lines.slice(lines.indexOf("BEGIN:VEVENT"), lines.indexOf("END:VEVENT") + 1)
}

describe("calendarFeed", () => {
  it("publishes a named Gregorian calendar with a refresh hint", () => {
    const lines = contentLines(feedOf([booking()], { refreshIntervalSeconds: 1800 }))
    expect(lines.slice(0, lines.indexOf("BEGIN:VEVENT"))).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Boka Hem AB//Bokningar//SV",
      "CALSCALE:GREGORIAN",
      "METHOD:PUBLISH",
      "NAME:Bokningar – Rörmokare Ström",
      "X-WR-CALNAME:Bokningar – Rörmokare Ström",
      "REFRESH-INTERVAL;VALUE=DURATION:PT30M",
      "X-PUBLISHED-TTL:PT30M"
    ])
    expect(lines.at(-1)).toBe("END:VCALENDAR")
  })

  it("writes a booking as one VEVENT in UTC, its DTSTAMP the booking's last change", () => {
    expect(veventLines(feedOf([booking()]))).toEqual([
      "BEGIN:VEVENT",
      "UID:bk_7f3a9c@boka.example.se",
      "SEQUENCE:2",
      "DTSTAMP:20260320T150405Z",
      "DTSTART:20260330T070000Z",
      "DTEND:20260330T093000Z",
      "SUMMARY:Byte av blandare (VVS)",
      "TRANSP:OPAQUE",
      "LOCATION:Götgatan 14\\, 118 46 Stockholm",
      "DESCRIPTION:Kund: Eva Ström\\nPortkod 1234",
      "STATUS:CONFIRMED",
      "LAST-MODIFIED:20260320T150405Z",
      "END:VEVENT"
    ])
  })

  it("keeps a cancelled booking, marked cancelled and free", () => {
    const lines = veventLines(feedOf([booking({ status: "cancelled", sequence: 3 })]))
    expect(lines).toContain("STATUS:CANCELLED")
    expect(lines).toContain("TRANSP:TRANSPARENT")
    expect(lines).toContain("SEQUENCE:3")
  })

  it("writes 09:00 in Stockholm on both sides of each DST change as the instant it is", () => {
    const nineInStockholm = [
      ["2026-03-28T08:00:00Z", "2026-03-30T07:00:00Z"],
      ["2026-10-24T07:00:00Z", "2026-10-26T08:00:00Z"],
      ["2027-03-27T08:00:00Z", "2027-03-29T07:00:00Z"]
    ].flat()
    const events = nineInStockholm.map((start, index) =>
      booking({
        uid: `bk_${index}@boka.example.se`,
        start: new Date(start),
        end: new Date(Date.parse(start) + 3_600_000)
      })
    )
    const parsed = new ICAL.Component(ICAL.parse(feedOf(events))).getAllSubcomponents("vevent")
    const startsInStockholm = parsed.map((event) =>
      new Date((event.getFirstPropertyValue("dtstart") as ICAL.Time).toUnixTime() * 1000).toLocaleTimeString("sv-SE", {
        timeZone: "Europe/Stockholm"
      })
    )
    expect(startsInStockholm).toEqual(nineInStockholm.map(() => "09:00:00"))
  })

  it("escapes TEXT in every property, the ones ical-generator writes as given too, and drops control characters", () => {
    const feed = feedOf([booking({ uid: "bk,1;x@boka", summary: "Rör; kök, bad \\ tvätt\r\nAkut\u0007" })], {
      calendarName: "Ström, VVS\nAkut"
    })
    expect(contentLines(feed)).toContain("X-WR-CALNAME:Ström\\, VVS\\nAkut")
    expect(veventLines(feed)).toContain("UID:bk\\,1\\;x@boka")
    expect(veventLines(feed)).toContain("SUMMARY:Rör\\; kök\\, bad \\\\ tvätt\\nAkut")
  })

  it("folds long lines at 75 octets between characters, never inside å, ä, ö or an emoji", () => {
    const summary = `${"Städning åäö 🧹👩‍👩‍👧 ".repeat(12)}slut`
    const feed = feedOf([booking({ summary })])
    const physical = feed.split("\r\n").slice(0, -1)
    for (const line of physical) {
      const octets = Buffer.from(line, "utf8")
      expect(octets.length).toBeLessThanOrEqual(75)
      expect(new TextDecoder("utf-8", { fatal: true }).decode(octets)).toBe(line)
    }
    expect(physical.filter((line) => line.startsWith(" ")).length).toBeGreaterThan(3)
    expect(veventLines(feed)).toContain(`SUMMARY:${summary}`)
  })

  it("gives the same text for the same bookings in any order, so an ETag over it holds", () => {
    const events = [
      booking(),
      booking({ uid: "bk_2@boka.example.se", start: new Date("2026-03-29T07:00:00Z") }),
      booking({ uid: "bk_0@boka.example.se" })
    ]
    expect(feedOf([...events].reverse())).toBe(feedOf(events))
    expect(veventLines(feedOf(events))[1]).toBe("UID:bk_2@boka.example.se")
  })

  it("refuses a booking it cannot write", () => {
    expect(() => feedOf([booking({ end: new Date("2026-03-30T07:00:00Z") })])).toThrow(RangeError)
    expect(() => feedOf([booking({ start: new Date(Number.NaN) })])).toThrow(RangeError)
    expect(() => feedOf([booking({ sequence: -1 })])).toThrow(RangeError)
  })
})
