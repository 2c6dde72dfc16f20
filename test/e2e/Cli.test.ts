import { describe, expect, it } from "@effect/vitest"
import { Console, Context, Effect, Exit, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { firstTokenNote, partnerCommand } from "../../src/bin/partnerCommand.js"
import { pgClientLayer } from "../../src/Database/Database.js"
import { Partners, tokenPattern } from "../../src/Partners/Partners.js"
import { makeDatabase } from "../support/Database.js"
import { get } from "../support/Http.js"
import {
  expectGone,
  expectJsonLines,
  postgresProcesses,
  type ServerProcess,
  servingPort,
  spawnServer,
  TestServer,
  tsCommand,
  withInitialisedDataDir
} from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const migrate = tsCommand("src", "bin", "migrate.ts")

/** The partner CLI's command in this process: whether it succeeded, and what it printed where. */
const inProcess =
  (partners: Layer.Layer<Partners>) =>
  (...args: Array<string>) =>
    Effect.gen(function* () {
      const stdout: Array<string> = []
      const stderr: Array<string> = []
      const print =
        (to: Array<string>) =>
        (...parts: ReadonlyArray<unknown>) => {
          to.push(`${parts.join(" ")}\n`)
        }
      const console: Console.Console = { ...(yield* Console.Console), log: print(stdout), error: print(stderr) }
      const exit = yield* Effect.exit(
        partnerCommand(args).pipe(Effect.provide(partners), Effect.provideService(Console.Console, console))
      )
      return { ok: Exit.isSuccess(exit), stdout: stdout.join(""), stderr: stderr.join("") }
    })

const whoami = (token: string) => get("/probe/whoami", { authorization: `Bearer ${token}` })

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

describe("the command-line tools as processes", () => {
  it.live(
    "npm run migrate honours LOG_FORMAT: JSON lines on stderr, nothing on stdout",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const cli = spawnServer({ DATABASE_URL: url, LOG_FORMAT: "json" }, tsCommand("src", "bin", "migrate.ts"))
        expect(yield* Effect.promise(() => cli.exited)).toBe(0)
        expect(cli.stdout()).toBe("")
        const shown = new URL(url)
        expect(expectJsonLines(cli.stderr()).map((entry) => entry.msg)).toEqual([
          `using DATABASE_URL postgres://${shown.host}${shown.pathname}`,
          expect.stringMatching(/^applied migrations: 1_extensions, /),
          "database schema is up to date"
        ])
        // Where it points, never who connects or with what password.
        expect(cli.stderr()).not.toContain(`${decodeURIComponent(shown.username)}@`)
        if (shown.password !== "") expect(cli.stderr()).not.toContain(decodeURIComponent(shown.password))
      }).pipe(Effect.scoped),
    30_000
  )

  it.live(
    "the CLI creates a partner and prints a token once that a running server accepts at once; it lists and revokes it",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        // The process itself once (its exit code, stdout apart from the log); its command in this process after.
        const spawned = spawnServer({ DATABASE_URL: url, APP_ENV: "development" }, [
          ...tsCommand("src", "bin", "partner.ts"),
          "create",
          "svea-bot",
          "Svea",
          "Bot",
          "AB"
        ])
        expect(yield* Effect.promise(() => spawned.exited), spawned.stderr()).toBe(0)
        expect(spawned.stdout()).toBe("created partner svea-bot\n")
        const cli = inProcess(Partners.Default.pipe(Layer.provide(pgClientLayer(Redacted.make(url))), Layer.orDie))
        yield* Effect.gen(function* () {
          const sandbox = yield* cli("create", "--sandbox", "svea-test", "Svea", "Test")
          expect(sandbox.stdout).toBe("created sandbox partner svea-test\n")
          const issued = yield* cli("token:issue", "svea-bot")
          expect(issued.ok, issued.stderr).toBe(true)
          const token = issued.stdout.trim()
          expect(token).toMatch(tokenPattern)
          // The first token ever says what it changes (test/Partners/Authentication.test.ts holds that it is so).
          expect(issued.stderr).toBe(
            `issued token ${token.slice(4, 16)} for svea-bot; it is shown only this once\n${firstTokenNote}\n`
          )
          expect(firstTokenNote).toContain("From its next start it runs in token mode")
          expect((yield* whoami(token)).body).toEqual({ partner_id: "svea-bot", sandbox: false })
          const second = yield* cli("token:issue", "svea-test")
          expect(second.stderr).not.toContain(firstTokenNote)
          const sandboxToken = second.stdout.trim()
          expect((yield* whoami(sandboxToken)).body).toEqual({ partner_id: "svea-test", sandbox: true })
          const listed = yield* cli("list")
          expect(listed.stdout).toMatch(new RegExp(`svea-bot\\tactive\\tSvea Bot AB\\t${token.slice(4, 16)} live`))
          expect(listed.stdout).toMatch(/svea-test\tactive sandbox\tSvea Test\t/)
          expect(listed.stdout).not.toContain(token)
          const revoked = yield* cli("token:revoke", token)
          expect(revoked.ok, revoked.stderr).toBe(true)
          // Revoked by the whole token, it names only the prefix: no command prints a token it was given.
          expect(revoked.stdout).toBe(`revoked ${token.slice(4, 16)}\n`)
          yield* waitFor(whoami(token), (response) => expect(response.status).toBe(401))
        }).pipe(
          Effect.provide(
            TestServer({
              probe: true,
              env: { APP_ENV: "production", PUBLIC_BASE_URL: "https://api.example.se", DATABASE_URL: url },
              database: url
            })
          )
        )
        const sql = yield* Layer.build(pgClientLayer(Redacted.make(url))).pipe(
          Effect.map(Context.get(SqlClient.SqlClient))
        )
        const rows = yield* sql<{
          prefix: string
          revokedAt: Date | null
        }>`SELECT prefix, revoked_at FROM partner_tokens`
        expect(rows.filter((row) => row.revokedAt !== null)).toHaveLength(1)
      }).pipe(Effect.scoped),
    { timeout: 120_000, concurrent: true }
  )
})
