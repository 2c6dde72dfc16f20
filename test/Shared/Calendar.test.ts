import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { appConfigFrom } from "../../src/AppConfig.js"
import { consumerInformation, consumerTermsVersion } from "../../src/Domain/ConsumerInformation.js"
import type { BookingId, ProviderId, ServiceId } from "../../src/Domain/Ids.js"
import { withdrawalFormPath } from "../../src/Domain/Withdrawal.js"
import { Calendar, calendarOf, liveCalendar } from "../../src/Shared/Calendar.js"
import { sqlStateOf } from "../../src/Shared/Idempotency.js"
import { Supply } from "../../src/Supply/Supply.js"
import { TestDatabaseLive } from "../support/Database.js"
import { supplyDrift } from "../support/Fixtures.js"
import { testEnv } from "../support/Server.js"

const CalendarLive = Calendar.DefaultWithoutDependencies.pipe(
  Layer.provideMerge(Supply.WithoutDemo),
  Layer.provideMerge(TestDatabaseLive),
  Layer.provide(appConfigFrom(testEnv))
)

/** The identity every provider of supplyOf states, as its terms' consumer information carries it. */
const identityOf = (id: string) => ({
  name: `Rör ${id} AB`,
  organisationNumber: "559260-1446",
  email: "kundservice@ror.example",
  phone: "08-123 456",
  address: "Sveavägen 1, 111 22 Stockholm"
})

/** An object's keys as jsonb keeps them: shorter first, then by their bytes. */
const jsonbOrder = (value: unknown): unknown =>
  typeof value !== "object" || value === null || Array.isArray(value)
    ? value
    : Object.fromEntries(
        Object.entries(value)
          .sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
          .map(([key, inner]) => [key, jsonbOrder(inner)])
      )

const day = 86_400_000
const monday = Date.parse("2027-01-04T00:00:00+01:00")
const week = { start: monday, end: monday + 7 * day }

/** One provider at its own postcode with one faucet service; `changes` overrides the service's fields. */
const supplyOf = (id: string, postcode: string, changes: Record<string, unknown> = {}) => ({
  providers: [
    {
      id,
      name: `Rör ${id} AB`,
      organisation_number: "559260-1446",
      contact: { email: "kundservice@ror.example", phone: "08-123 456", address: "Sveavägen 1, 111 22 Stockholm" },
      city: "Stockholm",
      rating_label: "4,8 av 5",
      areas: [{ from: postcode, to: postcode }],
      working_hours: [
        { iso_weekday: 2, opens: "08:00", closes: "16:00" },
        { iso_weekday: 1, opens: "08:00", closes: "12:00" }
      ],
      services: [
        {
          service_id: "vvs_install_faucet_standard",
          vertical_id: "vvs",
          job_type_id: "install_faucet",
          label_sv: "Byte av blandare",
          pricing_model: "flat",
          price_type: "avg_fixed",
          amount_sek: 1990,
          duration_minutes: 120,
          scope: { quote_triggers_sv: ["Rör i vägg"], included_sv: ["Montering", "Provkörning"] },
          terms: {
            version: `${id}/faucet/v1`,
            url: `https://villkor.example/${id}`,
            sections: [{ title_sv: "Pris", id: "price", text_sv: "Fast pris inklusive moms." }],
            source_urls: [`https://villkor.example/${id}`]
          },
          tax_deduction: { kind: "rot", labour: { share: 0.9 } },
          ...changes
        }
      ]
    }
  ]
})

const importSupply = (file: unknown) => Effect.flatMap(Supply, (supply) => supply.importFile(file)).pipe(Effect.orDie)

const faucetAt = (postcode: number, calendar = liveCalendar) =>
  Effect.flatMap(Calendar, (calendars) =>
    calendars.availability({
      verticalId: "vvs",
      jobTypeId: "install_faucet",
      postcode,
      destinationPostcode: undefined,
      range: week,
      calendar,
      now: week.start
    })
  )

