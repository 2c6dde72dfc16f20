import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { graphOf } from "./support/ImportGraph.js"

describe("the typed client's package entry", () => {
  it("is exported as home-service-booking-api/client, with the declarations the build emits", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8"))
    expect(manifest.exports["./client"]).toEqual({ types: "./dist/src/Client.d.ts", default: "./dist/src/Client.js" })
    expect(manifest.files).toContain("dist")
    expect(JSON.parse(readFileSync("tsconfig.build.json", "utf8")).compilerOptions.declaration).toBe(true)
  })
})

const serverModules = [
  "src/AppConfig.ts",
  "src/Partners/Authentication.ts",
  "src/Database/Database.ts",
  "src/Http.ts",
  "src/Partners/Partners.ts"
]

describe.each(["Client.ts", "ClientPromise.ts"])("the typed client's import graph from src/%s", (entry) => {
  const { files, external } = graphOf(join("src", entry))

  it("reaches the Api, its schemas and the middleware tags", () => {
    expect(files).toEqual(expect.arrayContaining(["src/Api.ts", "src/Partners/AuthApi.ts", "src/Domain/Booking.ts"]))
  })

  it("reaches no server code: no configuration, database, crypto or auth implementation", () => {
    expect(files.filter((file) => serverModules.includes(file))).toEqual([])
    expect(
      external.filter((name) => name === "pg" || name.startsWith("@effect/sql") || name.startsWith("node:"))
    ).toEqual([])
    expect(
      external.every((name) => name === "effect" || (name.startsWith("effect/") && !name.startsWith("effect/sql")))
    ).toBe(true)
  })
})

describe("the import graph walk", () => {
  it("sees server code where there is some", () => {
    expect(graphOf(join("src", "Partners", "Authentication.ts")).external).toContain("node:crypto")
    expect(graphOf(join("src", "Http.ts")).files).toContain("src/AppConfig.ts")
  })
})
