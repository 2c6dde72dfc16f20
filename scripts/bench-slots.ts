/**
 * Times the pure part of a search (time window, free slots, option times and labels) over a fixed
 * input, without a server or a database: `npx tsx scripts/bench-slots.ts`. Each round moves "now"
 * on by 7 hours, so a year of searches passes through the zone caches rather than one hot day.
 */
import { createHash } from "node:crypto"
import { slotLabel } from "../src/Domain/Labels.js"
import { freeSlots, type WorkingHours } from "../src/Domain/Slots.js"
import { formatInZone } from "../src/Domain/Zone.js"
import { parseTimeWindow } from "../src/Search/Timing/TimeWindow.js"

const weekdays: ReadonlyArray<WorkingHours> = [1, 2, 3, 4, 5].map((isoWeekday) => ({
  isoWeekday,
  opens: "07:00",
  closes: "16:00"
}))
const saturday: WorkingHours = { isoWeekday: 6, opens: "09:00", closes: "13:00" }
const providers = Array.from({ length: 20 }, (_, n) => ({
  hours: n % 3 === 0 ? [...weekdays, saturday] : weekdays,
  durationMinutes: 60 + (n % 4) * 60
}))
const phrases = [
  "snarast",
  "nästa vecka förmiddag",
  "inom två veckor, inte måndag",
  "helst en vardagskväll i december",
  "efter jul",
  undefined
]
const zones = ["Europe/Stockholm", "Europe/London", "America/New_York"]

const start = Date.UTC(2026, 0, 5, 8)
const round = (i: number) => {
  const now = new Date(start + i * 7 * 3_600_000)
  const timeZone = zones[i % zones.length]!
  const window = parseTimeWindow({ preferredTimeText: phrases[i % phrases.length], timeZone, now })
  const produced: Array<string> = [window.label]
  for (const provider of providers) {
    const busyStart = window.start.getTime() + 26 * 3_600_000
    const slots = freeSlots({
      hours: provider.hours,
      busy: [{ start: busyStart, end: busyStart + 2 * 3_600_000 }],
      durationMinutes: provider.durationMinutes,
      window: { start: window.start.getTime(), end: window.end.getTime() },
      dailyHours: window.dailyHours,
      excludedDates: window.excludedDates,
      windowTimeZone: timeZone,
      now: now.getTime(),
      limit: 2
    })
    for (const slot of slots) {
      produced.push(formatInZone(slot.start, timeZone), formatInZone(slot.end, timeZone), slotLabel(slot, timeZone))
    }
  }
  produced.push(formatInZone(window.start, timeZone), formatInZone(window.end, timeZone))
  return produced
}

const rounds = Number(process.env.ROUNDS ?? 2000)
// The digest of every string produced tells a faster run from a different one.
const digest = createHash("sha256")
for (let i = 0; i < rounds; i++) digest.update(round(i).join("\n"))
// CPU time as well as wall time: on a shared machine the wall time mostly measures the neighbours.
const began = performance.now()
const cpu = process.cpuUsage()
for (let i = 0; i < rounds; i++) round(i + rounds)
const elapsed = performance.now() - began
const { user, system } = process.cpuUsage(cpu)
console.log(
  `${rounds} searches of ${providers.length} providers: ${(elapsed / rounds).toFixed(3)} ms each, ${((user + system) / 1000 / rounds).toFixed(3)} ms CPU (output ${digest.digest("hex").slice(0, 16)})`
)
