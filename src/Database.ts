import { readdir } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Duration, Effect, Layer, Option, Redacted, String as Str } from "effect"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import { SqlError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import * as Pg from "pg"
import { AppConfig } from "./AppConfig.js"
import { attachOrStartEmbeddedPostgres, startEmbeddedPostgres } from "./EmbeddedPostgres.js"

export const migrationsDirectory = fileURLToPath(new URL("../migrations", import.meta.url))

export interface PoolOptions {
  readonly maxConnections?: number | undefined
  /** Bounds connecting and waiting for a free connection of the pool; none when unset. */
  readonly connectTimeoutMs?: number | undefined
  /** PostgreSQL cancels longer statements, and a server that does not answer is given up soon after; none when unset. */
  readonly statementTimeoutMs?: number | undefined
}

/** Beyond the statement timeout, how long a server that says nothing at all is waited for. */
const silenceMarginMs = 500

/**
 * Each distinct statement text gets one name, so every connection parses and plans it once and
 * then only binds and executes it (the search's availability query took 1.6 ms of planning per
 * call unprepared). The texts are the code's own, a bounded set; past `maxNamedStatements` a
 * text runs unnamed, so statements built from data could never grow the server's memory.
 */
const statementNames = new Map<string, string>()
const maxNamedStatements = 500

const statementName = (text: string) => {
  let name = statementNames.get(text)
  if (name === undefined && statementNames.size < maxNamedStatements) {
    name = `s${statementNames.size}`
    statementNames.set(text, name)
  }
  return name
}

/**
 * A query given up on our side may still be on the wire, its connection perhaps inside a
 * transaction: that connection is closed, so the pool never hands it to the next caller.
 * Closing it rolled its transaction back, so the ROLLBACK that follows is answered at once
 * (sent, it would fail and turn the caller's SqlError into a defect).
 */
class ClosingOnTimeoutClient extends Pg.Client {
  private givenUp = false

  override query(...args: Array<any>): any {
    const last = args.length - 1
    const callback = args[last]
    const query = (super.query as (...args: Array<any>) => any).bind(this)
    if (typeof callback !== "function") return query(...args)
    if (this.givenUp && typeof args[0] === "string" && args[0].startsWith("ROLLBACK")) {
      process.nextTick(() => callback(null, { rows: [] }))
      return undefined
    }
    const settled = (error: unknown, result: unknown) => {
      if (error instanceof Error && error.message === "Query read timeout" && !this.givenUp) {
        this.givenUp = true
        this.end().catch(() => {})
      }
      callback(error, result)
    }
    const [text, values] = args
    if (args.length === 3 && typeof text === "string" && Array.isArray(values) && values.length > 0) {
      const name = statementName(text)
      if (name !== undefined) return query({ name, text, values }, settled)
    }
    args[last] = settled
    return query(...args)
  }
}

const makePool = (url: Redacted.Redacted, options: PoolOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Pg.Pool({
        connectionString: Redacted.value(url),
        Client: ClosingOnTimeoutClient,
        application_name: "home-service-booking-api",
        max: options.maxConnections ?? 10,
        keepAlive: true,
        ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
        ...(options.statementTimeoutMs
          ? {
              statement_timeout: options.statementTimeoutMs,
              query_timeout: options.statementTimeoutMs + silenceMarginMs
            }
          : {})
      })
      // An idle connection that breaks (a restarted server) is dropped by the pool; unheard, the event would crash the process.
      pool.on("error", () => {})
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(Duration.seconds(1)))
  ).pipe(
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
      }).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(options.connectTimeoutMs ?? 5000),
          onTimeout: () => new SqlError({ cause: new Error("timed out"), message: "PgClient: Connection timed out" })
        })
      )
    )
  )

/**
 * Runs a statement as the SqlClient would, but outside a transaction straight on the pool: the
 * same pg call (so the same prepared name and timeouts), rows and SqlError (with @effect/sql-pg's
 * messages, so "Failed to acquire connection" still means the statement was never sent), without
 * the span, scope and acquirer @effect/sql builds around every statement (an eighth of a search's
 * CPU went there with its one statement). Inside a transaction it is the statement as usual, on
 * the transaction's connection. An interrupted caller does not cancel the statement on the
 * server: it finishes within the statement timeout and its connection goes back to the pool.
 */
export class DirectQuery extends Context.Service<
  DirectQuery,
  <A extends object>(statement: Statement.Statement<A>) => Effect.Effect<ReadonlyArray<A>, SqlError>
>()("Database/DirectQuery") {}

const resultNames = Str.snakeToCamel
const rowsNamed = Statement.defaultTransforms(resultNames, false).array

/**
 * `text` on a connection of the pool. An error PostgreSQL answers leaves the connection as good
 * as before, so it goes back to the pool (pool.query would close it); one that breaks the
 * connection retires it.
 */
