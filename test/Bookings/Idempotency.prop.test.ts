import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { fc, propSettings } from "../support/FastCheck.js"
import {
  bookingsByKey,
  confirm,
  customers,
  describeOutcome,
  importSupply,
  type Outcome,
  optionRequest,
  PropLayer,
  type PropRun,
  propRunner,
  provider,
  resetBookings,
  rowCounts,
  type Slot,
  showSlot,
  slotAt
} from "../support/PropHarness.js"

const sequentialLaw = "any interleaving of replays and reuses gives one booking per key"
const concurrentLaw = "any concurrent mix of replays and reuses gives one booking per key"
const sequential = propSettings(sequentialLaw, { quick: 50, deep: 2000 })
const concurrent = propSettings(concurrentLaw, { quick: 25, deep: 2000 })

const seller = provider("idem-provider", 2290)

/**
 * Each key's requests book slots in the key's own four hours, so requests of different keys never
 * compete for time: only the key decides. Two requests of one key are the same request when they
 * book the same slot for the same customer (each has its own freshly signed option); the same
 * body is sent again by repeating its index.
 */
const anyPlan = fc
  .array(
    fc.record({
      requests: fc.array(
        fc.record({
          startStep: fc.integer({ min: 0, max: 4 }),
          durationSteps: fc.integer({ min: 1, max: 4 }),
          customer: fc.nat({ max: customers.length - 1 })
        }),
        { minLength: 1, maxLength: 3 }
      ),
      sends: fc.array(fc.nat(), { minLength: 1, maxLength: 4 })
    }),
    { minLength: 1, maxLength: 4 }
  )
  .chain((keys) => {
    const sends = keys.flatMap((k, key) => k.sends.map((pick) => ({ key, request: pick % k.requests.length })))
    return fc
      .shuffledSubarray(sends, { minLength: sends.length, maxLength: sends.length })
      .map((order) => ({ keys, order }))
  })
type Plan = typeof anyPlan extends fc.Arbitrary<infer A> ? A : never

interface Prepared {
  readonly key: number
  readonly request: number
  /** The slot and customer: what makes two of a key's requests the same booking request. */
  readonly what: string
  readonly slot: Slot
  readonly body: BookingConfirmationRequest
}

const regionOf = (key: number) => ({ day: Math.floor(key / 2), fromStep: key % 2 === 0 ? 16 : 26 })

const prepare = (plan: Plan) =>
  Effect.gen(function* () {
    yield* resetBookings
    const bodies = yield* Effect.forEach(plan.keys, (k, key) =>
      Effect.forEach(k.requests, (r) => {
        const { day, fromStep } = regionOf(key)
        const slot = slotAt(day, fromStep + r.startStep, r.durationSteps)
        return Effect.map(optionRequest(seller, slot, `idem-key-${key}`, r.customer), (body) => ({
          slot,
          body,
          what: `${slot.start}-${slot.end}-${r.customer}`
        }))
      })
    )
    return plan.order.map(({ key, request }): Prepared => ({ key, request, ...bodies[key]![request]! }))
  })

const trace = (sent: ReadonlyArray<Prepared>, outcomes: ReadonlyArray<Outcome>) =>
  sent
    .map((s, i) => {
      const outcome = outcomes[i]
      return `key ${s.key} request ${s.request} ${showSlot(s.slot)}: ${outcome ? describeOutcome(outcome) : "not sent"}`
    })
    .join("\n")

/** What the database holds per key, checked against the request that won it. */
const expectOneBookingPerKey = async (
  run: PropRun,
  winners: ReadonlyMap<number, { readonly sent: Prepared; readonly bookingId: string }>,
  report: string
) => {
  const stored = await run(bookingsByKey)
  expect(stored.map((row) => row.key).sort(), report).toEqual(
    [...winners.keys()].map((key) => `idem-key-${key}`).sort()
  )
  for (const [key, winner] of winners) {
    const row = stored.find((r) => r.key === `idem-key-${key}`)!
    expect(row.bookingId, report).toBe(winner.bookingId)
    expect(row.slotStart?.getTime(), report).toBe(winner.sent.slot.start)
    expect(row.customer, report).toEqual(winner.sent.body.customer)
  }
  const counts = await run(rowCounts)
  expect(counts, report).toEqual({
    bookings: winners.size,
    calendar: winners.size,
    outbox: 2 * winners.size,
    keys: winners.size
  })
}

