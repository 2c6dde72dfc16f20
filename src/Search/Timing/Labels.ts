import type { DaySpan } from "../../Domain/Holidays.js"
import { isoWeekday } from "../../Domain/Zone.js"
import { isoDate } from "./Calendar.js"
import type { Label } from "./Tokens.js"

export const weekdayNames = [
  { sv: "måndag", en: "Monday", svPlural: "måndagar", enPlural: "Mondays" },
  { sv: "tisdag", en: "Tuesday", svPlural: "tisdagar", enPlural: "Tuesdays" },
  { sv: "onsdag", en: "Wednesday", svPlural: "onsdagar", enPlural: "Wednesdays" },
  { sv: "torsdag", en: "Thursday", svPlural: "torsdagar", enPlural: "Thursdays" },
  { sv: "fredag", en: "Friday", svPlural: "fredagar", enPlural: "Fridays" },
  { sv: "lördag", en: "Saturday", svPlural: "lördagar", enPlural: "Saturdays" },
  { sv: "söndag", en: "Sunday", svPlural: "söndagar", enPlural: "Sundays" }
] as const

export const weekdayName = (weekday: number) => weekdayNames[weekday - 1] ?? weekdayNames[0]

export const dayLabel = (day: number): Label => {
  const name = weekdayName(isoWeekday(day))
  return { sv: `${name.sv} ${isoDate(day)}`, en: `${name.en} ${isoDate(day)}` }
}

export const spanLabel = (span: DaySpan): Label =>
  span.first === span.last
    ? dayLabel(span.first)
    : { sv: `${isoDate(span.first)}–${isoDate(span.last)}`, en: `${isoDate(span.first)}–${isoDate(span.last)}` }

export const fixedLabel =
  (label: Label) =>
  (_span: DaySpan): Label =>
    label

export const clock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`

export const joinLabels = (labels: ReadonlyArray<Label>, sv = " ", en = sv): Label => ({
  sv: labels
    .map((label) => label.sv)
    .filter((text) => text !== "")
    .join(sv),
  en: labels
    .map((label) => label.en)
    .filter((text) => text !== "")
    .join(en)
})

export const bilingual = (label: Label): string => (label.sv === label.en ? label.sv : `${label.sv} (${label.en})`)

const todayParts: Readonly<Record<string, Label>> = {
  förmiddag: { sv: "i förmiddag", en: "this morning" },
  eftermiddag: { sv: "i eftermiddag", en: "this afternoon" },
  kväll: { sv: "i kväll", en: "this evening" }
}

/** "idag förmiddag" reads "i förmiddag (this morning)". */
export const dayWithHours = (days: Label | undefined, hours: Label | undefined): Label => {
  if (days?.sv === "idag" && hours !== undefined && todayParts[hours.sv] !== undefined) {
    return todayParts[hours.sv] ?? hours
  }
  return joinLabels([days ?? { sv: "", en: "" }, hours ?? { sv: "", en: "" }])
}
