import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type AppConfig, appConfigFrom } from "../../src/AppConfig.js"
import { demoSupplyPath, Supply } from "../../src/Supply/Supply.js"
import { TestDatabaseLive } from "../support/Database.js"
import { testEnv } from "../support/Server.js"

const SupplyLive = Supply.WithoutDemo.pipe(Layer.provideMerge(TestDatabaseLive), Layer.provide(appConfigFrom(testEnv)))

const demo: unknown = JSON.parse(readFileSync(demoSupplyPath, "utf8"))

const flatService = (serviceId: string, jobTypeId: string, amountSek: number) => ({
  service_id: serviceId,
  vertical_id: "vvs",
  job_type_id: jobTypeId,
  label_sv: `Tjänst ${serviceId}`,
  pricing_model: "flat",
  price_type: "avg_fixed",
  amount_sek: amountSek,
  duration_minutes: 120,
  scope: { included_sv: ["Arbete"] },
  terms: {
    version: `test/${serviceId}/v1`,
    url: `https://villkor.example/${serviceId}`,
    sections: [{ id: "price", text_sv: "Fast pris inklusive moms." }],
    source_urls: [`https://villkor.example/${serviceId}`]
  },
  tax_deduction: { kind: "rot", labour: { share: 0.9 } }
})

/** A stored terms version: the file's, with the fingerprint of the consumer information the import adds. */
const withInformation = (version: string) =>
  expect.stringMatching(new RegExp(`^${version.replaceAll("/", "\\/")}\\+ki-[0-9a-f]{8}$`))

const faucet = flatService("vvs_install_faucet_standard", "install_faucet", 1990)
const { amount_sek: _, ...faucetWithoutAmount } = faucet
const toilet = flatService("vvs_install_toilet_standard", "install_toilet", 4900)

const provider = (id: string) => ({
  id,
  name: `Rör ${id} AB`,
  organisation_number: "559260-1446",
  contact: { email: "kundservice@ror.example", phone: "08-123 456", address: "Sveavägen 1, 111 22 Stockholm" },
  city: "Stockholm",
  areas: [
    { from: "111 20", to: "111 29" },
    { from: "11300", to: "11399" }
  ],
  working_hours: [
    { iso_weekday: 1, opens: "08:00", closes: "12:00" },
    { iso_weekday: 1, opens: "13:00", closes: "17:00" },
    { iso_weekday: 2, opens: "08:00", closes: "16:00" }
  ],
  services: [faucet, toilet]
})

const rowCounts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [counts] = yield* sql<{ providers: number; services: number; areas: number; hours: number }>`
    SELECT (SELECT count(*)::int FROM providers) AS providers,
      (SELECT count(*)::int FROM provider_services) AS services,
      (SELECT count(*)::int FROM provider_areas) AS areas,
      (SELECT count(*)::int FROM provider_working_hours) AS hours`
  return counts!
})

/** Everything the database holds about one provider, without timestamps. */
const stored = (providerId: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      provider:
        yield* sql`SELECT id, name, city, rating_label, active, notify_email FROM providers WHERE id = ${providerId}`,
      services: yield* sql`
        SELECT service_id, job_type_id, pricing_model, amount_sek, duration_minutes, terms_version, active
        FROM provider_services WHERE provider_id = ${providerId} ORDER BY service_id`,
      areas: yield* sql`
        SELECT lower(postcodes) AS lo, upper(postcodes) - 1 AS hi
        FROM provider_areas WHERE provider_id = ${providerId} ORDER BY lo`,
      hours: yield* sql`
        SELECT iso_weekday, opens::text AS opens, closes::text AS closes
        FROM provider_working_hours WHERE provider_id = ${providerId} ORDER BY iso_weekday, opens`
    }
  })

/** The import's failure, with database errors as defects so only InvalidSupply is left. */
const importFailure = (file: unknown) =>
  Effect.flatMap(Supply, (supply) => supply.importFile(file)).pipe(
    Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die }),
    Effect.flip
  )