const runOnPool = <A extends object>(pool: Pg.Pool, text: string, params: ReadonlyArray<unknown>) =>
  Effect.callback<ReadonlyArray<A>, SqlError>((resume) => {
    pool.connect((cause, client, release) => {
      if (cause || client === undefined) {
        resume(
          Effect.fail(
            new SqlError({ cause: cause ?? new Error("No client returned"), message: "Failed to acquire connection" })
          )
        )
        return
      }
      let done = false
      const onError = (error: Error) => {
        if (done) return
        done = true
        release(error)
        resume(Effect.fail(new SqlError({ cause: error, message: "Connection error" })))
      }
      client.once("error", onError)
      client.query(text, params as Array<unknown>, (error, result) => {
        client.off("error", onError)
        if (done) return
        done = true
        release()
        resume(
          error
            ? Effect.fail(new SqlError({ cause: error, message: "Failed to execute statement" }))
            : Effect.succeed(rowsNamed(result.rows as Array<A>) as ReadonlyArray<A>)
        )
      })
    })
  })

const directQuery =
  (pool: Pg.Pool) =>
  <A extends object>(statement: Statement.Statement<A>) =>
    Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
      if (Option.isSome(transaction)) return statement
      const [text, params] = statement.compile()
      return runOnPool<A>(pool, text, params)
    })

/** The client every service uses: snake_case in SQL, camelCase in TypeScript; and DirectQuery on its pool. */
export const pgClientLayer = (url: Redacted.Redacted, options: PoolOptions = {}) =>
  Layer.unwrapScoped(
    Effect.map(makePool(url, options), (pool) =>
      Layer.merge(
        PgClient.layerFromPool({
          acquire: Effect.succeed(pool),
          transformQueryNames: Str.camelToSnake,
          transformResultNames: resultNames,
          // JSON columns hold wire-format documents (scope, terms, consent): their keys stay as stored.
          transformJson: false
        }),
        Layer.succeed(DirectQuery, directQuery(pool))
      )
    )
  )

/** The embedded cluster lives as long as the layer: started on build, stopped on release. */
export const EmbeddedPostgresUrl = (dataDir: string, options?: { readonly attach?: boolean }) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => (options?.attach ? attachOrStartEmbeddedPostgres : startEmbeddedPostgres)({ dataDir }),
      catch: (error) => (error instanceof Error ? error : new Error(String(error)))
    }),
    (pg) => Effect.promise(() => pg.stop()).pipe(Effect.tap(Effect.logInfo("embedded PostgreSQL stopped")))
  ).pipe(
    Effect.tap((pg) => Effect.logInfo(`embedded PostgreSQL started on 127.0.0.1:${pg.port} (data in ${dataDir})`)),
    Effect.map((pg) => Redacted.make(pg.url))
  )

/** Imported from here rather than inside @effect/sql, so tsx and vitest can load TypeScript migrations. */
const migrationLoader = Effect.promise(() => readdir(migrationsDirectory)).pipe(
  Effect.flatMap((files) =>
    Migrator.fromGlob(
      Object.fromEntries(files.map((file) => [file, () => import(pathToFileURL(join(migrationsDirectory, file)).href)]))
    )
  )
)

/**
 * Applies pending migrations. The advisory lock serialises instances that start at once on a
 * fresh database, where the migrator's own table creation would otherwise race.
 */
export const migrate = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('home-service-booking-api:migrations'))`
      yield* sql`CREATE TABLE IF NOT EXISTS effect_sql_migrations (
        migration_id integer PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now(),
        name text NOT NULL
      )`
      return yield* Migrator.make({})({ loader: migrationLoader })
    })
  )
}).pipe(Effect.withSpan("Database.migrate"))

/**
 * Migrations run on a connection of their own, closed when they are done: a migration may
 * take longer than the statement timeout that guards requests.
 */
const migrationsAt = (url: Redacted.Redacted, connectTimeoutMs: number) =>
  Layer.effectDiscard(
    migrate.pipe(
      Effect.provide(pgClientLayer(url, { maxConnections: 1, connectTimeoutMs })),
      Effect.scoped,
      Effect.tap((applied) =>
        applied.length > 0
          ? Effect.logInfo(`applied migrations: ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`)
          : Effect.void
      ),
      Effect.orDie
    )
  )

const databaseLayer = (options: { readonly attach: boolean }) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const url = yield* Option.match(config.databaseUrl, {
        onSome: Effect.succeed,
        onNone: () => EmbeddedPostgresUrl(config.dataDir, options)
      })
      return pgClientLayer(url, {
        maxConnections: config.databasePoolSize,
        connectTimeoutMs: config.databaseConnectTimeoutMs,
        statementTimeoutMs: config.databaseStatementTimeoutMs
      }).pipe(Layer.provide(migrationsAt(url, config.databaseConnectTimeoutMs)))
    })
  )

/** PostgreSQL at DATABASE_URL, or an embedded one under DATA_DIR, migrated before use. */
export const DatabaseLive = databaseLayer({ attach: false })

/** The same for command-line tools, which share the cluster of a running development server. */
export const ToolDatabaseLive = databaseLayer({ attach: true })
