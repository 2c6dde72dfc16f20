import { describe, expect, it } from "vitest"
import {
  expectGone,
  expectJsonLines,
  postgresProcesses,
  type ServerProcess,
  servingPort,
  spawnServer,
  tsCommand,
  withInitialisedDataDir
} from "../support/ServerProcess.js"

const migrate = tsCommand("src", "bin", "migrate.ts")

const finished = async (tool: ServerProcess) => {
  expect(await tool.exited, tool.output()).toBe(0)
  return tool.stderr()
}

/** The messages of a tool's log that speak of a database. */
const databaseLines = (log: string) =>
  expectJsonLines(log)
    .map((entry) => String(entry.msg))
    .filter((msg) => /PostgreSQL|DATABASE_URL/.test(msg))

describe("a command-line tool says in one line which database it used", () => {
  it(
    "a cluster started for the command alone is named with its directory and port, and stopped without a word",
    () =>
      withInitialisedDataDir(async (dataDir) => {
        const log = await finished(
          spawnServer({ DATA_DIR: dataDir, APP_ENV: "development", LOG_FORMAT: "json" }, migrate)
        )
        expect(databaseLines(log)).toEqual([
          expect.stringMatching(
            new RegExp(
              `started the embedded PostgreSQL in ${dataDir} \\(port \\d+\\) for this command; it stops when the command ends$`
            )
          )
        ])
        expect(postgresProcesses(dataDir)).toEqual([])
      }),
    60_000
  )

  it(
    "a running server's cluster is used and left running, with no start or stop chatter",
    () =>
      withInitialisedDataDir(async (dataDir) => {
        const server = spawnServer({ DATA_DIR: dataDir, APP_ENV: "development", PORT: "0" })
        try {
          const port = await servingPort(server)
          const clusterPort = /embedded PostgreSQL started on 127\.0\.0\.1:(\d+)/.exec(server.output())?.[1]
          const log = await finished(
            spawnServer({ DATA_DIR: dataDir, APP_ENV: "development", LOG_FORMAT: "json" }, migrate)
          )
          expect(databaseLines(log)).toEqual([
            expect.stringMatching(
              new RegExp(`^using the embedded PostgreSQL in ${dataDir} \\(port ${clusterPort}\\), already running$`)
            )
          ])
          expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200)
        } finally {
          const postgres = postgresProcesses(dataDir)
          server.child.kill("SIGTERM")
          await server.exited
          await expectGone(postgres)
        }
      }),
    90_000
  )
})
