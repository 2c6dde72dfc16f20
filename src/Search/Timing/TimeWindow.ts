/**
 * Free-text timing (Swedish or English) as the window a search looks in, with a bilingual label of
 * what was understood and what was not. Pure: the clock is the `now` argument. `parseTimeWindow`
 * is this folder's one public function. A word about time that is not understood makes the
 * reading tentative: the search covers a general window and the label names the word, so no part
 * of the text is silently read as something else.
 */
import { DAY, type Zone, zoneFor } from "../../Domain/Zone.js"
import { isoDate } from "./Calendar.js"
import { bilingual, joinLabels } from "./Labels.js"
import { dayOf, type Issue } from "./Plan.js"
import { type Reading, read } from "./Resolution.js"
import type { Label } from "./Tokens.js"
import { defaultDays, horizonDays, type ParseTimeWindowInput, type TimeWindow } from "./Window.js"

export type { DailyHours, ParseTimeWindowInput, TimeWindow } from "./Window.js"
export { defaultDays, horizonDays } from "./Window.js"

const quoted = (issues: ReadonlyArray<Issue>): Label => ({
  sv: issues.map((i) => `”${i.quote}”${i.note === undefined ? "" : ` (${i.note.sv})`}`).join(", "),
  en: issues.map((i) => `“${i.quote}”${i.note === undefined ? "" : ` (${i.note.en})`}`).join(", ")
})

const searching = (end: number, now: number, zone: Zone): Label =>
  end === now + defaultDays * DAY
    ? { sv: `söker de närmaste ${defaultDays} dagarna`, en: `searching the next ${defaultDays} days` }
    : { sv: `söker fram till ${isoDate(dayOf(end - 1, zone))}`, en: `searching until ${isoDate(dayOf(end - 1, zone))}` }

/** What a reading that gives no window of its own says about itself. */
const explanation = (reading: Reading): Label | undefined => {
  switch (reading._tag) {
    case "Tentative": {
      const words = quoted(reading.issues)
      return reading.understood === undefined
        ? { sv: `förstod inte ${words.sv}`, en: `did not understand ${words.en}` }
        : {
            sv: `förstod ${reading.understood.sv} men inte ${words.sv}`,
            en: `understood ${reading.understood.en} but not ${words.en}`
          }
    }
    case "OutOfReach":
      return { sv: `${reading.label.sv} ${reading.reason.sv}`, en: `${reading.label.en} ${reading.reason.en}` }
    default:
      return undefined
  }
}

/** A general window from now, reaching as far as anything that was understood. */
const fallback = (reading: Reading | undefined, now: number, zone: Zone): TimeWindow => {
  const reach = reading?._tag === "Tentative" ? (reading.reach ?? now) : now
  const end = Math.min(Math.max(now + defaultDays * DAY, reach), now + horizonDays * DAY)
  const range = searching(end, now, zone)
  const why = reading === undefined ? undefined : explanation(reading)
  const label: Label =
    why === undefined
      ? { sv: `Tiden kunde inte tolkas; ${range.sv}`, en: `time not understood; ${range.en}` }
      : reading?._tag === "Tentative" && reading.understood !== undefined
        ? {
            sv: `Tiden kunde bara delvis tolkas: ${why.sv}; ${range.sv}`,
            en: `time only partly understood: ${why.en}; ${range.en}`
          }
        : reading?._tag === "OutOfReach"
          ? {
              sv: `Tiden går inte att söka: ${why.sv}; ${range.sv}`,
              en: `time cannot be searched: ${why.en}; ${range.en}`
            }
          : { sv: `Tiden kunde inte tolkas: ${why.sv}; ${range.sv}`, en: `time not understood: ${why.en}; ${range.en}` }
  return { start: new Date(now), end: new Date(end), label: bilingual(label), understood: false }
}

/**
 * The preferred-time text is tried first; the urgency text only when the former gives no window
 * of its own (not understood, or wholly in the past or beyond the horizon), and then the label
 * still says what was wrong with the former.
 */
export const parseTimeWindow = (input: ParseTimeWindowInput): TimeWindow => {
  const now = input.now.getTime()
  const zone = zoneFor(input.timeZone)
  const preferred = input.preferredTimeText === undefined ? undefined : read(input.preferredTimeText, now, zone)
  if (preferred?._tag === "Window") return { ...preferred.window, label: bilingual(preferred.label), understood: true }
  const urgency = input.urgency === undefined ? undefined : read(input.urgency, now, zone)
  const caveat = preferred === undefined ? undefined : explanation(preferred)
  if (urgency?._tag === "Window") {
    const label = caveat === undefined ? urgency.label : joinLabels([urgency.label, caveat], "; ")
    return { ...urgency.window, label: bilingual(label), understood: true }
  }
  return fallback(preferred?._tag === "Nothing" || preferred === undefined ? urgency : preferred, now, zone)
}
