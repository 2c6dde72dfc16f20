import { Effect, Option, Schema } from "effect"
import type { Catalog } from "../Catalog/Catalog.js"
import type { JobType } from "../Domain/Catalog.js"
import { issuesOf } from "../Domain/Issues.js"
import { SupplyFile } from "../Domain/Supply.js"
import { type DeclaredService, declarationIssues } from "../Domain/TaxDeductionSupply.js"

export class InvalidSupply extends Schema.TaggedError<InvalidSupply>()("InvalidSupply", {
  problems: Schema.Array(Schema.String)
}) {
  override get message() {
    return `the supply file has ${this.problems.length} problem(s):\n${this.problems.map((p) => `  - ${p}`).join("\n")}`
  }
}

const decodeSupplyFile = Schema.decodeUnknownResult(SupplyFile)

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A service whose ids and price kind can be read, so its tax deduction declaration can be checked. */
const isDeclaredService = (service: Record<string, unknown>): service is Record<string, unknown> & DeclaredService =>
  ["service_id", "job_type_id", "pricing_model", "price_type"].every((key) => typeof service[key] === "string")

/**
 * Whether the catalog lets a job type carry a fixed price: one with a fixed-price seed, or whose
 * fixed-price fit is high or medium. An emergency, or a job the catalog fits badly to a fixed
 * price and seeds none for, goes to providers as a follow-up request instead.
 */
export const fixedPriceAllowed = (jobType: JobType) =>
  jobType.routing_mode !== "emergency" && (jobType.fixed_price_seed !== undefined || jobType.fixed_price_fit !== "low")

const under = (at: string, key: string) => (at === "" ? key : `${at}.${key}`)

/**
 * What the schema cannot see in one service, each problem naming its field under `at`: the
 * catalog's job types, which of them may carry a fixed price, the seeds, and the RUT/ROT
 * declaration. The import and the provider API check a service with this one function.
 */
export const serviceProblems = (
  catalog: Catalog["Service"],
  service: Record<string, unknown>,
  at: string
): Array<string> => {
  const problems: Array<string> = []
  if (typeof service.vertical_id === "string" && typeof service.job_type_id === "string") {
    const jobType = catalog.jobType(service.vertical_id, service.job_type_id)
    if (Option.isNone(jobType)) {
      problems.push(`${under(at, "job_type_id")}: ${service.job_type_id} is not a job type of ${service.vertical_id}`)
    } else if (!fixedPriceAllowed(jobType.value)) {
      problems.push(
        `${under(at, "job_type_id")}: ${service.job_type_id} cannot carry a fixed price (the catalog routes it as ${jobType.value.routing_mode}, fixed-price fit ${jobType.value.fixed_price_fit}): it reaches providers as a follow-up request`
      )
    }
  }
  if (isDeclaredService(service))
    for (const issue of declarationIssues(service))
      problems.push(at === "" ? issue : `${at}: ${service.service_id}: ${issue}`)
  const seed =
    typeof service.service_id === "string"
      ? catalog.seeds.find((candidate) => candidate.service_id === service.service_id)
      : undefined
  if (seed) {
    for (const key of ["vertical_id", "job_type_id", "pricing_model", "price_type"] as const) {
      if (seed[key] !== service[key]) problems.push(`${under(at, key)}: must be ${seed[key]} for ${seed.service_id}`)
    }
  }
  return problems
}

/**
 * What the schema cannot see in a supply file: duplicates, each service's problems, overlapping
 * hours. Read defensively from the raw input, so these problems are listed beside the schema's
 * own even when the file does not decode.
 */
const crossCheck = (catalog: Catalog["Service"], input: unknown): Array<string> => {
  const problems: Array<string> = []
  const providers = isRecord(input) && Array.isArray(input.providers) ? input.providers : []
  const providerIds = new Set<unknown>()
  providers.forEach((provider: unknown, p) => {
    if (!isRecord(provider)) return
    if (typeof provider.id === "string" && providerIds.has(provider.id)) {
      problems.push(`providers.${p}.id: duplicate provider id ${provider.id}`)
    }
    providerIds.add(provider.id)
    const serviceIds = new Set<unknown>()
    const services = Array.isArray(provider.services) ? provider.services : []
    services.forEach((service: unknown, s) => {
      if (!isRecord(service)) return
      const at = `providers.${p}.services.${s}`
      if (typeof service.service_id === "string" && serviceIds.has(service.service_id)) {
        problems.push(`${at}.service_id: duplicate ${service.service_id}`)
      }
      serviceIds.add(service.service_id)
      problems.push(...serviceProblems(catalog, service, at))
    })
    const hours = Array.isArray(provider.working_hours) ? provider.working_hours : []
    hours.forEach((h: unknown, i) => {
      if (!isRecord(h)) return
      const clash = hours.findIndex(
        (other: unknown, j) =>
          j < i &&
          isRecord(other) &&
          other.iso_weekday === h.iso_weekday &&
          typeof other.opens === "string" &&
          typeof other.closes === "string" &&
          typeof h.opens === "string" &&
          typeof h.closes === "string" &&
          h.opens < other.closes &&
          other.opens < h.closes
      )
      if (clash >= 0)
        problems.push(`providers.${p}.working_hours.${i}: overlaps working_hours.${clash} on the same day`)
    })
  })
  return problems
}

/** Every problem of a supply file, each naming its path; the catalog is the reference for services. */
export const validateSupply = (catalog: Catalog["Service"], input: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeSupplyFile(input, { errors: "all", onExcessProperty: "error" })
    const problems = [
      ...(decoded._tag === "Failure"
        ? issuesOf(decoded.failure.issue).map(
            (issue) => `${issue.path.map(String).join(".") || "(root)"}: ${issue.message}`
          )
        : []),
      ...crossCheck(catalog, input)
    ]
    if (problems.length > 0 || decoded._tag === "Failure") return yield* new InvalidSupply({ problems })
    return decoded.success
  })
