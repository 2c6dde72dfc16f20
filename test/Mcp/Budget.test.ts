import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { assistantFlow, type FlowStep } from "../../scripts/assistantFlow.js"
import { TestServer, testNow } from "../support/Server.js"
import { callTool, connect, mcpUrl, stepOf } from "./McpClient.js"

const token = "partner-budget-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

const KB = 1024
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value))

/** The budgets are set for option ids of at most this many characters. */
const idBudget = 64

/**
 * A step's bytes with every option id counted at `idBudget` characters: what an id longer than
 * that adds is the id's length, not the result's shape, so it is left out here and reported.
 */
const shapeBytes = (step: FlowStep, ids: ReadonlyArray<string>) => {
  const json = JSON.stringify(step.received ?? "")
  const extra = ids.reduce((sum, id) => sum + Math.max(0, id.length - idBudget) * (json.split(id).length - 1), 0)
  return step.bytes - extra
}

describe("what one booking over MCP makes a model read", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect("the whole flow within 32 KB: tools/list 16 KB, a result 4 KB, a search of 4 options 6 KB", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const url = yield* mcpUrl
        const flow = yield* Effect.promise(() => assistantFlow(url, auth, () => new Date(testNow)))
        const byStep = Object.fromEntries(flow.steps.map((step) => [step.step, step]))
        expect(flow.protocolVersion).toBe("2025-11-25")
        expect(flow.steps.filter((step) => step.isError)).toEqual([])

        const search = byStep.search_booking_options!.received as any
        expect(search.structuredContent.options).toHaveLength(4)
        const ids: ReadonlyArray<string> = search.structuredContent.options.map(
          (option: any) => option.booking_option_id
        )
        const sizes = Object.fromEntries(flow.steps.map((step) => [step.step, shapeBytes(step, ids)]))

        expect(sizes["tools/list"]).toBeLessThanOrEqual(16 * KB)
        expect(sizes.search_booking_options).toBeLessThanOrEqual(6 * KB)
        for (const step of flow.steps.filter((step) => step.step !== "tools/list" && step.step !== "initialize")) {
          if (step.step !== "search_booking_options") expect(sizes[step.step], step.step).toBeLessThanOrEqual(4 * KB)
        }
        const total = Object.values(sizes).reduce((sum, bytes) => sum + bytes, 0)
        expect(total).toBeLessThanOrEqual(32 * KB)

        // Nothing twice: the text block renders the result, it is not the JSON again.
        for (const step of flow.steps.filter((step) => step.step.includes("_"))) {
          const result = step.received as any
          expect(result.content, step.step).toHaveLength(1)
          expect(() => JSON.parse(result.content[0].text), step.step).toThrow()
          // The step is said once: in the text the model reads, not again in structuredContent.
          expect(result.content[0].text, step.step).toContain(`Next: ${stepOf(result)}`)
          expect(result.structuredContent.safe_next_step, step.step).toBeUndefined()
        }
        // Each step names the tool to call next, and the argument it takes.
        const steps = flow.steps.flatMap((step) =>
          step.step.includes("_") ? [[step.step, stepOf(step.received as any)]] : []
        )
        expect(Object.fromEntries(steps)).toMatchObject({
          get_capabilities: expect.stringContaining("search_booking_options with vertical_id"),
          search_booking_options: expect.stringContaining("hold_booking_option with its booking_option_id"),
          hold_booking_option: expect.stringMatching(/confirm_booking with hold_id "[0-9a-f-]{36}"/),
          confirm_booking: expect.stringMatching(/get_booking_status with booking_id "bkg_/),
          get_booking_status: expect.stringMatching(/cancel_booking with booking_id "bkg_/),
          "cancel_booking (dry_run)": expect.stringMatching(/the cancel_booking tool with booking_id "bkg_/),
          cancel_booking: expect.stringContaining("search_booking_options")
        })
      })
    )

    it.effect("get_capabilities: an overview without vertical_id, one trade within 4 KB with it", () =>
      Effect.gen(function* () {
        const { client } = yield* connect()
        const overview = yield* callTool(client, "get_capabilities")
        expect(bytesOf(overview)).toBeLessThanOrEqual(4 * KB)
        const verticals: ReadonlyArray<any> = overview.structuredContent.verticals
        expect(verticals.map((vertical) => vertical.vertical_id)).toEqual(["vvs", "electrician", "moving", "cleaning"])
        expect(stepOf(overview)).toContain("get_capabilities with vertical_id")
        for (const { vertical_id } of verticals) {
          const one = yield* callTool(client, "get_capabilities", { vertical_id })
          expect(one.isError, vertical_id).toBeFalsy()
          expect(bytesOf(one), vertical_id).toBeLessThanOrEqual(4 * KB)
          expect(one.structuredContent.vertical_id).toBe(vertical_id)
          expect(one.content[0]!.text).not.toContain(verticals.find((v) => v.vertical_id !== vertical_id).label)
        }
        const refused = yield* callTool(client, "get_capabilities", { vertical_id: "painting" })
        expect(refused).toMatchObject({ isError: true, structuredContent: { error: "invalid_request", status: 400 } })
      })
    )

    it.effect("tools/list: every argument a tool needs is required, and every tool's hints are explicit", () =>
      Effect.gen(function* () {
        const { client } = yield* connect(auth)
        const { tools } = yield* Effect.promise(() => client.listTools())
        const instructions = client.getInstructions() ?? ""
        expect(instructions.length).toBeLessThanOrEqual(2 * KB)
        for (const tool of tools) {
          expect(instructions, tool.name).toContain(tool.name)
          expect(tool.outputSchema, tool.name).toBeUndefined()
          expect(Object.keys(tool.annotations ?? {}).sort(), tool.name).toEqual([
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
            "readOnlyHint"
          ])
        }
        const required = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema.required ?? []]))
        for (const name of [
          "hold_booking_option",
          "confirm_booking",
          "cancel_booking",
          "reschedule_booking",
          "create_follow_up_request"
        ])
          expect(required[name], name).toContain("idempotency_key")
        expect(required.get_booking_option).toEqual(["booking_option_id"])
        expect(required.search_booking_options).toEqual(
          expect.arrayContaining(["vertical_id", "job_type_id", "location", "timing"])
        )
      })
    )
  })
})
