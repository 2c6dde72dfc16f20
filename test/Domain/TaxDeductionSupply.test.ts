import { describe, expect, it } from "@effect/vitest"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import {
  type DeclaredService,
  declarationIssues,
  declarationProblems,
  demoDeductionSuggestions,
  nonHouseholdJobTypes,
  suggestedDeclaration
} from "../../src/Domain/TaxDeductionSupply.js"

const faucet: DeclaredService = {
  service_id: "vvs_install_faucet_standard",
  job_type_id: "install_faucet",
  pricing_model: "flat",
  price_type: "avg_fixed",
  amount_sek: 1990,
  tax_deduction: { kind: "rot", labour: { share: 0.9 } }
}

const hourly: DeclaredService = {
  service_id: "cleaning_home_one_off_hourly",
  job_type_id: "cleaning_home_one_off",
  pricing_model: "per_hour",
  price_type: "avg_unit",
  unit_price_sek: 450,
  tax_deduction: { kind: "rut", labour: { amount_sek: 450 } }
}

const office: DeclaredService = {
  service_id: "cleaning_office_recurring_hourly",
  job_type_id: "cleaning_office_recurring",
  pricing_model: "per_hour",
  price_type: "avg_recurring",
  unit_price_sek: 495,
  tax_deduction: { kind: "none" }
}

const jobTypes = catalogData.verticals.flatMap((vertical) =>
  vertical.job_types.map((jobType) => ({ vertical_id: vertical.vertical_id, ...jobType }))
)

describe("declarationIssues", () => {
  it("accepts a share, a labour amount within the (unit) price, and none", () => {
    expect(declarationIssues(faucet)).toEqual([])
    expect(declarationIssues(hourly)).toEqual([])
    expect(declarationIssues(office)).toEqual([])
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { amount_sek: 0 } } })).toEqual([])
  })

  it("requires a declaration of every service", () => {
    expect(declarationIssues({ ...faucet, tax_deduction: undefined })).toEqual([
      expect.stringContaining("tax_deduction is required")
    ])
    expect(declarationIssues({ ...faucet, tax_deduction: "rot" })).toEqual([
      expect.stringContaining("tax_deduction must be an object")
    ])
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "green" } })).toEqual([
      'tax_deduction.kind must be "none", "rut" or "rot", not "green"'
    ])
  })

  it("requires the labour of a RUT or ROT declaration, as a share above 0 and at most 1", () => {
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot" } })).toEqual([
      expect.stringContaining("tax_deduction.labour is required")
    ])
    for (const share of [0, -0.1, 1.01, Number.NaN, "0.5"])
      expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { share } } })).toEqual([
        expect.stringContaining("tax_deduction.labour.share must be a number above 0 and at most 1")
      ])
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { share: 1 } } })).toEqual([])
    expect(
      declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { share: 0.5, amount_sek: 900 } } })
    ).toEqual(["tax_deduction.labour takes either share or amount_sek, exactly one of them"])
  })

  it("keeps a labour amount between 0 and the price, the unit price for a unit-priced service", () => {
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { amount_sek: 1991 } } })).toEqual([
      "tax_deduction.labour.amount_sek (1991) is above the price (1990): labour is a part of the price"
    ])
    expect(declarationIssues({ ...hourly, tax_deduction: { kind: "rut", labour: { amount_sek: 451 } } })).toEqual([
      "tax_deduction.labour.amount_sek (451) is above the unit price (450): labour is a part of the price"
    ])
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { amount_sek: -1 } } })).toEqual([
      expect.stringContaining("tax_deduction.labour.amount_sek must be a number of kronor from 0")
    ])
  })

  it("lets a job type for an office, commercial premises or common areas declare only none", () => {
    expect(declarationIssues({ ...office, tax_deduction: { kind: "rut", labour: { share: 1 } } })).toEqual([
      'job type cleaning_office_recurring is no household service (office cleaning is not done in a home), so it claims no RUT or ROT: declare { "kind": "none" }'
    ])
  })

  it("refuses fields it does not know, so nothing else rides along", () => {
    expect(declarationIssues({ ...office, tax_deduction: { kind: "none", labour: { share: 1 } } })).toEqual([
      'tax_deduction of kind "none" takes no labour'
    ])
    expect(declarationIssues({ ...faucet, tax_deduction: { kind: "rot", labour: { share: 1 }, buyer: "x" } })).toEqual([
      "tax_deduction has an unknown field: buyer"
    ])
  })
})

describe("declarationProblems", () => {
  it("names every problem by its service id", () => {
    const problems = declarationProblems([
      faucet,
      { ...hourly, tax_deduction: undefined },
      { ...office, tax_deduction: { kind: "rut", labour: { share: 2 } } }
    ])
    expect(problems.map((problem) => problem.service_id)).toEqual([
      "cleaning_home_one_off_hourly",
      "cleaning_office_recurring_hourly",
      "cleaning_office_recurring_hourly"
    ])
    for (const problem of problems) expect(problem.message.startsWith(`${problem.service_id}: `)).toBe(true)
  })
})

describe("the non-household job types and the demo suggestions", () => {
  it("name job types the catalog has", () => {
    const known = new Set(jobTypes.map((jobType) => `${jobType.vertical_id}/${jobType.job_type_id}`))
    for (const suggestion of demoDeductionSuggestions)
      expect(known, `${suggestion.vertical_id}/${suggestion.job_type_id}`).toContain(
        `${suggestion.vertical_id}/${suggestion.job_type_id}`
      )
    const ids = new Set(jobTypes.map((jobType) => jobType.job_type_id))
    for (const jobTypeId of Object.keys(nonHouseholdJobTypes)) expect(ids).toContain(jobTypeId)
  })

  it("suggest one declaration for every job type but the emergencies", () => {
    const bookable = jobTypes.filter((jobType) => jobType.routing_mode !== "emergency")
    expect(demoDeductionSuggestions.map((suggestion) => suggestion.job_type_id).sort()).toEqual(
      bookable.map((jobType) => jobType.job_type_id).sort()
    )
  })

  it("suggest declarations the supply check accepts, and none for every non-household job type", () => {
    for (const jobType of jobTypes) {
      const declaration = suggestedDeclaration(jobType.job_type_id)
      if (declaration === undefined) continue
      const service: DeclaredService = {
        service_id: `demo_${jobType.job_type_id}`,
        job_type_id: jobType.job_type_id,
        pricing_model: "flat",
        price_type: "avg_fixed",
        amount_sek: 1990,
        tax_deduction: declaration
      }
      expect(declarationIssues(service), jobType.job_type_id).toEqual([])
      if (jobType.job_type_id in nonHouseholdJobTypes) expect(declaration).toEqual({ kind: "none" })
    }
  })

  it("suggest RUT for home cleaning and moving, ROT for plumbing", () => {
    expect(suggestedDeclaration("cleaning_home_recurring")).toEqual({ kind: "rut", labour: { share: 1 } })
    expect(suggestedDeclaration("moving_home")?.kind).toBe("rut")
    for (const jobType of jobTypes.filter((jobType) => jobType.vertical_id === "vvs"))
      expect(suggestedDeclaration(jobType.job_type_id)?.kind, jobType.job_type_id).toBe("rot")
  })
})