layer(PropLayer({ maxConnections: 8 }), { excludeTestServices: true })("Bookings.confirm idempotency", (it) => {
  it.effect(
    sequentialLaw,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* importSupply([seller])
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(anyPlan, async (plan) => {
              const sent = await run(prepare(plan))
              const outcomes: Array<Outcome> = []
              const winners = new Map<number, { readonly sent: Prepared; readonly bookingId: string }>()
              for (const s of sent) {
                const outcome = await run(confirm(s.body))
                outcomes.push(outcome)
                const report = trace(sent, outcomes)
                const winner = winners.get(s.key)
                if (winner === undefined) {
                  expect(outcome, report).toMatchObject({ _tag: "Confirmed", status: 201, replay: false })
                  if (outcome._tag === "Confirmed") winners.set(s.key, { sent: s, bookingId: outcome.booking.id })
                } else if (winner.sent.what === s.what) {
                  expect(outcome, report).toMatchObject({ _tag: "Confirmed", status: 200, replay: true })
                  if (outcome._tag === "Confirmed") expect(outcome.booking.id, report).toBe(winner.bookingId)
                } else {
                  expect(outcome, report).toMatchObject({
                    _tag: "Rejected",
                    code: "idempotency_key_reused",
                    bookingId: winner.bookingId
                  })
                }
              }
              await expectOneBookingPerKey(run, winners, trace(sent, outcomes))
            }),
            sequential.parameters
          )
        )
      }),
    sequential.timeout
  )

  it.effect(
    concurrentLaw,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* importSupply([seller])
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(anyPlan, fc.scheduler(), async (plan, scheduler) => {
              const sent = await run(prepare(plan))
              const answers = sent.map((s, i) =>
                scheduler
                  .schedule(Promise.resolve(i), `key ${s.key} request ${s.request}`)
                  .then(() => run(confirm(s.body)))
              )
              await scheduler.waitAll()
              const outcomes = await Promise.all(answers)
              const report = trace(sent, outcomes)
              const winners = new Map<number, { readonly sent: Prepared; readonly bookingId: string }>()
              for (const key of plan.keys.keys()) {
                const tried = sent.flatMap((s, i) => (s.key === key ? [{ s, outcome: outcomes[i]! }] : []))
                const created = tried.filter((t) => t.outcome._tag === "Confirmed" && t.outcome.status === 201)
                expect(created, report).toHaveLength(1)
                const first = created[0]!
                if (first.outcome._tag !== "Confirmed") return
                const bookingId = first.outcome.booking.id
                winners.set(key, { sent: first.s, bookingId })
                for (const { s, outcome } of tried) {
                  if (outcome === first.outcome) continue
                  if (outcome._tag === "Confirmed") {
                    expect(s.what, report).toBe(first.s.what)
                    expect(outcome, report).toMatchObject({ status: 200, replay: true })
                    expect(outcome.booking.id, report).toBe(bookingId)
                  } else {
                    // The same request under the key always replays; only a different one is refused, naming the booking.
                    expect(s.what, `${report}\n${describeOutcome(outcome)}`).not.toBe(first.s.what)
                    expect(outcome, report).toMatchObject({
                      _tag: "Rejected",
                      code: "idempotency_key_reused",
                      bookingId
                    })
                  }
                }
              }
              await expectOneBookingPerKey(run, winners, report)
            }),
            concurrent.parameters
          )
        )
      }),
    concurrent.timeout
  )
})
