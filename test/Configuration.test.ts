import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import testRun from "../vitest.config.js"

const root = join(import.meta.dirname, "..")
const read = (file: string) => readFileSync(join(root, file), "utf8")

/** Every variable AppConfig reads, by the names it passes to Config. */
const variables = [...new Set(read("src/AppConfig.ts").match(/"[A-Z][A-Z0-9_]{2,}"/g) ?? [])].map((name) =>
  name.slice(1, -1)
)

describe("configuration is documented where an operator looks", () => {
  it("AppConfig reads a known set of variables", () => {
    expect(variables.length).toBeGreaterThanOrEqual(30)
    expect(variables).toContain("DATABASE_URL")
  })

  it.each(variables)("%s is listed in .env.example and in the README's configuration table", (name) => {
    expect(read(".env.example")).toMatch(new RegExp(`^${name}=`, "m"))
    expect(read("README.md")).toMatch(new RegExp(`^\\| \`${name}\` `, "m"))
  })

  it("the README points nowhere outside the repository", () => {
    expect(read("README.md")).not.toMatch(/\.\.\/shared|\]\(\.\.\//)
  })
})

describe("npm test", () => {
  it("prints failures and the summary: a passing test's server logs are dropped, a failing test's shown after it", () => {
    expect(testRun.test?.silent).toBe("passed-only")
  })
})
