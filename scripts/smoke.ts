/**
 * Starts the compiled server (`npm run build` first) as production runs it, with the flags of
 * package.json's start:prod, on a fresh embedded PostgreSQL, and checks that it starts, answers,
 * logs JSON lines only, serves clean metrics and stops on SIGTERM with exit 0 and no PostgreSQL
 * left.
 * CI runs it on the supported Node LTS, with promtool when the machine has it.
 *
 *   npx tsx scripts/smoke.ts [--node /path/to/node] [--promtool]
 */

import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { productionNodeFlags } from "./productionCommand.js"

const root = join(import.meta.dirname, "..")
const argument = (name: string) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
const node = argument("--node") ?? process.execPath
const promtool = process.argv.includes("--promtool")
const metricsToken = "smoke-metrics-token-0123456789"

const check = (ok: boolean, what: string, detail = "") => {
  if (!ok) throw new Error(`${what}${detail ? `\n${detail}` : ""}`)
  console.log(`ok  ${what}`)
}

const dataDir = mkdtempSync(join(tmpdir(), "booking-smoke-"))
const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()
const server = spawn(node, [...productionNodeFlags(root), join(root, "dist", "src", "main.js")], {
  cwd: root,
  env: {
    PATH: process.env.PATH ?? "",
    APP_ENV: "development",
    DATA_DIR: dataDir,
    PORT: "0",
    LOG_FORMAT: "json",
    METRICS_TOKEN: metricsToken
  },
  stdio: ["ignore", "pipe", "pipe"]
})
let stdout = ""
let stderr = ""
server.stdout.on("data", (chunk) => (stdout += chunk))
server.stderr.on("data", (chunk) => (stderr += chunk))
const exited = new Promise<number | string | null>((resolve) =>
  server.on("exit", (code, signal) => resolve(code ?? signal))
)

const main = async () => {
  console.log(`smoke test of dist/src/main.js on node ${version}`)
  const started = Date.now()
  let port: number | undefined
  while (port === undefined) {
    port = Number(/"msg":"serving http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1]) || undefined
    if (port === undefined) {
      if (server.exitCode !== null) throw new Error(`the server exited before serving:\n${stdout}${stderr}`)
      if (Date.now() - started > 120_000) throw new Error(`no start within 120 s:\n${stdout}${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const base = `http://127.0.0.1:${port}`
  check(true, `serving on ${base} after ${Date.now() - started} ms`)

  check((await fetch(`${base}/healthz`)).status === 200, "/healthz is 200")
  const ready = await fetch(`${base}/readyz`)
  check(ready.status === 200, "/readyz is 200", await ready.text())
  const search = await fetch(`${base}/api/public/booking-options`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      vertical_id: "vvs",
      job_type_id: "install_faucet",
      description: "Byta köksblandaren, den nya finns på plats",
      location: { country_code: "SE", postcode: "111 22" },
      timing: { preferred_time_text: "nästa vecka" }
    })
  })
  const found = (await search.json()) as { options?: Array<unknown> }
  check(search.status === 200 && (found.options?.length ?? 0) > 0, "a search finds booking options")

  check((await fetch(`${base}/metrics`)).status === 401, "/metrics without the token is 401")
  const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
  const scrape = await metrics.text()
  check(metrics.status === 200 && scrape.includes("bookings_confirmed_total 0"), "/metrics with the token is 200")
  if (promtool) {
    const lint = spawnSync("promtool", ["check", "metrics"], { input: scrape, encoding: "utf8" })
    check(lint.status === 0, "promtool check metrics finds nothing", `${lint.stdout}${lint.stderr}`)
  }

  const postmaster = Number(readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0])
  const signalled = Date.now()
  server.kill("SIGTERM")
  const code = await exited
  check(code === 0, `SIGTERM: exit ${code} after ${Date.now() - signalled} ms`, stderr)
  let alive = true
  try {
    process.kill(postmaster, 0)
  } catch {
    alive = false
  }
  check(!alive && !existsSync(join(dataDir, "postgres", "postmaster.pid")), "the embedded PostgreSQL is stopped")

  const lines = stdout.split("\n").filter((line) => line.length > 0)
  const flat = lines.every((line) => {
    try {
      const entry = JSON.parse(line) as Record<string, unknown>
      return ["time", "level", "msg"].every((key) => typeof entry[key] === "string")
    } catch {
      return false
    }
  })
  check(flat, `stdout is ${lines.length} JSON log lines and nothing else`, stdout)
}

main()
  .then(() => rmSync(dataDir, { recursive: true, force: true }))
  .catch((error: unknown) => {
    console.error(`FAILED: ${error instanceof Error ? error.message : String(error)}`)
    server.kill("SIGKILL")
    process.exitCode = 1
  })
