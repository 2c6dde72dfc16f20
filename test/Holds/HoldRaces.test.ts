import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { customer, get, postJson, searchBodyFor, searchOptions } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const tokenA = "partner-a-token-0123456789"
const tokenB = "partner-b-token-9876543210"
const sandboxToken = "partner-sandbox-token-0123456789"
const bearer = (token?: string): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` }

let keys = 0
const hold = (option: any, token?: string, extra: Record<string, unknown> = {}) =>
  postJson(
    "/api/public/holds",
    { booking_option_id: option.booking_option_id, idempotency_key: `race-hold-${++keys}`, ...extra },
    bearer(token)
  )
const confirm = (option: any, token?: string) =>
  postJson(
    "/api/public/bookings",
    {
      booking_option_id: option.booking_option_id,
      customer,
      service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "11122" },
      user_consent_confirmed: true,
      booking_terms_accepted: true,
      booking_terms_version: option.terms.version,
      booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
      idempotency_key: `race-confirm-${++keys}`
    },
    bearer(token)
  )
const reschedule = (bookingId: string, option: any, token?: string) =>
  postJson(
    `/api/public/bookings/${bookingId}/reschedule`,
    {
      booking_option_id: option.booking_option_id,
      booking_terms_accepted: true,
      booking_terms_version: option.terms.version,
      booking_terms_accepted_at: "2026-11-23T08:59:30+01:00",
      idempotency_key: `race-move-${++keys}`
    },
    bearer(token)
  )

const searchBody = searchBodyFor("nästa vecka")
const slotKey = (o: any) => `${o.provider.id}/${o.service.service_id}/${Date.parse(o.slot.start_at)}`
const distinctSlots = (options: Array<any>) =>
  options.filter((o, i) => options.findIndex((p) => slotKey(p) === slotKey(o)) === i)

const env = { SERVICE_REQUESTS_API_TOKENS: `${tokenA},${tokenB}`, SANDBOX_API_TOKENS: sandboxToken }
const served = <A, E, R>(effect: Effect.Effect<A, E, R>, serverEnv: Record<string, string> = env) =>
  effect.pipe(Effect.provide(TestServer({ env: serverEnv, loops: "none" })))

/** Exactly one of two racing writes wins; the other is the named refusal. */
const oneWins = (answers: ReadonlyArray<{ status: number; body: any }>, refusals: ReadonlyArray<string>) => {
  const won = answers.filter((a) => a.status === 201)
  expect(won.length, JSON.stringify(answers.map((a) => a.body.error ?? a.status))).toBe(1)
  for (const lost of answers.filter((a) => a.status !== 201)) {
    expect(lost.status).toBe(409)
    expect(refusals).toContain(lost.body.error)
  }
  return answers.findIndex((a) => a.status === 201)
}

describe("holds racing for one slot", () => {
  it.effect("two partners' holds on one slot: one holds it, the other gets slot_taken", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        for (const option of distinctSlots(yield* searchOptions(searchBody, tokenA)).slice(0, 4)) {
          oneWins(yield* Effect.all([hold(option, tokenA), hold(option, tokenB)], { concurrency: "unbounded" }), [
            "slot_taken"
          ])
        }
      })
    )
  )

  it.effect("a hold against another partner's confirm: one wins; a held slot is never booked by the other", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        for (const option of distinctSlots(yield* searchOptions(searchBody, tokenA)).slice(0, 4)) {
          const [held, booked] = yield* Effect.all([hold(option, tokenA), confirm(option, tokenB)], {
            concurrency: "unbounded"
          })
          oneWins([held!, booked!], ["slot_taken"])
          // Whoever holds it, the holder's own confirm then succeeds.
          if (held!.status === 201) expect((yield* confirm(option, tokenA)).status).toBe(201)
        }
      })
    )
  )

  it.effect("a hold against the provider's block: one wins; a refused block names the hold", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const options = distinctSlots(yield* searchOptions(searchBody, tokenA))
        const providerId = options[0].provider.id
        const { token } = yield* Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(providerId)).pipe(
          Effect.provide(ProviderTokens.Default),
          Effect.orDie
        )
        for (const option of options.filter((o) => o.provider.id === providerId).slice(0, 3)) {
          const [held, blocked] = yield* Effect.all(
            [
              hold(option, tokenA),
              postJson(
                "/api/provider/blocks",
                { start_at: option.slot.start_at, end_at: option.slot.end_at },
                bearer(token)
              )
            ],
            { concurrency: "unbounded" }
          )
          oneWins([held!, blocked!], ["slot_taken", "block_overlaps_hold"])
          if (blocked!.status === 409) expect(blocked!.body.issues.join(" ")).toContain(held!.body.hold.hold_id)
        }
      })
    )
  )

  it.effect("a hold against another partner's move onto the slot: one wins; the moved booking otherwise stands", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const options = distinctSlots(yield* searchOptions(searchBody, tokenB))
        const [target, ...rest] = options
        const home = rest.find(
          (o) =>
            o.provider.id === target.provider.id &&
            o.service.service_id === target.service.service_id &&
            (Date.parse(o.slot.start_at) >= Date.parse(target.slot.end_at) ||
              Date.parse(o.slot.end_at) <= Date.parse(target.slot.start_at))
        )
        const booked = yield* confirm(home, tokenB)
        expect(booked.status).toBe(201)
        const [held, moved] = yield* Effect.all(
          [hold(target, tokenA), reschedule(booked.body.booking.id, target, tokenB)],
          { concurrency: "unbounded" }
        )
        const winner = [held!, moved!].filter((a) => a.status === 201 || a.status === 200)
        expect(winner.length, JSON.stringify([held!.body, moved!.body])).toBe(1)
        const loser = held!.status === 201 ? moved! : held!
        expect(loser.status).toBe(409)
        expect(loser.body.error).toBe("slot_taken")
        const status = yield* get(`/api/public/bookings/${booked.body.booking.id}`, bearer(tokenB))
        expect(status.body.booking.slot_start_at).toBe(held!.status === 201 ? home.slot.start_at : target.slot.start_at)
      })
    )
  )

  it.effect("the holder moves its booking onto its held time after the option expired; the hold is confirmed", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const options = distinctSlots(yield* searchOptions(searchBody, tokenA))
        const [target, ...rest] = options
        const home = rest.find(
          (o) =>
            o.provider.id === target.provider.id &&
            o.service.service_id === target.service.service_id &&
            (Date.parse(o.slot.start_at) >= Date.parse(target.slot.end_at) ||
              Date.parse(o.slot.end_at) <= Date.parse(target.slot.start_at))
        )
        const booked = yield* confirm(home, tokenA)
        const held = yield* hold(target, tokenA, { hold_seconds: 1800 })
        expect(held.status).toBe(201)
        yield* TestClock.setTime(testNow + 20 * 60_000)
        const moved = yield* reschedule(booked.body.booking.id, target, tokenA)
        expect(moved.status, JSON.stringify(moved.body)).toBe(200)
        expect(moved.body.booking.slot_start_at).toBe(target.slot.start_at)
        const status = yield* get(`/api/public/holds/${held.body.hold.hold_id}`, bearer(tokenA))
        expect(status.body.hold).toMatchObject({ status: "confirmed", booking_id: booked.body.booking.id })
      })
    )
  )

  it.effect("a sandbox hold lives in the sandbox calendar only; a live hold hides the time from a sandbox search", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* searchOptions(searchBody, sandboxToken)
        const made = yield* hold(option, sandboxToken)
        expect(made.status).toBe(201)
        expect(made.body.safe_next_step).toContain("sandbox")
        // The real calendar is untouched: a live partner sees the time and can hold it.
        expect((yield* searchOptions(searchBody, tokenA)).map(slotKey)).toContain(slotKey(option))
        const [live] = (yield* searchOptions(searchBody, tokenA)).filter((o) => slotKey(o) === slotKey(option))
        expect((yield* hold(live, tokenA)).status).toBe(201)
        const other = (yield* searchOptions(searchBody, sandboxToken)).find((o) => slotKey(o) !== slotKey(option))
        expect((yield* hold(other, tokenA)).status).toBe(201)
        expect((yield* searchOptions(searchBody, sandboxToken)).map(slotKey)).not.toContain(slotKey(other))
      })
    )
  )

  it.effect("open development mode: the anonymous partner holds under its lower cap", () =>
    served(
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const options = distinctSlots(yield* searchOptions(searchBody))
        expect((yield* hold(options[0])).status).toBe(201)
        const over = yield* hold(options[1])
        expect(over.status).toBe(429)
        expect(over.body.error).toBe("too_many_holds")
        expect(over.body.issues.join(" ")).toContain("at most 1 active holds")
      }),
      { HOLD_MAX_ACTIVE_ANONYMOUS: "1" }
    )
  )
})
