import { execFile, spawn } from "node:child_process"
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { createServer } from "node:net"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { vi } from "vitest"
import { buildPromiseEntry, promiseEntry } from "../../scripts/clientPromiseEntry.js"
import { freshDatabaseUrl } from "../support/Database.js"
import { root, TestServer, tsCommand } from "../support/Server.js"

/** A fenced block of the README or a page of docs/, with its info string after the language. */
interface Sample {
  readonly where: string
  readonly file: string
  readonly language: string
  readonly info: string
  readonly code: string
}

const pages = ["README.md", ...readdirSync(join(root, "docs")).map((page) => `docs/${page}`)].filter((file) =>
  file.endsWith(".md")
)

const samples: ReadonlyArray<Sample> = pages.flatMap((file) => {
  const text = readFileSync(join(root, file), "utf8")
  return [...text.matchAll(/^```(\S*)([^\n]*)\n([\s\S]*?)^```$/gm)].map((match) => ({
    where: `${file}:${text.slice(0, match.index).split("\n").length}`,
    file,
    language: match[1]!,
    info: match[2]!.trim(),
    code: match[3]!
  }))
})

/** Blocks that say why they do not run: `no-run: <reason>` after the language. */
const notRun = (sample: Sample) => /^no-run: \S/.test(sample.info)
const run = samples.filter((sample) => !notRun(sample))
const ofKind = (file: string, language: string) =>
  run.filter((sample) => sample.file === file && sample.language === language)

/** Where each kind of block is run below; any other block must say `no-run: <reason>`. */
const runners: ReadonlyArray<readonly [string, string]> = [
  ["README.md", "sh"],
  ["README.md", "ts"],
  ["docs/client.md", "ts"],
  ["docs/providers.md", "ts"],
  ["docs/webhooks.md", "ts"]
]

const tryIt = ofKind("README.md", "sh")
const clientPrograms = [...ofKind("README.md", "ts"), ...ofKind("docs/client.md", "ts")]
const providerPrograms = ofKind("docs/providers.md", "ts")
const [receiver] = ofKind("docs/webhooks.md", "ts")
const typeScript = run.filter((sample) => sample.language === "ts")

/** What a sample's `https://api.example.se`, `http://127.0.0.1:8080` and package imports stand for here. */
const dir = join(root, ".cache", `doc-samples-${process.pid}`)
const packageEntries: Readonly<Record<string, string>> = {
  "home-service-booking-client": join(root, "src", "Client.js"),
  "home-service-booking-client/promise": join(dir, promiseEntry.js)
}
/** Where the samples are type-checked: one folder per checkout, kept between runs (see the test). */
const typecheckDir = join(root, ".cache", "doc-samples-typecheck")
const localised = (code: string, origin: string, entries = packageEntries) =>
  code
    .replaceAll("https://api.example.se", origin)
    .replaceAll("http://127.0.0.1:8080", origin)
    .replace(/from "(home-service-booking-client(?:\/promise)?)"/g, (_, name: string) => `from "${entries[name]}"`)

const importsOf = (code: string) => [...code.matchAll(/^import .* from "([^"]+)"$/gm)].map((match) => match[1]!)

