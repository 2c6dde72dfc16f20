import { defineConfig } from "vitest/config"

/** `npm run test:docs`: what needs a real Chromium, kept out of `npm test` (see .ci/run). */
export default defineConfig({
  test: {
    include: ["test/**/*.chromium.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})
