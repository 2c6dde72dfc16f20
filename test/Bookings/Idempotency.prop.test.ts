import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { formatPostcode } from "../../src/Domain/Supply.js"
import {
  bookingsByKey,
  claimsFor,
  confirm,
  customerAt,
  customers,
  describeOutcome,
  fc,
  importSupply,
  type Outcome,
  offeredTermsOf,
  optionRequest,
  PropLayer,
  type PropRun,
  partner,
  propRunner,
  propSettings,
  provider,
  resetBookings,
  rowCounts,
  type Slot,
  searchedAt,
  showSlot,
  sign,
  slotAt
} from "../support/Props.js"

const sequentialLaw = "any interleaving of replays and reuses gives one booking per key"
const pairLaw =
  "a second confirm under a key replays the first booking or refuses naming it: never a second booking, never 'nothing was booked'"
const pairs = propSettings(pairLaw, { quick: 40, deep: 2000 })
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
                  expect(outcome, report).toMatchObject({ _tag: "Confirmed", replay: false })
                  if (outcome._tag === "Confirmed") winners.set(s.key, { sent: s, bookingId: outcome.booking.id })
                } else if (winner.sent.what === s.what) {
                  expect(outcome, report).toMatchObject({ _tag: "Confirmed", replay: true })
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
                const created = tried.filter((t) => t.outcome._tag === "Confirmed" && !t.outcome.replay)
                expect(created, report).toHaveLength(1)
                const first = created[0]!
                if (first.outcome._tag !== "Confirmed") return
                const bookingId = first.outcome.booking.id
                winners.set(key, { sent: first.s, bookingId })
                for (const { s, outcome } of tried) {
                  if (outcome === first.outcome) continue
                  if (outcome._tag === "Confirmed") {
                    expect(s.what, report).toBe(first.s.what)
                    expect(outcome, report).toMatchObject({ replay: true })
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

/**
 * A second confirm under the key of a first: what it may change. Time stamps, consent wording and
 * source never make it another request; the option (a fresh one for the same slot is the same),
 * the customer (retyped is the same) and the address (respaced is the same) do.
 */
const anyPair = fc.record({
  startStep: fc.integer({ min: 16, max: 30 }),
  durationSteps: fc.integer({ min: 1, max: 4 }),
  metadata: fc.record({
    termsAcceptedAt: fc.boolean(),
    consentAt: fc.boolean(),
    statement: fc.boolean(),
    consentSource: fc.boolean(),
    source: fc.boolean(),
    reference: fc.boolean()
  }),
  option: fc.constantFrom("same token", "fresh token, same slot", "another slot"),
  customer: fc.constantFrom("same", "retyped", "another"),
  address: fc.constantFrom("same", "respaced", "another"),
  viaHeader: fc.boolean()
})
type Pair = typeof anyPair extends fc.Arbitrary<infer A> ? A : never

const decodeConfirm = Schema.decodeUnknownSync(BookingConfirmationRequest)

const pairBody = (input: {
  readonly token: string
  readonly slot: Slot
  readonly customer: unknown
  readonly address: string
  readonly metadata?: Pair["metadata"]
}) => {
  const changed = input.metadata
  return decodeConfirm({
    booking_option_id: input.token,
    customer: input.customer,
    service_location: { country_code: "SE", address: input.address, postcode: formatPostcode(11122) },
    user_consent_confirmed: true,
    booking_terms_accepted: true,
    booking_terms_version: offeredTermsOf(seller),
    booking_terms_accepted_at: changed?.termsAcceptedAt ? "2026-11-23T09:00:00+01:00" : "2026-11-23T08:59:00+01:00",
    ...(changed?.consentAt ? { consent_collected_at: "2026-11-23T08:58:30+01:00" } : {}),
    ...(changed?.statement ? { user_consent_statement: "Användaren sa ja igen." } : {}),
    ...(changed?.consentSource ? { consent_source: "voice" } : {}),
    ...(changed?.source ? { source: "retry" } : {}),
    ...(changed?.reference ? { external_reference: "attempt-2" } : {}),
    idempotency_key: "pair-key"
  })
}

layer(PropLayer(), { excludeTestServices: true })("Bookings.confirm, a pair under one key", (it) => {
  it.effect(
    pairLaw,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* importSupply([seller])
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(anyPair, async (pair) => {
              await run(resetBookings)
              const slot = slotAt(0, pair.startStep, pair.durationSteps)
              const claims = claimsFor(seller, slot)
              const { token } = await run(sign(claims))
              const first = await run(
                confirm(pairBody({ token, slot, customer: customers[0], address: "Drottninggatan 12" }))
              )
              expect(first, describeOutcome(first)).toMatchObject({ _tag: "Confirmed", replay: false })
              if (first._tag !== "Confirmed") return

              const secondSlot = pair.option === "another slot" ? slotAt(1, pair.startStep, pair.durationSteps) : slot
              const secondToken =
                pair.option === "same token" ? token : (await run(sign(claimsFor(seller, secondSlot)))).token
              const customer =
                pair.customer === "same"
                  ? customers[0]
                  : pair.customer === "retyped"
                    ? {
                        name: " astrid  Lindqvist".replace("astrid", "Astrid"),
                        phone: "+46701234567",
                        email: "ASTRID@example.se"
                      }
                    : customerAt(7)
              const address =
                pair.address === "same"
                  ? "Drottninggatan 12"
                  : pair.address === "respaced"
                    ? " Drottninggatan   12 "
                    : "Sveavägen 44"
              const body = pairBody({
                token: secondToken,
                slot: secondSlot,
                customer,
                address,
                metadata: pair.metadata
              })
              const { idempotency_key: _, ...withoutKey } = body
              const second = await run(
                pair.viaHeader ? confirm(withoutKey, searchedAt, partner, "pair-key") : confirm(body)
              )
              const report = `${JSON.stringify(pair)}: ${describeOutcome(second)}`
              const same = pair.option !== "another slot" && pair.customer !== "another" && pair.address !== "another"
              if (same) {
                expect(second, report).toMatchObject({ _tag: "Confirmed", replay: true })
                if (second._tag === "Confirmed") expect(second.booking.id, report).toBe(first.booking.id)
              } else {
                expect(second, report).toMatchObject({
                  _tag: "Rejected",
                  code: "idempotency_key_reused",
                  bookingId: first.booking.id
                })
                const step = second._tag === "Rejected" ? (second.step ?? "") : ""
                expect(step, report).toContain(first.requestId)
                expect(step, report).not.toMatch(/nothing (was|is) booked|search again|^Use a new/i)
              }
              expect((await run(rowCounts)).bookings, report).toBe(1)
            }),
            pairs.parameters
          )
        )
      }),
    pairs.timeout
  )
})
