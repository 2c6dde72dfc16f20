import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { formatPostcode } from "../../src/Domain/Supply.js"
import {
  allDay,
  claimsFor,
  confirm,
  describeOutcome,
  fc,
  hhmm,
  importSupply,
  isoWeekdayOf,
  PropLayer,
  type ProviderSpec,
  propRunner,
  propSettings,
  provider,
  requestFor,
  resetBookings,
  rowCounts,
  STEP_MINUTES,
  searchedAt,
  sign,
  slotAt
} from "../support/Props.js"

const law = "any single change between search and confirm is rejected with its code and writes nothing"
const settings = propSettings(law, { quick: 50, deep: 2000 })

const tokenChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."

const anyOption = fc.record({
  amountSek: fc.integer({ min: 0, max: 20_000 }),
  postcode: fc.integer({ min: 10000, max: 19999 }),
  day: fc.integer({ min: 0, max: 1 }),
  startStep: fc.integer({ min: 16, max: 32 }),
  durationSteps: fc.integer({ min: 1, max: 6 })
})
type AnyOption = typeof anyOption extends fc.Arbitrary<infer A> ? A : never

/** Each change, and the code the spec gives it. */
const anyChange = fc.oneof(
  fc.record({ kind: fc.constant("price" as const), delta: fc.integer({ min: -20_000, max: 20_000 }) }),
  fc.record({ kind: fc.constant("terms" as const), version: fc.constantFrom("v2", "2026-12-01.v1", "-rev") }),
  fc.record({ kind: fc.constant("provider deactivated" as const) }),
  fc.record({ kind: fc.constant("service deactivated" as const), how: fc.constantFrom("flag", "left out") }),
  fc.record({ kind: fc.constant("area" as const), how: fc.constantFrom("split around", "moved away") }),
  fc.record({ kind: fc.constant("hours" as const), closedBy: fc.integer({ min: 0, max: 6 }) }),
  fc.record({
    kind: fc.constant("slot taken" as const),
    durationSteps: fc.integer({ min: 1, max: 6 }),
    offset: fc.nat()
  }),
  fc.record({ kind: fc.constant("expired" as const), late: fc.integer({ min: 0, max: 3 * 24 * 3_600_000 }) }),
  fc.record({ kind: fc.constant("token" as const), fromEnd: fc.nat(), shift: fc.integer({ min: 1, max: 64 }) })
)
type Change = typeof anyChange extends fc.Arbitrary<infer A> ? A : never

const expectedCode = {
  price: "price_changed",
  terms: "terms_changed",
  "provider deactivated": "provider_unavailable",
  "service deactivated": "provider_unavailable",
  area: "provider_unavailable",
  hours: "slot_taken",
  "slot taken": "slot_taken",
  expired: "option_expired",
  token: "option_invalid"
} as const satisfies Record<Change["kind"], string>

/** The supply after the change, when the change is to the supply. */
const changedSupply = (base: ProviderSpec, option: AnyOption, change: Change): ProviderSpec | undefined => {
  switch (change.kind) {
    case "price": {
      const amountSek = Math.max(0, base.amountSek + change.delta)
      return { ...base, amountSek: amountSek === base.amountSek ? base.amountSek + 1 : amountSek }
    }
    case "terms":
      return { ...base, termsVersion: `${base.termsVersion}${change.version}` }
    case "provider deactivated":
      return { ...base, active: false }
    case "service deactivated":
      return change.how === "flag" ? { ...base, serviceActive: false } : { ...base, serviceListed: false }
    case "area": {
      const p = option.postcode
      const areas =
        change.how === "moved away"
          ? [{ from: "200 00", to: "299 99" }]
          : [
              ...(p > 10000 ? [{ from: "100 00", to: formatPostcode(p - 1) }] : []),
              ...(p < 19999 ? [{ from: formatPostcode(p + 1), to: "199 99" }] : [])
            ]
      return { ...base, areas }
    }
    case "hours": {
      // The slot's day closes before the slot ends (closedBy 0: the day is closed altogether).
      const closes = (option.startStep + option.durationSteps - change.closedBy) * STEP_MINUTES
      const weekday = isoWeekdayOf(option.day)
      return {
        ...base,
        hours: [
          ...allDay.filter((h) => h.iso_weekday !== weekday),
          ...(change.closedBy === 0 ? [] : [{ iso_weekday: weekday, opens: "00:00", closes: hhmm(closes) }])
        ]
      }
    }
    default:
      return undefined
  }
}

layer(PropLayer(), { excludeTestServices: true })("Bookings.confirm revalidates the option", (it) => {
  it.effect(
    law,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(anyOption, anyChange, async (option, change) => {
              const base = provider("reval", option.amountSek)
              const slot = slotAt(option.day, option.startStep, option.durationSteps)
              const claims = claimsFor(base, slot, option.postcode)
              const { token, expiresAt } = await run(
                Effect.andThen(Effect.andThen(resetBookings, importSupply([base])), sign(claims))
              )
              const original = requestFor({ token, claims, key: "reval-original" })

              const supply = changedSupply(base, option, change)
              if (supply !== undefined) await run(importSupply([supply]))
              if (change.kind === "slot taken") {
                const durationSteps = change.durationSteps
                // Any start from just before the option's start to just before its end overlaps it.
                const startStep =
                  option.startStep - durationSteps + 1 + (change.offset % (option.durationSteps + durationSteps - 1))
                const blocker = slotAt(option.day, startStep, durationSteps)
                const blocking = claimsFor(base, blocker, option.postcode)
                const { token: other } = await run(sign(blocking))
                const taken = await run(
                  confirm(requestFor({ token: other, claims: blocking, key: "reval-blocker", customer: 1 }))
                )
                expect(taken, "the blocking booking").toMatchObject({ _tag: "Confirmed", replay: false })
              }
              const request =
                change.kind === "token"
                  ? (() => {
                      const at = token.length - 1 - (change.fromEnd % token.length)
                      const flipped = tokenChars[(tokenChars.indexOf(token[at]!) + change.shift) % tokenChars.length]!
                      const altered = token.slice(0, at) + flipped + token.slice(at + 1)
                      return altered === token ? undefined : { ...original, booking_option_id: altered }
                    })()
                  : original
              fc.pre(request !== undefined)
              const now = change.kind === "expired" ? new Date(expiresAt.getTime() + change.late) : new Date(searchedAt)

              const before = await run(rowCounts)
              const outcome = await run(confirm(request!, now))
              expect(outcome, describeOutcome(outcome)).toMatchObject({
                _tag: "Rejected",
                code: expectedCode[change.kind],
                refresh: true
              })
              expect(await run(rowCounts)).toEqual(before)

              // Undone, the same option confirms: the change alone was the reason.
              await run(Effect.andThen(resetBookings, importSupply([base])))
              const undone = await run(confirm({ ...original, idempotency_key: "reval-undone" }))
              expect(undone, describeOutcome(undone)).toMatchObject({ _tag: "Confirmed", replay: false })
            }),
            settings.parameters
          )
        )
      }),
    settings.timeout
  )
})
