import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * The Node production runs (`.nvmrc`), for the benchmarks' servers: this one when it is that
 * major, else the npm registry's `node` package of that major, installed once under .data/ (about
 * a tenth less CPU per request than Node 20 here, and more memory).
 */
export const productionNode = (root: string): string => {
  const major = readFileSync(join(root, ".nvmrc"), "utf8").trim()
  if (process.versions.node.split(".")[0] === major) return process.execPath
  const prefix = join(root, ".data", `node-${major}`)
  const binary = join(prefix, "node_modules", "node", "bin", "node")
  if (!existsSync(binary)) {
    console.log(`installing Node ${major} (production's) under ${prefix} for the servers`)
    try {
      execFileSync("npm", ["install", "--prefix", prefix, "--no-save", "--no-package-lock", `node@${major}`], {
        stdio: "ignore"
      })
    } catch {
      console.log(`  could not install it: the servers run on this Node ${process.version}`)
      return process.execPath
    }
  }
  return binary
}

const scriptWords = (root: string, script: string): ReadonlyArray<string> => {
  const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>
  return (scripts[script] ?? "").split(/\s+/).filter((word) => word !== "")
}

/**
 * The environment a start script sets before `exec node` (`MALLOC_ARENA_MAX=2 exec node ...`):
 * what the C library reads before Node runs, so it cannot be a Node flag.
 */
const scriptEnvironment = (words: ReadonlyArray<string>): Record<string, string> =>
  Object.fromEntries(
    words.slice(0, Math.max(0, words.indexOf("exec"))).flatMap((word) => {
      const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word)
      return match ? [[match[1], match[2]]] : []
    })
  )

/** The environment `start:prod` gives the server (see scriptEnvironment). */
export const productionNodeEnv = (root: string): Record<string, string> =>
  scriptEnvironment(scriptWords(root, "start:prod"))

/** The environment `start` (`npm start`) gives the development server. */
export const developmentNodeEnv = (root: string): Record<string, string> =>
  scriptEnvironment(scriptWords(root, "start"))

/**
 * The Node flags production runs the server with, read off package.json's `start:prod`
 * (`exec node <flags> dist/src/main.js`), so the benchmarks and the smoke test start the server
 * exactly as production does, from one place.
 */
export const productionNodeFlags = (root: string): ReadonlyArray<string> => {
  const words = scriptWords(root, "start:prod")
  const command = words.join(" ")
  const node = words.indexOf("node")
  const entry = words.indexOf("dist/src/main.js")
  if (node === -1 || entry === -1 || entry < node)
    throw new Error(`start:prod is not "node <flags> dist/src/main.js": ${command}`)
  return words.slice(node + 1, entry)
}

/**
 * The development server's node arguments, read off package.json's `start` (`exec node <flags>
 * --import tsx src/main.ts`): what `npm start` runs, for the soak to measure that too.
 */
export const developmentNodeArgs = (root: string): ReadonlyArray<string> => {
  const words = scriptWords(root, "start")
  const command = words.join(" ")
  const node = words.indexOf("node")
  if (node === -1 || words[words.length - 1] !== "src/main.ts")
    throw new Error(`start is not "node <flags> src/main.ts": ${command}`)
  return words.slice(node + 1)
}
