/**
 * Benchmarks one endpoint of the compiled server (`npm run build`, then `node dist/src/main.js`
 * with the flags of package.json's start:prod: what production runs) against a bare yardstick on
 * the same PostgreSQL, in one invocation:
 * `scripts/bare-baseline.ts`, `node:http` + `pg` running the same SQL as prepared statements for
 * the same bodies. Both are driven by autocannon over loopback; it prints requests/s, latency
 * percentiles, the server's peak RSS, and the ratio of the two rates.
 *
 *   npm run bench:search      POST /api/public/booking-options, a mix of searches
 *   npm run bench:confirm     POST /api/public/bookings, every free slot of the demo supply booked once (all 201)
 *   npm run bench:profile -- search|confirm     the project only, writing a CPU profile to bench-profiles/
 *   BARE=0 npx tsx scripts/bench.ts capabilities|refused    the fixed cost of a request without SQL
 *   CONNECTIONS=50 DURATION=20 DATABASE_URL=postgres://... npm run bench:search
 *   AMOUNT=20000 BARE=0 npm run bench:search     a fixed number of requests, the project side only
 *   SERVER_ENTRY=.data/dist-before/src/main.js BENCH_SKIP_BUILD=1 ...    another build, for a before/after
 *   SERVER_NODE=/path/to/node    both servers on another Node (default: production's, see productionNode)
 *   BARE_CONFIRM_SQL=service     the bare confirm runs the service's two statements, not the seven
 *   SERVER=dev npm run bench:soak    the soak against the development server, as `npm start` runs it (tsx)
 *   MEMORY=1 npm run bench:soak      also the server's heap / external / array buffers (scripts/memoryProbe.cjs)
 *   SERVER_LOG=/tmp/server.log npm run bench:soak   keeps the server's log (JSON lines) instead of dropping it
 *
 * Each side is first warmed up with WARMUP requests (default 1000, not counted). Besides the rates it
 * prints the server's CPU time per request (user + system, from /proc), the figure to compare when
 * the machine is shared: requests/s fall with the load of other processes, CPU per request hardly.
 *
 * Without BENCH_DATABASE_URL or DATABASE_URL, a fresh embedded PostgreSQL is started. The confirm
 * bench empties the booking tables before each side, so both book the same free slots.
 */

