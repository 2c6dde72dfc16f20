/**
 * Builds the typed client partners install, as a package of its own with two entries:
 * - ".": src/Client.ts and the modules it imports (the Api, its groups and the Domain schemas;
 *   test/ClientImports.test.ts holds that they are no server code), compiled to JavaScript with
 *   declarations, running on the partner's own `effect` (an optional peer: a project on Effect
 *   has it, and npm installs nothing for a project that is not);
 * - "./promise": src/ClientPromise.ts bundled with the Effect code it uses, for a project without
 *   Effect (scripts/clientPromiseEntry.ts).
 * Nothing of the server's dependencies comes with it.
 *
 *   npm run client:pack     writes dist/client/home-service-booking-client-<version>.tgz
 *
 * The compiler sees only what Client.ts reaches (with Node's types: two Domain checks measure
 * strings with Node's global Buffer, so the package runs on Node, where the CI smoke test calls a
 * server through it).
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { buildPromiseEntry, promiseEntry } from "./clientPromiseEntry.js"

const root = join(import.meta.dirname, "..")
const out = join(root, "dist", "client")
const staging = join(out, "package")
const server = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  readonly version: string
  readonly dependencies: Record<string, string>
}

export const clientPackageName = "home-service-booking-client"

rmSync(out, { recursive: true, force: true })
mkdirSync(staging, { recursive: true })

const tsconfig = join(out, "tsconfig.json")
writeFileSync(
  tsconfig,
  JSON.stringify({
    extends: relative(out, join(root, "tsconfig.json")),
    compilerOptions: {
      noEmit: false,
      declaration: true,
      rootDir: relative(out, join(root, "src")),
      outDir: relative(out, join(staging, "dist"))
    },
    include: [],
    files: [relative(out, join(root, "src", "Client.ts"))]
  })
)
execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig], {
  stdio: "inherit"
})
await buildPromiseEntry(join(staging, "dist"))

writeFileSync(
  join(staging, "package.json"),
  `${JSON.stringify(
    {
      name: clientPackageName,
      version: server.version,
      description:
        "Typed client of the home-service booking API, built from the server's own Api: Effect-native, or Promises with nothing else to install",
      type: "module",
      sideEffects: false,
      exports: {
        ".": { types: "./dist/Client.d.ts", default: "./dist/Client.js" },
        "./promise": { types: `./dist/${promiseEntry.types}`, default: `./dist/${promiseEntry.js}` },
        "./package.json": "./package.json"
      },
      files: ["dist", "README.md"],
      engines: { node: ">=22" },
      peerDependencies: { effect: server.dependencies.effect },
      peerDependenciesMeta: { effect: { optional: true } }
    },
    null,
    2
  )}\n`
)
writeFileSync(join(staging, "README.md"), readFileSync(join(root, "docs", "client.md"), "utf8"))

const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: staging, encoding: "utf8" })
  .trim()
  .split("\n")
  .at(-1)
console.log(join(out, packed ?? ""))
