/**
 * The MCP Inspector's CLI against this server, with the partner token taken from API_TOKEN:
 *
 *   API_TOKEN=hsb_… npm run mcp:inspect -- --method tools/list
 *   npm run mcp:inspect -- https://api.example.se/mcp --method tools/call --tool-name get_capabilities
 *
 * npm prints a script's whole command line before it runs it, so a token passed as an argument
 * would be echoed to the terminal (and kept in the shell's history): here it never is one. The
 * Inspector is started from its own build folder, where it finds its package.json.
 */
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const tokenHeaders = /^\s*(authorization|x-service-requests-token)\s*:/i

/** What a line may show of a token: the public prefix of an issued one, else its first four characters. */
const tokenHint = (token: string): string => {
  const issued = /^(hs[bp]_[A-Za-z0-9_-]{12})_/.exec(token)
  return issued ? `${issued[1]}_…` : `${token.slice(0, 4)}…`
}

const args = process.argv.slice(2)
const headerIndex = args.findIndex((arg, index) => args[index - 1] === "--header" && tokenHeaders.test(arg))
if (headerIndex >= 0) {
  console.error(
    "mcp:inspect: pass the token in API_TOKEN, not as a --header argument: npm has just printed the command line with it, so treat that token as seen and revoke it if the terminal is shared."
  )
  process.exit(2)
}

const url = args[0]?.startsWith("http") ? args.shift()! : "http://127.0.0.1:8080/mcp"
const token = process.env.API_TOKEN?.trim() || undefined
console.error(
  token === undefined
    ? `mcp:inspect: ${url} without a token (set API_TOKEN to call as a partner)`
    : `mcp:inspect: ${url} with the token ${tokenHint(token)} from API_TOKEN`
)

const build = join(
  dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json")),
  "build"
)
const inspector = spawn(
  process.execPath,
  [
    join(build, "cli.js"),
    "--cli",
    url,
    "--transport",
    "http",
    ...(token === undefined ? [] : ["--header", `Authorization: Bearer ${token}`]),
    ...args
  ],
  { cwd: build, stdio: "inherit" }
)
inspector.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
