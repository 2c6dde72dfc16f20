import { readdirSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { SqlError } from "effect/sql/SqlError"
import { migrate, migrationsDirectory, pgClientLayer } from "../../src/Database/Database.js"
import { writeOutcome } from "../../src/Shared/Idempotency.js"
import { addressOf, adminSql, freezableProxy, makeDatabase } from "../support/Database.js"
import { readyz } from "../support/Http.js"
import { silentServer } from "../support/Receivers.js"
import { TestServer } from "../support/Server.js"

const migrationFiles = readdirSync(migrationsDirectory).filter((file) => /^\d+_.+\.ts$/.test(file))

const migrateAt = (url: string) => migrate.pipe(Effect.provide(pgClientLayer(Redacted.make(url))), Effect.scoped)

// Each on a database of its own.
describe.concurrent("migrations", () => {
  it.live("a second run on a migrated database applies nothing", () =>
    Effect.gen(function* () {
      const { url } = yield* makeDatabase({ empty: true })
      const first = yield* migrateAt(url)
      const second = yield* migrateAt(url)
      expect(first.map(([id]) => id)).toEqual(migrationFiles.map((file) => Number(file.split("_")[0])))
      expect(second).toEqual([])
    }).pipe(Effect.scoped)
  )

  it.live("two instances migrating one empty database at once both start, and each migration runs once", () =>
    Effect.gen(function* () {
      const { url } = yield* makeDatabase({ empty: true })
      const [a, b] = yield* Effect.all([migrateAt(url), migrateAt(url)], { concurrency: 2 })
      expect([...a, ...b].map(([id]) => id).sort()).toEqual(
        migrationFiles.map((file) => Number(file.split("_")[0])).sort()
      )
      const recorded = yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ migrationId: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY migration_id`
      ).pipe(Effect.provide(pgClientLayer(Redacted.make(url))), Effect.scoped)
      expect(recorded.length).toBe(migrationFiles.length)
    }).pipe(Effect.scoped)
  )

  it.live("the calendar refuses overlapping bookings of one provider whatever the application does", () =>
    Effect.gen(function* () {
      const { url } = yield* makeDatabase()
      const result = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO providers (id, name, city) VALUES ('p1', 'P1', 'Stockholm'), ('p2', 'P2', 'Stockholm')`
        const book = (provider: string, range: string) =>
          sql`INSERT INTO calendar_bookings (id, provider_id, service_id, during)
              VALUES (gen_random_uuid(), ${provider}, 's', ${range}::tstzrange)`
        yield* book("p1", "[2027-01-04 10:00+01, 2027-01-04 12:00+01)")
        yield* book("p1", "[2027-01-04 12:00+01, 2027-01-04 13:00+01)")
        yield* book("p2", "[2027-01-04 11:00+01, 2027-01-04 12:00+01)")
        return yield* Effect.result(book("p1", "[2027-01-04 11:59+01, 2027-01-04 12:01+01)"))
      }).pipe(Effect.provide(pgClientLayer(Redacted.make(url))), Effect.scoped)
      expect(result._tag).toBe("Failure")
      expect(JSON.stringify(result)).toContain("23P01")
    }).pipe(Effect.scoped)
  )
})

