import type { Interval } from "./Slots.js"
import { zoneFor } from "./Zone.js"

type Formats = readonly [Intl.DateTimeFormat, Intl.DateTimeFormat, Intl.DateTimeFormat, string]

const slotLabelFormats = new Map<string, Formats>()
const labels = new Map<string, string>()

const formatsFor = (timeZone: string): Formats => {
  const cached = slotLabelFormats.get(timeZone)
  if (cached) return cached
  const zone = zoneFor(timeZone).id
  const day = { timeZone: zone, weekday: "long", day: "numeric", month: "long" } as const
  const formats = [
    new Intl.DateTimeFormat("sv-SE", day),
    new Intl.DateTimeFormat("en-GB", day),
    new Intl.DateTimeFormat("sv-SE", { timeZone: zone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    zone
  ] as const
  slotLabelFormats.set(timeZone, formats)
  return formats
}

/**
 * "måndag 23 november 08:00–10:00 (Monday 23 November 08:00–10:00), Europe/Stockholm": local
 * time in the zone the search was made in, which the label names, so a person never has to
 * guess whose clock it is.
 */
export const slotLabel = (slot: Interval, timeZone: string) => {
  // Searches keep offering the same slots: a label is formatted once, not four Intl calls each time.
  const key = `${timeZone} ${slot.start} ${slot.end}`
  const cached = labels.get(key)
  if (cached !== undefined) return cached
  const [sv, en, time, zone] = formatsFor(timeZone)
  const hours = `${time.format(slot.start)}–${time.format(slot.end)}`
  const label = `${sv.format(slot.start)} ${hours} (${en.format(slot.start)} ${hours}), ${zone}`
  if (labels.size >= 10_000) labels.clear()
  labels.set(key, label)
  return label
}
