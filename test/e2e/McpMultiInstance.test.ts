import { describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { callTool, searchArgs } from "../Mcp/McpClient.js"
import { makeDatabase } from "../support/Database.js"
import { serverInstance as instance } from "../support/Server.js"

const token = "mcp-multi-instance-token-0123456789"

/**
 * A load balancer without sticky routing, in the client: each HTTP request of the SDK's transport
 * goes to the next instance in turn, whatever its Mcp-Session-Id. It notes which instance
 * answered which JSON-RPC method.
 */
const roundRobin = (bases: ReadonlyArray<string>) => {
  let next = 0
  const served: Array<{ readonly base: string; readonly method: string; readonly status: number }> = []
  const fetchAlternating = async (input: string | URL | Request, init?: RequestInit) => {
    const base = bases[next++ % bases.length]!
    const url = new URL(input instanceof Request ? input.url : String(input))
    const target = new URL(`${url.pathname}${url.search}`, base)
    const response = await fetch(target, init)
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }) : {}
    served.push({ base, method: `${init?.method ?? "GET"} ${body.method ?? ""}`.trim(), status: response.status })
    return response
  }
  return { fetch: fetchAlternating, served }
}

describe("MCP across instances", () => {
  it.live(
    "the official SDK client, its calls alternating between two instances on one database: initialize, tools/list, search, confirm, status",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const env = {
          APP_ENV: "development",
          DATABASE_URL: url,
          SERVICE_REQUESTS_API_TOKENS: token,
          BOOKING_OPTION_SIGNING_KEYS: "shared:shared-secret-0123456789abcdef0123456789",
          LOG_FORMAT: "json"
        }
        const [a, b] = yield* Effect.all([instance(env), instance(env)], { concurrency: 2 })
        const balancer = roundRobin([a.base, b.base])

        const client = new Client({ name: "booking-api-multi-instance-test", version: "1.0.0" })
        const transport = new StreamableHTTPClientTransport(new URL("http://balancer.invalid/mcp"), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
          fetch: balancer.fetch
        })
        yield* Effect.acquireRelease(
          Effect.promise(() => client.connect(transport)),
          () => Effect.promise(() => client.close())
        )
        expect(transport.sessionId).toMatch(/^[\x21-\x7e]{32,}$/)

        const { tools } = yield* Effect.promise(() => client.listTools())
        expect(tools).toHaveLength(11)

        const found = yield* callTool(client, "search_booking_options", searchArgs)
        expect(found.isError, JSON.stringify(found.structuredContent)).toBeFalsy()
        expect(found.structuredContent).toMatchObject({ ok: true, direct_booking_available: true })
        const option = found.structuredContent.options[0]

        const confirmed = yield* callTool(client, "confirm_booking", {
          booking_option_id: option.booking_option_id,
          customer: { name: "Sven Ek", phone: "+46 70 222 33 44", email: "sven.ek@example.se" },
          service_location: { country_code: "SE", address: "Götgatan 9", postcode: "111 22" },
          user_consent_confirmed: true,
          booking_terms_accepted: true,
          booking_terms_version: option.terms_version,
          booking_terms_accepted_at: new Date().toISOString(),
          idempotency_key: "mcp-multi-instance-1"
        })
        expect(confirmed.isError, JSON.stringify(confirmed.structuredContent)).toBeFalsy()
        expect(confirmed.structuredContent).toMatchObject({
          booking_created: true,
          availability_checked: true,
          provider_selected: true,
          booking: { status: "confirmed" }
        })

        const status = yield* callTool(client, "get_booking_status", {
          booking_id: confirmed.structuredContent.booking.id
        })
        expect(status.isError, JSON.stringify(status.structuredContent)).toBeFalsy()
        expect(status.structuredContent).toMatchObject({ found: true, booking: { status: "confirmed" } })

        // Every call was answered, and each instance served calls of the session the other opened.
        // (The SDK's GET for a server stream is 405 at either: this server sends nothing of its own.)
        const posts = balancer.served.filter((call) => call.method !== "GET")
        expect(
          posts.every(({ status }) => status < 300),
          JSON.stringify(balancer.served)
        ).toBe(true)
        const methodsAt = (base: string) =>
          balancer.served.filter((call) => call.base === base).map((call) => call.method)
        expect(methodsAt(a.base)).toContain("POST initialize")
        expect(methodsAt(b.base)).toEqual(expect.arrayContaining(["POST notifications/initialized"]))
        const toolCalls = balancer.served.filter((call) => call.method === "POST tools/call")
        expect(new Set(toolCalls.map((call) => call.base))).toEqual(new Set([a.base, b.base]))
        expect(balancer.served.length).toBeGreaterThanOrEqual(6)

        // Ended at one instance, the session is gone at the other too.
        const sessionId = transport.sessionId!
        yield* Effect.promise(() => transport.terminateSession())
        const endedAt = balancer.served.at(-1)!
        expect(endedAt).toMatchObject({ method: "DELETE", status: 204 })
        const other = endedAt.base === a.base ? b.base : a.base
        const after = yield* Effect.promise(() =>
          fetch(`${other}/mcp`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              authorization: `Bearer ${token}`,
              "mcp-session-id": sessionId
            },
            body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" })
          })
        )
        expect(after.status).toBe(404)
      }).pipe(Effect.scoped),
    120_000
  )
})
