import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Redacted } from "effect"
import { inject } from "vitest"
import { pgClientLayer } from "../../src/Database.js"
import { databaseUrlFor } from "./databaseUrl.js"

const admin = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, pgClientLayer(Redacted.make(inject("databaseUrl")), { maxConnections: 1 })).pipe(Effect.scoped)

/** A fresh database cloned from the migrated template, dropped when the layer is released. */
export const freshDatabaseUrl = Effect.acquireRelease(
  Effect.gen(function* () {
    const name = `booking_test_${randomBytes(6).toString("hex")}_${inject("templateDatabase").split("_").pop()}`
    yield* admin(
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql.unsafe(`CREATE DATABASE ${name} TEMPLATE ${inject("templateDatabase")}`)
      )
    )
    return { name, url: databaseUrlFor(inject("databaseUrl"), name) }
  }),
  ({ name }) =>
    admin(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    ).pipe(Effect.orDie)
).pipe(Effect.orDie)

/** SqlClient on this test file's own database. */
export const TestDatabaseLive = Layer.unwrapScoped(
  Effect.map(freshDatabaseUrl, ({ url }) => pgClientLayer(Redacted.make(url)))
).pipe(Layer.orDie)