beforeAll(async () => {
  mkdirSync(dir, { recursive: true })
  await buildPromiseEntry(dir)
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const exec = promisify(execFile)
const tsx = join(root, "node_modules", "tsx", "dist", "loader.mjs")

/** A TypeScript sample run as a partner runs it: node with a TypeScript loader, the client package's entries. */
const runProgram = (name: string, sample: Sample, origin: string, env: Record<string, string>) => {
  const file = join(dir, `${name}.ts`)
  writeFileSync(file, localised(sample.code, origin))
  return Effect.promise(() =>
    exec(process.execPath, ["--import", tsx, file], {
      cwd: root,
      env: { ...process.env, ...env },
      timeout: 60_000
    })
  )
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const dependencies = Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies)

describe("the code samples of the README and docs/", () => {
  it("every block is run below, or says `no-run: <reason>`", () => {
    const unrun = run.filter(
      (sample) =>
        sample.language !== "json" &&
        !runners.some(([file, language]) => sample.file === file && sample.language === language)
    )
    expect(unrun.map((sample) => sample.where)).toEqual([])
    expect(tryIt.length).toBeGreaterThanOrEqual(5)
    expect(clientPrograms.length).toBe(3)
    expect(providerPrograms.length).toBe(1)
    expect(receiver).toBeDefined()
  })

  it("each JSON block is JSON", () => {
    for (const sample of run.filter((each) => each.language === "json"))
      expect(() => JSON.parse(sample.code), sample.where).not.toThrow()
  })

  it("imports only node's modules, the service's dependencies and the client package's two entries", () => {
    for (const sample of typeScript)
      for (const specifier of importsOf(sample.code))
        expect(
          specifier.startsWith("node:") ||
            builtinModules.includes(specifier) ||
            dependencies.includes(specifier) ||
            specifier in packageEntries,
          `${sample.where} imports ${specifier}`
        ).toBe(true)
  })

  it("gives every write its own idempotency key", () => {
    const keys = samples.flatMap((sample) =>
      [...sample.code.matchAll(/(?:idempotency_key"?: |idempotencyKey: |idempotency-key: )"?([\w-]+)/g)].map(
        (match) => match[1]!
      )
    )
    expect(keys.length).toBeGreaterThanOrEqual(5)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it("type-checks every TypeScript sample against the client package's entries", async () => {
    // tsc checks src/Client.ts and every module it reaches, the larger part of this file's CPU; in a
    // folder that outlives the run, with its incremental record, a run where src did not change
    // checks again only the files that did. The samples import the `/promise` entry from there.
    mkdirSync(typecheckDir, { recursive: true })
    for (const file of Object.values(promiseEntry)) copyFileSync(join(dir, file), join(typecheckDir, file))
    const typedEntries = {
      ...packageEntries,
      "home-service-booking-client/promise": join(typecheckDir, promiseEntry.js)
    }
    typeScript.forEach((sample, index) => {
      writeFileSync(
        join(typecheckDir, `typed-${index}.ts`),
        localised(sample.code, "https://api.example.se", typedEntries)
      )
    })
    const tsconfig = {
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ["node"],
        incremental: true,
        tsBuildInfoFile: "tsbuildinfo.json"
      },
      files: typeScript.map((_, index) => `typed-${index}.ts`)
    }
    writeFileSync(join(typecheckDir, "tsconfig.json"), JSON.stringify(tsconfig))
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc")
    const errors = await exec(process.execPath, [tsc, "-p", join(typecheckDir, "tsconfig.json")]).then(
      () => "",
      (error: { stdout: string }) => error.stdout
    )
    expect(errors).toBe("")
  }, 120_000)

  it.live(
    "run against a server: the curl flow books, the clients book, the provider lists, the receiver verifies a delivery",
    () =>
      Effect.gen(function* () {
        const { url: databaseUrl } = yield* freshDatabaseUrl
        yield* Effect.gen(function* () {
          const { address } = yield* HttpServer.HttpServer
          if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("no TCP address"))
          const origin = `http://127.0.0.1:${address.port}`
          const cli = { DATABASE_URL: databaseUrl, LOG_FORMAT: "json" }

          // `npm run [-s] partner|provider -- …` are the CLIs of the test run's bundle, on this server's database.
          const [node, partner] = tsCommand("src", "bin", "partner.ts")
          const [, provider] = tsCommand("src", "bin", "provider.ts")
          const script = [
            "set -euo pipefail",
            `npm() { [ "$1" = run ] || return 99; shift; [ "$1" = -s ] && shift; local cli=$1; shift; [ "$1" = -- ] && shift
  case $cli in partner) "${node}" "${partner}" "$@" ;; provider) "${node}" "${provider}" "$@" ;; *) return 98 ;; esac; }`,
            ...tryIt.map((sample) => localised(sample.code, origin)),
            'echo; echo "SAMPLE_TOKEN=$TOKEN"'
          ].join("\n")
          const flow = yield* Effect.promise(() =>
            exec("bash", ["-c", script], { cwd: root, env: { ...process.env, ...cli }, timeout: 120_000 })
          )
          expect(flow.stdout).not.toContain('"ok":false')
          expect(flow.stdout).toContain('"status":"confirmed"')
          expect(flow.stdout).toContain('"dry_run":true')
          expect(flow.stdout).toContain('"booking_created":false')
          const token = /^SAMPLE_TOKEN=(\S+)$/m.exec(flow.stdout)![1]!

          for (const [index, sample] of clientPrograms.entries()) {
            const { stdout } = yield* runProgram(`client-${index}`, sample, origin, { TOKEN: token })
            expect(stdout, sample.where).not.toMatch(/no option|BookingApiError|"ok":\s*false/)
            expect(stdout, sample.where).toMatch(/confirmed|booking_option_id/)
          }

          const providerToken = (yield* Effect.promise(() =>
            exec(node!, [provider!, "token:issue", "soderlunds-vvs-sthlm"], { env: { ...process.env, ...cli } })
          )).stdout.trim()
          const listed = yield* runProgram("provider", providerPrograms[0]!, origin, { PROVIDER_TOKEN: providerToken })
          expect(listed.stdout).toMatch(/^\d+ bookings from \S+ to \S+$/m)

          const port = yield* Effect.promise(freePort)
          const created = yield* Effect.promise(() =>
            fetch(`${origin}/api/public/webhooks`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
              body: JSON.stringify({ url: `http://127.0.0.1:${port}/hooks` })
            }).then((response) => response.json() as Promise<{ secret: string; webhook: { id: string } }>)
          )
          const file = join(dir, "receiver.ts")
          writeFileSync(file, receiver!.code)
          const child = spawn(process.execPath, ["--import", tsx, file], {
            cwd: root,
            env: { ...process.env, PORT: String(port), WEBHOOK_SECRET: created.secret }
          })
          yield* Effect.addFinalizer(() => Effect.sync(() => child.kill()))
          let printed = ""
          child.stdout.on("data", (chunk: Buffer) => {
            printed += chunk.toString("utf8")
          })
          // The receiver is up once it answers; a delivery before that would wait for a retry.
          yield* Effect.promise(() =>
            vi.waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }), { timeout: 20_000 })
          )
          const queued = yield* Effect.promise(() =>
            fetch(`${origin}/api/public/webhooks/${created.webhook.id}/test`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}` }
            })
          )
          expect(queued.status).toBe(202)
          yield* Effect.promise(() =>
            vi.waitFor(() => expect(printed).toMatch(/^\S+ webhook\.test$/m), {
              timeout: 20_000
            })
          )
        }).pipe(Effect.provide(TestServer({ database: databaseUrl, now: false })))
      }).pipe(Effect.scoped),
    180_000
  )
})
