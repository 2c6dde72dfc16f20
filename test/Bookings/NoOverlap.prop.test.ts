import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  allDay,
  calendarRows,
  confirm,
  describeOutcome,
  fc,
  type Hours,
  hhmm,
  importSupply,
  optionRequest,
  overlaps,
  PropLayer,
  propRunner,
  propSettings,
  provider,
  resetBookings,
  rowCounts,
  type Slot,
  showSlot,
  slotAt,
  withinHours
} from "../support/Props.js"

const law = "no two confirmed bookings of a provider overlap, and every slot_taken was a real overlap"
const settings = propSettings(law, { quick: 50, deep: 2000 })

/** One opening (or none) per weekday on the half-hour grid; a quarter of the providers get these. */
const someHours: fc.Arbitrary<ReadonlyArray<Hours>> = fc
  .array(fc.option(fc.tuple(fc.integer({ min: 0, max: 47 }), fc.integer({ min: 0, max: 47 })), { nil: undefined }), {
    minLength: 7,
    maxLength: 7
  })
  .map((days) =>
    days.flatMap((day, index) => {
      if (day === undefined || day[0] === day[1]) return []
      const [opens, closes] = day[0] < day[1] ? day : [day[1], day[0]]
      return [{ iso_weekday: index + 1, opens: hhmm(opens * 30), closes: hhmm(closes * 30) }]
    })
  )

const anyProvider = fc.record({
  amountSek: fc.integer({ min: 0, max: 20_000 }),
  hours: fc.oneof({ weight: 3, arbitrary: fc.constant(allDay) }, { weight: 1, arbitrary: someHours })
})

/** Starts 08:00 to 16:00 on two days, 30 to 180 minutes long: overlaps and exact touching are common. */
const anyAttempt = fc.record({
  provider: fc.nat({ max: 2 }),
  day: fc.integer({ min: 0, max: 1 }),
  startStep: fc.integer({ min: 16, max: 32 }),
  durationSteps: fc.integer({ min: 1, max: 6 })
})

layer(PropLayer(), { excludeTestServices: true })("Bookings.confirm against the Postgres calendar", (it) => {
  it.effect(
    law,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.array(anyProvider, { minLength: 1, maxLength: 3 }),
              fc.array(anyAttempt, { minLength: 1, maxLength: 12 }),
              async (specs, attempts) => {
                const providers = specs.map((spec, index) => provider(`prop-p${index}`, spec.amountSek, spec.hours))
                await run(Effect.andThen(resetBookings, importSupply(providers)))
                const accepted: Array<{ readonly providerId: string; readonly slot: Slot; readonly id: string }> = []
                for (const [index, attempt] of attempts.entries()) {
                  const p = providers[attempt.provider % providers.length]!
                  const slot = slotAt(attempt.day, attempt.startStep, attempt.durationSteps)
                  const clash = accepted.find((b) => b.providerId === p.id && overlaps(b.slot, slot))
                  const open = withinHours(p.hours, attempt.day, attempt.startStep, attempt.durationSteps)
                  const outcome = await run(
                    Effect.flatMap(optionRequest(p, slot, `overlap-${index}`, index), (request) => confirm(request))
                  )
                  const context = `attempt ${index}: ${p.id} ${showSlot(slot)} (${open ? "open" : "closed"}${
                    clash ? `, overlaps ${showSlot(clash.slot)}` : ""
                  }) answered ${describeOutcome(outcome)}`
                  if (clash === undefined && open) {
                    expect(outcome, context).toMatchObject({ _tag: "Confirmed", replay: false })
                    if (outcome._tag !== "Confirmed") return
                    expect(outcome.booking.provider_id).toBe(p.id)
                    expect(Date.parse(outcome.booking.slot_start_at)).toBe(slot.start)
                    expect(Date.parse(outcome.booking.slot_end_at)).toBe(slot.end)
                    expect(outcome.booking.price_sek).toBe(p.amountSek)
                    accepted.push({ providerId: p.id, slot, id: outcome.booking.id })
                  } else {
                    expect(outcome, context).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
                  }
                }
                const rows = await run(calendarRows)
                for (const [i, a] of rows.entries()) {
                  for (const b of rows.slice(i + 1)) {
                    if (a.providerId === b.providerId) {
                      expect(overlaps(a, b), `${a.providerId}: ${showSlot(a)} and ${showSlot(b)}`).toBe(false)
                    }
                  }
                }
                const sorted = <A extends { readonly id: string }>(xs: ReadonlyArray<A>) =>
                  [...xs].sort((a, b) => a.id.localeCompare(b.id))
                expect(sorted(rows)).toEqual(
                  sorted(accepted.map((b) => ({ id: b.id, providerId: b.providerId, ...b.slot })))
                )
                expect(await run(rowCounts)).toEqual({
                  bookings: accepted.length,
                  calendar: accepted.length,
                  outbox: 2 * accepted.length,
                  keys: accepted.length
                })
              }
            ),
            settings.parameters
          )
        )
      }),
    settings.timeout
  )
})
