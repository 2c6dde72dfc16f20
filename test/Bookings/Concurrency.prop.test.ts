import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { fc, propSettings } from "../support/FastCheck.js"
import {
  calendarRows,
  confirm,
  describeOutcome,
  importSupply,
  type Outcome,
  optionRequest,
  PropLayer,
  propRunner,
  provider,
  resetBookings,
  showSlot,
  slotAt
} from "../support/PropHarness.js"

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
                    expect(outcome, report).toMatchObject({ status: 201, replay: false })
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
