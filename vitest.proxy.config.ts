import { defineConfig } from "vitest/config"

/** `npm run test:proxy`: behind a real nginx (Debian's nginx-light), kept out of `npm test` (see .ci/run). */
export default defineConfig({
  test: {
    include: ["test/**/*.nginx.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks"
  }
})
