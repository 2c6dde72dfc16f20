import { readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"

/** Static and dynamic imports and re-exports of a module, type-only ones excluded (they vanish on emit). */
const importsOf = (file: string) => {
  const source = readFileSync(file, "utf8")
  const specifiers: Array<string> = []
  const pattern =
    /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g
  for (const match of source.matchAll(pattern)) specifiers.push((match[1] ?? match[2])!)
  return specifiers
}

/** Every module of the project reachable from `entry`, and every package or builtin they import. */
export const graphOf = (entry: string) => {
  const files = new Set<string>()
  const external = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const specifier of importsOf(file)) {
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier).replace(/\.js$/, ".ts"))
      else external.add(specifier)
    }
  }
  visit(resolve(entry))
  return { files: [...files].map((file) => relative(process.cwd(), file)), external: [...external] }
}
