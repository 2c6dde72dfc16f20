import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { connectOutcome, finalStatusOf, postHead, rawConnect, searchBodyFor } from "../support/Http.js"
import {
  childrenOf,
  expectGone,
  postgresProcesses,
  servingPort,
  spawnServer,
  withInitialisedDataDir
} from "../support/Server.js"

const searchBody = JSON.stringify(searchBodyFor("nästa vecka"))

// Apart from test/e2e/Main.test.ts so the slowest process tests run in two workers at once.
/** The frozen database's calls are given up in a second, not the defaults' two and three. */
// Short enough that a stop with a frozen PostgreSQL is quick, long enough that the start's statements
// (migrations, the demo supply) finish on a loaded 2-core machine: at 1 s one was cut there now and then.
const shortDatabaseTimeouts = { DATABASE_CONNECT_TIMEOUT_MS: "1000", DATABASE_STATEMENT_TIMEOUT_MS: "3000" }

// Each test spawns its own processes on its own data directory, and mostly waits for them.
describe.concurrent("npm start, stopping", () => {
  it(
    "SIGTERM to npm start finishes the request in flight, closes an unfinished upload after the grace period, and leaves no process behind",
    () =>
      withInitialisedDataDir(async (dataDir) => {
        const npm = spawnServer({ DATA_DIR: dataDir, PORT: "0", SHUTDOWN_GRACE_MS: "3000" }, ["npm", "start"])
        const port = await servingPort(npm)
        const [node] = childrenOf(npm.child.pid!)
        const postgres = postgresProcesses(dataDir)
        expect(node).toBeDefined()

        const body = Buffer.from(searchBody)
        const finishing = await rawConnect(port)
        finishing.socket.write(postHead("/api/public/booking-options", body.length))
        finishing.socket.write(body.subarray(0, 10))
        const stalled = await rawConnect(port)
        stalled.socket.write(`${postHead("/api/public/booking-options", body.length)}{"vertical_id"`)
        await vi.waitFor(() => {
          for (const held of [finishing, stalled]) expect(held.received()).toMatch(/^HTTP\/1\.1 100 Continue/)
        })

        const signalled = performance.now()
        npm.child.kill("SIGTERM")
        await vi.waitFor(() => expect(connectOutcome(port)).resolves.toBe("ECONNREFUSED"), { timeout: 10_000 })
        finishing.socket.write(body.subarray(10))
        await finishing.closed
        expect(finalStatusOf(finishing.received())).toBe(200)
        expect(finishing.received()).toMatch(/\r\nconnection: close\r\n/i)

        await stalled.closed
        expect(stalled.received()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/)
        expect(npm.output()).toContain("waiting up to 3s for 2 request(s)")
        expect(await npm.exited).toBe(0)
        console.info(
          `SIGTERM to exit, one request finishing and one upload stalled, grace 3 s: ${Math.round(performance.now() - signalled)} ms`
        )
        await expectGone([node!, ...postgres])
        expect(existsSync(join(dataDir, "postgres", "postmaster.pid"))).toBe(false)
      }),
    90_000
  )

  it(
    "SIGTERM stops the embedded PostgreSQL and exits 0 also when that PostgreSQL is frozen, or has crashed",
    () =>
      withInitialisedDataDir(async (dataDir) => {
        for (const outage of ["frozen", "crashed"] as const) {
          const server = spawnServer({ DATA_DIR: dataDir, PORT: "0", ...shortDatabaseTimeouts })
          const port = await servingPort(server)
          const postgres = postgresProcesses(dataDir)
          if (outage === "frozen") for (const pid of postgres) process.kill(pid, "SIGSTOP")
          else {
            process.kill(postgres[0]!, "SIGKILL")
            // Its backends leave when they notice, not at once: until then one can still answer
            // (on a loaded machine /readyz once got its 200 from one).
            await expectGone(postgres)
          }
          const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
          expect(ready.status).toBe(503)
          const signalled = performance.now()
          server.child.kill("SIGTERM")
          expect(await server.exited).toBe(0)
          console.info(`SIGTERM to exit with its PostgreSQL ${outage}: ${Math.round(performance.now() - signalled)} ms`)
          await expectGone(postgres)
        }
      }),
    120_000
  )
})
