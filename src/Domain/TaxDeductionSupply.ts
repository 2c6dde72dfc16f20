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

/**
 * What a demo provider would typically declare per job type (every catalog job type but the
 * emergency): the share of its price that is labour, the rest being materials, travel and vans,
 * which Skatteverket leaves out. For the demo supply, not advice to a real provider.
 */
export const demoDeductionSuggestions: ReadonlyArray<DeductionSuggestion> = [
  { vertical_id: "vvs", job_type_id: "leak_visible", declaration: rot(0.8), why: "repair; parts and travel" },
  {
    vertical_id: "vvs",
    job_type_id: "leak_hidden",
    declaration: rot(0.6),
    why: "opening and restoring walls; moisture measurement and materials give no ROT"
  },
  { vertical_id: "vvs", job_type_id: "leak_faucet_fixture", declaration: rot(0.85), why: "repair; washers and travel" },
  {
    vertical_id: "vvs",
    job_type_id: "leak_appliance",
    declaration: rot(0.85),
    why: "the plumbing connection; a repair of the machine itself would be RUT"
  },
  { vertical_id: "vvs", job_type_id: "clog_fixture", declaration: rot(0.85), why: "drain clearing; travel" },
  { vertical_id: "vvs", job_type_id: "clog_toilet", declaration: rot(0.85), why: "drain clearing; travel" },
  { vertical_id: "vvs", job_type_id: "clog_main_backup", declaration: rot(0.8), why: "drain clearing; equipment" },
  { vertical_id: "vvs", job_type_id: "toilet_running_refill", declaration: rot(0.8), why: "repair; valve parts" },
  { vertical_id: "vvs", job_type_id: "toilet_weak_flush", declaration: rot(0.8), why: "repair; valve parts" },
  { vertical_id: "vvs", job_type_id: "hotwater_no_hot", declaration: rot(0.6), why: "repair; heater parts" },
  {
    vertical_id: "vvs",
    job_type_id: "hotwater_leak_or_safety",
    declaration: rot(0.5),
    why: "often a new water heater, which is material"
  },
  { vertical_id: "vvs", job_type_id: "pressure_single_fixture", declaration: rot(0.85), why: "repair; strainers" },
  { vertical_id: "vvs", job_type_id: "pressure_whole_home", declaration: rot(0.75), why: "repair; valves and pipes" },
  { vertical_id: "vvs", job_type_id: "install_faucet", declaration: rot(0.9), why: "the tap is not included; travel" },
  { vertical_id: "vvs", job_type_id: "install_toilet", declaration: rot(0.9), why: "the toilet is not included" },
  {
    vertical_id: "vvs",
    job_type_id: "install_appliance_hookup",
    declaration: rot(0.8),
    why: "includes the machine valve"
  },
  {
    vertical_id: "vvs",
    job_type_id: "install_other_fixture",
    declaration: rot(0.85),
    why: "the fixture is not included; fittings"
  },
  { vertical_id: "electrician", job_type_id: "electrical_hidden_fault", declaration: rot(0.9), why: "fault finding" },
  { vertical_id: "electrician", job_type_id: "electrical_panel_work", declaration: rot(0.7), why: "breakers" },
  { vertical_id: "electrician", job_type_id: "electrical_power_outage", declaration: rot(0.9), why: "fault finding" },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_install_ev_charger",
    declaration: none,
    why: "a charger falls under the green-technology reduction (labour and material), which this model does not cover"
  },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_solar_pv",
    declaration: none,
    why: "solar panels fall under the green-technology reduction, which this model does not cover"
  },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_install_spotlights",
    declaration: rot(0.8),
    why: "the spotlights are not included; cable is"
  },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_install_dimmer",
    declaration: rot(0.9),
    why: "dimmer not included"
  },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_replace_outlet_switch",
    declaration: rot(0.8),
    why: "includes the new socket or switch"
  },
  { vertical_id: "electrician", job_type_id: "electrical_appliance_hookup", declaration: rot(0.85), why: "cable" },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_heating_ventilation",
    declaration: rot(0.6),
    why: "heaters and fans are material"
  },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_install_ceiling_lamp",
    declaration: rot(0.95),
    why: "the lamp is not included"
  },
  { vertical_id: "electrician", job_type_id: "electrical_new_circuit", declaration: rot(0.7), why: "cable, breakers" },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_inspection_safety",
    declaration: none,
    why: "an inspection is neither repair nor installation"
  },
  {
    vertical_id: "electrician",
    job_type_id: "electrical_service_visit",
    declaration: rot(0.85),
    why: "travel and small consumables"
  },
  { vertical_id: "moving", job_type_id: "moving_home", declaration: rut(0.75), why: "the van is not labour" },
  { vertical_id: "moving", job_type_id: "moving_office", declaration: none, why: "not a household service" },
  { vertical_id: "moving", job_type_id: "moving_packing", declaration: rut(1), why: "labour only; boxes are extra" },
  { vertical_id: "moving", job_type_id: "moving_piano", declaration: rut(0.8), why: "van and piano equipment" },
  { vertical_id: "moving", job_type_id: "moving_storage", declaration: rut(0.4), why: "storage rent gives no RUT" },
  {
    vertical_id: "moving",
    job_type_id: "moving_heavy_lift",
    declaration: none,
    why: "lifting within one address is no move between homes"
  },
  {
    vertical_id: "moving",
    job_type_id: "moving_disposal",
    declaration: none,
    why: "taking things to recycling gives no RUT"
  },
  { vertical_id: "cleaning", job_type_id: "cleaning_move_out", declaration: rut(1), why: "cleaning labour" },
  { vertical_id: "cleaning", job_type_id: "cleaning_window", declaration: rut(1), why: "cleaning labour" },
  { vertical_id: "cleaning", job_type_id: "cleaning_home_deep", declaration: rut(1), why: "cleaning labour" },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_office_recurring",
    declaration: none,
    why: "not a household service"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_commercial_site",
    declaration: none,
    why: "not a household service"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_stairwell_property",
    declaration: none,
    why: "common areas are not a home"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_post_construction",
    declaration: none,
    why: "cleaning caused by building work gives no RUT"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_floor_care",
    declaration: none,
    why: "machine floor treatment is not simple cleaning"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_textile_carpet",
    declaration: none,
    why: "deep cleaning with a special machine gives no RUT"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_death_estate",
    declaration: none,
    why: "the estate, not someone living there, usually buys it"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_mold_graffiti",
    declaration: none,
    why: "remediation is not simple cleaning"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_sanitation",
    declaration: none,
    why: "specialist sanitation is not simple cleaning"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_exterior_surface",
    declaration: rot(0.85),
    why: "cleaning a roof or facade of a house one owns is ROT; detergents and lift"
  },
  {
    vertical_id: "cleaning",
    job_type_id: "cleaning_specialist_inspection",
    declaration: none,
    why: "depends on the site; the provider decides after the visit"
  },
  { vertical_id: "cleaning", job_type_id: "cleaning_home_recurring", declaration: rut(1), why: "cleaning labour" },
  { vertical_id: "cleaning", job_type_id: "cleaning_home_one_off", declaration: rut(1), why: "cleaning labour" }
]

/** The suggested declaration for a job type, if the demo table has one. */
export const suggestedDeclaration = (jobTypeId: string): DeductionDeclaration | undefined =>
  demoDeductionSuggestions.find((suggestion) => suggestion.job_type_id === jobTypeId)?.declaration
