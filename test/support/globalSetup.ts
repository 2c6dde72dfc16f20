import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { TestProject } from "vitest/node"
import { migrate, pgClientLayer } from "../../src/Database/Database.js"
import { startEmbeddedPostgres } from "../../src/Database/EmbeddedPostgres.js"
import { copyCluster, makeClusterTemplate } from "./ClusterTemplate.js"
import { databaseUrlFor } from "./databaseUrl.js"
import { buildServerBundle, bundleDirectory } from "./ServerBundle.js"

declare module "vitest" {
  export interface ProvidedContext {
    readonly databaseUrl: string
    readonly templateDatabase: string
    /** Where this run's bundle of the server and its tools lies (test/support/ServerBundle.ts). */
    readonly serverBundle: string
    /** An initialised cluster's data directory, for process tests to copy (test/support/ClusterTemplate.ts). */
    readonly clusterTemplate: string
  }
}

const run = <A>(url: string, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(
    Effect.provide(effect, pgClientLayer(Redacted.make(url), { maxConnections: 1 })).pipe(Effect.scoped)
  )

/**
 * One PostgreSQL per test run (embedded, or TEST_DATABASE_URL), with one migrated template
 * database; each test file clones it, so files never see each other's rows. Beside it, the bundle
 * the process tests start (test/support/ServerBundle.ts), built again when watch mode reruns, and
 * an initialised cluster they copy (test/support/ClusterTemplate.ts); the embedded PostgreSQL of the
 * run starts on a copy of it too, so initdb runs once.
 */
export default async function setup(project: TestProject) {
  const root = project.config.root
  const serverBundle = bundleDirectory(root)
  // Built while the database starts; its failure is thrown below, once the database's own has had its say.
  const bundled = buildServerBundle(root, serverBundle).then(
    () => undefined,
    (error: unknown) => ({ error })
  )
  project.onTestsRerun(() => buildServerBundle(root, serverBundle))
  const clusterTemplate = await makeClusterTemplate()
  const dataDir = process.env.TEST_DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), "booking-api-test-"))
  if (dataDir) copyCluster(clusterTemplate, dataDir)
  const embedded = dataDir ? await startEmbeddedPostgres({ dataDir, ephemeral: true }) : undefined
  const url = process.env.TEST_DATABASE_URL ?? embedded!.url
  const templateDatabase = `booking_test_template_${process.pid}`
  await run(
    url,
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${templateDatabase}`))
  )
  await run(databaseUrlFor(url, templateDatabase), migrate)
  project.provide("databaseUrl", url)
  project.provide("templateDatabase", templateDatabase)
  const failed = await bundled
  if (failed) throw failed.error
  project.provide("serverBundle", serverBundle)
  project.provide("clusterTemplate", clusterTemplate)
  return async () => {
    await run(
      url,
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const leftovers = yield* sql<{ datname: string }>`
          SELECT datname FROM pg_database WHERE datname LIKE ${`booking_test_%_${process.pid}%`}`
        for (const { datname } of leftovers) yield* sql.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
      })
    ).catch((error) => console.error("test database cleanup failed", error))
    await embedded?.stop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
    await rm(serverBundle, { recursive: true, force: true })
    await rm(clusterTemplate, { recursive: true, force: true })
  }
}
