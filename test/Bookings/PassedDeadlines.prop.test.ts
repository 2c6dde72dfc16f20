import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { BookingSearch } from "../../src/Search/Search.js"
import { fc, importSupply, PropLayer, type PropServices, propSettings, provider, searchedAt } from "../support/Props.js"

const law =
  "over search time and policy, no option offers a change deadline that has passed, and an option for tomorrow is free to cancel before the start whether or not the provider's free period has passed (withdrawal right, 2005:59 2 kap. 10 §)"
const settings = propSettings(law, { quick: 25, deep: 500 })

const offersFree = /so cancelling before the start is free|så avbokning före starttiden är kostnadsfri/
const offersFee = /may charge|får utföraren/
const offersChange = /can be changed until|kan ändras fram till/

const tomorrow = Schema.decodeUnknownSync(BookingSearchRequest)({
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE", postcode: "111 22" },
  timing: { preferred_time_text: "imorgon" }
})

const policy = fc.record({
  free_cancellation_hours: fc.integer({ min: 0, max: 72 }),
  late_fee_sek: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2000 })),
  change_hours: fc.integer({ min: 0, max: 72 })
})

layer(BookingSearch.Default.pipe(Layer.provideMerge(PropLayer())), { excludeTestServices: true })(
  "a search's options state their policy as it stands at the search",
  (it) => {
    it.effect(
      law,
      () =>
        Effect.gen(function* () {
          const context = yield* Effect.context<PropServices | BookingSearch>()
          const run = <A, E>(effect: Effect.Effect<A, E, PropServices | BookingSearch>) =>
            Effect.runPromiseWith(context)(effect)
          let version = 0
          // Both sides are reached: some options after the provider's free period, some before.
          const seen = { passed: 0, open: 0 }
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(policy, fc.integer({ min: 0, max: 3 * 24 * 60 - 1 }), async (stated, minutes) => {
                // A new terms version each run: a policy may change only with its terms.
                version += 1
                await run(
                  importSupply([
                    { ...provider("deadline-vvs"), termsVersion: `deadline-vvs/terms/v${version}`, policy: stated }
                  ])
                )
                const now = new Date(searchedAt.getTime() + minutes * 60_000)
                const found = await run(Effect.flatMap(BookingSearch, (search) => search.search(tomorrow, now)))
                expect(found.options.length).toBeGreaterThan(0)
                for (const option of found.options) {
                  const terms = option.cancellation_policy
                  seen[now.getTime() < Date.parse(terms.free_until) ? "open" : "passed"] += 1
                  expect(Date.parse(terms.withdrawal_until)).toBeGreaterThan(Date.parse(option.slot.start_at))
                  expect(terms.free_cancellation_available).toBe(true)
                  expect(terms.change_available).toBe(now.getTime() < Date.parse(terms.change_until))
                  for (const summary of [terms.summary_sv, terms.summary_en]) {
                    expect(offersFree.test(summary)).toBe(true)
                    expect(offersFee.test(summary)).toBe(false)
                    expect(offersChange.test(summary)).toBe(terms.change_available)
                  }
                }
              }),
              settings.parameters
            )
          )
          expect(seen.passed).toBeGreaterThan(0)
          expect(seen.open).toBeGreaterThan(0)
        }),
      settings.timeout
    )
  }
)
