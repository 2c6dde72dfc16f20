import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { confirmBody, get, requestBody, searchBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { callTool, connect, overMcp, stepOf, type ToolResult } from "./McpClient.js"

const token = "partner-mcp-recovery-0123456789"
const auth = { authorization: `Bearer ${token}` }

/** Every text an assistant would read out of a result: none may name a REST path over MCP. */
const textsOf = (value: unknown, key = ""): Array<string> =>
  typeof value === "string"
    ? key === "endpoint" || key === "url"
      ? []
      : [value]
    : Array.isArray(value)
      ? value.flatMap((item) => textsOf(item))
      : value !== null && typeof value === "object"
        ? Object.entries(value).flatMap(([name, item]) => textsOf(item, name))
        : []

const expectToolWording = (result: ToolResult) => {
  for (const text of textsOf(result.structuredContent)) expect(text).not.toMatch(/\/api\/public|POST |GET /)
}

describe("recovery over MCP", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect(
      "a re-stamped retry replays; a key holding a booking names it; the same option again says it is booked",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const { client } = yield* connect(auth)
          const searched = yield* callTool(client, "search_booking_options", searchBody)
          expectToolWording(searched)
          const [option, other] = searched.structuredContent.options
          const first = yield* callTool(
            client,
            "confirm_booking",
            confirmBody(option.booking_option_id, option.terms_version, "mcp-recovery-1")
          )
          expect(first.isError, JSON.stringify(first.structuredContent)).toBeFalsy()
          const requestId: string = first.structuredContent.request_id

          const retried = yield* callTool(client, "confirm_booking", {
            ...confirmBody(option.booking_option_id, option.terms_version, "mcp-recovery-1"),
            booking_terms_accepted_at: "2026-11-23T09:00:01+01:00",
            consent_collected_at: "2026-11-23T09:00:00+01:00",
            source: "mcp-retry"
          })
          expect(retried.structuredContent).toMatchObject({ idempotent_replay: true, request_id: requestId })

          const reused = yield* callTool(
            client,
            "confirm_booking",
            confirmBody(other.booking_option_id, other.terms_version, "mcp-recovery-1")
          )
          expect(reused).toMatchObject({
            isError: true,
            structuredContent: {
              error: "idempotency_key_reused",
              request_id: requestId,
              booking_id: first.structuredContent.booking.id
            }
          })
          expect(stepOf(reused)).toContain(`the get_booking_status tool with booking_id "${requestId}"`)
          expectToolWording(reused)

          const again = yield* callTool(
            client,
            "confirm_booking",
            confirmBody(option.booking_option_id, option.terms_version, "mcp-recovery-2")
          )
          expect(again).toMatchObject({
            isError: true,
            structuredContent: { error: "option_already_booked", request_id: requestId }
          })
          expect(stepOf(again)).toContain("get_booking_status")
          expectToolWording(again)
        })
    )

    it.effect(
      "steps name tools: a missing quantity, a vertical in other words, the fallback, a request to look up",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const { client } = yield* connect(auth)
          const deep = yield* callTool(client, "search_booking_options", {
            ...searchBody,
            vertical_id: "cleaning",
            job_type_id: "cleaning_home_deep",
            location: { country_code: "SE", postcode: "411 22" }
          })
          expect(stepOf(deep)).toContain("ask the user and search again (the search_booking_options tool)")
          expect(stepOf(deep)).toContain("the create_follow_up_request tool")
          expectToolWording(deep)

          const plumbing = yield* callTool(client, "search_booking_options", { ...searchBody, vertical_id: "plumbing" })
          expect(plumbing).toMatchObject({ isError: true, structuredContent: { suggested_vertical_id: "vvs" } })
          expect(stepOf(plumbing)).toContain("search again (the search_booking_options tool)")
          expectToolWording(plumbing)

          const none = yield* callTool(client, "search_booking_options", { ...searchBody, job_type_id: "leak_hidden" })
          expect(stepOf(none)).toContain("the create_follow_up_request tool")
          expectToolWording(none)

          const created = yield* callTool(client, "create_follow_up_request", {
            ...requestBody,
            idempotency_key: "mcp-recovery-request"
          })
          expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy()
          const id: string = created.structuredContent.request.id
          expect(stepOf(created)).toContain(`the get_follow_up_request tool with request_id "${id}"`)
          expectToolWording(created)
          const looked = yield* callTool(client, "get_follow_up_request", { request_id: id })
          expect(looked.isError).toBeFalsy()
          expect(looked.structuredContent).toEqual(overMcp((yield* get(`/api/public/requests/${id}`, auth)).body))
          expect(looked.structuredContent).toMatchObject({
            booking_created: false,
            availability_checked: false,
            provider_selected: false,
            request: { id }
          })
          expectToolWording(looked)
        })
    )
  })
})