describe("Supply.importFile", () => {
  describe("the demo supply", () => {
    it.layer(SupplyLive)((it) => {
      it.effect("imports 57 providers offering vvs 9, electrician 6, moving 4, cleaning 9 services", () =>
        Effect.gen(function* () {
          const supply = yield* Supply
          const imported = yield* supply.importFile(demo)
          const counts = yield* rowCounts
          expect(imported.providers).toBe(57)
          expect(counts.providers).toBe(57)
          expect(counts.services).toBe(imported.services)
          expect(Object.fromEntries(yield* supply.fixedPriceServiceCounts())).toEqual({
            vvs: 9,
            electrician: 6,
            moving: 4,
            cleaning: 9
          })
        })
      )

      it.effect("a second import of the same file changes nothing", () =>
        Effect.gen(function* () {
          const supply = yield* Supply
          const sql = yield* SqlClient.SqlClient
          const everything = Effect.all({
            counts: rowCounts,
            services: sql`
              SELECT provider_id, service_id, amount_sek, unit_price_sek, active FROM provider_services
              ORDER BY provider_id, service_id`,
            areas: sql`SELECT provider_id, postcodes::text FROM provider_areas ORDER BY provider_id, postcodes`,
            hours: sql`
              SELECT provider_id, iso_weekday, opens::text, closes::text FROM provider_working_hours
              ORDER BY provider_id, iso_weekday, opens`
          })
          yield* supply.importFile(demo)
          const before = yield* everything
          yield* supply.importFile(demo)
          expect(yield* everything).toEqual(before)
          expect(before.counts.providers).toBe(57)
        })
      )

      it.effect("a policy changed under the same terms version is refused; with a new version it is stored", () =>
        Effect.gen(function* () {
          const supply = yield* Supply
          const sql = yield* SqlClient.SqlClient
          yield* supply.importFile(demo)
          const first = (demo as { providers: Array<any> }).providers[0]
          const service = first.services[0]
          const changed = (version: string) => ({
            providers: [
              {
                ...first,
                services: [
                  {
                    ...service,
                    terms: { ...service.terms, version },
                    cancellation_policy: { free_cancellation_hours: 1, late_fee_sek: 9999, change_hours: 1 }
                  }
                ]
              }
            ]
          })
          const refused = yield* importFailure(changed(service.terms.version))
          expect(refused.problems).toEqual([
            `providers.0.services.0.terms.version: the cancellation policy changed, so the terms version must change too (${service.terms.version} is already imported with another policy)`
          ])
          yield* supply.importFile(changed(`${service.terms.version}-policy2`))
          const [row] = yield* sql<{ lateFeeSek: number }>`
            SELECT late_fee_sek FROM provider_services WHERE provider_id = ${first.id} AND service_id = ${service.service_id}`
          expect(row?.lateFeeSek).toBe(9999)
        })
      )
    })
  })

  describe("small supply files", () => {
    it.layer(SupplyLive)((it) => {
      it.effect("stores a provider's services, areas and working hours as the file says", () =>
        Effect.gen(function* () {
          const supply = yield* Supply
          expect(yield* supply.importFile({ providers: [provider("stored-vvs")] })).toEqual({
            providers: 1,
            services: 2,
            keptProviderEdits: []
          })
          expect(yield* stored("stored-vvs")).toEqual({
            provider: [
              {
                id: "stored-vvs",
                name: "Rör stored-vvs AB",
                city: "Stockholm",
                ratingLabel: null,
                active: true,
                notifyEmail: null
              }
            ],
            services: [
              {
                serviceId: "vvs_install_faucet_standard",
                jobTypeId: "install_faucet",
                pricingModel: "flat",
                amountSek: 1990,
                durationMinutes: 120,
                termsVersion: withInformation("test/vvs_install_faucet_standard/v1"),
                active: true
              },
              {
                serviceId: "vvs_install_toilet_standard",
                jobTypeId: "install_toilet",
                pricingModel: "flat",
                amountSek: 4900,
                durationMinutes: 120,
                termsVersion: withInformation("test/vvs_install_toilet_standard/v1"),
                active: true
              }
            ],
            areas: [
              { lo: 11120, hi: 11129 },
              { lo: 11300, hi: 11399 }
            ],
            hours: [
              { isoWeekday: 1, opens: "08:00:00", closes: "12:00:00" },
              { isoWeekday: 1, opens: "13:00:00", closes: "17:00:00" },
              { isoWeekday: 2, opens: "08:00:00", closes: "16:00:00" }
            ]
          })
        })
      )

      it.effect(
        "re-importing a provider without a service deactivates it, keeps its row, and replaces areas and hours",
        () =>
          Effect.gen(function* () {
            const supply = yield* Supply
            yield* supply.importFile({ providers: [provider("changing-vvs")] })
            yield* supply.importFile({
              providers: [
                {
                  ...provider("changing-vvs"),
                  areas: [{ from: "114 00", to: "114 99" }],
                  working_hours: [{ iso_weekday: 3, opens: "09:00", closes: "15:00" }],
                  services: [faucet]
                }
              ]
            })
            const after = yield* stored("changing-vvs")
            expect(after.services.map(({ serviceId, active }) => ({ serviceId, active }))).toEqual([
              { serviceId: "vvs_install_faucet_standard", active: true },
              { serviceId: "vvs_install_toilet_standard", active: false }
            ])
            expect(after.areas).toEqual([{ lo: 11400, hi: 11499 }])
            expect(after.hours).toEqual([{ isoWeekday: 3, opens: "09:00:00", closes: "15:00:00" }])

            yield* supply.importFile({ providers: [provider("changing-vvs")] })
            expect((yield* stored("changing-vvs")).services.map(({ active }) => active)).toEqual([true, true])
          })
      )

      it.effect("a provider absent from a later file is left untouched", () =>
        Effect.gen(function* () {
          const supply = yield* Supply
          yield* supply.importFile({ providers: [provider("kept-vvs"), provider("updated-vvs")] })
          const before = yield* stored("kept-vvs")
          yield* supply.importFile({ providers: [{ ...provider("updated-vvs"), name: "Nytt namn AB", services: [] }] })
          expect(yield* stored("kept-vvs")).toEqual(before)
          expect(before.services.map(({ active }) => active)).toEqual([true, true])
          const updated = yield* stored("updated-vvs")
          expect(updated.provider).toMatchObject([{ name: "Nytt namn AB" }])
          expect(updated.services.map(({ active }) => active)).toEqual([false, false])
        })
      )

      // An invalid file. A block, not a describe: @effect/vitest 4 releases it.layer's layer when its own tests are done, before a nested describe's run.
      {
        const valid = { providers: [provider("invalid-a"), provider("invalid-b")] }

        /** The valid file with three problems the schema finds, three only the catalog finds, or all six. */
        const invalid = (kinds: { readonly schema: boolean; readonly catalog: boolean }) => {
          const [a, b] = valid.providers
          return {
            providers: [
              {
                ...a,
                ...(kinds.schema ? { areas: [{ from: "1112", to: "111 29" }] } : {}),
                ...(kinds.catalog
                  ? {
                      services: [
                        { ...faucet, pricing_model: "starting_price" },
                        flatService("vvs_install_jacuzzi_standard", "install_jacuzzi", 9900)
                      ]
                    }
                  : {})
              },
              {
                ...b,
                ...(kinds.schema ? { website: "https://rör.example", services: [faucetWithoutAmount] } : {}),
                ...(kinds.catalog ? { id: "invalid-a" } : {})
              }
            ]
          }
        }

        const schemaProblems = [
          /^providers\.0\.areas\.0\.from: must be a Swedish postcode/,
          /^providers\.1\.website: /,
          /^providers\.1\.services\.0\.amount_sek: a flat service needs amount_sek$/
        ]

        const catalogProblems = [
          /^providers\.0\.services\.0\.pricing_model: must be flat for vvs_install_faucet_standard$/,
          /^providers\.0\.services\.1\.job_type_id: install_jacuzzi is not a job type of vvs$/,
          /^providers\.1\.id: duplicate provider id invalid-a$/
        ]

        const expectProblems = (problems: ReadonlyArray<string>, expected: ReadonlyArray<RegExp>) => {
          for (const pattern of expected)
            expect(
              problems.some((problem) => pattern.test(problem)),
              `${pattern} in ${problems.join("\n")}`
            ).toBe(true)
          expect(problems.length).toBe(expected.length)
        }

        it.effect("names every problem with its path, schema and catalog alike, and writes nothing", () =>
          Effect.gen(function* () {
            const supply = yield* Supply
            yield* supply.importFile(valid)
            const counts = yield* rowCounts
            const before = yield* stored("invalid-a")
            const error = yield* importFailure(invalid({ schema: true, catalog: true }))
            expect(yield* rowCounts).toEqual(counts)
            expect(yield* stored("invalid-a")).toEqual(before)
            expectProblems(error.problems, [...schemaProblems, ...catalogProblems])
          })
        )

        it.effect("names every schema problem with its path", () =>
          Effect.map(importFailure(invalid({ schema: true, catalog: false })), (error) =>
            expectProblems(error.problems, schemaProblems)
          )
        )

        it.effect("names every catalog problem with its path, and writes nothing", () =>
          Effect.gen(function* () {
            const supply = yield* Supply
            yield* supply.importFile(valid)
            const counts = yield* rowCounts
            const error = yield* importFailure(invalid({ schema: false, catalog: true }))
            expect(yield* rowCounts).toEqual(counts)
            expectProblems(error.problems, catalogProblems)
          })
        )

        it.effect.each([
          {
            problem: "a postcode under 100 00",
            change: { areas: [{ from: "012 34", to: "112 99" }] },
            path: /^providers\.0\.areas\.0\.from: /
          },
          {
            problem: "two working-hour intervals of one day opening at the same time",
            change: {
              working_hours: [
                { iso_weekday: 1, opens: "08:00", closes: "12:00" },
                { iso_weekday: 1, opens: "08:00", closes: "16:00" }
              ]
            },
            path: /^providers\.0\.working_hours\./
          },
          {
            problem: "a unit longer than a booking option carries",
            change: { services: [{ ...faucet, unit: "fönster".repeat(18) }] },
            path: /^providers\.0\.services\.0\.unit: /
          }
        ])("$problem is a named problem of the file, not a database error", ({ change, path }) =>
          Effect.gen(function* () {
            const supply = yield* Supply
            const counts = yield* rowCounts
            const error = yield* Effect.flip(supply.importFile({ providers: [{ ...provider("edge-vvs"), ...change }] }))
            expect(yield* rowCounts).toEqual(counts)
            const refused = error._tag === "SqlError" ? `the database refused: ${error.cause}` : ""
            expect(error._tag, refused).toBe("InvalidSupply")
            expect(error._tag === "InvalidSupply" ? error.problems : []).toEqual([expect.stringMatching(path)])
          })
        )

        const { tax_deduction: _undeclared, ...faucetUndeclared } = faucet
        const { amount_sek: _flat, ...officeBase } = flatService(
          "cleaning_office_hourly",
          "cleaning_office_recurring",
          0
        )
        const office = {
          ...officeBase,
          vertical_id: "cleaning",
          pricing_model: "per_hour",
          price_type: "avg_recurring",
          unit_price_sek: 495,
          unit: "timme"
        }

        it.effect.each([
          {
            problem: "a service without a tax deduction declaration",
            services: [faucetUndeclared],
            message:
              /^providers\.0\.services\.0: vvs_install_faucet_standard: tax_deduction is required: declare \{ "kind": "none" \} or/
          },
          {
            problem: "a ROT declaration without its labour share",
            services: [{ ...faucet, tax_deduction: { kind: "rot" } }],
            message:
              /^providers\.0\.services\.0: vvs_install_faucet_standard: tax_deduction\.labour is required for a RUT or ROT deduction/
          },
          {
            problem: "a labour amount above the price",
            services: [{ ...faucet, tax_deduction: { kind: "rot", labour: { amount_sek: 2500 } } }],
            message:
              /^providers\.0\.services\.0: vvs_install_faucet_standard: tax_deduction\.labour\.amount_sek \(2500\) is above the price \(1990\)/
          },
          {
            problem: "office cleaning claiming RUT",
            services: [{ ...office, tax_deduction: { kind: "rut", labour: { share: 1 } } }],
            message:
              /^providers\.0\.services\.0: cleaning_office_hourly: job type cleaning_office_recurring is no household service \(office cleaning is not done in a home\)/
          }
        ])("$problem is a problem naming the service, and writes nothing", ({ services, message }) =>
          Effect.gen(function* () {
            const supply = yield* Supply
            const counts = yield* rowCounts
            const error = yield* importFailure({ providers: [{ ...provider("declaring-vvs"), services }] })
            expect(yield* rowCounts).toEqual(counts)
            expect(error.problems).toEqual([expect.stringMatching(message)])
            yield* supply.importFile({ providers: [{ ...provider("declaring-cleaning"), services: [office] }] }).pipe(
              Effect.flip,
              Effect.map((refused) => expect(refused._tag).toBe("InvalidSupply"))
            )
            yield* supply.importFile({
              providers: [
                { ...provider("declaring-cleaning"), services: [{ ...office, tax_deduction: { kind: "none" } }] }
              ]
            })
          })
        )

        it.effect(
          "a changed declaration under an unchanged terms version is refused, and accepted with a new version",
          () =>
            Effect.gen(function* () {
              const supply = yield* Supply
              const sql = yield* SqlClient.SqlClient
              const declared = sql<{ taxDeduction: unknown; termsVersion: string }>`
              SELECT tax_deduction, terms_version FROM provider_services
              WHERE provider_id = 'versioned-vvs' AND service_id = 'vvs_install_faucet_standard'`
              yield* supply.importFile({ providers: [provider("versioned-vvs")] })
              const halved = { ...faucet, tax_deduction: { kind: "rot", labour: { share: 0.5 } } }
              const error = yield* importFailure({ providers: [{ ...provider("versioned-vvs"), services: [halved] }] })
              expect(error.problems).toEqual([
                "versioned-vvs/vvs_install_faucet_standard: tax_deduction changed but terms.version is still test/vvs_install_faucet_standard/v1: give the terms a new version, so options already shown are refreshed"
              ])
              expect(yield* declared).toEqual([
                {
                  taxDeduction: { kind: "rot", labour: { share: 0.9 } },
                  termsVersion: withInformation("test/vvs_install_faucet_standard/v1")
                }
              ])
              yield* supply.importFile({
                providers: [
                  {
                    ...provider("versioned-vvs"),
                    services: [
                      { ...halved, terms: { ...halved.terms, version: "test/vvs_install_faucet_standard/v2" } }
                    ]
                  }
                ]
              })
              expect(yield* declared).toEqual([
                {
                  taxDeduction: { kind: "rot", labour: { share: 0.5 } },
                  termsVersion: withInformation("test/vvs_install_faucet_standard/v2")
                }
              ])
            })
        )
      }
    })
  })
})

describe("the demo supply on start", () => {
  const providersAfterBuilding = (
    layer: Layer.Layer<Supply, never, AppConfig | SqlClient.SqlClient>,
    env: Record<string, string>
  ) =>
    Layer.build(
      layer.pipe(Layer.provideMerge(TestDatabaseLive), Layer.provide(appConfigFrom({ ...testEnv, ...env })))
    ).pipe(
      Effect.flatMap((context) => Effect.provide(rowCounts, context)),
      Effect.map((counts) => counts.providers),
      Effect.scoped
    )

  it.effect("Supply is built with the demo supply imported when DEMO_SUPPLY asks, and without it when not", () =>
    Effect.gen(function* () {
      expect(yield* providersAfterBuilding(Supply.Default, { DEMO_SUPPLY: "true" })).toBe(57)
      expect(yield* providersAfterBuilding(Supply.Default, { DEMO_SUPPLY: "false" })).toBe(0)
    })
  )

  it.effect("the import tool's Supply never imports it, whatever DEMO_SUPPLY says", () =>
    Effect.gen(function* () {
      expect(yield* providersAfterBuilding(Supply.WithoutDemo, { DEMO_SUPPLY: "true" })).toBe(0)
    })
  )
})
