/**
 * What tracing costs: the same search load on a server without tracing and on one exporting
 * every request's trace (OTEL_EXPORTER_OTLP_ENDPOINT, every trace sampled) to a local receiver
 * that reads and drops them, alternated `ROUNDS` times (default 2) so both sides see the same
 * machine. Prints requests/s and p99 of each run and the ratio traced / untraced.
 *
 *   npx tsx scripts/bench-tracing.ts            (CONNECTIONS=10 DURATION=10 ROUNDS=2)
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import autocannon from "autocannon"
import { withDevServer } from "./devServer.js"
import { searchBodies } from "./searchBodies.js"

const connections = Number(process.env.CONNECTIONS ?? 10)
const duration = Number(process.env.DURATION ?? 10)
const rounds = Number(process.env.ROUNDS ?? 2)
const bodies = searchBodies()

let spans = 0
const receiver = createServer((request, response) => {
  let text = ""
  request.setEncoding("utf8")
  request.on("data", (chunk: string) => (text += chunk))
  request.on("end", () => {
    spans += (text.match(/"spanId"/g) ?? []).length
    response.end("{}")
  })
})
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`

const drive = (base: string, run: { duration: number } | { amount: number }) => {
  let next = 0
  return autocannon({
    url: `${base}/api/public/booking-options`,
    connections,
    ...run,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] ?? "" })
      }
    ]
  })
}

const measure = (traced: boolean) =>
  withDevServer(
    {
      // The load is one client's: the rate limit would answer it 429.
      RATE_LIMIT_SEARCH_PER_MINUTE: "100000",
      ...(traced ? { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "1000" } : {})
    },
    async (base) => {
      await drive(base, { amount: 500 })
      const before = spans
      const result = await drive(base, { duration })
      const non2xx = result.non2xx + result.errors
      console.log(
        `${traced ? "traced  " : "untraced"}  ${result.requests.average.toFixed(0)} requests/s  p99 ${result.latency.p99} ms` +
          `${non2xx > 0 ? `  (${non2xx} not 200)` : ""}${traced ? `  (${spans - before} spans received)` : ""}`
      )
      return { rate: result.requests.average, p99: result.latency.p99 }
    }
  )

const runs: Array<{ traced: boolean; rate: number; p99: number }> = []
for (let round = 0; round < rounds; round++) {
  for (const traced of [false, true]) runs.push({ traced, ...(await measure(traced)) })
}
const mean = (traced: boolean, key: "rate" | "p99") => {
  const side = runs.filter((run) => run.traced === traced)
  return side.reduce((sum, run) => sum + run[key], 0) / side.length
}
console.log(
  `search, ${connections} connections, ${duration} s x ${rounds}: traced / untraced requests/s ${(mean(true, "rate") / mean(false, "rate")).toFixed(2)}, p99 ${mean(true, "p99").toFixed(0)} vs ${mean(false, "p99").toFixed(0)} ms`
)
receiver.close()
