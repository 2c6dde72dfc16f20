import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer } from "../support/TestServer.js"
import { mcpUrl } from "./McpClient.js"

const token = "partner-inspector-token-0123456789"

const inspectorBuild = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build"
)

/** The MCP Inspector's own CLI, as a CI smoke step: it runs offline against the local server. */
const inspect = (...args: ReadonlyArray<string>) =>
  Effect.flatMap(mcpUrl, (url) =>
    Effect.promise(() =>
      promisify(execFile)(
        process.execPath,
        [
          join(inspectorBuild, "cli.js"),
          "--cli",
          String(url),
          "--transport",
          "http",
          "--header",
          `Authorization: Bearer ${token}`,
          ...args
        ],
        // It looks for its package.json relative to the working directory, but imports it relative to itself.
        { cwd: inspectorBuild, timeout: 20_000 }
      )
    )
  )

describe("the MCP Inspector CLI", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect("lists the eight tools and calls get_capabilities", () =>
      Effect.gen(function* () {
        const listed = yield* inspect("--method", "tools/list")
        const { tools } = JSON.parse(listed.stdout)
        expect(tools.map((tool: { name: string }) => tool.name)).toEqual([
          "get_capabilities",
          "search_booking_options",
          "confirm_booking",
          "get_booking_status",
          "cancel_booking",
          "reschedule_booking",
          "create_follow_up_request",
          "get_follow_up_request"
        ])
        const called = yield* inspect("--method", "tools/call", "--tool-name", "get_capabilities")
        expect(JSON.parse(called.stdout)).toMatchObject({
          structuredContent: { ok: true, spec_version: expect.any(String) }
        })
      })
    )
  })
})
