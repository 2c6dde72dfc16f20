/**
 * The CPU one statement costs this process, through `pg` and through the project's client
 * (src/Database/Database.ts: @effect/sql-pg with the request budget), and the search's
 * availability read (Calendar.availability on the demo supply), each run N times from C fibers at
 * once after a warm-up. It tells a statement's own cost from what it costs inside a loaded server,
 * where PostgreSQL and the load generator share the cores. From the project directory:
 * `npx tsx scripts/bench-statement.ts`; DATABASE_URL uses that database (it is migrated and
 * given the demo supply), else a fresh embedded PostgreSQL; N (default 20000) and C (default 50).
 */
import { chmodSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Redacted } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import pg from "pg"
import { appConfigFrom } from "../src/AppConfig.js"
import { Catalog } from "../src/Catalog/Catalog.js"
import { DatabaseDeadline, migrate, pgClientLayer } from "../src/Database/Database.js"
import { startEmbeddedPostgres } from "../src/Database/EmbeddedPostgres.js"
import { Calendar } from "../src/Shared/Calendar.js"
import { Supply } from "../src/Supply/Supply.js"

const N = Number(process.env.N ?? 20000)
const C = Number(process.env.C ?? 50)
const embeddedDirectory = () => {
  const directory = mkdtempSync(join(tmpdir(), "bench-statement-"))
  // The embedded cluster runs as the OS user `postgres` when we are root; it must reach its directory.
  chmodSync(directory, 0o755)
  return join(directory, "pg")
}
const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: embeddedDirectory() })
const url = process.env.DATABASE_URL ?? embedded!.url

const cpu = () => {
  const { user, system } = process.cpuUsage()
  return user + system
}

const timed = async (label: string, one: () => Promise<unknown>) => {
  for (let i = 0; i < 2000; i++) await one()
  const start = cpu()
  let next = 0
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next++ < N) await one()
    })
  )
  console.log(`${label.padEnd(48)} ${((cpu() - start) / N).toFixed(0)} µs CPU per statement`)
}

const rows = "SELECT repeat('x', 3000) AS offer, '[[1,2]]'::json AS busy FROM generate_series(1, 4)"

const pool = new pg.Pool({ connectionString: url, max: 10 })
await timed("pg: SELECT 1", () => pool.query("SELECT 1"))
await timed("pg: 4 rows of 3 KB", () => pool.query(rows))
await pool.end()

const database = pgClientLayer(Redacted.make(url), { statementTimeoutMs: 3000 })
await Effect.runPromise(Effect.scoped(Effect.provide(migrate, database)))
const config = appConfigFrom({
  DATABASE_URL: url,
  BOOKING_OPTION_SIGNING_KEYS: "bench:bench-secret-0123456789abcdef0123456789abcdef"
})
const layer = Calendar.DefaultWithoutDependencies.pipe(
  Layer.provideMerge(Supply.Default),
  Layer.provideMerge(Catalog.Default),
  Layer.provideMerge(database),
  Layer.provideMerge(config)
)

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const calendar = yield* Calendar
  const run = (effect: Effect.Effect<unknown, unknown>) => () => Effect.runPromise(Effect.orDie(effect))
  // As a request runs them: with what is left of its database budget.
  const inBudget = <A, E>(effect: Effect.Effect<A, E>) =>
    Effect.suspend(() => Effect.provideService(effect, DatabaseDeadline, Date.now() + 5000))
  const now = Date.now()
  const query = {
    verticalId: "vvs",
    jobTypeId: "install_faucet",
    postcode: 11122,
    destinationPostcode: undefined,
    range: { start: now + 86_400_000, end: now + 8 * 86_400_000 },
    calendar: "live",
    now
  }
  yield* Effect.promise(() => timed("project's client: SELECT 1", run(sql`SELECT 1`)))
  yield* Effect.promise(() => timed("project's client: SELECT 1, in a budget", run(inBudget(sql`SELECT 1`))))
  yield* Effect.promise(() => timed("project's client: 4 rows of 3 KB, in a budget", run(inBudget(sql.unsafe(rows)))))
  yield* Effect.promise(() =>
    timed("search's availability read, in a budget", run(inBudget(calendar.availability(query))))
  )
})

await Effect.runPromise(Effect.scoped(Effect.provide(program, layer)))
await embedded?.stop()
