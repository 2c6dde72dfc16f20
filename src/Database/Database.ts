import { readdir } from "node:fs/promises"
import * as Net from "node:net"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Clock, Context, Duration, Effect, Fiber, Layer, Option, Redacted, References, String as Str } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type { Borrower } from "effect/sql/SqlConnection"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import * as Statement from "effect/sql/Statement"
import { AppConfig, databaseSilenceMarginMs } from "../AppConfig.js"
import { attachOrStartEmbeddedPostgres, startEmbeddedPostgres, takeEarlyStart } from "./EmbeddedPostgres.js"

export const migrationsDirectory = fileURLToPath(new URL("../../migrations", import.meta.url))

export interface PoolOptions {
  readonly maxConnections?: number | undefined
  /** Bounds connecting and waiting for a free connection of the pool (5 s when unset). */
  readonly connectTimeoutMs?: number | undefined
  /** PostgreSQL cancels longer statements, and a server that does not answer is given up soon after; none when unset. */
  readonly statementTimeoutMs?: number | undefined
}

const silenceMarginMs = databaseSilenceMarginMs

/** The statement was never sent: no connection could be had in time. */
const notSentError = (cause: unknown, message: string) =>
  new SqlError({ reason: new ConnectionError({ cause, message, operation: "connect" }) })

/**
 * When the database work of the request being served must be over (Clock milliseconds); none
 * outside a request. Every statement gets what is left of it, so a request answers within one
 * budget however many statements it had left when the database stopped answering. Work that
 * outlives a request (deliveries, loops) runs from its service's own runtime
 * (FiberSet.makeRuntime, forkScoped in a layer), whose context is the layer's: it has no deadline.
 */
export const DatabaseDeadline = Context.Reference<number | undefined>("Database/Deadline", {
  defaultValue: () => undefined
})

/** `effect` with `budgetMs` of database time from now; one already running is kept. */
export const withDatabaseBudget =
  (budgetMs: number) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiber((fiber) =>
      fiber.getRef(DatabaseDeadline) !== undefined
        ? effect
        : Effect.provideService(
            effect,
            DatabaseDeadline,
            fiber.getRef(Clock.Clock).currentTimeMillisUnsafe() + budgetMs
          )
    )

/** Never sent: the request's budget was spent before it. */
export const budgetSpent = () => notSentError(new Error("budget spent"), "The request's database time budget is spent")

/** Sent, and no answer within the budget: it may have been carried out. */
export const readTimeout = () =>
  new SqlError({
    reason: new ConnectionError({
      cause: new Error("Query read timeout"),
      message: "Query read timeout",
      operation: "query"
    })
  })

/** What is left of the request's database budget, in milliseconds; unbounded outside a request. */
export const budgetLeft = (fiber: Fiber.Fiber<unknown, unknown>) => {
  const deadline = fiber.getRef(DatabaseDeadline)
  return deadline === undefined
    ? Number.POSITIVE_INFINITY
    : deadline - fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()
}

/**
 * `effect` within what is left of the request's budget; when it is spent it fails with `spent()`.
 * Interrupting a statement waits for the driver to drain and cancel it, which a frozen server
 * never allows before the socket's own silence bound: so the work runs in a fiber of its own,
 * which is let go (and interrupted in the background) when the budget is spent. Nothing is begun
 * once the budget is spent.
 */
const withinBudget = <A, E, R>(effect: Effect.Effect<A, E, R>, left: number, spent: () => SqlError) =>
  left <= 0
    ? Effect.fail(spent())
    : Effect.flatMap(Effect.forkDetach(effect), (running) => {
        const letGo = Effect.forkDetach(Fiber.interrupt(running))
        return Fiber.join(running).pipe(
          Effect.timeoutOrElse({
            duration: Duration.millis(left),
            orElse: () => Effect.andThen(letGo, Effect.fail(spent()))
          }),
          Effect.onInterrupt(() => letGo)
        )
      })

const rowsNamed = Statement.defaultTransforms(Str.snakeToCamel, false).array
const compiler = PgClient.makeCompiler(Str.camelToSnake, false)

