import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { buildDemoSupply } from "../../scripts/generate-demo-supply.js"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import type { Vertical } from "../../src/Domain/Catalog.js"
import { type Provider, postcodeNumber, SupplyFile, unitPricedModels } from "../../src/Domain/Supply.js"
import { declarationProblems, nonHouseholdJobTypes } from "../../src/Domain/TaxDeductionSupply.js"

const demoText = readFileSync(new URL("../../supply/demo.json", import.meta.url), "utf8")
const supply = Schema.decodeUnknownSync(SupplyFile)(JSON.parse(demoText))
const offered = supply.providers.flatMap((provider) => provider.services.map((service) => ({ provider, service })))

const cities = [
  { name: "Stockholm", from: 10000, to: 19999 },
  { name: "Göteborg", from: 40000, to: 44999 },
  { name: "Malmö", from: 20000, to: 24999 },
  { name: "Uppsala", from: 75000, to: 75999 }
] as const

const verticals: ReadonlyArray<typeof Vertical.Encoded> = catalogData.verticals
const seeds = verticals.flatMap((v) =>
  v.job_types.flatMap((jt) =>
    jt.fixed_price_seed ? [{ ...jt.fixed_price_seed, vertical_id: v.vertical_id, job_type_id: jt.job_type_id }] : []
  )
)
const verticalOfJobType = new Map(verticals.flatMap((v) => v.job_types.map((jt) => [jt.job_type_id, v.vertical_id])))

const extras = [
  { service_id: "vvs_leak_faucet_fixture_repair", job_type_id: "leak_faucet_fixture" },
  { service_id: "vvs_toilet_running_refill_repair", job_type_id: "toilet_running_refill" },
  { service_id: "vvs_clog_toilet_standard", job_type_id: "clog_toilet" },
  { service_id: "vvs_pressure_single_fixture_check", job_type_id: "pressure_single_fixture" }
].map((extra) => ({ ...extra, vertical_id: "vvs", pricing_model: "flat", price_type: "avg_fixed" }))

const coversWholly = (provider: Provider, from: number, to: number): boolean => {
  const ranges = provider.areas
    .map((area) => [postcodeNumber(area.from), postcodeNumber(area.to)] as const)
    .sort(([a], [b]) => a - b)
  let reached = from - 1
  for (const [lo, hi] of ranges) {
    if (lo > reached + 1) break
    reached = Math.max(reached, hi)
  }
  return reached >= to
}