import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { chmodSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { Effect, Layer } from "effect"
import pg from "pg"
import { appConfigFrom } from "../src/AppConfig.js"
import { freePort, startEmbeddedPostgres } from "../src/Database/EmbeddedPostgres.js"
import { consumerTermsVersion } from "../src/Domain/ConsumerInformation.js"
import { ProviderId, ServiceId } from "../src/Domain/Ids.js"
import { freeSlots } from "../src/Domain/Slots.js"
import { postcodeNumber, type SupplyFile } from "../src/Domain/Supply.js"
import { OptionSigner } from "../src/Shared/OptionSigner.js"
import { clusterCpuSeconds, cpuSeconds, postmasterPid, rssMb } from "./processFigures.js"
import {
  developmentNodeArgs,
  developmentNodeEnv,
  productionNode,
  productionNodeEnv,
  productionNodeFlags
} from "./productionCommand.js"
import { searchBodies } from "./searchBodies.js"

const root = join(import.meta.dirname, "..")
const signingSecret = "bench-secret-0123456789abcdef0123456789abcdef"
const signingKeys = `bench:${signingSecret}`
const token = "bench-partner-token-0123456789"
const connections = Number(process.env.CONNECTIONS ?? 50)
const duration = Number(process.env.DURATION ?? 15)
const amount = process.env.AMOUNT ? Number(process.env.AMOUNT) : undefined
const warmup = Number(process.env.WARMUP ?? 1000)
const withBare = process.env.BARE !== "0"
/** Another build's entry (SERVER_ENTRY=.data/dist-before/src/main.js) compares two versions on one database. */
const serverEntry = process.env.SERVER_ENTRY ?? "dist/src/main.js"
const soakSeconds = Number(process.env.DURATION ?? 300)
const serverNode = process.env.SERVER_NODE ?? productionNode(root)
console.log(`servers run on Node ${execFileSync(serverNode, ["--version"], { encoding: "utf8" }).trim()}`)
/**
 * The server's node flags: production's own (package.json's start:prod), then NODE_ARGS
 * ("--max-semi-space-size=32", say, for trying V8's settings; a flag given twice, the later wins).
 */
const nodeArgs = [...productionNodeFlags(root), ...(process.env.NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "")]
/** MEMORY=1: the soak's server also logs its memory split (scripts/memoryProbe.cjs) into this file. */
const memoryLog = process.env.MEMORY === "1" ? join(tmpdir(), `bench-memory-${process.pid}.log`) : undefined
const probeArgs = memoryLog ? ["--expose-gc", "--require", join(root, "scripts", "memoryProbe.cjs")] : []

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
      providerId: ProviderId.make(provider.id),
      serviceId: ServiceId.make(service.service_id),
      verticalId: service.vertical_id,
      jobTypeId: service.job_type_id,
      amountSek: service.amount_sek ?? 0,
      pricingModel: service.pricing_model,
      priceType: service.price_type,
      slotStart: slot.start,
      slotEnd: slot.end,
      // Stored as the import stores it: the file's version with the consumer information's fingerprint.
      termsVersion: consumerTermsVersion(service.terms.version, {
        name: provider.name,
        organisationNumber: provider.organisation_number,
        email: provider.contact.email,
        phone: provider.contact.phone,
        address: provider.contact.address
      }),
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
  confirm: {
    path: "/api/public/bookings",
    expected: 201,
    bodies: () => confirmBodies(Math.max(amount ?? 0, connections * duration * 400) + warmup),
    // A body sent twice would be a replay (200), cheaper than a booking: each side books every
    // free slot once, so a side faster than the demo supply has slots for does not fall back on replays.
    once: true
  },
  // The fixed cost of any request, without SQL: a precomputed document, and a body the schema refuses.
  capabilities: {
    path: "/api/public/requests/capabilities",
    expected: 200,
    bodies: async () => [""],
    method: "GET" as const
  },
  refused: { path: "/api/public/booking-options", expected: 400, bodies: async () => ['{"vertical_id":"vvs"}'] },
  // The soak's confirm bodies; the mix is in soak() below.
  soak: { path: "/api/public/bookings", expected: 201, bodies: () => confirmBodies(soakSeconds * 200) }
}

const profile = process.argv[2] === "profile"
const name = (process.argv[profile ? 3 : 2] ?? "search") as keyof typeof scenarios
const scenario = scenarios[name]
if (!scenario) throw new Error(`unknown scenario ${name}; one of ${Object.keys(scenarios).join(", ")}`)

/** SERVER=dev: the development server (package.json's `start`, TypeScript through tsx), not the build. */
const development = process.env.SERVER === "dev"
if (process.env.BENCH_SKIP_BUILD !== "1" && !development)
  execFileSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" })
const bodies = await scenario.bodies()
const dataDir = mkdtempSync(join(tmpdir(), "booking-bench-"))
// The embedded cluster runs as the OS user `postgres` when we are root; it must reach its directory.
chmodSync(dataDir, 0o755)
const givenUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL
const embedded = givenUrl ? undefined : await startEmbeddedPostgres({ dataDir: join(dataDir, "pg") })
const databaseUrl = givenUrl || embedded!.url
// The embedded cluster's CPU is read from /proc; a given database's may be on another machine.
const postmaster = embedded === undefined ? undefined : postmasterPid(join(dataDir, "pg", "postgres"))
const databaseCpu = () => (postmaster === undefined ? 0 : clusterCpuSeconds(postmaster))
const generatorCpu = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}
const poolSize = process.env.DATABASE_POOL_SIZE ?? "10"
const serverLog = process.env.SERVER_LOG

