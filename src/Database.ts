import { readdir } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { Migrator, SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted, String as Str } from "effect"
import { AppConfig } from "./AppConfig.js"
import { attachOrStartEmbeddedPostgres, startEmbeddedPostgres } from "./EmbeddedPostgres.js"

export const migrationsDirectory = fileURLToPath(new URL("../migrations", import.meta.url))

/** The client every service uses: snake_case in SQL, camelCase in TypeScript. */
export const pgClientLayer = (url: Redacted.Redacted, options?: { readonly maxConnections?: number }) =>
  PgClient.layer({
    url,
    applicationName: "home-service-booking-api",
    maxConnections: options?.maxConnections ?? 10,
    transformQueryNames: Str.camelToSnake,
    transformResultNames: Str.snakeToCamel,
    // JSON columns hold wire-format documents (scope, terms, consent): their keys stay as stored.
    transformJson: false
  })

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

export const MigrationsLive = Layer.effectDiscard(
  migrate.pipe(
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
      return MigrationsLive.pipe(Layer.provideMerge(pgClientLayer(url)))
    })
  )

/** PostgreSQL at DATABASE_URL, or an embedded one under DATA_DIR, migrated before use. */
export const DatabaseLive = databaseLayer({ attach: false })

/** The same for command-line tools, which share the cluster of a running development server. */
export const ToolDatabaseLive = databaseLayer({ attach: true })
