/** A wall-clock day is its UTC midnight in wall-clock ms. */
import type { DaySpan } from "../../Domain/Holidays.js"
import { DAY, isoWeekday } from "../../Domain/Zone.js"

export const mondayOf = (day: number): number => day - (isoWeekday(day) - 1) * DAY

export const isoDate = (day: number): string => new Date(day).toISOString().slice(0, 10)

export const yearOf = (day: number): number => new Date(day).getUTCFullYear()
export const monthOf = (day: number): number => new Date(day).getUTCMonth() + 1

export const calendarDay = (year: number, month: number, day: number): number | undefined => {
  const ms = Date.UTC(year, month - 1, day)
  const date = new Date(ms)
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? ms
    : undefined
}

export const lastOfMonth = (year: number, month: number): number => Date.UTC(year, month, 0)

/** Monday of ISO week `week` of ISO year `year`, if the year has that week. */
export const isoWeekMonday = (year: number, week: number): number | undefined => {
  const firstMonday = mondayOf(Date.UTC(year, 0, 4))
  const monday = firstMonday + (week - 1) * 7 * DAY
  return week >= 1 && monday < mondayOf(Date.UTC(year + 1, 0, 4)) ? monday : undefined
}

export const one = (day: number): DaySpan => ({ first: day, last: day })
