import { Effect, Layer, Schema } from "effect"
import * as McpServer from "effect/ai/McpServer"
import { CapabilitiesDocument } from "../Capabilities/Document.js"
import { Capabilities } from "../Domain/Capabilities.js"
import { bookingTools } from "./Tools.js"

export const capabilitiesUri = "booking://capabilities"

/** The contract's texts name REST endpoints; an assistant on MCP needs to know which tool each is. */
const toolsForEndpoints = `The contract names REST endpoints; here each is a tool: ${Object.entries(bookingTools)
  .map(([name, tool]) => `${tool.rest} is ${name}`)
  .join(", ")}.`

const workflow = [
  "1. get_capabilities: choose vertical_id and job_type_id for the user's job.",
  "2. search_booking_options with the job, the postcode and the timing only: never personal data.",
  "3. Show the options (provider, price, time, terms). When the user has picked one, accepted its terms and explicitly agreed to share name, phone, e-mail and address, call confirm_booking with a new idempotency_key.",
  "4. When no direct booking is available, offer create_follow_up_request, with the same consent; it is not a booking.",
  "5. get_booking_status answers later questions about a booking, get_follow_up_request about a follow-up request."
]

const strings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []

const bullets = (lines: ReadonlyArray<string>) => lines.map((line) => `- ${line}`).join("\n")

/** What every session is told at initialize: the workflow and the truth rules. */
export const instructionsFor = (capabilities: Capabilities) =>
  [
    "Books home services in Sweden for a user, or hands the job to providers as a follow-up request.",
    workflow.join("\n"),
    `Truth rules:\n${bullets(strings(capabilities.agent_contract.truth_rules))}`,
    capabilities.agent_contract.safe_next_step,
    toolsForEndpoints,
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

const decodeCapabilities = Schema.decodeUnknownEffect(Schema.fromJsonString(Capabilities))
const decoder = new TextDecoder()

/** The capabilities document as it is served now (it is refreshed when supply changes). */
export const capabilitiesOf = (document: CapabilitiesDocument["Service"]) =>
  Effect.flatMap(document.current, ({ bodies }) => Effect.orDie(decodeCapabilities(decoder.decode(bodies.identity))))

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
