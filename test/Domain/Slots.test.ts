import { describe, expect, it } from "@effect/vitest"
import { bufferMinutes, freeSlots, type Interval, leadTimeMinutes, type SlotQuery } from "../../src/Domain/Slots.js"
import { formatInZone, wallClockToInstant } from "../../src/Domain/Zone.js"

const MINUTE = 60_000
const HOUR = 60 * MINUTE

const local = (year: number, month: number, day: number, hour = 0, minute = 0): number =>
  wallClockToInstant({ year, month, day, hour, minute }, "Europe/Stockholm").getTime()

const at = (iso: string): number => Date.parse(iso)

const shown = (slots: ReadonlyArray<Interval>): Array<string> =>
  slots.map(
    (slot) => `${formatInZone(slot.start, "Europe/Stockholm")} ${formatInZone(slot.end, "Europe/Stockholm").slice(11)}`
  )

const weekdays = [1, 2, 3, 4, 5].map((isoWeekday) => ({ isoWeekday, opens: "08:00", closes: "16:00" }))

// Monday 2027-01-04 to Monday 2027-01-11, winter time (UTC+1), searched well ahead.
const query = (overrides: Partial<SlotQuery> = {}): SlotQuery => ({
  hours: weekdays,
  busy: [],
  durationMinutes: 60,
  window: { start: local(2027, 1, 4), end: local(2027, 1, 11) },
  windowTimeZone: "Europe/Stockholm",
  now: local(2027, 1, 1),
  limit: 100,
  ...overrides
})

const expectNoOverlaps = (slots: ReadonlyArray<Interval>) =>
  slots.forEach((slot, i) => {
    const next = slots[i + 1]
    if (next !== undefined) expect(next.start).toBeGreaterThanOrEqual(slot.end)
  })

