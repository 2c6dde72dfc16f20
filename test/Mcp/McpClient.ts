import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { mcpSurface, restSurface } from "../../src/Domain/Surface.js"
import { searchBodyFor } from "../support/Http.js"

/** The app's /mcp on the port the test server bound. */
export const mcpUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag === "UnixPathAddress") throw new Error("the test server listens on TCP")
  return new URL(`http://127.0.0.1:${address.port}/mcp`)
})

export interface Connected {
  readonly client: Client
  readonly transport: StreamableHTTPClientTransport
}

/** The official SDK's client, connected (initialized) over Streamable HTTP, closed with the scope. */
export const connect = (headers: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      const url = yield* mcpUrl
      const client = new Client({ name: "booking-api-test", version: "1.0.0" })
      const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } })
      yield* Effect.promise(() => client.connect(transport))
      return { client, transport } satisfies Connected
    }),
    ({ client }) => Effect.promise(() => client.close())
  )

export interface ToolResult {
  readonly isError?: boolean
  readonly structuredContent?: any
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
}

/** A result's step: said in the text the model reads (an error's body also carries it). */
export const stepOf = (result: ToolResult): string =>
  result.structuredContent?.safe_next_step ??
  (result.content[0]?.text ?? "")
    .split("\n")
    .find((line) => line.startsWith("Next: "))
    ?.slice("Next: ".length) ??
  ""

/** A tool call; the SDK checks structuredContent against the tool's outputSchema on success. */
export const callTool = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<ToolResult>)

/** A raw JSON-RPC POST to /mcp, for what the SDK client would never send. */
export const postMcp = (body: unknown, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const url = yield* mcpUrl
    const response = yield* Effect.promise(() =>
      fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body)
      })
    )
    const text = yield* Effect.promise(() => response.text())
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: text.length > 0 ? JSON.parse(text) : undefined
    }
  })

export const initializeMessage = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
}

/** The arguments the no-token tests send: a search, and a follow-up request with consent. */
export const searchArgs = searchBodyFor("nästa vecka")

export const requestArgs = {
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  description: "Fuktfläck i taket under badrummet.",
  user_consent_confirmed: true,
  customer: { name: "Nils Holm", phone: "+46 70 111 22 33", email: "nils.holm@example.se" },
  location: { address: "Sveavägen 1", postcode: "111 57" },
  timing: { urgency: "snarast" }
}

/** A REST text as the same answer words it over MCP: each REST action named as its tool. */
const mcpWording = (text: string) =>
  text
    .replace(/GET \/api\/public\/bookings\/([A-Za-z0-9_-]+)/g, (_, id: string) => mcpSurface.bookingStatus(id))
    .replace(/GET \/api\/public\/requests\/([A-Za-z0-9_-]+)/g, (_, id: string) => mcpSurface.requestStatus(id))
    .replaceAll(restSurface.search, mcpSurface.search)
    .replaceAll(restSurface.confirm, mcpSurface.confirm)
    .replaceAll(restSurface.hold, mcpSurface.hold)
    .replaceAll(restSurface.createRequest, mcpSurface.createRequest)

/** A REST body as the MCP tool answers it: the same, but its steps and issues name tools. */
export const overMcp = (body: unknown): any =>
  typeof body === "string"
    ? mcpWording(body)
    : Array.isArray(body)
      ? body.map(overMcp)
      : body !== null && typeof body === "object"
        ? Object.fromEntries(Object.entries(body).map(([key, value]) => [key, overMcp(value)]))
        : body
