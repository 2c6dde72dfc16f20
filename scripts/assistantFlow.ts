/**
 * One booking as an assistant makes it over MCP, through the official SDK client: initialize,
 * tools/list, get_capabilities, search_booking_options, hold_booking_option (before any personal
 * data), confirm_booking with the hold_id, get_booking_status, cancel_booking with dry_run, then
 * for real. Each step's size is what the model reads: the JSON
 * of the result as the client receives it, every content block and structuredContent included.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

export interface FlowStep {
  readonly step: string
  readonly bytes: number
  readonly isError: boolean
  /** What the client received: the tools/list answer or the tool result. */
  readonly received: unknown
}

export interface Flow {
  readonly protocolVersion: string | undefined
  readonly steps: ReadonlyArray<FlowStep>
  readonly total: number
}

const searchArguments = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE", postcode: "111 22" },
  timing: { preferred_time_text: "nästa vecka förmiddag" }
}

const confirmArguments = (option: string, holdId: string, termsVersion: string, at: string) => ({
  booking_option_id: option,
  hold_id: holdId,
  customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" },
  service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "111 22" },
  user_consent_confirmed: true,
  user_consent_statement: "Jag godkänner att mina uppgifter skickas till hantverkaren.",
  consent_collected_at: at,
  consent_source: "chat",
  booking_terms_accepted: true,
  booking_terms_version: termsVersion,
  booking_terms_accepted_at: at,
  idempotency_key: `assistant-flow-${Date.now()}`
})

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

interface ToolResult {
  readonly isError?: boolean
  readonly structuredContent?: any
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
}

/**
 * `now`: the time the user's consent is stamped with; a test whose server runs on a test clock
 * passes that clock's time.
 */
export const assistantFlow = async (
  mcpUrl: URL,
  headers: Record<string, string> = {},
  now: () => Date = () => new Date()
): Promise<Flow> => {
  const steps: Array<FlowStep> = []
  const client = new Client({ name: "assistant-flow", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers } })
  try {
    await client.connect(transport)
    steps.push({
      step: "initialize",
      bytes: size({
        protocolVersion: transport.protocolVersion,
        capabilities: client.getServerCapabilities(),
        serverInfo: client.getServerVersion(),
        instructions: client.getInstructions()
      }),
      isError: false,
      received: client.getInstructions()
    })
    const tools = await client.listTools()
    steps.push({ step: "tools/list", bytes: size(tools), isError: false, received: tools })
    const call = async (step: string, name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult
      steps.push({ step, bytes: size(result), isError: result.isError === true, received: result })
      return result
    }
    await call("get_capabilities", "get_capabilities", { vertical_id: "vvs" })
    const search = await call("search_booking_options", "search_booking_options", searchArguments)
    const option = search.structuredContent?.options?.[0]
    if (!option) throw new Error(`the search found no option: ${JSON.stringify(search).slice(0, 400)}`)
    const held = await call("hold_booking_option", "hold_booking_option", {
      booking_option_id: option.booking_option_id,
      idempotency_key: `assistant-flow-hold-${Date.now()}`
    })
    const holdId = held.structuredContent?.hold?.hold_id
    if (!holdId) throw new Error(`the hold held nothing: ${JSON.stringify(held).slice(0, 400)}`)
    const confirmed = await call(
      "confirm_booking",
      "confirm_booking",
      confirmArguments(
        option.booking_option_id,
        holdId,
        option.terms?.version ?? option.terms_version,
        now().toISOString()
      )
    )
    const booking = confirmed.structuredContent?.booking?.id ?? confirmed.structuredContent?.booking_id
    if (!booking) throw new Error(`the confirm booked nothing: ${JSON.stringify(confirmed).slice(0, 400)}`)
    await call("get_booking_status", "get_booking_status", { booking_id: booking })
    await call("cancel_booking (dry_run)", "cancel_booking", {
      booking_id: booking,
      dry_run: true,
      idempotency_key: `assistant-flow-cancel-preview-${booking}`
    })
    await call("cancel_booking", "cancel_booking", {
      booking_id: booking,
      idempotency_key: `assistant-flow-cancel-${booking}`
    })
    return {
      protocolVersion: transport.protocolVersion,
      steps,
      total: steps.reduce((sum, step) => sum + step.bytes, 0)
    }
  } finally {
    await client.close()
  }
}
