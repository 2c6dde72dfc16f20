import { relative } from "node:path"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The files that take longest, longest first, as full runs on two cores and each file's CPU measured them. A file
 * is given to whichever fork is free, so a long file started last keeps one core busy after the
 * other has run out of files; vitest avoids that by starting the files that took longest last
 * time, but a fresh clone has no such record and starts the largest files first, which these are not.
 */
const slowest = [
  "test/e2e/Samples.test.ts",
  "test/e2e/Stop.test.ts",
  "test/e2e/Cli.test.ts",
  "test/e2e/DatabaseFreeze.test.ts",
  "test/e2e/Main.test.ts",
  "test/Http/OpenApi.test.ts",
  "test/e2e/KillNine.test.ts",
  "test/Webhooks/Webhooks.test.ts",
  "test/Http/Fuzz.prop.test.ts",
  "test/PersonalData/PersonalData.test.ts",
  "test/Bookings/Lifecycle.test.ts",
  "test/Bookings/Revalidation.prop.test.ts",
  "test/e2e/McpMultiInstance.test.ts",
  "test/Bookings/Idempotency.prop.test.ts",
  "test/Holds/Holds.test.ts",
  "test/e2e/MultiInstance.test.ts",
  "test/Http/GeneratedClient.test.ts",
  "test/Mcp/Inspector.test.ts"
]

/** Vitest's order (by last run's durations) where it has them for every file, else `slowest` first. */
class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const root = this.ctx.config.root
    const path = (file: TestSpecification) => relative(root, file.moduleId)
    const measured = files.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`))
    if (measured) return sorted
    const rank = (file: TestSpecification) => {
      const index = slowest.indexOf(path(file))
      return index === -1 ? slowest.length : index
    }
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    setupFiles: ["test/support/setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default on 2 cores is one fork; every file has its own database, so two run at once.
    // Files share their fork's modules (isolate: false): importing effect, the platform and the
    // app once per fork instead of once per file; test/support/setup.ts resets what leaks.
    maxWorkers: 2,
    isolate: false,
    sequence: { concurrent: false, sequencer: LongestFirst },
    // In-process servers log what a server logs (start lines, warnings, access lines): a passing
    // test's are dropped, a failing test's are printed after it, where they help.
    silent: "passed-only"
  }
})
