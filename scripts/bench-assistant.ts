/**
 * What one booking over MCP makes a model read (scripts/assistantFlow.ts), against a server
 * started as `npm start` starts it: bytes per step and in all, with a rough token figure (4 bytes
 * a token). Byte counts are deterministic, so a test (test/Mcp/Budget.test.ts) holds the budgets.
 *
 *   npm run bench:assistant                          # the figures, and their JSON on the last line
 *   npm run bench:assistant -- --before figures.json # beside an earlier run's JSON line
 */
import { readFileSync } from "node:fs"
import { assistantFlow } from "./assistantFlow.js"
import { withDevServer } from "./devServer.js"

const token = "assistant-bench-token-0123456789"
const beforeAt = process.argv.indexOf("--before")
const before: Record<string, number> =
  beforeAt < 0
    ? {}
    : JSON.parse(
        readFileSync(process.argv[beforeAt + 1]!, "utf8")
          .trim()
          .split("\n")
          .at(-1)!
      )

const flow = await withDevServer({ AUTH_MODE: "tokens", SERVICE_REQUESTS_API_TOKENS: token }, (base) =>
  assistantFlow(new URL(`${base}/mcp`), { authorization: `Bearer ${token}` })
)
const figures: Record<string, number> = Object.fromEntries(flow.steps.map(({ step, bytes }) => [step, bytes]))
figures.total = flow.total
const column = (bytes: number | undefined) => (bytes === undefined ? "" : `${String(bytes).padStart(8)} B`)
console.log(`protocol version: ${flow.protocolVersion}`)
console.log(`${"step".padEnd(28)} ${beforeAt < 0 ? "" : `${"before".padStart(10)} `}${"bytes".padStart(10)}`)
for (const { step, bytes, isError } of flow.steps)
  console.log(
    `${step.padEnd(28)} ${beforeAt < 0 ? "" : `${column(before[step]).padStart(10)} `}${column(bytes)}${isError ? "  (error result)" : ""}`
  )
console.log(
  `${"total".padEnd(28)} ${beforeAt < 0 ? "" : `${column(before.total).padStart(10)} `}${column(flow.total)}  (about ${Math.round(flow.total / 4)} tokens)`
)
console.log(JSON.stringify(figures))
