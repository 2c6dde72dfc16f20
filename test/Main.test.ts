import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { freePort } from "../src/EmbeddedPostgres.js"
import { makeDatabase } from "./support/TestDatabase.js"

const tsx = join(import.meta.dirname, "..", "node_modules", ".bin", "tsx")
const main = join(import.meta.dirname, "..", "src", "main.ts")

interface Started {
  readonly child: ChildProcess
  readonly output: () => string
  readonly exited: Promise<number | null>
}

const start = (env: Record<string, string>): Started => {
  const { DATABASE_URL: _, APP_ENV: __, ...inherited } = process.env
  const child = spawn(tsx, [main], { env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
  return { child, output: () => output, exited }
}

const waitFor = async (check: () => boolean, what: () => string, ms = 30_000) => {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Starts a server on a free port. Test files run in parallel, so another may take the port
 * between the check and the listen: that start fails with EADDRINUSE and is tried again.
 */
const startServing = async (env: Record<string, string>) => {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort()
    const started = start({ ...env, PORT: String(port) })
    await waitFor(
      () => started.output().includes("serving http://127.0.0.1:") || started.output().includes("EADDRINUSE"),
      started.output
    )
    if (!started.output().includes("EADDRINUSE")) return { started, port }
    await started.exited
    if (attempt === 3) throw new Error(`no free port after 3 attempts: ${started.output()}`)
  }
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe("npm start", () => {
  it("APP_ENV=production without DATABASE_URL refuses to start and says why", async () => {
    const started = start({ APP_ENV: "production" })
    const code = await started.exited
    expect(code).not.toBe(0)
    expect(started.output()).toContain("Invalid configuration")
    expect(started.output()).toContain("APP_ENV=production requires DATABASE_URL")
  })

  it("an invalid variable fails the start with a message naming it", async () => {
    const started = start({ PORT: "eighty" })
    expect(await started.exited).not.toBe(0)
    expect(started.output()).toMatch(/Invalid configuration: .*PORT/)
  })

  it("without DATABASE_URL runs an embedded PostgreSQL, reuses its data on the next start, and SIGTERM leaves no process behind", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "booking-main-"))
    try {
      for (const round of [1, 2]) {
        const { started, port } = await startServing({ DATA_DIR: dataDir })
        expect(started.output()).toContain(`docs: http://127.0.0.1:${port}/docs`)
        if (round === 1) expect(started.output()).toContain("applied migrations")
        else expect(started.output()).not.toContain("applied migrations")
        const postgresPid = Number(readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0])
        expect(isAlive(postgresPid)).toBe(true)
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
        expect(await ready.json()).toEqual({ ok: true, database: "up" })
        started.child.kill("SIGTERM")
        expect(await started.exited).toBe(0)
        expect(started.output()).toContain("embedded PostgreSQL stopped")
        expect(isAlive(postgresPid)).toBe(false)
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  }, 60_000)

  it.live(
    "with DATABASE_URL uses that server and starts no embedded one",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const dataDir = mkdtempSync(join(tmpdir(), "booking-main-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        yield* Effect.promise(async () => {
          const { started, port } = await startServing({ DATA_DIR: dataDir, DATABASE_URL: url })
          const capabilities = await fetch(`http://127.0.0.1:${port}/api/public/requests/capabilities`)
          expect(capabilities.status).toBe(200)
          expect(started.output()).toContain("applied migrations")
          expect(started.output()).not.toContain("embedded PostgreSQL")
          expect(existsSync(join(dataDir, "postgres"))).toBe(false)
          started.child.kill("SIGINT")
          expect(await started.exited).toBe(0)
        })
      }).pipe(Effect.scoped),
    60_000
  )
})
