import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Bookings } from "../../src/Bookings/Bookings.js"
import {
  bookingStates,
  type ChangeOutcome,
  calendarRows,
  cancel,
  cancelRequest,
  confirm,
  describeChange,
  describeOutcome,
  fc,
  heldRows,
  importSupply,
  type Outcome,
  optionRequest,
  PropLayer,
  partner,
  propRunner,
  propSettings,
  provider,
  reschedule,
  rescheduleRequest,
  resetBookings,
  type Slot,
  showSlot,
  slotAt
} from "../support/Props.js"

const law = "of concurrent conflicting confirms exactly one per conflicting group wins and the rest are slot_taken"
const settings = propSettings(law, { quick: 25, deep: 2000 })

const providers = [provider("race-a", 1490), provider("race-b", 2490)]

/**
 * A group lives in its own region: a provider, a day and a six-hour stretch around an anchor.
 * Every slot of a group contains the half hour before and after its anchor, so all of them
 * conflict pairwise; regions only meet at their edges, so groups touch but never conflict.
 */
const anchors = [5, 11, 17]
const regions = providers.flatMap((p) =>
  [0, 1].flatMap((day) => anchors.map((anchorHour) => ({ provider: p, day, anchorStep: anchorHour * 2 })))
)

const anyGroup = fc.record({
  region: fc.nat({ max: regions.length - 1 }),
  slots: fc.array(
    fc.record({ stepsBefore: fc.integer({ min: 1, max: 6 }), stepsAfter: fc.integer({ min: 1, max: 6 }) }),
    { minLength: 2, maxLength: 5 }
  )
})

layer(PropLayer({ maxConnections: 8 }), { excludeTestServices: true })("Bookings.confirm under concurrency", (it) => {
  it.effect(
    law,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* importSupply(providers)
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.uniqueArray(anyGroup, { minLength: 1, maxLength: 4, selector: (group) => group.region }),
              fc.scheduler(),
              async (groups, scheduler) => {
                await run(resetBookings)
                const batch = await run(
                  Effect.forEach(groups, (group, g) => {
                    const { provider: p, day, anchorStep } = regions[group.region]!
                    return Effect.forEach(group.slots, ({ stepsBefore, stepsAfter }, i) => {
                      const slot = slotAt(day, anchorStep - stepsBefore, stepsBefore + stepsAfter)
                      return Effect.map(optionRequest(p, slot, `race-${g}-${i}`, 10 * g + i), (request) => ({
                        group: g,
                        providerId: p.id,
                        slot,
                        request
                      }))
                    })
                  }).pipe(Effect.map((perGroup) => perGroup.flat()))
                )
                // The scheduler picks the order in which the confirms start; they then run at once.
                const answers = batch.map(({ request }, i) =>
                  scheduler
                    .schedule(Promise.resolve(i), `confirm ${request.idempotency_key}`)
                    .then(() => run(confirm(request)))
                )
                await scheduler.waitAll()
                const outcomes: ReadonlyArray<Outcome> = await Promise.all(answers)
                const report = batch
                  .map((c, i) => `${c.request.idempotency_key} ${showSlot(c.slot)}: ${describeOutcome(outcomes[i]!)}`)
                  .join("\n")
                for (const outcome of outcomes) {
                  expect(outcome._tag === "Defect" ? outcome.cause : "no defect", report).toBe("no defect")
                  if (outcome._tag === "Confirmed") {
                    expect(outcome, report).toMatchObject({ replay: false })
                  } else {
                    expect(outcome, report).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
                  }
                }
                const rows = await run(calendarRows)
                expect(rows, report).toHaveLength(groups.length)
                for (const g of groups.keys()) {
                  const members = batch.flatMap((c, i) => (c.group === g ? [{ ...c, outcome: outcomes[i]! }] : []))
                  const winners = members.filter((m) => m.outcome._tag === "Confirmed")
                  expect(winners, report).toHaveLength(1)
                  const winner = winners[0]!
                  if (winner.outcome._tag !== "Confirmed") return
                  const { id } = winner.outcome.booking
                  expect(rows.filter((row) => row.id === id)).toEqual([
                    { id, providerId: winner.providerId, ...winner.slot }
                  ])
                }
              }
            ),
            settings.parameters
          )
        )
      }),
    settings.timeout
  )
})

const changeLaw =
  "a cancel racing a move of one booking, a move racing a confirm for its new slot, a confirm racing for a slot a cancel frees: one outcome each, and the calendar and status agree"
const changeSettings = propSettings(changeLaw, { quick: 20, deep: 1000 })

type Race = "cancel_vs_move" | "cancel_vs_move_unversioned" | "move_vs_confirm" | "confirm_vs_cancel"

