/**
 * Benchmarks one endpoint of a real server: `npm start` on a fresh embedded PostgreSQL with the
 * demo supply, driven by autocannon over loopback. Prints requests/s and latency percentiles.
 *
 *   npm run bench:search      POST /api/public/booking-options, a mix of searches
 *   npm run bench:confirm     POST /api/public/bookings, every request a distinct free slot
 *   CONNECTIONS=50 DURATION=20 npm run bench:search
 */

import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { Effect, Layer } from "effect"
import { appConfigFrom } from "../src/AppConfig.js"
import { freeSlots } from "../src/Domain/Slots.js"
import { postcodeNumber, type SupplyFile } from "../src/Domain/Supply.js"
import { freePort } from "../src/EmbeddedPostgres.js"
import { OptionSigner } from "../src/OptionSigner.js"

const root = join(import.meta.dirname, "..")
const signingKeys = "bench:bench-secret-0123456789abcdef0123456789abcdef"
const token = "bench-partner-token-0123456789"
const connections = Number(process.env.CONNECTIONS ?? 50)
const duration = Number(process.env.DURATION ?? 15)

const searchBodies = () =>
  [
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

/** One confirm body per free slot of every flat-priced demo service over the next weeks. */
const confirmBodies = async (count: number) => {
  const supply = JSON.parse(readFileSync(join(root, "supply", "demo.json"), "utf8")) as typeof SupplyFile.Encoded
  const now = Date.now()
  const signer = await Effect.runPromise(
    Effect.provide(
      OptionSigner,
      OptionSigner.Default.pipe(Layer.provide(appConfigFrom({ BOOKING_OPTION_SIGNING_KEYS: signingKeys })))
    )
  )
  const claims = supply.providers.flatMap((provider) => {
    const service = provider.services.find((s) => s.pricing_model === "flat")
    if (!service || service.amount_sek === undefined) return []
    const slots = freeSlots({
      hours: provider.working_hours.map((h) => ({ isoWeekday: h.iso_weekday, opens: h.opens, closes: h.closes })),
      busy: [],
      durationMinutes: service.duration_minutes,
      window: { start: now, end: now + 59 * 86_400_000 },
      windowTimeZone: "Europe/Stockholm",
      now,
      limit: 10_000
    })
    return slots.map((slot) => ({
      providerId: provider.id,
      serviceId: service.service_id,
      verticalId: service.vertical_id,
      jobTypeId: service.job_type_id,
      amountSek: service.amount_sek ?? 0,
      pricingModel: service.pricing_model,
      priceType: service.price_type,
      slotStart: slot.start,
      slotEnd: slot.end,
      termsVersion: service.terms.version,
      originPostcode: postcodeNumber(provider.areas[0]?.from ?? "100 00")
    }))
  })
  const bodies: Array<string> = []
  for (const [i, claim] of claims.slice(0, count).entries()) {
    const { token: optionId } = await Effect.runPromise(signer.sign(claim, new Date(now)))
    bodies.push(
      JSON.stringify({
        booking_option_id: optionId,
        customer: { name: "Bänk Testsson", phone: "+46 70 000 00 00", email: "bench@example.se" },
        service_location: { country_code: "SE", address: "Benchmarkgatan 1", postcode: String(claim.originPostcode) },
        user_consent_confirmed: true,
        booking_terms_accepted: true,
        booking_terms_version: claim.termsVersion,
        booking_terms_accepted_at: new Date(now).toISOString(),
        idempotency_key: `bench-${i}`
      })
    )
  }
  return bodies
}

const scenarios = {
  search: { path: "/api/public/booking-options", expected: 200, bodies: async () => searchBodies() },
  confirm: { path: "/api/public/bookings", expected: 201, bodies: () => confirmBodies(connections * duration * 400) }
}

const name = (process.argv[2] ?? "search") as keyof typeof scenarios
const scenario = scenarios[name]
if (!scenario) throw new Error(`unknown scenario ${name}; one of ${Object.keys(scenarios).join(", ")}`)

const bodies = await scenario.bodies()
const dataDir = mkdtempSync(join(tmpdir(), "booking-bench-"))
const port = await freePort()
const started = Date.now()
const server = spawn(join(root, "node_modules", ".bin", "tsx"), ["src/main.ts"], {
  cwd: root,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_ENV: "development",
    DATABASE_URL: "",
    BOOKING_OPTION_SIGNING_KEYS: signingKeys,
    SERVICE_REQUESTS_API_TOKENS: token,
    // The benchmark measures the endpoint, not the limiter's refusals.
    RATE_LIMIT_SEARCH_PER_MINUTE: "100000",
    RATE_LIMIT_CONFIRM_PER_MINUTE: "100000",
    RATE_LIMIT_REQUESTS_PER_MINUTE: "100000"
  },
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
  connections,
  duration,
  requests: [
    {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] ?? "" })
    }
  ]
})
server.kill("SIGTERM")
await new Promise((resolve) => server.on("exit", resolve))
rmSync(dataDir, { recursive: true, force: true })

const statuses = Object.entries(result.statusCodeStats ?? {})
  .map(([code, stat]) => `${code}: ${(stat as { count: number }).count}`)
  .join(", ")
console.log(`${name}: ${result.connections} connections, ${result.duration} s, ${bodies.length} distinct bodies`)
console.log(`  requests/s  mean ${result.requests.average.toFixed(0)}  (total ${result.requests.total})`)
console.log(
  `  latency ms  p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`
)
console.log(`  statuses    ${statuses}; errors ${result.errors}, timeouts ${result.timeouts}`)
const unexpected = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== scenario.expected)
if (result.errors > 0 || unexpected.length > 0) process.exitCode = 1
