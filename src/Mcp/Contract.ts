import { Effect, Layer } from "effect"
import * as McpServer from "effect/ai/McpServer"
import { CapabilitiesDocument } from "../Capabilities/Document.js"
import type { Capabilities } from "../Domain/Capabilities.js"
import { capabilitiesOf } from "./CapabilitiesView.js"
import { bookingTools } from "./Tools.js"

const decoder = new TextDecoder()

export const capabilitiesUri = "booking://capabilities"

/** The contract's texts name REST endpoints; an assistant on MCP needs to know which tool each is. */
const toolsForEndpoints = `The contract names REST endpoints; here each is a tool: ${Object.entries(bookingTools)
  .flatMap(([name, tool]) => (tool.rest === undefined ? [] : [`${tool.rest} is ${name}`]))
  .join(", ")}.`

const workflow = [
  "1. get_capabilities (then with vertical_id) to choose vertical_id and job_type_id.",
  "2. search_booking_options with the job, postcode and timing only, never personal data; get_booking_option for an option's full terms.",
  "3. When the user picks an option: hold_booking_option before asking for personal data (books nothing; release_hold if not wanted).",
  "4. After they accepted its terms and explicitly agreed to share name, phone, e-mail and address: confirm_booking with the hold_id and a new idempotency_key.",
  "5. No direct booking: create_follow_up_request (same consent); it is not a booking.",
  "6. Later: get_booking_status, cancel_booking (dry_run first), reschedule_booking, get_follow_up_request."
]

const strings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []

const bullets = (lines: ReadonlyArray<string>) => lines.map((line) => `- ${line}`).join("\n")

/**
 * What every session is told at initialize, kept short (every conversation reads it): the
 * workflow, every tool by name, and the truth rules.
 */
export const instructionsFor = (capabilities: Capabilities) =>
  [
    "Books home services in Sweden for a user, or hands the job to providers as a follow-up request.",
    workflow.join("\n"),
    `Tools: ${Object.keys(bookingTools).join(", ")}.`,
    `Truth rules:\n${bullets(strings(capabilities.agent_contract.truth_rules))}`,
    `The prompt agent_contract and the resource ${capabilitiesUri} hold the whole contract.`
  ].join("\n\n")

/** The assistant rules (agent_contract) as a prompt a client can put before a conversation. */
export const agentContractFor = (capabilities: Capabilities) => {
  const contract = capabilities.agent_contract
  const emergencies = contract.emergencies as
    | { readonly rule?: unknown; readonly advice_sv?: unknown; readonly advice_en?: unknown }
    | undefined
  return [
    "You help a user in Sweden get a home-service job booked through the tools of this MCP server. Follow this contract.",
    `How to work:\n${workflow.join("\n")}`,
    contract.safe_next_step,
    `Truth rules:\n${bullets(strings(contract.truth_rules))}`,
    `Never claim:\n${bullets(contract.forbidden_claims)}`,
    ...(emergencies === undefined
      ? []
      : [`Emergencies: ${emergencies.rule} Advice: "${emergencies.advice_sv}" / "${emergencies.advice_en}"`]),
    toolsForEndpoints,
    `The whole agent_contract:\n${JSON.stringify(contract, null, 2)}`
  ].join("\n\n")
}

/** Registered with the document the server already has, so a read needs no service of the request's. */
export const McpContractLive = Layer.unwrap(
  Effect.map(CapabilitiesDocument, (document) =>
    Layer.mergeAll(
      McpServer.resource({
        uri: capabilitiesUri,
        name: "capabilities",
        description:
          "The capabilities document of GET /api/public/requests/capabilities: supported trades and job types, price kinds, quantity bounds, emergencies and the assistant contract. It describes what is supported, never what is available now.",
        mimeType: "application/json",
        content: Effect.map(document.current, ({ bodies }) => ({
          contents: [{ uri: capabilitiesUri, mimeType: "application/json", text: decoder.decode(bodies.identity) }]
        }))
      }),
      McpServer.prompt({
        name: "agent_contract",
        description:
          "The rules an assistant must follow with this server: consent before personal data, when a booking exists, what proves availability and price, no emergencies.",
        content: () => Effect.map(capabilitiesOf(document), agentContractFor)
      })
    )
  )
)
