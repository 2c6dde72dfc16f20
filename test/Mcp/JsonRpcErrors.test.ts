import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer } from "../support/Server.js"
import { initializeMessage, postMcp } from "./McpClient.js"

const token = "partner-jsonrpc-a-0123456789"
const auth = { authorization: `Bearer ${token}` }

const openSession = Effect.gen(function* () {
  const opened = yield* postMcp(initializeMessage, auth)
  expect(opened.status).toBe(200)
  return { ...auth, "mcp-session-id": opened.headers["mcp-session-id"]! }
})

/** An error answer says JSON-RPC's members only: no encoded cause, tag, stack or schema text. */
const expectCleanError = (body: unknown, code: number) => {
  expect(body).toMatchObject({ jsonrpc: "2.0", error: { code, message: expect.any(String) } })
  const text = JSON.stringify(body)
  for (const internal of ['"_tag"', "Die", "Cause", "Fail", "    at ", "Schema", "{ readonly"]) {
    expect(text, text).not.toContain(internal)
  }
  const { error } = body as { readonly error: Record<string, unknown> }
  expect(Object.keys(error).sort()).toEqual(
    error.data === undefined ? ["code", "message"] : ["code", "data", "message"]
  )
  expect(String(error.message)).not.toContain("\n")
  expect(String(error.message).length).toBeLessThan(300)
}

describe("JSON-RPC errors at /mcp", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect("initialize with params null or wrong is -32602, naming what is wrong", () =>
      Effect.gen(function* () {
        for (const params of [
          null,
          undefined,
          5,
          { protocolVersion: 5, capabilities: {}, clientInfo: { name: "x" } }
        ]) {
          const answer = yield* postMcp({ jsonrpc: "2.0", id: 1, method: "initialize", params }, auth)
          expect(answer.status, JSON.stringify(params)).toBe(200)
          expect(answer.headers["mcp-session-id"]).toBeUndefined()
          expectCleanError(answer.body, -32602)
          expect(answer.body.id).toBe(1)
          expect(answer.body.error.data.issues.length).toBeGreaterThan(0)
        }
        const wrong = yield* postMcp(
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: 5, capabilities: {}, clientInfo: {} }
          },
          auth
        )
        expect(wrong.body.error.data.issues).toEqual(
          expect.arrayContaining([expect.stringMatching(/^params\.protocolVersion: /)])
        )
      })
    )

    it.effect("tools/call with a name that is not a string, or params that are not an object, is -32602", () =>
      Effect.gen(function* () {
        const session = yield* openSession
        for (const params of [
          { name: 5 },
          null,
          { name: "get_capabilities", arguments: "x" },
          { name: "no_such_tool" }
        ]) {
          const answer = yield* postMcp({ jsonrpc: "2.0", id: 2, method: "tools/call", params }, session)
          expect(answer.status, JSON.stringify(params)).toBe(200)
          expectCleanError(answer.body, -32602)
          expect(answer.body.id).toBe(2)
        }
        const named = yield* postMcp({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: 5 } }, session)
        expect(named.body.error.message).toBe(
          "Invalid params for tools/call: params.name: must be a string naming a tool"
        )
      })
    )

    it.effect("what the transport refuses is said with the standard code and nothing of its internals", () =>
      Effect.gen(function* () {
        const session = yield* openSession
        const cases: ReadonlyArray<readonly [unknown, number]> = [
          [{ jsonrpc: "2.0", id: 3, method: "tools/list", params: 5 }, -32602],
          [{ jsonrpc: "2.0", id: 3, method: "resources/read", params: { uri: 5 } }, -32602],
          [{ jsonrpc: "2.0", id: 3, method: "prompts/get", params: { name: "no_such_prompt" } }, -32602],
          [{ jsonrpc: "2.0", id: 3, method: "no/such/method" }, -32601],
          // Not offered: no logging capability is declared, and a level is not one caller's to set.
          [{ jsonrpc: "2.0", id: 3, method: "logging/setLevel", params: { level: "debug" } }, -32601],
          [{ jsonrpc: "2.0", id: 3, method: "resources/subscribe", params: { uri: "booking://capabilities" } }, -32601]
        ]
        for (const [message, code] of cases) {
          const answer = yield* postMcp(message, session)
          expect(answer.status, JSON.stringify(message)).toBe(200)
          expectCleanError(answer.body, code)
          expect(answer.body.id).toBe(3)
        }
        // A batch answers each request: a refusal beside a result.
        const batch = yield* postMcp(
          [
            { jsonrpc: "2.0", id: "a", method: "ping" },
            { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: 5 } }
          ],
          session
        )
        expect(batch.status).toBe(200)
        expect(batch.body).toHaveLength(2)
        expect(batch.body).toEqual(
          expect.arrayContaining([
            { jsonrpc: "2.0", id: "a", result: {} },
            expect.objectContaining({ id: "b", error: expect.objectContaining({ code: -32602 }) })
          ])
        )
      })
    )

    it.effect("a body that is not JSON is -32700, and one that is not a JSON-RPC request -32600, each a 400", () =>
      Effect.gen(function* () {
        const session = yield* openSession
        const parse = yield* postMcp("{not json", session)
        expect(parse.status).toBe(400)
        expectCleanError(parse.body, -32700)
        expect(parse.body.id).toBeNull()
        const cases: ReadonlyArray<readonly [unknown, string | number | null]> = [
          [{ jsonrpc: "2.0", id: 4, method: 5 }, 4],
          [{ id: 4, method: "ping" }, 4],
          [{ jsonrpc: "2.0", id: 4.5, method: "ping" }, null],
          [[], null],
          ["just a string", null]
        ]
        for (const [body, id] of cases) {
          const answer = yield* postMcp(JSON.stringify(body), session)
          expect(answer.status, JSON.stringify(body)).toBe(400)
          expectCleanError(answer.body, -32600)
          expect(answer.body.id).toBe(id)
        }
      })
    )
  })
})