/** A race in its own region: the booking at the hour before the anchor, the other slot near the anchor. */
const anyRace = fc.record({
  region: fc.nat({ max: regions.length - 1 }),
  race: fc.constantFrom<Race>("cancel_vs_move", "cancel_vs_move_unversioned", "move_vs_confirm", "confirm_vs_cancel"),
  // The other slot starts from 3 half hours before the anchor (overlapping the booking) to 3 after.
  offset: fc.integer({ min: -3, max: 3 }),
  length: fc.integer({ min: 1, max: 3 }),
  cancelFirstInList: fc.boolean()
})

const isDone = (outcome: ChangeOutcome<unknown>) => outcome._tag === "Done"

layer(PropLayer({ maxConnections: 8 }), { excludeTestServices: true })(
  "Bookings.cancel and reschedule under concurrency",
  (it) => {
    it.effect(
      changeLaw,
      () =>
        Effect.gen(function* () {
          const run = yield* propRunner
          yield* importSupply(providers)
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(
                fc.uniqueArray(anyRace, { minLength: 1, maxLength: 3, selector: (race) => race.region }),
                fc.scheduler(),
                async (races, scheduler) => {
                  await run(resetBookings)
                  // Each race's booking, confirmed before the race starts.
                  const setups = await Promise.all(
                    races.map(async (race, g) => {
                      const { provider: p, day, anchorStep } = regions[race.region]!
                      const held: Slot = slotAt(day, anchorStep - 2, 2)
                      const other: Slot = slotAt(day, anchorStep + race.offset, race.length)
                      const made = await run(Effect.flatMap(optionRequest(p, held, `setup-${g}`, 30 + g), confirm))
                      if (made._tag !== "Confirmed") throw new Error(`setup ${g}: ${describeOutcome(made)}`)
                      return { race, p, held, other, id: made.booking.id }
                    })
                  )
                  const started = setups.flatMap(({ race, p, held, other, id }, g) => {
                    const cancelIt = (key: string, expectedVersion?: number) =>
                      run(cancel(id, cancelRequest({ key, ...(expectedVersion ? { expectedVersion } : {}) })))
                    const moveIt = (key: string, expectedVersion?: number) =>
                      run(
                        Effect.flatMap(
                          rescheduleRequest(p, other, { key, ...(expectedVersion ? { expectedVersion } : {}) }),
                          (request) => reschedule(id, request)
                        )
                      )
                    const confirmAt = (slot: Slot, key: string) =>
                      run(Effect.flatMap(optionRequest(p, slot, key, 60 + g), confirm))
                    const ops: Array<{ readonly name: string; readonly go: () => Promise<any> }> =
                      race.race === "cancel_vs_move"
                        ? [
                            { name: "cancel", go: () => cancelIt(`c-${g}`, 1) },
                            { name: "move", go: () => moveIt(`m-${g}`, 1) }
                          ]
                        : race.race === "cancel_vs_move_unversioned"
                          ? [
                              { name: "cancel", go: () => cancelIt(`c-${g}`) },
                              { name: "move", go: () => moveIt(`m-${g}`) }
                            ]
                          : race.race === "move_vs_confirm"
                            ? [
                                { name: "move", go: () => moveIt(`m-${g}`) },
                                { name: "confirm", go: () => confirmAt(other, `n-${g}`) }
                              ]
                            : [
                                { name: "cancel", go: () => cancelIt(`c-${g}`) },
                                { name: "confirm", go: () => confirmAt(held, `n-${g}`) }
                              ]
                    if (!race.cancelFirstInList) ops.reverse()
                    // The scheduler picks the order in which the calls start; they then run at once.
                    return ops.map((op) => ({
                      g,
                      name: op.name,
                      answer: scheduler.schedule(Promise.resolve(op.name), `${op.name} ${g}`).then(op.go)
                    }))
                  })
                  await scheduler.waitAll()
                  const answers = await Promise.all(started.map((s) => s.answer))
                  const outcome = (g: number, name: string) =>
                    answers[started.findIndex((s) => s.g === g && s.name === name)]
                  const report = [
                    scheduler
                      .report()
                      .map((task) => task.label)
                      .join(", "),
                    ...setups.map(
                      ({ race, held, other }, g) =>
                        `${g} ${race.race} held ${showSlot(held)} other ${showSlot(other)}: ${started
                          .filter((s) => s.g === g)
                          .map(
                            (s) =>
                              `${s.name} ${"_tag" in outcome(g, s.name) && "status" in outcome(g, s.name) ? describeOutcome(outcome(g, s.name)) : describeChange(outcome(g, s.name))}`
                          )
                          .join(", ")}`
                    )
                  ].join("\n")
                  for (const answer of answers) {
                    expect(answer._tag === "Defect" ? answer.cause : "no defect", report).toBe("no defect")
                  }
                  const held = await run(heldRows)
                  const states = await run(bookingStates)
                  for (const [g, { race, p, held: heldSlot, other, id }] of setups.entries()) {
                    const stateOf = states.find((row) => row.id === id)!
                    const status = await run(Effect.flatMap(Bookings, (bookings) => bookings.status(id, partner)))
                    // The slots held in this race's region (six half hours either side of its anchor).
                    const { day, anchorStep } = regions[race.region]!
                    const from = slotAt(day, anchorStep - 6, 0).start
                    const to = slotAt(day, anchorStep + 6, 0).start
                    const mine = held.filter((row) => row.providerId === p.id && row.start >= from && row.start < to)
                    if (race.race === "cancel_vs_move") {
                      const cancelled = outcome(g, "cancel") as ChangeOutcome<unknown>
                      const moved = outcome(g, "move") as ChangeOutcome<unknown>
                      // Exactly one wins; the loser is refused with 409 and changed nothing.
                      expect([isDone(cancelled), isDone(moved)].filter(Boolean), report).toHaveLength(1)
                      if (isDone(cancelled)) {
                        expect(moved, report).toMatchObject({ _tag: "Rejected" })
                        expect(["booking_already_cancelled", "booking_changed"], report).toContain(
                          moved._tag === "Rejected" ? moved.code : ""
                        )
                        expect(status, report).toMatchObject({
                          found: false,
                          cancellation: { cancelled_by: "customer" }
                        })
                        expect(stateOf, report).toEqual({ id, status: "cancelled", version: 2, released: 1 })
                        expect(mine, report).toEqual([])
                      } else {
                        expect(cancelled, report).toMatchObject({ _tag: "Rejected", code: "booking_changed" })
                        expect(status, report).toMatchObject({ found: true, booking: { id, version: 2 } })
                        expect(stateOf, report).toEqual({ id, status: "confirmed", version: 2, released: 1 })
                        expect(mine, report).toEqual([{ id, providerId: p.id, ...other }])
                      }
                    } else if (race.race === "cancel_vs_move_unversioned") {
                      // The cancel always stands; the move either came first (then was cancelled) or was refused.
                      const moved = outcome(g, "move") as ChangeOutcome<unknown>
                      expect(outcome(g, "cancel"), report).toMatchObject({ _tag: "Done" })
                      expect(status, report).toMatchObject({ found: false })
                      expect(mine, report).toEqual([])
                      if (isDone(moved)) {
                        expect(stateOf, report).toEqual({ id, status: "cancelled", version: 3, released: 2 })
                      } else {
                        expect(moved, report).toMatchObject({ _tag: "Rejected", code: "booking_already_cancelled" })
                        expect(stateOf, report).toEqual({ id, status: "cancelled", version: 2, released: 1 })
                      }
                    } else if (race.race === "move_vs_confirm") {
                      const moved = outcome(g, "move") as ChangeOutcome<unknown>
                      const confirmed = outcome(g, "confirm") as Outcome
                      // The new slot goes to one of them; the other is slot_taken and changed nothing.
                      expect([isDone(moved), confirmed._tag === "Confirmed"].filter(Boolean), report).toHaveLength(1)
                      if (isDone(moved)) {
                        expect(confirmed, report).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
                        expect(status, report).toMatchObject({ found: true, booking: { id, version: 2 } })
                        expect(mine, report).toEqual([{ id, providerId: p.id, ...other }])
                      } else {
                        expect(moved, report).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
                        if (moved._tag === "Rejected") expect(moved.step, report).toContain("still stands")
                        expect(status, report).toMatchObject({ found: true, booking: { id, version: 1 } })
                        expect(stateOf, report).toEqual({ id, status: "confirmed", version: 1, released: 0 })
                        const newId = confirmed._tag === "Confirmed" ? confirmed.booking.id : ""
                        expect(
                          [...mine].sort((a, b) => a.start - b.start),
                          report
                        ).toEqual(
                          [
                            { id, providerId: p.id, ...heldSlot },
                            { id: newId, providerId: p.id, ...other }
                          ].sort((a, b) => a.start - b.start)
                        )
                      }
                    } else {
                      const confirmed = outcome(g, "confirm") as Outcome
                      // The cancel always wins; the confirm gets the slot only once it is released.
                      expect(outcome(g, "cancel"), report).toMatchObject({ _tag: "Done" })
                      expect(status, report).toMatchObject({ found: false })
                      if (confirmed._tag === "Confirmed") {
                        expect(confirmed, report).toMatchObject({ replay: false })
                        expect(mine, report).toEqual([{ id: confirmed.booking.id, providerId: p.id, ...heldSlot }])
                      } else {
                        expect(confirmed, report).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
                        expect(mine, report).toEqual([])
                      }
                    }
                  }
                }
              ),
              changeSettings.parameters
            )
          )
        }),
      changeSettings.timeout
    )
  }
)
