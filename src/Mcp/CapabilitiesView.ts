/**
 * get_capabilities as a model needs it: without vertical_id an overview naming the trades, with
 * one that trade's job types and how each is booked. The whole document stays REST's (and the
 * resource booking://capabilities).
 */
import { Effect, Schema } from "effect"
import type { CapabilitiesDocument } from "../Capabilities/Document.js"
import { Capabilities } from "../Domain/Capabilities.js"
import type { VerticalId } from "../Domain/Catalog.js"
import type { Presented } from "./Present.js"

const decodeCapabilities = Schema.decodeUnknownEffect(Schema.fromJsonString(Capabilities))
const decoder = new TextDecoder()

/** The capabilities document as it is served now (it is refreshed when supply changes). */
export const capabilitiesOf = (document: CapabilitiesDocument["Service"]) =>
  Effect.flatMap(document.current, ({ bodies }) => Effect.orDie(decodeCapabilities(decoder.decode(bodies.identity))))

interface Emergencies {
  readonly job_type_ids?: ReadonlyArray<string>
  readonly advice_en?: string
}

const emergenciesOf = (capabilities: Capabilities): Emergencies =>
  (capabilities.agent_contract.emergencies ?? {}) as Emergencies

interface Bounds {
  readonly min: number
  readonly max: number
  readonly unit: string
}

const boundsOf = (capabilities: Capabilities) =>
  (capabilities.agent_contract.quantity_bounds ?? {}) as Readonly<Record<string, Bounds>>

export const presentOverview = (capabilities: Capabilities): Presented => {
  const verticals = capabilities.supported_verticals.map((vertical) => ({
    vertical_id: vertical.vertical_id,
    label: vertical.label_en,
    job_types: vertical.job_types.length
  }))
  const ids = verticals.map((vertical) => vertical.vertical_id).join(", ")
  const notBookable = capabilities.unavailable_verticals.map((vertical) => vertical.label_en)
  const emergencies = emergenciesOf(capabilities)
  const step = `Call get_capabilities with vertical_id (${ids}) for that trade's job types, then search_booking_options with vertical_id and job_type_id. Only Swedish addresses (postcode NNN NN).`
  const structured = {
    ok: true,
    verticals,
    not_bookable_yet: notBookable,
    emergency_job_types: emergencies.job_type_ids ?? [],
    emergency_advice: emergencies.advice_en ?? "",
    safe_next_step: step
  }
  const text = [
    `Trades: ${verticals.map((vertical) => `${vertical.vertical_id} (${vertical.label})`).join(", ")}.`,
    `Not bookable here: ${notBookable.join(", ")}.`,
    `Emergencies (${(emergencies.job_type_ids ?? []).join(", ")}) are never booked: ${emergencies.advice_en ?? ""}`,
    `Next: ${step}`
  ].join("\n")
  return { structured, text }
}

/** How a job type is booked: a fixed-price offer can be searched for direct booking, others are requests. */
const howOf = (jobType: Capabilities["supported_verticals"][number]["job_types"][number], emergency: boolean) =>
  emergency ? "emergency" : jobType.fixed_price_seed === undefined ? "follow_up_request" : "search"

export const presentVertical = (capabilities: Capabilities, verticalId: VerticalId): Presented | undefined => {
  const vertical = capabilities.supported_verticals.find((each) => each.vertical_id === verticalId)
  if (vertical === undefined) return undefined
  const emergencies = new Set(emergenciesOf(capabilities).job_type_ids ?? [])
  const bounds = boundsOf(capabilities)
  const jobTypes = vertical.job_types.map((jobType) => {
    const seed = jobType.fixed_price_seed
    const keys = seed?.quantity_detail_keys ?? []
    return {
      job_type_id: jobType.job_type_id,
      label: jobType.label_en,
      booking: howOf(jobType, emergencies.has(jobType.job_type_id)),
      ...(seed === undefined ? {} : { pricing_model: seed.pricing_model }),
      ...(keys.length === 0 ? {} : { details: keys })
    }
  })
  const used = [...new Set(jobTypes.flatMap((jobType) => jobType.details ?? []))]
  const quantities = Object.fromEntries(
    used.flatMap((key) => {
      const bound = bounds[key]
      return bound === undefined ? [] : [[key, `${bound.min}–${bound.max} ${bound.unit}`]]
    })
  )
  const step = `Pick the job_type_id that fits and call search_booking_options with vertical_id "${vertical.vertical_id}", that job_type_id, a description, the postcode and the timing${used.length > 0 ? ", and for a per-unit price the quantity in details (one of the keys named in details)" : ""}. booking search: a search may find directly bookable options; follow_up_request: offer create_follow_up_request; emergency: never book, relay the 112 advice.`
  // The program's part: which job types there are and how each is booked; the words are the text's.
  const structured = {
    ok: true,
    vertical_id: vertical.vertical_id,
    job_types: Object.fromEntries(jobTypes.map((jobType) => [jobType.job_type_id, jobType.booking])),
    safe_next_step: step
  }
  const text = [
    `${vertical.vertical_id} (${vertical.label_en}): ${vertical.agent_summary}`,
    ...jobTypes.map(
      (jobType) =>
        `- ${jobType.job_type_id}: ${jobType.label}; ${jobType.booking}${jobType.pricing_model === undefined ? "" : `, ${jobType.pricing_model}`}${jobType.details === undefined ? "" : `, details ${jobType.details.join(" or ")}`}`
    ),
    ...(used.length === 0
      ? []
      : [
          `Quantities: ${Object.entries(quantities)
            .map(([key, range]) => `${key} ${range}`)
            .join(", ")}.`
        ]),
    `Next: ${step}`
  ].join("\n")
  return { structured, text }
}