describe("freeSlots", () => {
  describe("working hours", () => {
    it("slots lie inside the hours of their local weekday, on the half-hour grid from opening, each as long as the service", () => {
      const saturday = { isoWeekday: 6, opens: "09:00", closes: "13:00" }
      const slots = freeSlots(query({ hours: [...weekdays, saturday], durationMinutes: 90 }))
      const monday = ["08:00", "09:30", "11:00", "12:30", "14:00"]
      expect(shown(slots)).toEqual([
        ...[4, 5, 6, 7, 8].flatMap((day) =>
          monday.map((start) => {
            const from = local(2027, 1, day, Number(start.slice(0, 2)), Number(start.slice(3)))
            return shown([{ start: from, end: from + 90 * MINUTE }])[0]
          })
        ),
        "2027-01-09T09:00:00+01:00 10:30:00+01:00",
        "2027-01-09T10:30:00+01:00 12:00:00+01:00"
      ])
      for (const slot of slots) expect(slot.end - slot.start).toBe(90 * MINUTE)
    })

    it("the grid starts at the opening time, not on the clock's half hours", () => {
      const slots = freeSlots(
        query({ hours: [{ isoWeekday: 1, opens: "08:15", closes: "10:15" }], durationMinutes: 30 })
      )
      expect(shown(slots)).toEqual([
        "2027-01-04T08:15:00+01:00 08:45:00+01:00",
        "2027-01-04T08:45:00+01:00 09:15:00+01:00",
        "2027-01-04T09:15:00+01:00 09:45:00+01:00",
        "2027-01-04T09:45:00+01:00 10:15:00+01:00"
      ])
    })

    it("two intervals on one day (08-12 and 13-17) give no slot across the lunch gap", () => {
      const hours = [
        { isoWeekday: 1, opens: "13:00", closes: "17:00" },
        { isoWeekday: 1, opens: "08:00", closes: "12:00" }
      ]
      const slots = freeSlots(query({ hours, durationMinutes: 90 }))
      expect(shown(slots)).toEqual([
        "2027-01-04T08:00:00+01:00 09:30:00+01:00",
        "2027-01-04T09:30:00+01:00 11:00:00+01:00",
        "2027-01-04T13:00:00+01:00 14:30:00+01:00",
        "2027-01-04T14:30:00+01:00 16:00:00+01:00"
      ])
      for (const slot of slots) {
        expect(slot.end <= local(2027, 1, 4, 12) || slot.start >= local(2027, 1, 4, 13)).toBe(true)
      }
    })
  })

  describe("lead time and window", () => {
    it("no slot starts before now + lead time, and none ends after the window", () => {
      const now = local(2027, 1, 4, 9, 10)
      const slots = freeSlots(query({ now, window: { start: local(2027, 1, 4), end: local(2027, 1, 5, 10) } }))
      expect(shown(slots)).toEqual([
        "2027-01-04T11:30:00+01:00 12:30:00+01:00",
        "2027-01-04T12:30:00+01:00 13:30:00+01:00",
        "2027-01-04T13:30:00+01:00 14:30:00+01:00",
        "2027-01-04T14:30:00+01:00 15:30:00+01:00",
        "2027-01-05T08:00:00+01:00 09:00:00+01:00",
        "2027-01-05T09:00:00+01:00 10:00:00+01:00"
      ])
      for (const slot of slots) expect(slot.start).toBeGreaterThanOrEqual(now + leadTimeMinutes * MINUTE)
    })

    it("a slot may start exactly at the lead time", () => {
      const slots = freeSlots(query({ now: local(2027, 1, 4, 8), limit: 1 }))
      expect(slots).toEqual([{ start: local(2027, 1, 4, 8) + leadTimeMinutes * MINUTE, end: local(2027, 1, 4, 11) }])
    })

    it("no slot starts before the window, even when the lead time has passed", () => {
      const slots = freeSlots(query({ window: { start: local(2027, 1, 4, 13), end: local(2027, 1, 4, 16) } }))
      expect(shown(slots)).toEqual([
        "2027-01-04T13:00:00+01:00 14:00:00+01:00",
        "2027-01-04T14:00:00+01:00 15:00:00+01:00",
        "2027-01-04T15:00:00+01:00 16:00:00+01:00"
      ])
    })
  })

  describe("confirmed bookings", () => {
    const booking = { start: local(2027, 1, 4, 12), end: local(2027, 1, 4, 13) }
    const monday = { start: local(2027, 1, 4, 10, 30), end: local(2027, 1, 5) }

    it("a booking removes the slots around it, keeping the buffer on both sides", () => {
      const slots = freeSlots(query({ busy: [booking], window: { start: local(2027, 1, 4), end: local(2027, 1, 5) } }))
      expect(shown(slots)).toEqual([
        "2027-01-04T08:00:00+01:00 09:00:00+01:00",
        "2027-01-04T09:00:00+01:00 10:00:00+01:00",
        "2027-01-04T10:00:00+01:00 11:00:00+01:00",
        "2027-01-04T13:30:00+01:00 14:30:00+01:00",
        "2027-01-04T14:30:00+01:00 15:30:00+01:00"
      ])
      for (const slot of slots) {
        expect(
          slot.end <= booking.start - bufferMinutes * MINUTE || slot.start >= booking.end + bufferMinutes * MINUTE
        ).toBe(true)
      }
    })

    it("a slot may end exactly the buffer before a booking and start exactly the buffer after it", () => {
      expect(shown(freeSlots(query({ busy: [booking], window: monday })))).toEqual([
        "2027-01-04T10:30:00+01:00 11:30:00+01:00",
        "2027-01-04T13:30:00+01:00 14:30:00+01:00",
        "2027-01-04T14:30:00+01:00 15:30:00+01:00"
      ])
    })

    it("one minute less than the buffer on either side excludes the slot", () => {
      const longer = { start: booking.start - MINUTE, end: booking.end + MINUTE }
      expect(shown(freeSlots(query({ busy: [longer], window: monday })))).toEqual([
        "2027-01-04T14:00:00+01:00 15:00:00+01:00",
        "2027-01-04T15:00:00+01:00 16:00:00+01:00"
      ])
    })
  })

  describe("alternatives", () => {
    it("successive slots never overlap", () => {
      const slots = freeSlots(
        query({ durationMinutes: 120, window: { start: local(2027, 1, 4), end: local(2027, 1, 5) } })
      )
      expect(shown(slots)).toEqual([
        "2027-01-04T08:00:00+01:00 10:00:00+01:00",
        "2027-01-04T10:00:00+01:00 12:00:00+01:00",
        "2027-01-04T12:00:00+01:00 14:00:00+01:00",
        "2027-01-04T14:00:00+01:00 16:00:00+01:00"
      ])
      expectNoOverlaps(slots)
    })

    it("returns at most limit slots, the earliest ones", () => {
      const all = freeSlots(query())
      expect(all.length).toBe(5 * 8)
      expect(freeSlots(query({ limit: 3 }))).toEqual(all.slice(0, 3))
      expect(freeSlots(query({ limit: 1 }))).toEqual(all.slice(0, 1))
    })
  })

  describe("daily hours", () => {
    const morning = { fromHour: 8, toHour: 12 }
    const monday = { start: local(2027, 1, 4), end: local(2027, 1, 5) }
    const longDay = [{ isoWeekday: 1, opens: "07:00", closes: "17:00" }]

    it("keeps only the requested hours of each day", () => {
      expect(shown(freeSlots(query({ hours: longDay, dailyHours: morning, window: monday })))).toEqual([
        "2027-01-04T08:00:00+01:00 09:00:00+01:00",
        "2027-01-04T09:00:00+01:00 10:00:00+01:00",
        "2027-01-04T10:00:00+01:00 11:00:00+01:00",
        "2027-01-04T11:00:00+01:00 12:00:00+01:00"
      ])
    })

    it("reads the hours in the requester's zone: 8-12 in London is 9-13 in Stockholm", () => {
      const slots = freeSlots(
        query({ hours: longDay, dailyHours: morning, window: monday, windowTimeZone: "Europe/London" })
      )
      expect(shown(slots)).toEqual([
        "2027-01-04T09:00:00+01:00 10:00:00+01:00",
        "2027-01-04T10:00:00+01:00 11:00:00+01:00",
        "2027-01-04T11:00:00+01:00 12:00:00+01:00",
        "2027-01-04T12:00:00+01:00 13:00:00+01:00"
      ])
      expect(formatInZone(slots[0]!.start, "Europe/London")).toBe("2027-01-04T08:00:00+00:00")
      expect(formatInZone(slots[3]!.end, "Europe/London")).toBe("2027-01-04T12:00:00+00:00")
    })

    it("a slot across the spring-forward gap must end by the requester's local end hour (före kl 03)", () => {
      // 01:00 + 2 h of real time is 04:00 on the clock that day, past the requested 03:00.
      const slots = freeSlots(
        query({
          hours: [{ isoWeekday: 7, opens: "00:00", closes: "06:00" }],
          durationMinutes: 120,
          dailyHours: { fromHour: 0, toHour: 3 },
          window: { start: at("2027-03-28T01:00:00+01:00"), end: at("2027-03-29T00:00:00+02:00") },
          now: local(2027, 3, 20)
        })
      )
      expect(shown(slots)).toEqual([])
    })

    it("a slot across the repeated fall-back hour that ends before the requester's end hour is kept (före kl 03)", () => {
      // 02:30 (first) + 1 h of real time is 02:30 (second) on the clock, inside the requested 00:00-03:00.
      const slots = freeSlots(
        query({
          hours: [{ isoWeekday: 7, opens: "00:00", closes: "06:00" }],
          dailyHours: { fromHour: 0, toHour: 3 },
          window: { start: at("2026-10-25T02:30:00+02:00"), end: at("2026-10-26T00:00:00+01:00") },
          now: local(2026, 10, 20)
        })
      )
      expect(shown(slots)[0]).toBe("2026-10-25T02:30:00+02:00 02:30:00+01:00")
    })
  })

  describe("excluded dates", () => {
    const allDay = [1, 2, 3, 4, 5, 6, 7].map((isoWeekday) => ({ isoWeekday, opens: "00:00", closes: "23:59" }))

    it("no slot lies on an excluded local date; the other days keep theirs", () => {
      const slots = freeSlots(query({ durationMinutes: 240, excludedDates: ["2027-01-05", "2027-01-07"] }))
      expect(shown(slots)).toEqual(
        ["04", "06", "08"].flatMap((day) => [
          `2027-01-${day}T08:00:00+01:00 12:00:00+01:00`,
          `2027-01-${day}T12:00:00+01:00 16:00:00+01:00`
        ])
      )
    })

    it("with daily hours, slots lie in those hours of the days left (vardagar efter 17)", () => {
      const slots = freeSlots(
        query({
          hours: allDay,
          durationMinutes: 120,
          dailyHours: { fromHour: 17, toHour: 21 },
          excludedDates: ["2027-01-09", "2027-01-10"]
        })
      )
      expect(shown(slots)).toEqual(
        ["04", "05", "06", "07", "08"].flatMap((day) => [
          `2027-01-${day}T17:00:00+01:00 19:00:00+01:00`,
          `2027-01-${day}T19:00:00+01:00 21:00:00+01:00`
        ])
      )
    })

    it("a slot reaching past midnight into an excluded date is excluded", () => {
      const slots = freeSlots(
        query({
          hours: allDay,
          durationMinutes: 120,
          window: { start: local(2027, 1, 4, 22), end: local(2027, 1, 5, 4) },
          excludedDates: ["2027-01-05"]
        })
      )
      expect(shown(slots)).toEqual([])
    })

    it("dates are the requester's: 00:30 in Stockholm is still the previous day in London", () => {
      const slots = freeSlots(
        query({
          hours: allDay,
          durationMinutes: 30,
          window: { start: local(2027, 1, 5, 0), end: local(2027, 1, 5, 2) },
          windowTimeZone: "Europe/London",
          excludedDates: ["2027-01-05"]
        })
      )
      expect(shown(slots)).toEqual([
        "2027-01-05T00:00:00+01:00 00:30:00+01:00",
        "2027-01-05T00:30:00+01:00 01:00:00+01:00"
      ])
    })
  })

  describe("daylight saving time", () => {
    const nights = [{ isoWeekday: 7, opens: "00:00", closes: "06:00" }]

    describe("spring forward, Sunday 2027-03-28 (02:00 becomes 03:00)", () => {
      const sunday = { start: at("2027-03-28T00:00:00+01:00"), end: at("2027-03-29T00:00:00+02:00") }
      const spring = (overrides: Partial<SlotQuery>) =>
        freeSlots(query({ hours: nights, window: sunday, now: local(2027, 3, 20), ...overrides }))

      it("a 120-minute slot from local 01:00 ends at local 04:00, two hours later in real time", () => {
        const [slot] = spring({ durationMinutes: 120, window: { ...sunday, start: at("2027-03-28T01:00:00+01:00") } })
        expect(slot).toEqual({ start: at("2027-03-28T01:00:00+01:00"), end: at("2027-03-28T04:00:00+02:00") })
        expect(slot!.end - slot!.start).toBe(2 * HOUR)
      })

      it("local 02:00 and 02:30 do not exist and no slot starts there; the working interval is 5 h", () => {
        const slots = spring({ durationMinutes: 30 })
        expect(slots.map((slot) => formatInZone(slot.start, "Europe/Stockholm").slice(11))).toEqual([
          "00:00:00+01:00",
          "00:30:00+01:00",
          "01:00:00+01:00",
          "01:30:00+01:00",
          "03:00:00+02:00",
          "03:30:00+02:00",
          "04:00:00+02:00",
          "04:30:00+02:00",
          "05:00:00+02:00",
          "05:30:00+02:00"
        ])
        expect(slots.at(-1)!.end - slots[0]!.start).toBe(5 * HOUR)
        for (const slot of slots) expect(slot.end - slot.start).toBe(30 * MINUTE)
        expectNoOverlaps(slots)
      })
    })

    it("an opening in the gap (02:01, read as 03:01) comes after one at 03:00: the earliest slot is 03:00", () => {
      const slots = freeSlots(
        query({
          hours: [
            { isoWeekday: 7, opens: "03:00", closes: "03:15" },
            { isoWeekday: 7, opens: "02:01", closes: "03:16" }
          ],
          durationMinutes: 15,
          window: { start: at("2026-03-29T03:00:00+02:00"), end: at("2026-03-29T03:16:00+02:00") },
          now: local(2026, 3, 20)
        })
      )
      expect(shown(slots)).toEqual(["2026-03-29T03:00:00+02:00 03:15:00+02:00"])
    })

    describe("fall back, Sunday 2026-10-25 (03:00 becomes 02:00)", () => {
      const sunday = { start: at("2026-10-25T00:00:00+02:00"), end: at("2026-10-26T00:00:00+01:00") }
      const fall = (overrides: Partial<SlotQuery>) =>
        freeSlots(query({ hours: nights, window: sunday, now: local(2026, 10, 20), ...overrides }))

      it("the 00:00-06:00 interval is 7 h long and the repeated hour is used twice", () => {
        const slots = fall({ durationMinutes: 30 })
        expect(slots.length).toBe(14)
        expect(slots[0]!.start).toBe(at("2026-10-25T00:00:00+02:00"))
        expect(slots.at(-1)!.end).toBe(at("2026-10-25T06:00:00+01:00"))
        expect(slots.at(-1)!.end - slots[0]!.start).toBe(7 * HOUR)
        expect(shown(slots).slice(4, 8)).toEqual([
          "2026-10-25T02:00:00+02:00 02:30:00+02:00",
          "2026-10-25T02:30:00+02:00 02:00:00+01:00",
          "2026-10-25T02:00:00+01:00 02:30:00+01:00",
          "2026-10-25T02:30:00+01:00 03:00:00+01:00"
        ])
        expectNoOverlaps(slots)
      })

      it("a 60-minute slot from the first 02:30 ends at the second 02:30, one hour later in real time", () => {
        const [slot] = fall({ durationMinutes: 60, window: { ...sunday, start: at("2026-10-25T02:30:00+02:00") } })
        expect(slot).toEqual({ start: at("2026-10-25T02:30:00+02:00"), end: at("2026-10-25T02:30:00+01:00") })
        expect(slot!.end - slot!.start).toBe(HOUR)
      })

      it("hour-long slots over the night are seven, each one hour long, none overlapping", () => {
        const slots = fall({ durationMinutes: 60 })
        expect(shown(slots)).toEqual([
          "2026-10-25T00:00:00+02:00 01:00:00+02:00",
          "2026-10-25T01:00:00+02:00 02:00:00+02:00",
          "2026-10-25T02:00:00+02:00 02:00:00+01:00",
          "2026-10-25T02:00:00+01:00 03:00:00+01:00",
          "2026-10-25T03:00:00+01:00 04:00:00+01:00",
          "2026-10-25T04:00:00+01:00 05:00:00+01:00",
          "2026-10-25T05:00:00+01:00 06:00:00+01:00"
        ])
        for (const slot of slots) expect(slot.end - slot.start).toBe(HOUR)
        expectNoOverlaps(slots)
      })
    })

    it.each([
      ["2027-03-29", "+02:00"],
      ["2026-10-26", "+01:00"]
    ])("the Monday after a change (%s) has its full 8 hours from 08:00 to 16:00", (date, offset) => {
      const monday = { start: at(`${date}T00:00:00${offset}`), end: at(`${date}T23:59:00${offset}`) }
      const slots = freeSlots(
        query({ durationMinutes: 30, window: monday, now: at(`${date}T00:00:00${offset}`) - 7 * 24 * HOUR })
      )
      expect(slots.length).toBe(16)
      expect(slots[0]!.start).toBe(at(`${date}T08:00:00${offset}`))
      expect(slots.at(-1)!.end).toBe(at(`${date}T16:00:00${offset}`))
      expect(slots.at(-1)!.end - slots[0]!.start).toBe(8 * HOUR)
    })
  })
})
