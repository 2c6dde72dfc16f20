import { randomBytes } from "node:crypto"
import { Clock, Effect, Layer, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { inject } from "vitest"
import { pgClientLayer } from "../../src/Database/Database.js"
import { databaseUrlFor } from "./databaseUrl.js"

/** The harness's own statements make no spans: tests that watch the tracer see only the server's. */
const admin = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.provide(effect, pgClientLayer(Redacted.make(inject("databaseUrl")), { maxConnections: 1 })).pipe(
    Effect.scoped,
    Effect.provideService(References.TracerEnabled, false)
  )

const created = (template: string) =>
  Effect.gen(function* () {
    const name = `booking_test_${randomBytes(6).toString("hex")}_${inject("templateDatabase").split("_").pop()}`
    yield* admin(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`))
    )
    return name
  })

/**
 * The next clone of the migrated template, made while the test before it runs: a clone costs
 * PostgreSQL a few hundred milliseconds, which this fork then does not wait for. Off any test's
 * fiber (and TestClock); one that fails is made again when asked for. The run's teardown
 * (test/support/globalSetup.ts) drops the last one with every other leftover.
 */
let spare: Promise<string> | undefined
const nextClone = () => {
  spare = Effect.runPromise(created(inject("templateDatabase")))
  spare.catch(() => undefined)
}
const takeClone = Effect.suspend(() => {
  const taken = spare
  nextClone()
  const now = created(inject("templateDatabase"))
  return taken === undefined ? now : Effect.tryPromise(() => taken).pipe(Effect.catch(() => now))
})

/**
 * A fresh database, dropped when the scope closes: a clone of the migrated template, or
 * with `empty`, one that has never seen a migration. The drop runs in the background (nothing
 * waits for it: the name is never used again, and the run's teardown drops any it did not finish).
 */
export const makeDatabase = (options?: { readonly empty?: boolean }) =>
  Effect.acquireRelease(
    Effect.map(options?.empty ? created("template1") : takeClone, (name) => ({
      name,
      url: databaseUrlFor(inject("databaseUrl"), name)
    })),
    ({ name }) =>
      Effect.sync(() => {
        Effect.runPromise(
          admin(
            Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
          )
        ).catch(() => undefined)
      })
  ).pipe(Effect.orDie)

export const freshDatabaseUrl = makeDatabase()

/** Runs SQL as the server's superuser on its maintenance database. */
export const adminSql = admin

/**
 * SqlClient on the database at `url`. Its pool runs on the real clock: @effect/sql-pg 4 keeps the
 * pool's timers on the clock it was built with, and a test moving a TestClock from 1970 to its own
 * date would otherwise replay decades of them.
 */
export const testDatabaseAt = (url: string) =>
  pgClientLayer(Redacted.make(url)).pipe(
    Layer.orDie,
    Layer.provide(Layer.succeed(Clock.Clock, Clock.Clock.defaultValue()))
  )

/** SqlClient on this test file's own database. */
export const TestDatabaseLive = Layer.unwrap(Effect.map(freshDatabaseUrl, ({ url }) => testDatabaseAt(url)))
