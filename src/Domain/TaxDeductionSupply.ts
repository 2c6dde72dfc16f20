import { priceKind } from "./Pricing.js"
import type { DeductionDeclaration } from "./TaxDeduction.js"

/**
 * Job types done for a business, an office, commercial premises or a building's common areas:
 * no household's home, so Skatteverket allows no RUT or ROT for them, and a service of one
 * may only declare `{ kind: "none" }`.
 */
export const nonHouseholdJobTypes: Readonly<Record<string, { readonly sv: string; readonly en: string }>> = {
  cleaning_office_recurring: {
    sv: "kontorsstädning görs inte i en bostad",
    en: "office cleaning is not done in a home"
  },
  cleaning_commercial_site: { sv: "lokalstädning görs inte i en bostad", en: "commercial premises are not a home" },
  cleaning_stairwell_property: {
    sv: "trapphus och andra gemensamhetsutrymmen räknas inte som bostad",
    en: "stairwells and other common areas of a building do not count as a home"
  },
  moving_office: { sv: "en kontorsflytt flyttar inte bohag", en: "an office move moves no household goods" }
}

export interface DeclaredService {
  readonly service_id: string
  readonly job_type_id: string
  readonly pricing_model: string
  readonly price_type: string
  readonly amount_sek?: number | null | undefined
  readonly unit_price_sek?: number | null | undefined
  readonly tax_deduction?: unknown
}

export interface DeclarationProblem {
  readonly service_id: string
  readonly message: string
}

const example = '{ "kind": "none" } or { "kind": "rut" | "rot", "labour": { "share": 0.8 } | { "amount_sek": 1500 } }'

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)

/** The price a labour amount is measured against: the unit price for a unit-priced service. */
const priceOf = (service: DeclaredService) => {
  const unit = priceKind({ pricingModel: service.pricing_model, priceType: service.price_type }) === "unit"
  const price = unit ? service.unit_price_sek : service.amount_sek
  return { price: isNumber(price) ? price : undefined, words: unit ? "the unit price" : "the price" }
}

const labourIssues = (service: DeclaredService, labour: unknown): Array<string> => {
  if (!isRecord(labour))
    return [
      'tax_deduction.labour is required for a RUT or ROT deduction: { "share": 0 < share ≤ 1 } or { "amount_sek": 0 ≤ amount ≤ price }'
    ]
  const keys = Object.keys(labour)
  const unknown = keys.filter((key) => key !== "share" && key !== "amount_sek")
  if (unknown.length > 0) return [`tax_deduction.labour has unknown fields: ${unknown.join(", ")}`]
  if (keys.length !== 1) return ["tax_deduction.labour takes either share or amount_sek, exactly one of them"]
  if ("share" in labour) {
    const share = labour.share
    return isNumber(share) && share > 0 && share <= 1
      ? []
      : [`tax_deduction.labour.share must be a number above 0 and at most 1, not ${JSON.stringify(share)}`]
  }
  const amount = labour.amount_sek
  if (!isNumber(amount) || amount < 0)
    return [`tax_deduction.labour.amount_sek must be a number of kronor from 0, not ${JSON.stringify(amount)}`]
  const { price, words } = priceOf(service)
  return price !== undefined && amount > price
    ? [`tax_deduction.labour.amount_sek (${amount}) is above ${words} (${price}): labour is a part of the price`]
    : []
}

/** What is wrong with one service's declaration, each problem a sentence naming the field. */
export const declarationIssues = (service: DeclaredService): Array<string> => {
  const declaration = service.tax_deduction
  if (declaration === undefined || declaration === null) return [`tax_deduction is required: declare ${example}`]
  if (!isRecord(declaration)) return [`tax_deduction must be an object: ${example}`]
  const kind = declaration.kind
  if (kind !== "none" && kind !== "rut" && kind !== "rot")
    return [`tax_deduction.kind must be "none", "rut" or "rot", not ${JSON.stringify(kind)}`]
  const allowed = kind === "none" ? ["kind"] : ["kind", "labour"]
  const unknown = Object.keys(declaration).filter((key) => !allowed.includes(key))
  const issues: Array<string> = unknown.map((key) =>
    kind === "none" ? `tax_deduction of kind "none" takes no ${key}` : `tax_deduction has an unknown field: ${key}`
  )
  const household = nonHouseholdJobTypes[service.job_type_id]
  if (kind !== "none" && household !== undefined)
    issues.push(
      `job type ${service.job_type_id} is no household service (${household.en}), so it claims no RUT or ROT: declare { "kind": "none" }`
    )
  if (kind !== "none") issues.push(...labourIssues(service, declaration.labour))
  return issues
}

/** Every declaration problem of a supply file's services, each named by its service id. */
export const declarationProblems = (services: ReadonlyArray<DeclaredService>): Array<DeclarationProblem> =>
  services.flatMap((service) =>
    declarationIssues(service).map((issue) => ({
      service_id: service.service_id,
      message: `${service.service_id}: ${issue}`
    }))
  )

export interface DeductionSuggestion {
  readonly vertical_id: string
  readonly job_type_id: string
  readonly declaration: DeductionDeclaration
  readonly why: string
}

const rot = (share: number) => ({ kind: "rot", labour: { share } }) as const
const rut = (share: number) => ({ kind: "rut", labour: { share } }) as const
const none = { kind: "none" } as const

