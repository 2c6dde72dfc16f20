import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default on 2 cores is one fork; every file has its own database, so two run at once.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    sequence: { concurrent: false }
  }
})