const book = (providerId: string, start: number, end: number, calendar = liveCalendar) =>
  Effect.flatMap(Calendar, (calendars) =>
    calendars.booking({
      id: crypto.randomUUID() as BookingId,
      providerId: providerId as ProviderId,
      serviceId: "vvs_install_faucet_standard" as ServiceId,
      slotStart: new Date(start),
      slotEnd: new Date(end),
      calendar,
      at: new Date(week.start)
    })
  )

const sandboxA = calendarOf({ id: "sandbox-a", sandbox: true })
const sandboxB = calendarOf({ id: "sandbox-b", sandbox: true })

describe("Calendar.availability", () => {
  it.layer(CalendarLive)((it) => {
    it.effect(
      "a candidate is the stored offer in the order responses repeat it (scope and terms keys as jsonb keeps them), with the provider's real bookings in the range in epoch ms",
      () =>
        Effect.gen(function* () {
          yield* importSupply(supplyOf("cal-shape", "111 31"))
          const tuesday = monday + day + 9 * 3_600_000
          yield* book("cal-shape", tuesday, tuesday + 2 * 3_600_000)
          yield* book("cal-shape", tuesday + 3 * 3_600_000, tuesday + 4 * 3_600_000, sandboxA)
          yield* book("cal-shape", monday + 8 * day, monday + 8 * day + 3_600_000)
          const first = yield* faucetAt(11131)
          // The form's address is the server's own: read back, the rest of the information is checked whole.
          const stated = first[0]?.termsSections[1] as { readonly withdrawal_form_url?: string } | undefined
          const baseUrl = (stated?.withdrawal_form_url ?? "").replace(withdrawalFormPath, "")
          const expected = [
            {
              providerId: "cal-shape",
              providerName: "Rör cal-shape AB",
              city: "Stockholm",
              ratingLabel: "4,8 av 5",
              serviceId: "vvs_install_faucet_standard",
              labelSv: "Byte av blandare",
              labelEn: null,
              pricingModel: "flat",
              priceType: "avg_fixed",
              amountSek: 1990,
              unitPriceSek: null,
              unit: null,
              durationMinutes: 120,
              scope: { included_sv: ["Montering", "Provkörning"], quote_triggers_sv: ["Rör i vägg"] },
              termsVersion: consumerTermsVersion("cal-shape/faucet/v1", identityOf("cal-shape")),
              termsUrl: "https://villkor.example/cal-shape",
              taxDeduction: { kind: "rot", labour: { share: 0.9 } },
              termsSections: [
                { id: "price", text_sv: "Fast pris inklusive moms.", title_sv: "Pris" },
                jsonbOrder(consumerInformation(identityOf("cal-shape"), baseUrl))
              ],
              termsSourceUrls: ["https://villkor.example/cal-shape"],
              hours: [
                { isoWeekday: 2, opens: "08:00", closes: "16:00" },
                { isoWeekday: 1, opens: "08:00", closes: "12:00" }
              ],
              cancellationPolicy: { freeCancellationHours: 0, lateFeeSek: 0, changeHours: 0 },
              busy: [[tuesday, tuesday + 2 * 3_600_000]]
            }
          ]
          const again = yield* faucetAt(11131)
          expect(JSON.stringify(first)).toBe(JSON.stringify(expected))
          expect(JSON.stringify(again)).toBe(JSON.stringify(expected))
          expect(yield* faucetAt(11132)).toEqual([])
        })
    )

    it.effect(
      "a sandbox partner's search sees the real bookings and its own sandbox's, never another sandbox's; a live one only the real",
      () =>
        Effect.gen(function* () {
          yield* importSupply(supplyOf("cal-sandbox", "111 71"))
          const tuesday = monday + day + 9 * 3_600_000
          const real: [number, number] = [tuesday, tuesday + 3_600_000]
          const ownSandbox: [number, number] = [tuesday + 2 * 3_600_000, tuesday + 3 * 3_600_000]
          const otherSandbox: [number, number] = [tuesday + 4 * 3_600_000, tuesday + 5 * 3_600_000]
          yield* book("cal-sandbox", ...real)
          yield* book("cal-sandbox", ...ownSandbox, sandboxA)
          yield* book("cal-sandbox", ...otherSandbox, sandboxB)
          expect((yield* faucetAt(11171)).map((c) => c.busy)).toEqual([[real]])
          expect((yield* faucetAt(11171, sandboxA)).map((c) => c.busy)).toEqual([[real, ownSandbox]])
          expect((yield* faucetAt(11171, sandboxB)).map((c) => c.busy)).toEqual([[real, otherSandbox]])
        })
    )

    it.effect(
      "one sandbox's booking takes no time from another sandbox or the real calendar, and conflicts in its own",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* importSupply(supplyOf("cal-sandbox-overlap", "111 72"))
          const slot: [number, number] = [monday + day + 9 * 3_600_000, monday + day + 10 * 3_600_000]
          const write = (calendar: string) => book("cal-sandbox-overlap", ...slot, calendar)
          yield* write(sandboxA)
          yield* write(sandboxB)
          yield* write(liveCalendar)
          const again = yield* Effect.flip(write(sandboxA))
          expect(sqlStateOf(again)).toBe("23P01")
          const [row] = yield* sql<{ count: number }>`
          SELECT count(*)::int AS count FROM calendar_bookings WHERE provider_id = 'cal-sandbox-overlap'`
          expect(row?.count).toBe(3)
        })
    )

    it.effect("a service changed by a re-import, or by another instance's writer, is read as it is now", () =>
      Effect.gen(function* () {
        yield* importSupply(supplyOf("cal-change", "111 41"))
        expect((yield* faucetAt(11141)).map((c) => [c.labelSv, c.amountSek, c.scope])).toEqual([
          ["Byte av blandare", 1990, { included_sv: ["Montering", "Provkörning"], quote_triggers_sv: ["Rör i vägg"] }]
        ])
        yield* importSupply(
          supplyOf("cal-change", "111 41", { label_sv: "Byte av blandare, ny", amount_sek: 2290, scope: {} })
        )
        expect((yield* faucetAt(11141)).map((c) => [c.labelSv, c.amountSek, c.scope])).toEqual([
          ["Byte av blandare, ny", 2290, {}]
        ])
        yield* supplyDrift.setPrice("cal-change", 2490)
        yield* supplyDrift.clearRatingLabel("cal-change")
        expect((yield* faucetAt(11141)).map((c) => [c.amountSek, c.ratingLabel])).toEqual([[2490, null]])
        yield* supplyDrift.setServiceActive({ providerId: "cal-change" }, false)
        expect(yield* faucetAt(11141)).toEqual([])
      })
    )

    it.effect("a stored offer that does not decode is a defect, not an answer", () =>
      Effect.gen(function* () {
        yield* importSupply(supplyOf("cal-damaged", "111 51"))
        expect(yield* faucetAt(11151)).toHaveLength(1)
        yield* supplyDrift.damagePricingModel("cal-damaged")
        const exit = yield* Effect.exit(faucetAt(11151))
        expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
        expect(String(exit)).toContain("by_mood")
      })
    )

    it.effect("offers are shared by searches, so they cannot be changed by one", () =>
      Effect.gen(function* () {
        yield* importSupply(supplyOf("cal-frozen", "111 61"))
        const [candidate] = yield* faucetAt(11161)
        expect(() => ((candidate?.hours ?? []) as Array<unknown>).push({})).toThrow(TypeError)
        expect(() => Object.assign(candidate?.scope ?? {}, { included_sv: [] })).toThrow(TypeError)
        expect((yield* faucetAt(11161))[0]?.hours).toHaveLength(2)
      })
    )
  })
})
