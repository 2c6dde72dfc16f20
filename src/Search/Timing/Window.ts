import { MINUTE } from "../../Domain/Zone.js"
import type { Hours } from "./Tokens.js"

/** Local wall-clock hours (fractional when minutes were given) to keep on every day of a multi-day window. */
export interface DailyHours {
  readonly fromHour: number
  readonly toHour: number
}

export interface TimeWindow {
  readonly start: Date
  readonly end: Date
  readonly label: string
  readonly understood: boolean
  /** Present when a part of the day narrows a window spanning several days ("förmiddagar nästa vecka"). */
  readonly dailyHours?: DailyHours
  /** Local dates ("YYYY-MM-DD" in the request's zone) inside the window that are not wanted ("inte måndag", "vardagar"). */
  readonly excludedDates?: ReadonlyArray<string>
}

export interface ParseTimeWindowInput {
  readonly preferredTimeText?: string | undefined
  readonly urgency?: string | undefined
  readonly timeZone: string
  readonly now: Date
}

/** No window reaches further than this past `now`; slots beyond it are not bookable anyway. */
export const horizonDays = 60
/** What is searched when the text names no days ("förmiddagar", "vardagar efter 17") or is not understood. */
export const defaultDays = 14
/** A window already under way with less than this left is treated as over ("idag" at 23:59 finds nothing). */
export const minimumRemainingMinutes = 60

export const wholeDay: Hours = { from: 0, to: 24 * 60 }

/** Whether anything is left to search in [start, end): an explicit future window always, one under way only if enough remains. */
export const worthSearching = (start: number, end: number, now: number): boolean =>
  start >= now ? start < end : end - now >= minimumRemainingMinutes * MINUTE
