import ICAL from "ical.js"
import { tzlib_get_ical_block, tzlib_get_timezones } from "timezones-ical-library"
import { findIana } from "windows-iana"

/** Where the providers work: floating times, all-day dates and unknown zones are read as this zone's clock. */
const homeZone = "Europe/Stockholm"

const knownIanaZones: ReadonlySet<string> = new Set(tzlib_get_timezones() as ReadonlyArray<string>)

/**
 * The IANA name a TZID stands for: an IANA name itself (Google), a Windows name (Outlook:
 * "W. Europe Standard Time"), or an IANA name behind a vendor prefix
 * ("/freeassociation.sourceforge.net/Europe/Stockholm").
 */
const ianaNameOf = (tzid: string): string | undefined => {
  const name = tzid.trim()
  if (knownIanaZones.has(name)) return name
  const windows = findIana(name)[0]
  if (windows !== undefined && knownIanaZones.has(windows)) return windows
  const segments = name.split("/")
  for (let from = 1; from < segments.length - 1; from++) {
    const suffix = segments.slice(from).join("/")
    if (knownIanaZones.has(suffix)) return suffix
  }
  return undefined
}

/** A VTIMEZONE with today's rules of an IANA zone, under the TZID the file uses for it. */
const vtimezoneFor = (ianaName: string, tzid: string): ICAL.Component => {
  const [block] = tzlib_get_ical_block(ianaName) as ReadonlyArray<string>
  const zone = new ICAL.Component(ICAL.parse(block!))
  // The library names linked zones by their target (Europe/Stockholm comes as Europe/Berlin).
  zone.updatePropertyWithValue("tzid", tzid)
  return zone
}

const home = new ICAL.Timezone({ component: vtimezoneFor(homeZone, homeZone), tzid: homeZone })

/**
 * Gives every TZID the calendar uses a definition ical.js can read, before any time is read:
 * RFC 5545 wants a VTIMEZONE for each, but Google often sends TZID=Europe/Stockholm without one
 * and Outlook sends Windows names. ical.js reads a TZID it cannot find as floating time, which
 * is off by an hour or two and compares UNTIL and EXDATE against the wrong instants. Returns how
 * many TZIDs matched no zone at all and were given the home zone's rules.
 */
export const defineMissingZones = (calendar: ICAL.Component): number => {
  const defined = new Set(
    calendar.getAllSubcomponents("vtimezone").map((zone) => String(zone.getFirstPropertyValue("tzid")))
  )
  const used = new Set<string>()
  for (const event of calendar.getAllSubcomponents("vevent")) {
    for (const property of event.getAllProperties()) {
      const tzid = property.getFirstParameter("tzid")
      if (typeof tzid === "string" && tzid !== "" && !defined.has(tzid)) used.add(tzid)
    }
  }
  let unknown = 0
  for (const tzid of used) {
    const ianaName = ianaNameOf(tzid)
    if (ianaName === undefined) unknown++
    calendar.addSubcomponent(vtimezoneFor(ianaName ?? homeZone, tzid))
  }
  return unknown
}

/**
 * The instant (ms since the epoch) a time stands for: UTC and zoned times as ical.js resolves
 * them, floating times and all-day dates on the home zone's clock (a provider in Sweden means
 * Swedish midnight by an all-day event, whatever the server's zone).
 */
export const instantOf = (time: ICAL.Time): number => {
  if (time.isDate || time.zone === undefined || time.zone.tzid === "floating") {
    const wallClock = ICAL.Time.fromData(
      {
        year: time.year,
        month: time.month,
        day: time.day,
        hour: time.isDate ? 0 : time.hour,
        minute: time.isDate ? 0 : time.minute,
        second: time.isDate ? 0 : time.second,
        isDate: false
      },
      home
    )
    return wallClock.toUnixTime() * 1000
  }
  return time.toUnixTime() * 1000
}