const startProcess = (label: string, args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(serverNode, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk
      if (output.includes("serving http://")) {
        child.stdout?.off("data", onData)
        // The access log is read and dropped, as a log shipper would; SERVER_LOG=<file> keeps it.
        if (serverLog) child.stdout?.pipe(createWriteStream(serverLog, { flags: "a" }))
        else child.stdout?.resume()
        resolve(child)
      }
    }
    child.stdout?.on("data", onData)
    child.on("exit", (code) => reject(new Error(`${label} exited with ${code}:\n${output}`)))
  })

const stop = async (child: ChildProcess) => {
  const exited = new Promise((resolve) => child.on("exit", resolve))
  child.kill("SIGTERM")
  await exited
}

/** The confirm bench books free slots; each side starts from the same empty calendar. */
const emptyBookings = async () => {
  if (name === "search") return
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  // CASCADE: what refers to a booking or a held slot (its changes, a provider's blocks) goes with it.
  await client.query("TRUNCATE notification_outbox, bookings, calendar_bookings, idempotency_keys CASCADE")
  await client.end()
}

const load = async (label: string, child: ChildProcess, port: number) => {
  let next = 0
  const drive = (run: { duration: number } | { amount: number }, onAnswer: () => void = () => undefined) =>
    new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `http://127.0.0.1:${port}${scenario.path}`,
          connections,
          ...run,
          requests: [
            {
              method: "method" in scenario ? scenario.method : "POST",
              headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
              setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] ?? "" })
            }
          ]
        },
        (error, result) => (error ? reject(error) : resolve(result))
      )
      instance.on("response", onAnswer)
    })
  if (warmup > 0) await drive({ amount: warmup })
  let peakRss = rssMb(child.pid!)
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(child.pid!))), 250)
  const cpuBefore = cpuSeconds(child.pid!)
  const databaseBefore = databaseCpu()
  const generatorBefore = generatorCpu()
  // autocannon notices a fixed amount's end only at its next one-second tick, and its mean is per
  // whole second (7,105 requests in 9.4 s read as 789/s, in 9.6 s as 711/s): the rate is the
  // requests over the time from the start to the last answer, so a ratio is not rounded to ninths.
  const startedAt = performance.now()
  let lastAnswerAt = startedAt
  const result = await drive(
    amount !== undefined
      ? { amount }
      : "once" in scenario
        ? { amount: Math.max(0, bodies.length - warmup) }
        : { duration },
    () => {
      lastAnswerAt = performance.now()
    }
  )
  const seconds = Math.max(0.001, (lastAnswerAt - startedAt) / 1000)
  const rate = result.requests.total / seconds
  const perRequest = (seconds: number) => ((seconds * 1e6) / Math.max(1, result.requests.total)).toFixed(0)
  const cpuPerRequest = (cpuSeconds(child.pid!) - cpuBefore) / Math.max(1, result.requests.total)
  const databasePerRequest = perRequest(databaseCpu() - databaseBefore)
  const generatorPerRequest = perRequest(generatorCpu() - generatorBefore)
  clearInterval(sampler)
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}: ${(stat as { count: number }).count}`)
    .join(", ")
  console.log(`${label}: ${result.connections} connections, ${bodies.length} distinct bodies`)
  console.log(`  requests/s  ${rate.toFixed(0)}  (${result.requests.total} in ${seconds.toFixed(2)} s)`)
  console.log(
    `  response    ${(result.throughput.total / Math.max(1, result.requests.total) / 1024).toFixed(1)} KB each, headers included`
  )
  console.log(
    `  latency ms  p50 ${result.latency.p50}  p90 ${result.latency.p90}  p99 ${result.latency.p99}  max ${result.latency.max}`
  )
  console.log(`  statuses    ${statuses}; errors ${result.errors}, timeouts ${result.timeouts}`)
  console.log(`  server CPU  ${(cpuPerRequest * 1e6).toFixed(0)} µs per request (user + system)`)
  // The machine's other CPU per request: the two servers share it with PostgreSQL and autocannon.
  if (postmaster !== undefined)
    console.log(`  PostgreSQL  ${databasePerRequest} µs CPU per request (the cluster's processes)`)
  console.log(`  autocannon  ${generatorPerRequest} µs CPU per request`)
  console.log(`  server RSS  peak ${peakRss.toFixed(0)} MB, after ${rssMb(child.pid!).toFixed(0)} MB`)
  const unexpected = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== scenario.expected)
  if (result.errors > 0 || unexpected.length > 0) process.exitCode = 1
  return { ...result, rate }
}

