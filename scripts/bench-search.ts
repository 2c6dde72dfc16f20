/**
 * Times a search's own work in process, without a server or a database: decoding the bench's five
 * request bodies, then `BookingSearch.search` over candidates taken from the demo supply (a fake
 * calendar with no bookings), the options' ids minted but their rows not written (there is no
 * database). From the project directory:
 * `npx tsx scripts/bench-search.ts`; ROUNDS=N searches a batch (default 4000).
 * Each round moves "now" on by 7 seconds, as a busy server's clock would. It prints the CPU per
 * search (the least and the median of five batches: on a shared machine the least is steadiest)
 * and a digest of every response with its option ids (random) cut out, so a faster run can be
 * told from a different one.
 */
import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Result, Schema } from "effect"
import { appConfigFrom } from "../src/AppConfig.js"
import { Catalog } from "../src/Catalog/Catalog.js"
import { policyOfSupply } from "../src/Domain/CancellationPolicy.js"
import { BookingSearchRequest } from "../src/Domain/Search.js"
import { postcodeNumber, type SupplyFile } from "../src/Domain/Supply.js"
import { BookingSearch } from "../src/Search/Search.js"
import { BookingOptions, mintOptions, shortIdKeys } from "../src/Shared/BookingOptions.js"
import { Calendar, type Candidate } from "../src/Shared/Calendar.js"
import { OptionSigner } from "../src/Shared/OptionSigner.js"
import { searchBodies } from "./searchBodies.js"

const root = process.cwd()
const supply = JSON.parse(readFileSync(join(root, "supply", "demo.json"), "utf8")) as typeof SupplyFile.Encoded

const bodies = searchBodies()

/** The demo supply's active services for a job at a postcode, as the calendar's query returns them. */
const candidates = (input: { verticalId: string; jobTypeId: string; postcode: number }): Array<Candidate> =>
  supply.providers.flatMap((provider) =>
    provider.active !== false &&
    provider.areas.some((a) => postcodeNumber(a.from) <= input.postcode && input.postcode <= postcodeNumber(a.to))
      ? provider.services
          .filter((s) => s.active !== false && s.vertical_id === input.verticalId && s.job_type_id === input.jobTypeId)
          .map(
            (s) =>
              ({
                providerId: provider.id,
                providerName: provider.name,
                city: provider.city,
                ratingLabel: provider.rating_label ?? null,
                serviceId: s.service_id,
                labelSv: s.label_sv,
                labelEn: s.label_en ?? null,
                pricingModel: s.pricing_model,
                priceType: s.price_type,
                amountSek: s.amount_sek ?? null,
                unitPriceSek: s.unit_price_sek ?? null,
                unit: s.unit ?? null,
                durationMinutes: s.duration_minutes,
                scope: s.scope,
                termsVersion: s.terms.version,
                termsUrl: s.terms.url,
                termsSections: s.terms.sections,
                termsSourceUrls: s.terms.source_urls,
                taxDeduction: s.tax_deduction ?? null,
                cancellationPolicy: policyOfSupply(s.cancellation_policy ?? provider.cancellation_policy),
                hours: provider.working_hours.map((h) => ({
                  isoWeekday: h.iso_weekday,
                  opens: h.opens,
                  closes: h.closes
                })),
                busy: []
              }) as unknown as Candidate
          )
      : []
  )

const FakeCalendar = Layer.succeed(
  Calendar,
  Calendar.of({
    availability: (input) => Effect.succeed(candidates(input)),
    booking: () => {
      throw new Error("a search never books")
    },
    release: () => {
      throw new Error("a search never books")
    },
    hold: () => {
      throw new Error("a search never holds")
    },
    releaseHold: () => {
      throw new Error("a search never holds")
    },
    sweepHolds: () => {
      throw new Error("a search never holds")
    },
    isFree: () => Effect.die("a search never books")
  })
)

/** Ids minted as the service mints them; the rows it would write are dropped. */
const OfflineOptions = Layer.effect(
  BookingOptions,
  Effect.gen(function* () {
    const signer = yield* OptionSigner
    const [key] = shortIdKeys(signer)
    if (key === undefined) return yield* Effect.die("the bench configures a signing key")
    return BookingOptions.of({
      issue: (claims, now) => {
        const minted = mintOptions(signer.seal, key, claims, now)
        return Result.isFailure(minted) ? Effect.die(minted.failure) : Effect.succeed(minted.success.tokens)
      },
      open: () => Effect.die("a search never confirms"),
      verify: () => Effect.die("a search never confirms"),
      sweep: Effect.void
    })
  })
)

const config = appConfigFrom({ BOOKING_OPTION_SIGNING_KEYS: "bench:bench-secret-0123456789abcdef0123456789abcdef" })
const layer = BookingSearch.DefaultWithoutDependencies.pipe(
  Layer.provide([
    FakeCalendar,
    Catalog.Default,
    OptionSigner.Default,
    OfflineOptions.pipe(Layer.provide(OptionSigner.Default)),
    config
  ]),
  Layer.provide(config)
)

const decode = Schema.decodeUnknownEffect(BookingSearchRequest)
const start = Date.UTC(2026, 10, 23, 7, 13, 5, 417)
const rounds = Number(process.env.ROUNDS ?? 4000)

const program = Effect.gen(function* () {
  const search = yield* BookingSearch
  const round = (i: number) =>
    Effect.flatMap(decode(JSON.parse(bodies[i % bodies.length] ?? "")), (request) =>
      search.search(request, new Date(start + i * 7_000))
    )
  const digest = createHash("sha256")
  for (let i = 0; i < rounds; i++) {
    const response = yield* round(i)
    // Every option id is random; the rest of the answer is what a faster run must not change.
    digest.update(JSON.stringify(response).replace(/"o2[A-Za-z0-9_-]{44}"/g, '"o2"'))
  }
  // Five timed batches; the machine is shared, so the least CPU a batch took is the steadiest figure.
  const batches: Array<number> = []
  for (let batch = 1; batch <= 5; batch++) {
    const cpu = process.cpuUsage()
    for (let i = 0; i < rounds; i++) yield* round(i + batch * rounds)
    const { user, system } = process.cpuUsage(cpu)
    batches.push((user + system) / rounds)
  }
  batches.sort((a, b) => a - b)
  console.log(
    `${rounds} searches a batch: ${batches[0]?.toFixed(1)} µs CPU each at least, ${batches[2]?.toFixed(1)} median (output ${digest.digest("hex").slice(0, 16)})`
  )
})

await Effect.runPromise(Effect.provide(program, layer))
