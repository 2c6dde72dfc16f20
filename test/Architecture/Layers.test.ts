import { readdirSync, readFileSync } from "node:fs"
import { posix } from "node:path"
import { describe, expect, it } from "vitest"
import { importSpecifiers } from "../support/ImportGraph.js"

interface Layer {
  readonly name: string
  /** Folders (`Domain/`) and files (`Api.ts`) of src/. */
  readonly paths: ReadonlyArray<string>
}

/** The layer table of docs/architecture.md, lowest first: the order is written once, there. */
const documentedLayers = (): ReadonlyArray<Layer> => {
  const text = readFileSync("docs/architecture.md", "utf8")
  const section = text.slice(text.indexOf("## One way down the layers"))
  return [...section.matchAll(/^\| \d+ \| ([^|]+) \| ([^|]+) \|/gm)].map((row) => ({
    name: row[1]!.trim(),
    paths: [...row[2]!.matchAll(/`([^`]+)`/g)].map((path) => path[1]!)
  }))
}

/** The positions of the layers that name `file`: one, for a module placed as it must be. */
const layersOf = (layers: ReadonlyArray<Layer>, file: string) =>
  layers.flatMap((layer, index) =>
    layer.paths.some((path) => (path.endsWith("/") ? file.startsWith(path) : file === path)) ? [index] : []
  )

const layerOf = (layers: ReadonlyArray<Layer>, file: string) => layersOf(layers, file)[0] ?? -1

/** Every module under src/, by its path there (`Domain/Webhook.ts`), with its source. */
const sourcesOf = (root: string): ReadonlyMap<string, string> =>
  new Map(
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .map((file) => [file.split("\\").join("/"), readFileSync(posix.join(root, file), "utf8")])
  )

/** The modules of `sources` a module imports, type-only imports included: they bind it all the same. */
const importsOf = (sources: ReadonlyMap<string, string>) => (file: string) =>
  importSpecifiers(sources.get(file)!, { types: true })
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => ({
      specifier,
      target: posix.join(posix.dirname(file), specifier).replace(/\.js$/, ".ts")
    }))
    .filter(({ target }) => sources.has(target))

/** Each import that runs back up the layers, as "file imports specifier (its layer below the target's)". */
const upwardImports = (layers: ReadonlyArray<Layer>, sources: ReadonlyMap<string, string>) => {
  const imports = importsOf(sources)
  return [...sources.keys()].flatMap((file) =>
    imports(file)
      .filter(({ target }) => layerOf(layers, target) > layerOf(layers, file))
      .map(
        ({ specifier, target }) =>
          `${file} imports ${specifier} (${layers[layerOf(layers, file)]?.name} below ${layers[layerOf(layers, target)]?.name})`
      )
  )
}

/** One import cycle per module that starts one, as "a -> b -> a"; none keeps the order inside a layer. */
const importCycles = (sources: ReadonlyMap<string, string>) => {
  const imports = importsOf(sources)
  const state = new Map<string, "open" | "done">()
  const path: Array<string> = []
  const cycles: Array<string> = []
  const visit = (file: string) => {
    state.set(file, "open")
    path.push(file)
    for (const { target } of imports(file)) {
      if (state.get(target) === "open") cycles.push([...path.slice(path.indexOf(target)), target].join(" -> "))
      else if (!state.has(target)) visit(target)
    }
    path.pop()
    state.set(file, "done")
  }
  for (const file of sources.keys()) if (!state.has(file)) visit(file)
  return cycles
}

const layers = documentedLayers()
const sources = sourcesOf("src")

describe("the layers of docs/architecture.md", () => {
  it("are read from the document, lowest first", () => {
    expect(layers.map((layer) => layer.name)).toEqual([
      "Domain",
      "Configuration and tracing",
      "Database",
      "Shared services",
      "HTTP machinery",
      "Delivery",
      "Features",
      "Composition"
    ])
  })

  it("hold every module of src/, each in exactly one", () => {
    expect(sources.size).toBeGreaterThan(150)
    expect([...sources.keys()].filter((file) => layersOf(layers, file).length !== 1)).toEqual([])
  })

  it("are kept: no module imports a layer above its own", () => {
    expect(upwardImports(layers, sources)).toEqual([])
  })

  it("are kept inside a layer too: no import cycle", () => {
    expect(importCycles(sources)).toEqual([])
  })
})

describe("the layer check itself", () => {
  /** The real tree with `added` written into one more module or over one. */
  const withModule = (file: string, added: string) => new Map([...sources, [file, added]])
  const before = new Set(upwardImports(layers, sources))
  /** What the check finds in `tree` that it does not find in the real tree. */
  const caughtIn = (tree: ReadonlyMap<string, string>) =>
    upwardImports(layers, tree).filter((finding) => !before.has(finding))

  it("fails on an upward import added to the tree, naming the file and the import", () => {
    const tree = withModule(
      "Domain/Webhook.ts",
      `${sources.get("Domain/Webhook.ts")}\nimport { Bookings } from "../Bookings/Bookings.js"\n`
    )
    expect(caughtIn(tree)).toEqual(["Domain/Webhook.ts imports ../Bookings/Bookings.js (Domain below Features)"])
  })

  it("sees every kind of import: type-only, multi-line, re-export, dynamic", () => {
    const tree = withModule(
      "Http/Upward.ts",
      [
        `import type { Api } from "../Api.js"`,
        `import {\n  Bookings,\n  type BookingsRepo\n} from "../Bookings/Bookings.js"`,
        `export * from "../Mcp/Tools.js"`,
        `export { Requests } from "../Requests/Requests.js"`,
        `const later = () => import("../Main/Launch.js")`,
        `import { logFailure } from "../Shared/FailureSummary.js"`
      ].join("\n")
    )
    expect(caughtIn(tree)).toEqual([
      "Http/Upward.ts imports ../Api.js (HTTP machinery below Features)",
      "Http/Upward.ts imports ../Bookings/Bookings.js (HTTP machinery below Features)",
      "Http/Upward.ts imports ../Mcp/Tools.js (HTTP machinery below Features)",
      "Http/Upward.ts imports ../Requests/Requests.js (HTTP machinery below Features)",
      "Http/Upward.ts imports ../Main/Launch.js (HTTP machinery below Composition)"
    ])
  })

  it("fails on a cycle inside a layer", () => {
    const tree = withModule("Bookings/Api.ts", `${sources.get("Bookings/Api.ts")}\nimport { Api } from "../Api.js"\n`)
    expect(importCycles(tree)).toEqual([
      expect.stringMatching(
        /^(Api\.ts -> Bookings\/Api\.ts -> Api\.ts|Bookings\/Api\.ts -> Api\.ts -> Bookings\/Api\.ts)$/
      )
    ])
  })
})
