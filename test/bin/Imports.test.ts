import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { graphOf } from "../support/ImportGraph.js"

const tools = ["migrate.ts", "partner.ts", "supplyImport.ts"]

describe("the command-line tools' import graphs", () => {
  it("see the HTTP server where it is (the walk itself works)", () => {
    expect(graphOf(join("src", "main.ts")).files).toEqual(
      expect.arrayContaining([
        "src/Main/Process.ts",
        "src/Http.ts",
        "src/Http/Listener.ts",
        "src/Http/Observability.ts"
      ])
    )
  })

  it.each(tools)("%s runs on Main/Process.ts and loads no HTTP server, middleware or handler", (tool) => {
    const { files } = graphOf(join("src", "bin", tool))
    expect(files).toContain("src/Main/Process.ts")
    expect(
      files.filter(
        (file) =>
          [
            "src/Http.ts",
            "src/Http/Listener.ts",
            "src/Http/Observability.ts",
            "src/Api.ts",
            "src/Http/Routes.ts"
          ].includes(file) || /^src\/(Capabilities|Search|Bookings|Requests|Health|Docs|Mcp)\//.test(file)
      )
    ).toEqual([])
  })
})
