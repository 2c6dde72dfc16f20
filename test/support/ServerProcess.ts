import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { expect, inject, vi } from "vitest"
import { copyCluster } from "./ClusterTemplate.js"

export const root = join(import.meta.dirname, "..", "..")

/**
 * How npm runs an entry point of src (`npm start`, `npm run migrate`, ...), without npm in between:
 * node on this test run's bundle of that same source (test/support/ServerBundle.ts), which starts
 * in a fraction of the CPU that `node --import tsx` spends compiling and loading the modules. A
 * process test is about the process, and the bundle is the same code in one process;
 * test/Main/Stop.test.ts runs the real `npm start` (tsx) too.
 */
export const tsCommand = (...path: [string, ...Array<string>]): ReadonlyArray<string> => {
  const [top, ...rest] = path
  if (top !== "src" || rest.length === 0 || !rest.at(-1)!.endsWith(".ts")) {
    throw new Error(`not an entry point of src: ${path.join("/")}`)
  }
  const bundled = join(inject("serverBundle"), ...rest).replace(/\.ts$/, ".js")
  if (!existsSync(bundled))
    throw new Error(`${path.join("/")} is not in the test bundle (test/support/ServerBundle.ts)`)
  return [process.execPath, bundled]
}

/** What `npm start` runs, from the test bundle. */
export const serverCommand = tsCommand("src", "main.ts")

/** Every line of `text` is one flat JSON object with time, level and msg. */
export const expectJsonLines = (text: string) => {
  const lines = text.split("\n").filter((line) => line.length > 0)
  expect(lines.length).toBeGreaterThan(0)
  for (const line of lines) {
    const entry = JSON.parse(line) as Record<string, unknown>
    expect(entry).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) })
    for (const value of Object.values(entry)) expect(typeof value).not.toBe("object")
  }
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

export interface ServerProcess {
  readonly child: ChildProcess
  readonly output: () => string
  readonly stdout: () => string
  readonly stderr: () => string
  /** The exit code, or the signal that ended the process. */
  readonly exited: Promise<number | NodeJS.Signals | null>
}

/**
 * A real server process, for the tests about processes only (start and stop, signals, the
 * embedded database, several instances, the CLIs); every other test builds its server in process
 * with `TestServer` (test/support/TestServer.ts). The test's own DATABASE_URL and APP_ENV are not
 * inherited: each test says which database and mode it means.
 */
export const spawnServer = (env: Record<string, string>, command: ReadonlyArray<string> = serverCommand) => {
  const { DATABASE_URL: _, APP_ENV: __, ...inherited } = process.env
  const [file, ...args] = command
  const child = spawn(file!, args, { cwd: root, env: { ...inherited, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk) => {
    output += chunk
    stdout += chunk
  })
  child.stderr?.on("data", (chunk) => {
    output += chunk
    stderr += chunk
  })
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal))
  )
  return { child, output: () => output, stdout: () => stdout, stderr: () => stderr, exited } satisfies ServerProcess
}

/** The port from the start log (`serving http://127.0.0.1:PORT`), once the app answers. */
export const servingPort = async (server: ServerProcess) => {
  let exit: unknown = "running"
  server.exited.then((code) => (exit = code))
  const port = await vi.waitFor(
    () => {
      const match = /serving http:\/\/127\.0\.0\.1:(\d+)/.exec(server.output())
      if (match) return Number(match[1])
      if (exit !== "running") throw new Error(`the server exited (${exit}) before serving:\n${server.output()}`)
      throw new Error(`not serving yet:\n${server.output()}`)
    },
    { timeout: 60_000, interval: 50 }
  )
  return port
}

export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Direct children of a process (Linux). */
export const childrenOf = (pid: number): Array<number> => {
  const file = `/proc/${pid}/task/${pid}/children`
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split(" ")
        .filter((s) => s.trim().length > 0)
        .map(Number)
    : []
}

/** The embedded cluster's postmaster and every process it started. */
export const postgresProcesses = (dataDir: string): Array<number> => {
  const pidFile = join(dataDir, "postgres", "postmaster.pid")
  if (!existsSync(pidFile)) return []
  const postmaster = Number(readFileSync(pidFile, "utf8").split("\n")[0])
  return isAlive(postmaster) ? [postmaster, ...childrenOf(postmaster)] : []
}

export const expectGone = async (pids: ReadonlyArray<number>) =>
  vi.waitFor(() => expect(pids.filter(isAlive)).toEqual([]), { timeout: 10_000, interval: 50 })

/** An empty data directory for one test, removed afterwards: the server initialises a cluster there. */
export const withDataDir = async (test: (dir: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), "booking-main-"))
  try {
    await test(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A data directory for one test holding a copy of the run's initialised cluster (as a server's
 * first start leaves it, test/support/ClusterTemplate.ts): the start skips initdb's seconds.
 */
export const withInitialisedDataDir = (test: (dir: string) => Promise<void>) =>
  withDataDir(async (dir) => {
    copyCluster(inject("clusterTemplate"), dir)
    await test(dir)
  })

/** A real server process on port 0, its port read back from its start log, stopped with the scope. */
export const serverInstance = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const server = spawnServer({ ...env, PORT: "0" })
      return { base: `http://127.0.0.1:${await servingPort(server)}`, server }
    }),
    ({ server }) =>
      Effect.promise(async () => {
        server.child.kill("SIGTERM")
        await server.exited
      })
  )
