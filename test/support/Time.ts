import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { vi } from "vitest"

/**
 * Every date-time the service sends reads one way: RFC 3339 to the second with the Swedish offset
 * of that instant (2026-12-03T12:00:00+01:00, 2027-06-01T09:00:00+02:00). This finds every
 * date-time-like text anywhere in an answer or payload, also inside prose such as a
 * `safe_next_step`, and checks each against an offset worked out by Intl, not by the service.
 */

const dateTimeLike = /\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d)?(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?/g
const toTheSecondWithOffset = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/

const swedishOffset = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Stockholm", timeZoneName: "longOffset" })

/** "+01:00" or "+02:00": Stockholm's offset at the instant. */
export const stockholmOffsetAt = (instant: number): string => {
  const name = swedishOffset.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? ""
  return name === "GMT" ? "+00:00" : name.replace("GMT", "")
}

export interface FoundStamp {
  readonly path: string
  readonly text: string
}

/** Every date-time-like text in `json`, with the path of the string it is in. */
export const stampsIn = (json: unknown, path = "$"): Array<FoundStamp> => {
  if (typeof json === "string") return [...json.matchAll(dateTimeLike)].map(([text]) => ({ path, text }))
  if (Array.isArray(json)) return json.flatMap((item, index) => stampsIn(item, `${path}[${index}]`))
  if (typeof json === "object" && json !== null)
    return Object.entries(json).flatMap(([key, value]) => stampsIn(value, `${path}.${key}`))
  return []
}

/** Why a stamp is not one the service may send, or undefined when it is. */
export const stampProblem = (text: string): string | undefined => {
  if (!toTheSecondWithOffset.test(text)) return "is not RFC 3339 to the second with an offset"
  const offset = stockholmOffsetAt(Date.parse(text))
  return text.endsWith(offset) ? undefined : `does not carry Stockholm's offset ${offset} for that instant`
}

/**
 * Fails naming every stamp in `json` that is not Swedish time to the second. Returns how many it
 * checked, so a caller can insist the answer held the stamps it expects.
 */
export const expectSwedishStamps = (json: unknown): number => {
  const found = stampsIn(json)
  const wrong = found.flatMap(({ path, text }) => {
    const problem = stampProblem(text)
    return problem === undefined ? [] : [`${path}: ${text} ${problem}`]
  })
  expect(wrong).toEqual([])
  return found.length
}

/**
 * Retries `effect` until `check` passes, for what a background fibre or another process does in
 * its own time (vi.waitFor's polling, with its timeout as the only bound).
 */
export const waitFor = <A, E, R>(effect: Effect.Effect<A, E, R>, check: (value: A) => void) =>
  Effect.flatMap(Effect.context<R>(), (runtime) =>
    Effect.promise(() =>
      vi.waitFor(() => Effect.runPromiseWith(runtime)(effect).then(check), { timeout: 10_000, interval: 50 })
    )
  )
