import { readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"

/**
 * The specifiers a module's source imports: static and dynamic imports and re-exports, and with
 * `types` its type-only ones too (they vanish on emit, but still tie the module to another).
 */
export const importSpecifiers = (source: string, options: { readonly types?: boolean } = {}) => {
  const pattern = options.types
    ? /(?:^|\n)\s*(?:import|export)\s+(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g
    : /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g
  return [...source.matchAll(pattern)].map((match) => (match[1] ?? match[2])!)
}

/** Static and dynamic imports and re-exports of a module, type-only ones excluded (they vanish on emit). */
const importsOf = (file: string) => importSpecifiers(readFileSync(file, "utf8"))

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
