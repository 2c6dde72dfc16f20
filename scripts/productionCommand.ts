import { readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * The Node flags production runs the server with, read off package.json's `start:prod`
 * (`exec node <flags> dist/src/main.js`), so the benchmarks and the smoke test start the server
 * exactly as production does, from one place.
 */
export const productionNodeFlags = (root: string): ReadonlyArray<string> => {
  const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts as Record<string, string>
  const command = scripts["start:prod"] ?? ""
  const words = command.split(/\s+/).filter((word) => word !== "")
  const node = words.indexOf("node")
  const entry = words.indexOf("dist/src/main.js")
  if (node === -1 || entry === -1 || entry < node)
    throw new Error(`start:prod is not "node <flags> dist/src/main.js": ${command}`)
  return words.slice(node + 1, entry)
}