/** A vertical's suggestions, one row a job type: its id, the declaration, and why that share. */
const forVertical = (
  vertical_id: string,
  rows: ReadonlyArray<readonly [job_type_id: string, declaration: DeductionDeclaration, why: string]>
): ReadonlyArray<DeductionSuggestion> =>
  rows.map(([job_type_id, declaration, why]) => ({ vertical_id, job_type_id, declaration, why }))

/**
 * What a demo provider would typically declare per job type (every catalog job type but the
 * emergency): the share of its price that is labour, the rest being materials, travel and vans,
 * which Skatteverket leaves out. For the demo supply, not advice to a real provider.
 */
export const demoDeductionSuggestions: ReadonlyArray<DeductionSuggestion> = [
  ...forVertical("vvs", [
    ["leak_visible", rot(0.8), "repair; parts and travel"],
    ["leak_hidden", rot(0.6), "opening and restoring walls; moisture measurement and materials give no ROT"],
    ["leak_faucet_fixture", rot(0.85), "repair; washers and travel"],
    ["leak_appliance", rot(0.85), "the plumbing connection; a repair of the machine itself would be RUT"],
    ["clog_fixture", rot(0.85), "drain clearing; travel"],
    ["clog_toilet", rot(0.85), "drain clearing; travel"],
    ["clog_main_backup", rot(0.8), "drain clearing; equipment"],
    ["toilet_running_refill", rot(0.8), "repair; valve parts"],
    ["toilet_weak_flush", rot(0.8), "repair; valve parts"],
    ["hotwater_no_hot", rot(0.6), "repair; heater parts"],
    ["hotwater_leak_or_safety", rot(0.5), "often a new water heater, which is material"],
    ["pressure_single_fixture", rot(0.85), "repair; strainers"],
    ["pressure_whole_home", rot(0.75), "repair; valves and pipes"],
    ["install_faucet", rot(0.9), "the tap is not included; travel"],
    ["install_toilet", rot(0.9), "the toilet is not included"],
    ["install_appliance_hookup", rot(0.8), "includes the machine valve"],
    ["install_other_fixture", rot(0.85), "the fixture is not included; fittings"]
  ]),
  ...forVertical("electrician", [
    ["electrical_hidden_fault", rot(0.9), "fault finding"],
    ["electrical_panel_work", rot(0.7), "breakers"],
    ["electrical_power_outage", rot(0.9), "fault finding"],
    [
      "electrical_install_ev_charger",
      none,
      "a charger falls under the green-technology reduction (labour and material), which this model does not cover"
    ],
    [
      "electrical_solar_pv",
      none,
      "solar panels fall under the green-technology reduction, which this model does not cover"
    ],
    ["electrical_install_spotlights", rot(0.8), "the spotlights are not included; cable is"],
    ["electrical_install_dimmer", rot(0.9), "dimmer not included"],
    ["electrical_replace_outlet_switch", rot(0.8), "includes the new socket or switch"],
    ["electrical_appliance_hookup", rot(0.85), "cable"],
    ["electrical_heating_ventilation", rot(0.6), "heaters and fans are material"],
    ["electrical_install_ceiling_lamp", rot(0.95), "the lamp is not included"],
    ["electrical_new_circuit", rot(0.7), "cable, breakers"],
    ["electrical_inspection_safety", none, "an inspection is neither repair nor installation"],
    ["electrical_service_visit", rot(0.85), "travel and small consumables"]
  ]),
  ...forVertical("moving", [
    ["moving_home", rut(0.75), "the van is not labour"],
    ["moving_office", none, "not a household service"],
    ["moving_packing", rut(1), "labour only; boxes are extra"],
    ["moving_piano", rut(0.8), "van and piano equipment"],
    ["moving_storage", rut(0.4), "storage rent gives no RUT"],
    ["moving_heavy_lift", none, "lifting within one address is no move between homes"],
    ["moving_disposal", none, "taking things to recycling gives no RUT"]
  ]),
  ...forVertical("cleaning", [
    ["cleaning_move_out", rut(1), "cleaning labour"],
    ["cleaning_window", rut(1), "cleaning labour"],
    ["cleaning_home_deep", rut(1), "cleaning labour"],
    ["cleaning_office_recurring", none, "not a household service"],
    ["cleaning_commercial_site", none, "not a household service"],
    ["cleaning_stairwell_property", none, "common areas are not a home"],
    ["cleaning_post_construction", none, "cleaning caused by building work gives no RUT"],
    ["cleaning_floor_care", none, "machine floor treatment is not simple cleaning"],
    ["cleaning_textile_carpet", none, "deep cleaning with a special machine gives no RUT"],
    ["cleaning_death_estate", none, "the estate, not someone living there, usually buys it"],
    ["cleaning_mold_graffiti", none, "remediation is not simple cleaning"],
    ["cleaning_sanitation", none, "specialist sanitation is not simple cleaning"],
    [
      "cleaning_exterior_surface",
      rot(0.85),
      "cleaning a roof or facade of a house one owns is ROT; detergents and lift"
    ],
    ["cleaning_specialist_inspection", none, "depends on the site; the provider decides after the visit"],
    ["cleaning_home_recurring", rut(1), "cleaning labour"],
    ["cleaning_home_one_off", rut(1), "cleaning labour"]
  ])
]

/** The suggested declaration for a job type, if the demo table has one. */
export const suggestedDeclaration = (jobTypeId: string): DeductionDeclaration | undefined =>
  demoDeductionSuggestions.find((suggestion) => suggestion.job_type_id === jobTypeId)?.declaration
