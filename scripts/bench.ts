/**
 * Benchmarks one endpoint of a real server: `npm start` on a fresh embedded PostgreSQL with the
 * demo supply, driven by autocannon over loopback. Prints requests/s and latency percentiles.
 *
 *   npm run bench:search            # POST /api/public/booking-options
 *   CONNECTIONS=50 DURATION=20 npm run bench:search
 */

import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"

const scenarios = {
  search: {
    method: "POST" as const,
    path: "/api/public/booking-options",
    bodies: [
      ["vvs", "install_faucet", "111 22", "nästa vecka"],
      ["electrician", "electrical_replace_outlet_switch", "411 05", "imorgon"],
      ["cleaning", "cleaning_window", "211 20", "i helgen", { window_count: 14 }],
      ["vvs", "install_toilet", "753 20", "snarast"],
      ["vvs", "install_faucet", "981 38", "nästa vecka"]
    ].map(([vertical_id, job_type_id, postcode, preferred_time_text, details]) =>
      JSON.stringify({
        vertical_id,
        job_type_id,
        description: "Benchmark: ett vanligt jobb med fast pris",
        location: { country_code: "SE", postcode },
        timing: { preferred_time_text },
        ...(details ? { details } : {})
      })
    )
  }
}

const name = (process.argv[2] ?? "search") as keyof typeof scenarios
const scenario = scenarios[name]
if (!scenario) throw new Error(`unknown scenario ${name}; one of ${Object.keys(scenarios).join(", ")}`)

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })

const dataDir = mkdtempSync(join(tmpdir(), "booking-bench-"))
const port = await freePort()
const started = Date.now()
const server = spawn(join(import.meta.dirname, "..", "node_modules", ".bin", "tsx"), ["src/main.ts"], {
  cwd: join(import.meta.dirname, ".."),
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), APP_ENV: "development", DATABASE_URL: "" },
  stdio: ["ignore", "pipe", "inherit"]
})
await new Promise<void>((resolve, reject) => {
  let output = ""
  server.stdout?.on("data", (chunk) => {
    output += chunk
    if (output.includes("serving http://")) resolve()
  })
  server.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
})
console.log(`server ready in ${Date.now() - started} ms (cold start, fresh embedded PostgreSQL)`)

let next = 0
const result = await autocannon({
  url: `http://127.0.0.1:${port}${scenario.path}`,
  connections: Number(process.env.CONNECTIONS ?? 50),
  duration: Number(process.env.DURATION ?? 15),
  requests: [
    {
      method: scenario.method,
      headers: { "content-type": "application/json" },
      setupRequest: (request) => ({ ...request, body: scenario.bodies[next++ % scenario.bodies.length] })
    }
  ]
})
server.kill("SIGTERM")
await new Promise((resolve) => server.on("exit", resolve))
rmSync(dataDir, { recursive: true, force: true })

const statuses = Object.entries(result.statusCodeStats ?? {})
  .map(([code, stat]) => `${code}: ${(stat as { count: number }).count}`)
  .join(", ")
console.log(`${name}: ${result.connections} connections, ${result.duration} s`)
console.log(`  requests/s  mean ${result.requests.average.toFixed(0)}  (total ${result.requests.total})`)
console.log(
  `  latency ms  p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`
)
console.log(`  statuses    ${statuses}; errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`)
if (result.non2xx > 0 || result.errors > 0) process.exitCode = 1
