import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { sessionLimits } from "../../src/Mcp/Sessions.js"

const sessionsPerCaller = sessionLimits.perPartner

import { TestServer, testNow } from "../support/Server.js"
import { connect, initializeMessage, mcpUrl, postMcp } from "./McpClient.js"

const token = "partner-transport-a-0123456789"
const otherToken = "partner-transport-b-9876543210"
const auth = { authorization: `Bearer ${token}` }
const otherAuth = { authorization: `Bearer ${otherToken}` }

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list" }

const openSession = (headers: Record<string, string> = auth) =>
  Effect.gen(function* () {
    const response = yield* postMcp(initializeMessage, headers)
    expect(response.status, JSON.stringify(response.body)).toBe(200)
    const id = response.headers["mcp-session-id"]
    expect(id).toBeDefined()
    return id!
  })

const inSession = (session: string, headers: Record<string, string> = auth) => ({
  ...headers,
  "mcp-session-id": session
})

const request = (method: string, headers: Record<string, string>) =>
  Effect.gen(function* () {
    const url = yield* mcpUrl
    const response = yield* Effect.promise(() => fetch(url, { method, headers }))
    const text = yield* Effect.promise(() => response.text())
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined }
  })

describe("MCP Streamable HTTP transport", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` } }))((it) => {
    it.effect("an Origin other than the service's own is 403; no Origin, or the service's own, passes", () =>
      Effect.gen(function* () {
        const foreign = yield* postMcp(initializeMessage, { ...auth, origin: "https://evil.example" })
        expect(foreign.status).toBe(403)
        expect(foreign.body).toMatchObject({ ok: false, error: "origin_not_allowed", status: 403 })
        expect(foreign.headers["mcp-session-id"]).toBeUndefined()
        const own = yield* postMcp(initializeMessage, { ...auth, origin: "http://127.0.0.1:8080" })
        expect(own.status).toBe(200)
        const session = yield* openSession()
        const deleted = yield* request("DELETE", { ...inSession(session), origin: "http://localhost:8080" })
        expect(deleted.status).toBe(403)
      })
    )

    it.effect("a token that does not authenticate is 401 with a Bearer challenge, as MCP's authorization asks", () =>
      Effect.gen(function* () {
        for (const headers of [
          { authorization: "Bearer wrong-token-0123456789" },
          { authorization: "Basic dXNlcjpwYXNz" },
          { "x-service-requests-token": "wrong-token-0123456789" }
        ]) {
          const refused = yield* postMcp(initializeMessage, headers)
          expect(refused.status, JSON.stringify(headers)).toBe(401)
          expect(refused.headers["www-authenticate"]).toMatch(/^Bearer /)
          expect(refused.body).toMatchObject({ ok: false, error: "unauthorized", status: 401 })
        }
        // Either header, the bearer first, as on REST; tools then act for the partner it names.
        for (const headers of [
          { "x-service-requests-token": token },
          { authorization: "Bearer wrong-token-0123456789", "x-service-requests-token": token }
        ]) {
          const session = yield* openSession(headers)
          const status = yield* postMcp(
            {
              jsonrpc: "2.0",
              id: 5,
              method: "tools/call",
              params: { name: "get_booking_status", arguments: { booking_id: "bkg_unknown" } }
            },
            inSession(session, headers)
          )
          expect(status.body.result, JSON.stringify(headers)).toMatchObject({ structuredContent: { found: false } })
        }
      })
    )

    it.effect("only initialize goes without a session: 400 without one, 404 for an unknown or another's", () =>
      Effect.gen(function* () {
        const session = yield* openSession()
        expect(session).toMatch(/^[\x21-\x7e]+$/)
        expect((yield* postMcp(listTools, inSession(session))).body.result.tools).toHaveLength(11)

        const missing = yield* postMcp(listTools, auth)
        expect(missing).toMatchObject({ status: 400, body: { error: "mcp_session_required", status: 400 } })
        const unknown = yield* postMcp(listTools, inSession("no-such-session"))
        expect(unknown).toMatchObject({ status: 404, body: { error: "mcp_session_not_found", status: 404 } })
        // A session answers only to the caller who opened it: another partner, or no token at all.
        expect((yield* postMcp(listTools, inSession(session, otherAuth))).status).toBe(404)
        expect((yield* postMcp(listTools, inSession(session, {}))).status).toBe(404)
        const anonymous = yield* openSession({})
        expect((yield* postMcp(listTools, inSession(anonymous, {}))).status).toBe(200)
        expect((yield* postMcp(listTools, inSession(anonymous))).status).toBe(404)
      })
    )

    it.effect(
      "notifications are 202 with no body; GET is 405; a protocol version the session did not agree is 400",
      () =>
        Effect.gen(function* () {
          const session = yield* openSession()
          const initialized = { jsonrpc: "2.0", method: "notifications/initialized" }
          const accepted = yield* postMcp(initialized, inSession(session))
          expect(accepted).toMatchObject({ status: 202, body: undefined })

          const stream = yield* request("GET", { ...inSession(session), accept: "text/event-stream" })
          expect(stream.status).toBe(405)
          expect(stream.body).toMatchObject({ error: "method_not_allowed" })

          const agreed = yield* postMcp(listTools, { ...inSession(session), "mcp-protocol-version": "2025-06-18" })
          expect(agreed.status).toBe(200)
          const other = yield* postMcp(listTools, { ...inSession(session), "mcp-protocol-version": "2024-11-05" })
          expect(other).toMatchObject({ status: 400, body: { error: "mcp_protocol_version_mismatch" } })
        })
    )

    it.effect("DELETE ends a session (the SDK's terminateSession), and the session is then 404", () =>
      Effect.gen(function* () {
        const session = yield* openSession()
        expect((yield* request("DELETE", inSession(session, otherAuth))).status).toBe(404)
        expect((yield* request("DELETE", inSession(session))).status).toBe(204)
        expect((yield* postMcp(listTools, inSession(session))).status).toBe(404)
        expect((yield* request("DELETE", inSession(session))).status).toBe(404)

        const { transport } = yield* connect(auth)
        const sdkSession = transport.sessionId!
        yield* Effect.promise(() => transport.terminateSession())
        expect((yield* postMcp(listTools, inSession(sdkSession))).status).toBe(404)
      }).pipe(Effect.scoped)
    )

    it.effect(`a caller holds at most ${sessionsPerCaller} sessions: a new one ends the least recently used`, () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const sessions: Array<string> = []
        // A second apart, so "least recently used" names one session.
        for (let i = 0; i < sessionsPerCaller; i++) {
          sessions.push(yield* openSession(otherAuth))
          yield* TestClock.adjust("1 second")
        }
        const elsewhere = yield* openSession()
        yield* TestClock.adjust("1 second")
        // The first is used again, so the second becomes the least recently used.
        expect((yield* postMcp(listTools, inSession(sessions[0]!, otherAuth))).status).toBe(200)
        yield* TestClock.adjust("1 second")
        const newest = yield* openSession(otherAuth)
        expect((yield* postMcp(listTools, inSession(sessions[1]!, otherAuth))).status).toBe(404)
        for (const alive of [sessions[0]!, sessions[2]!, newest]) {
          expect((yield* postMcp(listTools, inSession(alive, otherAuth))).status).toBe(200)
        }
        expect((yield* postMcp(listTools, inSession(elsewhere))).status).toBe(200)
      })
    )

    it.effect(
      `anonymous initializes: at most ${sessionLimits.perAddress} sessions per address, and a partner's session stays`,
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const held = yield* openSession(otherAuth)
          yield* TestClock.adjust("1 second")
          const anonymous: Array<string> = []
          for (let i = 0; i < sessionLimits.perAddress + 5; i++) {
            anonymous.push(yield* openSession({}))
            yield* TestClock.adjust("1 second")
          }
          // The address's oldest five went; its newest answer; the partner's session was never at stake.
          for (const gone of anonymous.slice(0, 5))
            expect((yield* postMcp(listTools, inSession(gone, {}))).status).toBe(404)
          for (const alive of anonymous.slice(5))
            expect((yield* postMcp(listTools, inSession(alive, {}))).status).toBe(200)
          expect((yield* postMcp(listTools, inSession(held, otherAuth))).status).toBe(200)
        })
    )

    it.effect(
      "JSON-RPC string ids are answered; what is not JSON-RPC is a 400 with JSON-RPC's code naming it; tools/call may leave out arguments",
      () =>
        Effect.gen(function* () {
          const session = yield* openSession()
          // The protocol allows string ids, and Effect 4's codec answers them with the same id.
          const stringId = yield* postMcp({ ...listTools, id: "abc" }, inSession(session))
          expect(stringId.status).toBe(200)
          expect(stringId.body).toMatchObject({ jsonrpc: "2.0", id: "abc", result: { tools: expect.any(Array) } })
          const fractionalId = yield* postMcp({ ...listTools, id: 1.5 }, inSession(session))
          expect(fractionalId.status).toBe(400)
          expect(fractionalId.body).toEqual({
            jsonrpc: "2.0",
            id: null,
            error: {
              code: -32600,
              message: "Invalid Request: id: must be a string or an integer",
              data: { issues: ["id: must be a string or an integer"] }
            }
          })
          const malformed = yield* postMcp("{not json", inSession(session))
          expect(malformed).toMatchObject({ status: 400, body: { jsonrpc: "2.0", id: null, error: { code: -32700 } } })

          const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_capabilities" } }
          const answered = yield* postMcp(call, inSession(session))
          expect(answered.status).toBe(200)
          expect(answered.body).toMatchObject({ id: 3, result: { structuredContent: { ok: true } } })
          expect(answered.body.result.isError).toBeFalsy()
        })
    )
  })
})
