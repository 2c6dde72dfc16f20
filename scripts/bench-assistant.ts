/**
 * What one booking over MCP makes a model read (scripts/assistantFlow.ts), against a server
 * started as `npm start` starts it: bytes per step and in all, with a rough token figure (4 bytes
 * a token). Byte counts are deterministic, so a test can hold the same budgets.
 *
 *   npm run bench:assistant
 */
import { assistantFlow } from "./assistantFlow.js"
import { withDevServer } from "./devServer.js"

const token = "assistant-bench-token-0123456789"

const flow = await withDevServer({ AUTH_MODE: "tokens", SERVICE_REQUESTS_API_TOKENS: token }, (base) =>
  assistantFlow(new URL(`${base}/mcp`), { authorization: `Bearer ${token}` })
)
console.log(`protocol version: ${flow.protocolVersion}`)
for (const { step, bytes, isError } of flow.steps)
  console.log(`${step.padEnd(28)} ${String(bytes).padStart(8)} B${isError ? "  (error result)" : ""}`)
console.log(`${"total".padEnd(28)} ${String(flow.total).padStart(8)} B  (about ${Math.round(flow.total / 4)} tokens)`)