describe("statements", () => {
  it.live(
    "a statement is prepared once per connection and then only executed (@effect/sql-pg 4 prepares every statement, parameterised or not)",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const prepared = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          // One connection, so the second run must reuse what the first prepared.
          return yield* sql.withTransaction(
            Effect.gen(function* () {
              for (const n of [1, 2, 3]) expect(yield* sql<{ n: number }>`SELECT ${n}::int AS n`).toEqual([{ n }])
              yield* sql`SELECT 42 AS unparameterised`
              return yield* sql<{
                statement: string
              }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${"%::int AS n%"} OR statement LIKE ${"%unparameterised%"}`
            })
          )
        }).pipe(Effect.provide(pgClientLayer(Redacted.make(url), { maxConnections: 1 })), Effect.scoped)
        expect(prepared.map((row) => row.statement).sort()).toEqual([
          "SELECT $1::int AS n",
          "SELECT 42 AS unparameterised"
        ])
      }).pipe(Effect.scoped)
  )
})

describe("the bounds every statement runs with", () => {
  it.live(
    "a statement is prepared once per connection; inside a transaction it runs on the transaction's connection",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const outcome = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const square = (n: number) => sql<{ squareOf: number }>`SELECT ${n}::int * ${n}::int AS square_of`
          const answers = [yield* square(3), yield* square(4), yield* square(5)]
          const prepared = yield* sql<{
            statement: string
          }>`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${"%square_of%"}`
          yield* sql`CREATE TABLE direct_probe (n int)`
          const inside = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                yield* sql`INSERT INTO direct_probe VALUES (${7})`
                const seen = yield* sql<{ n: number }>`SELECT n FROM direct_probe WHERE n = ${7}`
                return yield* Effect.fail({ seen })
              })
            )
            .pipe(Effect.flip)
          const after = yield* sql<{ n: number }>`SELECT n FROM direct_probe WHERE n = ${7}`
          return { answers, prepared, inside, after }
        }).pipe(Effect.provide(pgClientLayer(Redacted.make(url), { maxConnections: 1 })), Effect.scoped)
        expect(outcome).toEqual({
          answers: [[{ squareOf: 9 }], [{ squareOf: 16 }], [{ squareOf: 25 }]],
          prepared: [{ statement: "SELECT $1::int * $2::int AS square_of" }],
          inside: { seen: [{ n: 7 }] },
          after: []
        })
      }).pipe(Effect.scoped)
  )

  it.live(
    "while the database is frozen, a statement fails with a SqlError after the statement timeout, and once thawed the pool answers on a new connection",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const proxy = yield* freezableProxy(addressOf(url))
        const context = yield* Layer.build(
          pgClientLayer(Redacted.make(proxy.urlFor(url)), {
            maxConnections: 1,
            connectTimeoutMs: 300,
            statementTimeoutMs: 300
          })
        )
        const sql = Context.get(context, SqlClient.SqlClient)
        const backend = sql<{ pid: number }>`SELECT pg_backend_pid() AS pid WHERE ${1}::int = 1`
        const [before] = yield* backend
        proxy.freeze()
        const frozen = yield* Effect.flip(backend)
        proxy.thaw()
        const [after] = yield* backend
        expect(frozen).toBeInstanceOf(SqlError)
        // The silence bound destroys the socket: a lost connection whose cause says why.
        expect(String(frozen.reason.cause)).toContain("Query read timeout")
        expect(after?.pid).toBeTypeOf("number")
        expect(after?.pid).not.toBe(before?.pid)
      }).pipe(Effect.scoped),
    30_000
  )

  it.live(
    "an error PostgreSQL answers fails the statement and keeps its connection; a statement that gets no connection is 'Failed to acquire connection', never sent",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const outcome = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const backend = sql<{ pid: number }>`SELECT pg_backend_pid() AS pid WHERE ${1}::int = 1`
          const [before] = yield* backend
          const refused = yield* Effect.flip(sql`SELECT 1 / ${0}::int AS never`)
          const [after] = yield* backend
          return {
            code: (refused.reason.cause as { code?: string }).code,
            message: refused.message,
            same: before?.pid === after?.pid
          }
        }).pipe(Effect.provide(pgClientLayer(Redacted.make(url), { maxConnections: 1 })), Effect.scoped)
        expect(outcome).toEqual({ code: "22012", message: "PgConnection: Query failed", same: true })

        // With the pool's one connection held by a transaction, the statement gets none: never sent.
        const starved = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const holding = yield* Deferred.make<void>()
          yield* Effect.forkScoped(
            sql.withTransaction(Effect.andThen(Deferred.succeed(holding, undefined), Effect.never))
          )
          yield* Deferred.await(holding)
          return yield* Effect.flip(sql`SELECT ${1}::int AS one`)
        }).pipe(
          // The holding fibre ends before the pool closes: @effect/sql-pg 4's pool waits for its connections.
          Effect.scoped,
          Effect.provide(pgClientLayer(Redacted.make(url), { maxConnections: 1, connectTimeoutMs: 300 }))
        )
        expect(starved.message).toBe("Failed to acquire connection")
        expect(writeOutcome(starved)._tag).toBe("NotWritten")
      }).pipe(Effect.scoped)
  )
})

describe("readiness", () => {
  it.layer(TestServer())((it) => {
    it.effect("/readyz is 503 not_ready, naming the database, when the database refuses connections", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [{ name }] = (yield* sql<{ name: string }>`SELECT current_database() AS name`) as [{ name: string }]
        expect((yield* readyz()).status).toBe(200)
        yield* adminSql(
          Effect.flatMap(SqlClient.SqlClient, (admin) =>
            Effect.andThen(
              admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`),
              admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`
            )
          )
        )
        const response = yield* readyz()
        expect(response.status).toBe(503)
        expect(response.body).toEqual({
          ok: false,
          error: "not_ready",
          status: 503,
          issues: ["database: does not accept queries"],
          safe_next_step: "Send traffic to another instance; the operator must fix the issues listed."
        })
        yield* adminSql(
          Effect.flatMap(SqlClient.SqlClient, (admin) => admin.unsafe(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`))
        )
        expect((yield* readyz()).status).toBe(200)
      })
    )
  })
})