/**
 * A mixed load for DURATION seconds (default 300): per connection, in turn, two searches, a confirm
 * of a free slot, that booking's status and the capabilities document. It prints the server's RSS
 * per minute (peak and last) and after a quiet half minute, and whether the last minute's peak
 * stays within 10 % of the first's.
 */
const soak = async (child: ChildProcess, port: number) => {
  const search = searchBodies()
  let nextSearch = 0
  let nextConfirm = 0
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` }
  const perMinute: Array<{ peak: number; last: number }> = []
  const sample = () => {
    const minute = Math.floor((Date.now() - started) / 60_000)
    const rss = rssMb(child.pid!)
    const entry = perMinute[minute] ?? { peak: 0, last: 0 }
    perMinute[minute] = entry
    entry.peak = Math.max(entry.peak, rss)
    entry.last = rss
  }
  console.log(`  at start: RSS ${rssMb(child.pid!).toFixed(0)} MB`)
  const started = Date.now()
  const sampler = setInterval(sample, 1000)
  const cpuBefore = cpuSeconds(child.pid!)
  const searchRequest = {
    method: "POST" as const,
    path: "/api/public/booking-options",
    headers,
    setupRequest: (request: object) => ({ ...request, body: search[nextSearch++ % search.length] ?? "" })
  }
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: soakSeconds,
    requests: [
      searchRequest,
      searchRequest,
      {
        method: "POST",
        path: "/api/public/bookings",
        headers,
        setupRequest: (request) => ({ ...request, body: bodies[nextConfirm++ % bodies.length] ?? "" }),
        onResponse: (status, body, context: { requestId?: string }) => {
          context.requestId = status < 300 ? (JSON.parse(body) as { request_id: string }).request_id : "unknown"
        }
      },
      {
        method: "GET",
        headers,
        setupRequest: (request, context: { requestId?: string }) => ({
          ...request,
          path: `/api/public/bookings/${context.requestId ?? "unknown"}`
        })
      },
      { method: "GET", path: "/api/public/requests/capabilities", headers }
    ]
  })
  clearInterval(sampler)
  const cpuPerRequest = (cpuSeconds(child.pid!) - cpuBefore) / Math.max(1, result.requests.total)
  const statuses = Object.entries(result.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}: ${(stat as { count: number }).count}`)
    .join(", ")
  console.log(`soak: ${result.connections} connections, ${result.duration} s, mixed search/confirm/status/capabilities`)
  console.log(`  requests/s  mean ${result.requests.average.toFixed(0)}  (total ${result.requests.total})`)
  console.log(`  latency ms  p50 ${result.latency.p50}  p99 ${result.latency.p99}  max ${result.latency.max}`)
  console.log(`  statuses    ${statuses}; errors ${result.errors}, timeouts ${result.timeouts}`)
  console.log(`  server CPU  ${(cpuPerRequest * 1e6).toFixed(0)} µs per request (user + system)`)
  perMinute.forEach((entry, minute) => {
    console.log(`  minute ${minute + 1}    RSS peak ${entry.peak.toFixed(0)} MB, last ${entry.last.toFixed(0)} MB`)
  })
  await new Promise((resolve) => setTimeout(resolve, 30_000))
  console.log(`  after 30 s quiet: RSS ${rssMb(child.pid!).toFixed(0)} MB`)
  if (memoryLog) {
    child.kill("SIGUSR2")
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const lines = existsSync(memoryLog) ? readFileSync(memoryLog, "utf8").trim().split("\n") : []
    // Every minute's last sample, then the split before and after a full collection.
    const perMinuteLines = lines.filter((line) => line.startsWith("tick")).filter((_, i) => i % 4 === 3)
    for (const line of [...perMinuteLines, ...lines.filter((line) => line.includes("full gc"))]) {
      console.log(`  memory ${line}`)
    }
    rmSync(memoryLog, { force: true })
  }
  const full = perMinute.filter((_, minute) => (minute + 1) * 60 <= soakSeconds)
  const first = full[0]
  const last = full[full.length - 1]
  if (first !== undefined && last !== undefined && full.length > 1) {
    const flat = last.peak <= first.peak * 1.1
    console.log(
      `  ${flat ? "flat" : "growing"}: minute ${full.length} peak ${last.peak.toFixed(0)} MB vs minute 1 peak ${first.peak.toFixed(0)} MB`
    )
    if (!flat) process.exitCode = 1
  }
  if (result.errors > 0 || Object.keys(result.statusCodeStats ?? {}).some((code) => Number(code) >= 500)) {
    process.exitCode = 1
  }
}

