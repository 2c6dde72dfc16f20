import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { vi } from "vitest"
import { makeDatabase } from "../support/Database.js"
import {
  expectGone,
  expectJsonLines,
  postgresProcesses,
  servingPort,
  spawnServer,
  withDataDir
} from "../support/Server.js"

/**
 * A free port below Linux's ephemeral range: no client socket of this test can be handed it
 * as its own source port (a connect to a port nobody listens on can then connect to itself),
 * and no parallel test binding port 0 can take it.
 */
const freeFixedPort = async (): Promise<number> => {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer()
      server.once("error", () => resolve(false))
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)))
    })
    if (free) return port
  }
}

/** A GET on a new connection: its status, or the code of a refused or broken connection. */
const probe = (port: number, path: string) =>
  new Promise<number | string>((resolve) => {
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (response) => {
      response.resume()
      response.on("end", () => resolve(response.statusCode ?? 0))
    })
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"))
    req.end()
  })

// Each test spawns its own processes, on its own data directory and port, and mostly waits for them.
describe.concurrent("npm start", () => {
  it("APP_ENV=production without DATABASE_URL refuses to start and says why", async () => {
    const server = spawnServer({ APP_ENV: "production" })
    expect(await server.exited).not.toBe(0)
    expect(server.output()).toContain("Invalid configuration")
    expect(server.output()).toContain("APP_ENV=production requires DATABASE_URL")
  })

  it("an invalid variable fails the start with a message naming it", async () => {
    const server = spawnServer({ PORT: "eighty" })
    expect(await server.exited).not.toBe(0)
    expect(server.output()).toMatch(/Invalid configuration: .*PORT/)
  })

  it("TRUST_PROXY=true fails the start, saying what to write instead", async () => {
    const server = spawnServer({ TRUST_PROXY: "true" })
    expect(await server.exited).not.toBe(0)
    expect(server.output()).toMatch(/Invalid configuration: .*TRUST_PROXY=true is no longer accepted/)
    expect(server.output()).toContain("TRUST_PROXY=loopback")
  })

  // One fresh start serves both the race with early requests and the first of the two starts on
  // one data directory: each start costs seconds of CPU (tsx, a new cluster, the migrations).
  it(
    "without DATABASE_URL runs an embedded PostgreSQL and reuses its data on the next start; requests fired from before the first start get refused or answered, never left hanging",
    () =>
      withDataDir(async (dataDir) => {
        for (const round of [1, 2]) {
          const requestedPort = round === 1 ? await freeFixedPort() : 0
          const results: Array<number | string> = round === 1 ? [await probe(requestedPort, "/readyz")] : []
          const server = spawnServer({ DATA_DIR: dataDir, PORT: String(requestedPort) })
          if (round === 1) {
            // One request after another from before the start until 20 have been answered: a request
            // left hanging holds the next one back and fails the wait.
            await vi.waitFor(
              async () => {
                results.push(await probe(requestedPort, "/readyz"))
                expect(results.filter((result) => result === 200).length).toBeGreaterThanOrEqual(20)
              },
              { timeout: 60_000, interval: 20 }
            )
            expect(results.filter((result) => !["ECONNREFUSED", 503, 200].includes(result))).toEqual([])
            expect(results).toContain("ECONNREFUSED")
          }
          const port = await servingPort(server)
          if (round === 1) expect(port).toBe(requestedPort)
          expect(server.output()).toContain(`docs: http://127.0.0.1:${port}/docs`)
          if (round === 1) expect(server.output()).toContain("applied migrations")
          else expect(server.output()).not.toContain("applied migrations")
          const postgres = postgresProcesses(dataDir)
          expect(postgres.length).toBeGreaterThan(0)
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
          expect(ready.status).toBe(200)
          server.child.kill(round === 1 ? "SIGTERM" : "SIGINT")
          expect(await server.exited).toBe(0)
          expect(server.output()).toContain("embedded PostgreSQL stopped")
          await expectGone(postgres)
        }
      }),
    120_000
  )

  it.live(
    "with DATABASE_URL uses that server and starts no embedded one; with LOG_FORMAT=json its stdout is JSON lines only",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const data = mkdtempSync(join(tmpdir(), "booking-main-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(data, { recursive: true, force: true })))
        yield* Effect.promise(async () => {
          const server = spawnServer({ DATA_DIR: data, DATABASE_URL: url, PORT: "0", LOG_FORMAT: "json" })
          const port = await servingPort(server)
          const capabilities = await fetch(`http://127.0.0.1:${port}/api/public/requests/capabilities`)
          expect(capabilities.status).toBe(200)
          expect(server.output()).toContain("applied migrations")
          expect(server.output()).not.toContain("embedded PostgreSQL")
          expect(server.output()).toContain("npm run provider -- token:issue soderlunds-vvs-sthlm")
          expect(existsSync(join(data, "postgres"))).toBe(false)
          server.child.kill("SIGINT")
          expect(await server.exited).toBe(0)
          const entries = expectJsonLines(server.stdout())
          expect(entries).toContainEqual(
            expect.objectContaining({ msg: "request", route: "/api/public/requests/capabilities", status: 200 })
          )
        })
      }).pipe(Effect.scoped),
    60_000
  )
})