describe("a database that stops answering", () => {
  it.live("connecting to a server that accepts and never answers fails after DATABASE_CONNECT_TIMEOUT_MS", () =>
    Effect.gen(function* () {
      const { port } = yield* silentServer
      const url = Redacted.make(`postgres://postgres:secret@127.0.0.1:${port}/booking`)
      const result = yield* Layer.build(pgClientLayer(url, { connectTimeoutMs: 300 })).pipe(Effect.flip)
      expect(result).toBeInstanceOf(SqlError)
    }).pipe(Effect.scoped)
  )

  it.live(
    "while frozen, statements fail after the statement timeout and callers waiting for a connection after the connect timeout; a connection given up inside a transaction is never reused, and the pool recovers without a restart",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const proxy = yield* freezableProxy(addressOf(url))
        const pool = yield* Layer.build(
          pgClientLayer(Redacted.make(proxy.urlFor(url)), {
            maxConnections: 1,
            connectTimeoutMs: 300,
            statementTimeoutMs: 300
          })
        )
        const sql = Context.get(pool, SqlClient.SqlClient)
        const admin = Context.get(yield* Layer.build(pgClientLayer(Redacted.make(url))), SqlClient.SqlClient)
        yield* sql`CREATE TABLE outage_probe (n int)`

        const stuck = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO outage_probe VALUES (1)`
              proxy.freeze()
              yield* sql`INSERT INTO outage_probe VALUES (2)`
            })
          )
          .pipe(Effect.exit, Effect.forkChild)
        const waiting = yield* sql`SELECT 1`.pipe(Effect.flip, Effect.forkChild)
        const [exit, acquire] = [yield* Fiber.join(stuck), yield* Fiber.join(waiting)]
        // Effect 4's withTransaction turns the failed ROLLBACK on the dead connection into a defect,
        // and a cause with a defect makes its typed failure a defect too: the statement's error comes first.
        const first = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
        const statement = first?._tag === "Fail" ? first.error : first?._tag === "Die" ? first.defect : undefined
        expect(statement).toBeInstanceOf(SqlError)
        expect(String((statement as SqlError).reason.cause)).toContain("Query read timeout")
        // Waiting behind the stuck transaction, it gets a new connection once that one is given up,
        // and connecting to the frozen server times out.
        expect(acquire).toBeInstanceOf(SqlError)

        proxy.thaw()
        yield* sql`INSERT INTO outage_probe VALUES (3)`
        const rows = yield* admin<{ n: number }>`SELECT n FROM outage_probe ORDER BY n`
        expect(rows.map((row) => row.n)).toEqual([3])
      }).pipe(Effect.scoped),
    30_000
  )
})