/**
 * `pg` with the layer's bounds on every statement, so every query is plain `sql`: outside a
 * transaction a statement waits at most the connect timeout for a connection of the pool (on the
 * clock the pool was built with, as the pool's own timers) and fails as a ConnectionError of
 * operation "connect" (never sent); in a request it also ends with the request's budget: never
 * sent if it had no connection yet, outcome unknown if it had. A transaction is bounded as a whole
 * (its statements run on its connection): one the budget ends before it begins was never sent;
 * one it ends midway may have committed, so it reads as a statement that got no answer. A server
 * that goes silent mid-statement is the socket's to give up (silenceBoundedSocket).
 */
const bounded = (pg: PgClient.PgClient, poolClock: Clock.Clock, connectTimeoutMs: number): SqlClient.SqlClient => {
  const openTransaction = (fiber: Fiber.Fiber<unknown, unknown>) =>
    Context.getOrUndefined(fiber.context, pg.transactionService)
  const connection = pg.reserve.pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(connectTimeoutMs),
      orElse: () => Effect.fail(notSentError(new Error("timed out"), "Failed to acquire connection"))
    }),
    Effect.provideService(Clock.Clock, poolClock)
  )
  const acquirer = Effect.withFiber((fiber) => {
    const open = openTransaction(fiber)
    return open === undefined ? connection : Effect.succeed(open[0])
  })
  const borrower: Borrower = (run) =>
    Effect.withFiber((fiber) => {
      const open = openTransaction(fiber)
      if (open !== undefined) return run(open[0])
      const left = budgetLeft(fiber)
      if (left === Number.POSITIVE_INFINITY) return Effect.scoped(Effect.flatMap(connection, run))
      let sent = false
      const sending = Effect.flatMap(connection, (reserved) => {
        sent = true
        return run(reserved)
      })
      return withinBudget(Effect.scoped(sending), left, () => (sent ? readTimeout() : budgetSpent()))
    })
  const withTransaction = <R, E, A>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
    Effect.withFiber((fiber) => {
      const left = budgetLeft(fiber)
      return openTransaction(fiber) !== undefined || left === Number.POSITIVE_INFINITY
        ? pg.withTransaction(effect)
        : left <= 0
          ? Effect.fail(budgetSpent())
          : withinBudget(pg.withTransaction(effect), left, readTimeout)
    })
  const clientOf = (
    statementCompiler: Statement.Compiler,
    transformRows: typeof rowsNamed | undefined
  ): SqlClient.SqlClient => {
    const statements = Statement.make(
      acquirer,
      statementCompiler,
      [["db.system.name", "postgresql"]],
      transformRows,
      borrower
    )
    const client = Object.assign(statements, {
      ...pg,
      ...statements,
      reserve: connection,
      withTransaction,
      withoutTransforms: () => clientOf(statementCompiler.withoutTransform, undefined)
    }) as unknown as SqlClient.SqlClient
    Object.assign(client, { safe: client })
    return client
  }
  return clientOf(compiler, rowsNamed)
}

/** Whether a chunk of PostgreSQL's answer ends with ReadyForQuery ('Z', length 5, status): a cycle is over. */
const endsWithReadyForQuery = (chunk: Buffer) =>
  chunk.length >= 6 && chunk[chunk.length - 6] === 0x5a && chunk.readInt32BE(chunk.length - 5) === 5

/**
 * The connection's socket, given up when the server says nothing for `silenceMs` while a statement
 * waits for its answer (a frozen or unreachable server): the socket is destroyed, so the statement
 * fails as a lost connection (outcome unknown) and the pool replaces the connection, which is never
 * used again. @effect/sql-pg 4 has no client-side statement timeout of its own; PostgreSQL's
 * statement_timeout bounds a server that is alive. An idle connection is never timed out.
 */
const silenceBoundedSocket = (host: string, port: number, silenceMs: number) => () => {
  const socket = Net.connect({ host, port, noDelay: true, keepAlive: true, keepAliveInitialDelay: 10_000 })
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = () => {
    timer ??= setTimeout(() => socket.destroy(new Error("Query read timeout")), silenceMs)
  }
  const disarm = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }
  const write = socket.write.bind(socket) as (...args: Array<unknown>) => boolean
  socket.write = ((...args: Array<unknown>) => {
    arm()
    return write(...args)
  }) as typeof socket.write
  socket.on("data", (chunk: Buffer) => {
    disarm()
    if (!endsWithReadyForQuery(chunk)) arm()
  })
  socket.on("close", disarm)
  return socket
}

