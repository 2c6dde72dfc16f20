import ical, { ICalCalendarMethod, ICalEventStatus, ICalEventTransparency } from "ical-generator"

/** One booking as the provider's calendar shows it. */
export interface FeedEvent {
  /** Stable for the booking's life, e.g. `<booking id>@<host>`: how a calendar knows a moved booking is the same one. */
  readonly uid: string
  /** Bumped by the caller on every change of time or status, so calendars take the new version. */
  readonly sequence: number
  /** Cancelled bookings stay in the feed for a while, so subscribed calendars remove them. */
  readonly status: "confirmed" | "cancelled"
  readonly start: Date
  readonly end: Date
  readonly summary: string
  readonly description?: string | undefined
  readonly location?: string | undefined
  readonly lastModified: Date
}

export interface CalendarFeedInput {
  /** The name a phone shows for the subscribed calendar (X-WR-CALNAME, NAME). */
  readonly calendarName: string
  /** PRODID, a formal public identifier: `-//Company//Product//SV`. */
  readonly productId: string
  readonly events: ReadonlyArray<FeedEvent>
  /** How often a subscriber should fetch the feed again, in seconds (REFRESH-INTERVAL, X-PUBLISHED-TTL). */
  readonly refreshIntervalSeconds?: number
}

export const defaultRefreshIntervalSeconds = 900

/**
 * RFC 5545 allows no control characters in TEXT but the tab; a stray carriage return would end
 * the content line early. Line breaks become `\n`, which the escaping below writes as `\n`.
 */
const textOf = (text: string) => text.replace(/\r\n?/g, "\n").replace(/[^\P{Cc}\t\n]/gu, "")

/** An empty description or location is none: no property rather than an empty one. */
const optionalText = (text: string | undefined) => textOf(text ?? "") || null

/** TEXT escaping (RFC 5545 3.3.11), for the values ical-generator writes as given: UID, NAME, PRODID. */
const escapedText = (text: string) =>
  textOf(text)
    .replace(/[\\;,]/g, (special) => `\\${special}`)
    .replace(/\n/g, "\\n")

const checkEvent = (event: FeedEvent) => {
  const times = [event.start, event.end, event.lastModified]
  if (times.some((time) => Number.isNaN(time.getTime())))
    throw new RangeError(`booking ${event.uid} has an invalid date`)
  if (event.end.getTime() <= event.start.getTime()) throw new RangeError(`booking ${event.uid} ends before it starts`)
  if (!Number.isInteger(event.sequence) || event.sequence < 0) {
    throw new RangeError(`booking ${event.uid} has a negative or fractional sequence`)
  }
}

const byStartThenUid = (a: FeedEvent, b: FeedEvent) =>
  a.start.getTime() - b.start.getTime() || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0)

/**
 * The provider's subscribed calendar (`text/calendar`): one VEVENT per booking, in UTC.
 *
 * Times are UTC (`…Z`) rather than Europe/Stockholm with a VTIMEZONE: every booking is a single
 * instant, never a recurring wall-clock time, so UTC is exact in every week, the DST weeks
 * included, and there is no VTIMEZONE whose rules we would have to keep right. Phones show
 * the times in their own zone. The same input always gives the same text (DTSTAMP is the
 * booking's last change, not the time of the request), so an ETag over it changes only when a
 * booking does. Throws a RangeError on a booking that cannot be written (bad dates or sequence).
 */
export const calendarFeed = (input: CalendarFeedInput): string => {
  input.events.forEach(checkEvent)
  const calendar = ical({
    prodId: escapedText(input.productId).replace(/^-/, ""),
    name: escapedText(input.calendarName),
    method: ICalCalendarMethod.PUBLISH,
    scale: "GREGORIAN",
    ttl: input.refreshIntervalSeconds ?? defaultRefreshIntervalSeconds
  })
  for (const event of [...input.events].sort(byStartThenUid)) {
    const cancelled = event.status === "cancelled"
    calendar.createEvent({
      id: escapedText(event.uid),
      sequence: event.sequence,
      stamp: event.lastModified,
      lastModified: event.lastModified,
      start: event.start,
      end: event.end,
      summary: textOf(event.summary),
      description: optionalText(event.description),
      location: optionalText(event.location),
      status: cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      // A calendar that ignores STATUS still shows a cancelled booking as free time.
      transparency: cancelled ? ICalEventTransparency.TRANSPARENT : ICalEventTransparency.OPAQUE
    })
  }
  // ical-generator ends the last line (END:VCALENDAR) without the CRLF every content line needs.
  return `${calendar.toString()}\r\n`
}
