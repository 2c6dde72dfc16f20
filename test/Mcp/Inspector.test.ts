import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer } from "../support/Server.js"
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
    it.effect("lists the eleven tools and calls get_capabilities", () =>
      Effect.gen(function* () {
        const listed = yield* inspect("--method", "tools/list")
        const { tools } = JSON.parse(listed.stdout)
        expect(tools.map((tool: { name: string }) => tool.name)).toEqual([
          "get_capabilities",
          "search_booking_options",
          "get_booking_option",
          "hold_booking_option",
          "release_hold",
          "confirm_booking",
          "get_booking_status",
          "cancel_booking",
          "reschedule_booking",
          "create_follow_up_request",
          "get_follow_up_request"
        ])
        const called = yield* inspect("--method", "tools/call", "--tool-name", "get_capabilities")
        expect(JSON.parse(called.stdout)).toMatchObject({
          structuredContent: { ok: true, verticals: expect.any(Array) }
        })
      })
    )

    it.effect("npm run mcp:inspect takes the token from API_TOKEN and prints at most its prefix", () =>
      Effect.gen(function* () {
        const url = String(yield* mcpUrl)
        const script = (args: ReadonlyArray<string>, env: Record<string, string>) =>
          Effect.promise(() =>
            promisify(execFile)("npm", ["run", "mcp:inspect", "--", ...args], {
              env: { ...process.env, ...env },
              timeout: 30_000
            }).then(
              (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
              (failed: { code: number; stdout: string; stderr: string }) => failed
            )
          )
        const status = [
          "--method",
          "tools/call",
          "--tool-name",
          "get_booking_status",
          "--tool-arg",
          "booking_id=bk_none"
        ]
        const called = yield* script([url, ...status], { API_TOKEN: token })
        // Only a partner's token reads a booking's status: an answer at all shows the token was sent.
        expect(called.code, called.stderr).toBe(0)
        // npm's banner (the command line as npm echoes it) comes first on stdout, then the answer.
        expect(called.stdout).toContain("> tsx scripts/mcp-inspect.ts")
        expect(JSON.parse(called.stdout.slice(called.stdout.indexOf("{")))).toMatchObject({
          structuredContent: { ok: true, found: false }
        })
        expect(called.stdout + called.stderr).not.toContain(token)
        expect(called.stderr).toContain(`${url} with the token part… from API_TOKEN`)

        // A token given as an argument has been printed by npm already: refused, so the habit does not stick.
        const argued = yield* script([url, "--header", `Authorization: Bearer ${token}`, ...status], {})
        expect(argued.code).toBe(2)
        expect(argued.stdout).not.toContain("structuredContent")
        expect(argued.stderr).toContain("pass the token in API_TOKEN")
      })
    )
  })
})
