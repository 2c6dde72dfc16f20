import { quote } from "../Domain/Pricing.js"
import { freeSlots, type Interval, type SlotQuery } from "../Domain/Slots.js"
import type { Candidate } from "../Shared/Calendar.js"

/** At most this many options, and at most this many per provider (spec 4.2 leaves both open). */
export const maxOptions = 10
export const maxOptionsPerProvider = 2
/** A window without a free slot offers at most this many of the nearest free times, up to this many days after it. */
export const maxAlternatives = 4
export const alternativesDays = 14

export interface Priced {
  readonly candidate: Candidate
  readonly quote: Extract<ReturnType<typeof quote>, { _tag: "Quoted" }>["quote"]
}

export interface Found extends Priced {
  readonly slot: Interval
}

/** The candidates a search can price with the request's details, and the quantity keys each other one lacks. */
export const priceAll = (candidates: ReadonlyArray<Candidate>, details: Parameters<typeof quote>[1]) => {
  const priced: Array<Priced> = []
  const missing: Array<ReadonlyArray<string>> = []
  for (const candidate of candidates) {
    const quoted = quote(candidate, details)
    if (quoted._tag === "MissingQuantity") missing.push(quoted.keys)
    else priced.push({ candidate, quote: quoted.quote })
  }
  return { priced, missing }
}

/** The earliest free slots of each priced offer in a window, at most a provider's share of each. */
export const slotsOf = (
  priced: ReadonlyArray<Priced>,
  within: Pick<SlotQuery, "window" | "dailyHours" | "excludedDates" | "windowTimeZone" | "now">
): Array<Found> =>
  priced.flatMap(({ candidate, quote }) =>
    freeSlots({
      ...within,
      hours: candidate.hours,
      busy: candidate.busy.map(([start, end]) => ({ start, end })),
      durationMinutes: quote.durationMinutes,
      limit: maxOptionsPerProvider
    }).map((slot) => ({ candidate, quote, slot }))
  )

/** Earliest first (ties by provider id), at most `maxOptionsPerProvider` of a provider and `max` in all. */
export const choose = (found: ReadonlyArray<Found>, max: number): Array<Found> => {
  const perProvider = new Map<string, number>()
  return [...found]
    .sort((a, b) => a.slot.start - b.slot.start || a.candidate.providerId.localeCompare(b.candidate.providerId))
    .filter((f) => {
      const count = perProvider.get(f.candidate.providerId) ?? 0
      if (count >= maxOptionsPerProvider) return false
      perProvider.set(f.candidate.providerId, count + 1)
      return true
    })
    .slice(0, max)
}
