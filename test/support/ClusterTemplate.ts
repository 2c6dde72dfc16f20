import { execFileSync } from "node:child_process"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmbeddedPostgres } from "../../src/Database/EmbeddedPostgres.js"

/**
 * A data directory as the server leaves it after its first start and stop (an initialised
 * cluster, its password, no database of the app's): made once per test run by globalSetup. A copy
 * spares a start the two seconds of CPU that initdb costs; the test of a first start
 * (test/Main/Main.test.ts) still starts on an empty directory.
 */
export const makeClusterTemplate = async () => {
  const dir = await mkdtemp(join(tmpdir(), "booking-api-cluster-"))
  const cluster = await startEmbeddedPostgres({ dataDir: dir, ephemeral: true })
  await cluster.stop()
  return dir
}

/** `cp -a`: keeps the owner (the `postgres` user when the tests run as root) and the modes PostgreSQL insists on. */
export const copyCluster = (template: string, dataDir: string) => {
  execFileSync("cp", ["-a", `${template}/.`, dataDir])
}