/**
 * The client every service uses: snake_case in SQL, camelCase in TypeScript, and the layer's
 * bounds on every statement (bounded).
 */
export const pgClientLayer = (url: Redacted.Redacted, options: PoolOptions = {}) => {
  const address = new URL(Redacted.value(url))
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000
  const client = Layer.effect(
    SqlClient.SqlClient,
    Effect.gen(function* () {
      const pg = yield* PgClient.make({
        url,
        ...(options.statementTimeoutMs
          ? {
              stream: silenceBoundedSocket(
                decodeURIComponent(address.hostname),
                Number(address.port || 5432),
                options.statementTimeoutMs + silenceMarginMs
              ),
              startupParameters: { statement_timeout: String(options.statementTimeoutMs) }
            }
          : {}),
        applicationName: "home-service-booking-api",
        maxConnections: options.maxConnections ?? 10,
        keepAlive: Duration.seconds(10),
        ...(options.connectTimeoutMs ? { connectTimeout: Duration.millis(options.connectTimeoutMs) } : {}),
        // JSON columns hold wire-format documents (scope, terms, consent): their keys stay as stored.
        transformJson: false
      })
      return bounded(pg, yield* Clock.Clock, connectTimeoutMs)
    })
  ).pipe(Layer.provide(Reactivity.layer))
  // One connection proves the server answers before the layer is built: a wrong URL fails the start.
  const probe = Layer.effectDiscard(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(connectTimeoutMs),
        orElse: () => Effect.fail(notSentError(new Error("timed out"), "PgClient: Connection timed out"))
      })
    )
  )
  // Nothing exports traces: the driver's spans (a statement's, a connection's) are made as no-ops,
  // as the server's are (src/Http.ts).
  return probe.pipe(Layer.provideMerge(client), Layer.provide(Layer.succeed(References.TracerEnabled, false)))
}

/**
 * The embedded cluster lives as long as the layer: started on build, stopped on release. A
 * command-line tool (`attach`) says in one line which cluster it used: a running server's, left
 * running, or one started for the command alone, stopped with it.
 */
export const EmbeddedPostgresUrl = (dataDir: string, options?: { readonly attach?: boolean }) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        options?.attach
          ? attachOrStartEmbeddedPostgres({ dataDir })
          : (takeEarlyStart(dataDir) ?? startEmbeddedPostgres({ dataDir })),
      catch: (error) => (error instanceof Error ? error : new Error(String(error)))
    }),
    (pg) =>
      Effect.promise(() => pg.stop()).pipe(
        Effect.tap(options?.attach ? Effect.void : Effect.logInfo("embedded PostgreSQL stopped"))
      )
  ).pipe(
    Effect.tap((pg) =>
      Effect.logInfo(
        !options?.attach
          ? `embedded PostgreSQL started on 127.0.0.1:${pg.port} (data in ${dataDir})`
          : pg.attached
            ? `using the embedded PostgreSQL in ${dataDir} (port ${pg.port}), already running`
            : `started the embedded PostgreSQL in ${dataDir} (port ${pg.port}) for this command; it stops when the command ends`
      )
    ),
    Effect.map((pg) => Redacted.make(pg.url))
  )

/** A database URL as a log line may show it: where it points, never who connects or with what password. */
export const shownDatabaseUrl = (url: Redacted.Redacted): string => {
  const text = Redacted.value(url)
  if (!URL.canParse(text)) return "(a DATABASE_URL that is not a URL)"
  const parsed = new URL(text)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
}

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
  Layer.unwrap(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const url = yield* Option.match(config.databaseUrl, {
        onSome: (given) =>
          options.attach
            ? Effect.as(Effect.logInfo(`using DATABASE_URL ${shownDatabaseUrl(given)}`), given)
            : Effect.succeed(given),
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