describe("demo supply", () => {
  it("decodes as a SupplyFile, excess properties included", () => {
    expect(() =>
      Schema.decodeUnknownSync(SupplyFile)(JSON.parse(demoText), { onExcessProperty: "error", errors: "all" })
    ).not.toThrow()
    expect(supply.providers.length).toBeGreaterThanOrEqual(48)
  })

  it("offers exactly vvs 9, electrician 6, moving 4, cleaning 9 distinct services", () => {
    const ids = new Map<string, Set<string>>()
    for (const { service } of offered) {
      ids.set(service.vertical_id, (ids.get(service.vertical_id) ?? new Set()).add(service.service_id))
    }
    expect(Object.fromEntries([...ids].map(([vertical, set]) => [vertical, set.size]))).toEqual({
      vvs: 9,
      electrician: 6,
      moving: 4,
      cleaning: 9
    })
  })

  it("offers every catalog seed and the four extra vvs services, each as its definition says", () => {
    const definitions = [...seeds, ...extras]
    expect(seeds.length).toBe(24)
    expect(new Set(offered.map(({ service }) => service.service_id))).toEqual(
      new Set(definitions.map((d) => d.service_id))
    )
    for (const definition of definitions) {
      const offers = offered.filter(({ service }) => service.service_id === definition.service_id)
      expect(offers.length, definition.service_id).toBeGreaterThan(0)
      for (const { service } of offers) {
        expect({
          service_id: service.service_id,
          vertical_id: service.vertical_id,
          job_type_id: service.job_type_id,
          pricing_model: service.pricing_model,
          price_type: service.price_type
        }).toEqual({
          service_id: definition.service_id,
          vertical_id: definition.vertical_id,
          job_type_id: definition.job_type_id,
          pricing_model: definition.pricing_model,
          price_type: definition.price_type
        })
      }
    }
  })

  it("has at least two providers covering the whole of every city for every service", () => {
    for (const { service_id } of [...seeds, ...extras]) {
      for (const city of cities) {
        const covering = supply.providers.filter(
          (provider) =>
            provider.active &&
            provider.services.some((s) => s.service_id === service_id && s.active) &&
            coversWholly(provider, city.from, city.to)
        )
        expect(covering.length, `${service_id} in ${city.name}`).toBeGreaterThanOrEqual(2)
      }
    }
  })

  it("serves nothing at or north of 800 00, and each provider only inside its own city", () => {
    for (const provider of supply.providers) {
      const city = cities.find((c) => c.name === provider.city)
      expect(city, provider.id).toBeDefined()
      for (const area of provider.areas) {
        expect(postcodeNumber(area.to), provider.id).toBeLessThan(80000)
        expect(postcodeNumber(area.from), provider.id).toBeGreaterThanOrEqual(city!.from)
        expect(postcodeNumber(area.to), provider.id).toBeLessThanOrEqual(city!.to)
        expect(area.from).toMatch(/^\d{3} \d{2}$/)
        expect(area.to).toMatch(/^\d{3} \d{2}$/)
      }
    }
  })

  it("gives every service the vertical of its job type, and every provider a single vertical", () => {
    for (const { provider, service } of offered) {
      expect(verticalOfJobType.get(service.job_type_id), `${provider.id}/${service.service_id}`).toBe(
        service.vertical_id
      )
    }
    for (const provider of supply.providers) {
      expect(new Set(provider.services.map((s) => s.vertical_id)).size, provider.id).toBe(1)
    }
  })

  it("prices flat and starting_price by amount_sek, unit-priced models by unit_price_sek and unit", () => {
    const unitPriced: ReadonlyArray<string> = unitPricedModels
    for (const { provider, service } of offered) {
      const where = `${provider.id}/${service.service_id}`
      if (unitPriced.includes(service.pricing_model)) {
        expect(service.unit_price_sek, where).toBeGreaterThan(0)
        expect(service.unit, where).toBeDefined()
        expect(service.amount_sek, where).toBeUndefined()
      } else {
        expect(service.amount_sek, where).toBeGreaterThan(0)
        expect(service.unit_price_sek, where).toBeUndefined()
        expect(service.unit, where).toBeUndefined()
      }
    }
  })

  it("lets no two providers of a service in one city charge the same", () => {
    for (const city of cities) {
      const prices = new Map<string, Array<number>>()
      for (const { service } of offered.filter(({ provider }) => provider.city === city.name)) {
        prices.set(service.service_id, [
          ...(prices.get(service.service_id) ?? []),
          service.amount_sek ?? service.unit_price_sek ?? -1
        ])
      }
      for (const [serviceId, list] of prices) {
        expect(new Set(list).size, `${serviceId} in ${city.name}`).toBe(list.length)
      }
    }
  })

  it("uses unique ids and terms versions, and fits every service into a working day", () => {
    const providerIds = supply.providers.map((p) => p.id)
    expect(new Set(providerIds).size).toBe(providerIds.length)
    const versions = offered.map(({ service }) => service.terms.version)
    expect(new Set(versions).size).toBe(versions.length)
    for (const provider of supply.providers) {
      const serviceIds = provider.services.map((s) => s.service_id)
      expect(new Set(serviceIds).size, provider.id).toBe(serviceIds.length)
      const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3))
      const longestDay = Math.max(...provider.working_hours.map((h) => minutes(h.closes) - minutes(h.opens)))
      for (const service of provider.services) {
        expect(service.duration_minutes, `${provider.id}/${service.service_id}`).toBeLessThanOrEqual(longestDay)
        expect(service.terms.sections.length).toBeGreaterThanOrEqual(3)
      }
    }
  })

  it("keeps contact addresses on the reserved .example domain and has no webhooks to call out to", () => {
    for (const provider of supply.providers) {
      expect(provider.notify.email, provider.id).toMatch(/^[a-z]+@[a-z0-9]+\.example$/)
      expect(provider.notify.webhook_url, provider.id).toBeUndefined()
    }
  })

  it("states gross prices, and the deduction only in each service's tax_deduction, never in its words", () => {
    for (const { service } of offered) {
      const { tax_deduction: _, terms, ...words } = service
      const { version: _version, ...termsWords } = terms
      expect(JSON.stringify([words, termsWords]), service.service_id).not.toMatch(/\b(rut|rot)\b|(rut|rot)-?avdrag/i)
    }
  })

  it("declares for every service a deduction the supply check accepts, RUT or ROT in all four verticals", () => {
    expect(declarationProblems(offered.map(({ service }) => service))).toEqual([])
    for (const { service } of offered) {
      expect(service.tax_deduction, service.service_id).toBeDefined()
      expect(service.terms.version, service.service_id).toMatch(/-(no-deduction|(rut|rot)[\d.]+(pct|kr))$/)
      if (service.job_type_id in nonHouseholdJobTypes) expect(service.tax_deduction).toEqual({ kind: "none" })
    }
    const claiming = new Set(
      offered
        .filter(({ service }) => (service.tax_deduction as { kind: string }).kind !== "none")
        .map(({ service }) => service.vertical_id)
    )
    expect([...claiming].sort()).toEqual(["cleaning", "electrician", "moving", "vvs"])
    const kindOf = (jobTypeId: string) =>
      (offered.find(({ service }) => service.job_type_id === jobTypeId)?.service.tax_deduction as { kind: string })
        ?.kind
    expect(kindOf("cleaning_home_recurring")).toBe("rut")
    expect(kindOf("moving_home")).toBe("rut")
    expect(kindOf("install_faucet")).toBe("rot")
    expect(kindOf("cleaning_office_recurring")).toBe("none")
  })

  it("is what the generator builds, every time", () => {
    const first = buildDemoSupply()
    expect(buildDemoSupply()).toEqual(first)
    expect(`${JSON.stringify(first, null, 2)}\n`).toBe(demoText)
  })
})