try {
  const port = await freePort()
  const started = Date.now()
  const profileArgs = profile ? ["--cpu-prof", `--cpu-prof-dir=${join(root, "bench-profiles")}`] : []
  const args = development
    ? [...(process.env.NODE_ARGS ?? "").split(" ").filter((arg) => arg !== ""), ...developmentNodeArgs(root)]
    : [...nodeArgs, ...profileArgs, serverEntry]
  if (name === "soak") args.unshift(...probeArgs)
  const server = await startProcess("server", args, {
    // What the start script sets before `exec node` (the C library's malloc arenas).
    ...(development ? developmentNodeEnv(root) : productionNodeEnv(root)),
    DATA_DIR: dataDir,
    ...(memoryLog ? { MEMORY_PROBE_LOG: memoryLog } : {}),
    PORT: String(port),
    APP_ENV: "development",
    // Production's log format (APP_ENV=development alone would print pretty lines through console.log).
    LOG_FORMAT: "json",
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: poolSize,
    BOOKING_OPTION_SIGNING_KEYS: signingKeys,
    SERVICE_REQUESTS_API_TOKENS: token,
    // The benchmark measures the endpoint, not the limiter's refusals.
    RATE_LIMIT_SEARCH_PER_MINUTE: "100000",
    RATE_LIMIT_CONFIRM_PER_MINUTE: "100000",
    RATE_LIMIT_REQUESTS_PER_MINUTE: "100000"
  })
  console.log(`${development ? "development" : "compiled"} server ready in ${Date.now() - started} ms`)
  await emptyBookings()
  if (name === "soak") {
    await soak(server, port)
    await stop(server)
  } else {
    await compare(server, port)
  }
} finally {
  await embedded?.stop()
  rmSync(dataDir, { recursive: true, force: true })
}

async function compare(server: ChildProcess, port: number) {
  const project = await load(`${name} (project, compiled)`, server, port)
  await stop(server)
  if (profile || !withBare) {
    if (profile) console.log(`CPU profile written under ${join(root, "bench-profiles")}`)
  } else {
    await emptyBookings()
    const barePort = await freePort()
    const bare = await startProcess("bare baseline", ["--import", "tsx", "scripts/bare-baseline.ts"], {
      DATABASE_URL: databaseUrl,
      PORT: String(barePort),
      POOL_SIZE: poolSize,
      SIGNING_SECRET: signingSecret
    })
    const sql = name === "confirm" && process.env.BARE_CONFIRM_SQL === "service" ? ", the service's SQL" : ""
    const baseline = await load(`${name} (bare node:http + pg, prepared${sql})`, bare, barePort)
    await stop(bare)
    const ratio = project.rate / baseline.rate
    const p99Ratio = project.latency.p99 / Math.max(1, baseline.latency.p99)
    console.log(`ratio ${name}: ${ratio.toFixed(2)} of the bare rate; p99 ${p99Ratio.toFixed(1)}x the bare p99`)
  }
}
