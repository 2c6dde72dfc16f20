import { defineConfig } from "vitest/config"
import { LongestFirst } from "./test/support/Sequencer.js"

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
