/**
 * A server started as `npm start` starts it (src/main.ts under tsx, development, a fresh embedded
 * cluster in a temporary folder, any free port), for the scripts that drive one over HTTP only.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = join(import.meta.dirname, "..")

export const withDevServer = async <A>(env: Record<string, string>, use: (base: string) => Promise<A>): Promise<A> => {
  const dataDir = mkdtempSync(join(tmpdir(), "dev-server-"))
  const { DATABASE_URL: _, ...inherited } = process.env
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", join(root, "src", "main.ts")], {
    cwd: root,
    env: { ...inherited, APP_ENV: "development", PORT: "0", DATA_DIR: dataDir, LOG_FORMAT: "json", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()))
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const started = Date.now()
      const poll = setInterval(() => {
        const match = /serving http:\/\/127\.0\.0\.1:(\d+)/.exec(output)
        if (match) {
          clearInterval(poll)
          resolve(Number(match[1]))
        } else if (child.exitCode !== null || Date.now() - started > 120_000) {
          clearInterval(poll)
          reject(new Error(`the server did not start:\n${output}`))
        }
      }, 50)
    })
    return await use(`http://127.0.0.1:${port}`)
  } finally {
    child.kill("SIGTERM")
    await exited
    rmSync(dataDir, { recursive: true, force: true })
  }
}
