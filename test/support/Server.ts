import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Effect, Exit, Layer, Schema } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { expect, inject, vi } from "vitest"
import { Api } from "../../src/Api.js"
import { type AppConfig, appConfigFrom } from "../../src/AppConfig.js"
import * as Errors from "../../src/Domain/Errors.js"
import { strictInput } from "../../src/Domain/Input.js"
import { Partner } from "../../src/Domain/Partner.js"
import { Postcode } from "../../src/Domain/Supply.js"
import { ContractErrors } from "../../src/Http/ContractErrors.js"
import { ContractErrorsLive } from "../../src/Http/ErrorContract.js"
import { createHttpServer } from "../../src/Http/Listener.js"
import { contractLiveFor, GroupsLive, observed, serveApi } from "../../src/Http.js"
import { loopsLive } from "../../src/Main/BackgroundLoops.js"
import { Authentication, AuthenticationLive } from "../../src/Partners/Authentication.js"
import { TestDatabaseLive, testDatabaseAt } from "./Database.js"
import { copyCluster } from "./globalSetup.js"

/** Every domain error class, by the code a probe endpoint fails with. */
export const errorClasses = {
  invalid_request: Errors.InvalidRequest,
  malformed_json: Errors.MalformedJson,
  unauthorized: Errors.Unauthorized,
  not_found: Errors.NotFound,
  method_not_allowed: Errors.MethodNotAllowed,
  idempotency_key_reused: Errors.IdempotencyKeyReused,
  payload_too_large: Errors.PayloadTooLarge,
  unsupported_media_type: Errors.UnsupportedMediaType,
  unsupported_vertical: Errors.UnsupportedVertical,
  unsupported_job_type: Errors.UnsupportedJobType,
  rate_limited: Errors.RateLimited,
  internal_error: Errors.InternalError,
  database_unavailable: Errors.DatabaseUnavailable,
  auth_not_configured: Errors.AuthNotConfigured
} as const

type Code = keyof typeof errorClasses

const EchoPayload = strictInput(
  Schema.Struct({
    name: Schema.String.check(Schema.isMinLength(2)),
    location: Schema.Struct({ postcode: Postcode, city: Schema.optional(Schema.String) })
  })
)

class ProbeGroup extends HttpApiGroup.make("probe")
  .add(HttpApiEndpoint.post("echo", "/probe/echo", { payload: EchoPayload, success: EchoPayload }))
  .add(HttpApiEndpoint.get("defect", "/probe/defect", { success: Schema.Struct({ ok: Schema.Boolean }) }))
  .add(
    HttpApiEndpoint.get("fail", "/probe/fail/:code", {
      params: Schema.Struct({ code: Schema.Literals(Object.keys(errorClasses) as Array<Code>) }),
      success: Schema.Struct({ ok: Schema.Boolean }),
      error: Object.values(errorClasses).map((cls) => Errors.errorBody(cls))
    })
  )
  .add(
    HttpApiEndpoint.get("whoami", "/probe/whoami", {
      success: Schema.Struct({ partner_id: Schema.String, sandbox: Schema.Boolean })
    }).middleware(Authentication)
  ) {}

/** The real Api plus probe endpoints that reach every error path through the real middleware. */
export const ProbeApi = Api.add(ProbeGroup).middleware(ContractErrors)

const ProbeLive = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("echo", ({ payload }) => Effect.succeed(payload))
    .handle("defect", () => Effect.die(new Error("secret internal detail: stack and all")))
    .handle("fail", ({ params }) =>
      Effect.fail(new errorClasses[params.code as Code]({ safe_next_step: "probe" }) as never)
    )
    .handle("whoami", () => Effect.map(Partner, (partner) => ({ partner_id: partner.id, sandbox: partner.sandbox })))
)

/** The real Api plus the probe group, served on `server`: `TestServer({ probe: true })` builds it. */
export const serveProbe = <ROut, E, RIn>(
  server: Layer.Layer<ROut, E, RIn>,
  loops: Layer.Layer<never, unknown, AppConfig | SqlClient.SqlClient>
): Layer.Layer<ROut, unknown, RIn | AppConfig | SqlClient.SqlClient> =>
  // HttpRouter.serve's inference leaves its requirements `any`; everything it needs is provided by TestServer.
  HttpRouter.serve(
    Layer.mergeAll(
      HttpApiBuilder.layer(ProbeApi).pipe(
        Layer.provide([GroupsLive, ProbeLive]),
        Layer.provide(AuthenticationLive),
        Layer.provide(ContractErrorsLive)
      ),
      contractLiveFor(ProbeApi as unknown as typeof Api),
      // A route beside the Api reads its body with the platform's own reader, whatever its type.
      HttpRouter.add("POST", "/probe/raw-text", (request) =>
        Effect.map(Effect.orDie(request.text), (text) => HttpServerResponse.jsonUnsafe({ text }))
      ),
      loops
    ),
    { disableLogger: true, disableListenLog: true, middleware: observed }
  ).pipe(Layer.provideMerge(server)) as never

/** Signing key of the test runs, so no test writes a development key under ./.data. */
export const testEnv: Readonly<Record<string, string>> = {
  BOOKING_OPTION_SIGNING_KEYS: "test-1:test-secret-0123456789abcdef0123456789abcdef",
  RATE_LIMIT_SEARCH_PER_MINUTE: "100000",
  RATE_LIMIT_CONFIRM_PER_MINUTE: "100000",
  RATE_LIMIT_REQUESTS_PER_MINUTE: "100000"
}

/**
 * The test clock starts here, Monday 23 November 2026 09:00 in Stockholm, before the app is
 * built: background schedules then start from this time, and no test's clock change has to
 * replay 56 years of polling.
 */
export const testNow = Date.parse("2026-11-23T09:00:00+01:00")

/** `NodeHttpServer.layerTest`, on the server the app really runs on (its clientError answers). */
const NodeServerTest = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerNodeHttpOptions({ keepAlive: false })),
  Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0 }))
)

/**
 * The loops a test server runs by default: all but the outbox dispatcher (test/Notifications
 * composes the dispatcher to test it).
 */
export const testServerLoops = loopsLive([
  "capabilitiesRefresh",
  "webhookDispatcher",
  "partnerTokenRefresh",
  "providerTokenRefresh",
  "idempotencyCleanup",
  "bookingOptionSweep",
  "calendarImport",
  "personalDataRetention"
])

/**
 * One layer value per Api for every test server: two `it.layer` blocks of one file, each with a
 * fresh copy from serveApi, registered a route twice on the second block's router.
 */
const appOnTestServer = {
  "all but the outbox dispatcher": serveApi(NodeServerTest, testServerLoops),
  all: serveApi(NodeServerTest),
  "all but the webhook dispatcher": serveApi(
    NodeServerTest,
    loopsLive([
      "capabilitiesRefresh",
      "notificationDispatcher",
      "partnerTokenRefresh",
      "providerTokenRefresh",
      "idempotencyCleanup",
      "bookingOptionSweep",
      "calendarImport",
      "personalDataRetention"
    ])
  ),
  /** Only the personal data retention pass: a suite that moves the clock months ahead to test it. */
  "personal data retention": serveApi(NodeServerTest, loopsLive(["personalDataRetention"])),
  none: serveApi(NodeServerTest, loopsLive([]))
} as const
const probeOnTestServer = serveProbe(NodeServerTest, testServerLoops)

/** Which background loops a test server runs (src/Main/BackgroundLoops.ts). */
export type TestServerLoops = keyof typeof appOnTestServer

export interface TestServerOptions<D> {
  /** Environment on top of `testEnv`, as the app reads it at start. */
  readonly env?: Record<string, string>
  /**
   * The database: a fresh clone of the migrated template (the default), an existing one by URL,
   * or a layer of the test's own (a breakable proxy, a database shared by two servers).
   */
  readonly database?: string | Layer.Layer<D, unknown>
  /**
   * Where the TestClock stands when the app is built (default `testNow`); `false` leaves it alone.
   * Under `it.live` there is no TestClock and the app runs on the real clock.
   */
  readonly now?: number | false
  /** Serve the Api with the probe endpoints (`ProbeApi` below), which reach every error path. */
  readonly probe?: boolean
  /**
   * The loops it runs: by default all but the outbox dispatcher, so a test sees the delivery that
   * deliverNow made and no later pass; `"all"` for tests of what the loops do together; `"none"`
   * for a suite that moves the TestClock days ahead and needs no loop: every loop's passes on the
   * way (a token refresh every 2 s, a webhook poll every second) run at once, each a database
   * round trip, which made one such move take 10 s; `"all but the webhook dispatcher"` for a test
   * that runs the webhook passes itself and moves the clock past a delivery's lease while a send is
   * still in flight on the real clock (the server's own pass, woken mid-move, would send it again).
   */
  readonly loops?: TestServerLoops
}

const databaseOf = <D>(database: TestServerOptions<D>["database"]) =>
  (database === undefined
    ? TestDatabaseLive
    : typeof database === "string"
      ? testDatabaseAt(database)
      : database) as Layer.Layer<D | SqlClient.SqlClient, unknown>

const setTestClock = (now: number) =>
  Effect.clockWith((clock) => ("setTime" in clock ? TestClock.setTime(now) : Effect.void))

/**
 * The one way a test builds a server: the whole app, in process, on an ephemeral port, with an
 * HttpClient that already prefixes its address (for `apiClient()` and the raw calls of test/support/Http.ts).
 * A suite shares one with `it.layer(TestServer(options))`; a test of its own configuration runs
 * `effect.pipe(Effect.provide(TestServer(options)))`, torn down when the effect ends.
 * `spawnServer` below starts a real process instead, only for tests about processes.
 */
export const TestServer = <D = SqlClient.SqlClient>(options: TestServerOptions<D> = {}) =>
  (options.probe ? probeOnTestServer : appOnTestServer[options.loops ?? "all but the outbox dispatcher"]).pipe(
    Layer.provideMerge(databaseOf(options.database)),
    Layer.provideMerge(appConfigFrom({ ...testEnv, ...options.env })),
    Layer.provide(options.now === false ? Layer.empty : Layer.effectDiscard(setTestClock(options.now ?? testNow)))
  )

export const root = join(import.meta.dirname, "..", "..")

/**
 * How npm runs an entry point of src (`npm start`, `npm run migrate`, ...), without npm in between:
 * node on this test run's bundle of that same source (`buildServerBundle`, test/support/globalSetup.ts), which starts
 * in a fraction of the CPU that `node --import tsx` spends compiling and loading the modules. A
 * process test is about the process, and the bundle is the same code in one process;
 * test/e2e/Stop.test.ts runs the real `npm start` (tsx) too.
 */
export const tsCommand = (...path: [string, ...Array<string>]): ReadonlyArray<string> => {
  const [top, ...rest] = path
  if (top !== "src" || rest.length === 0 || !rest.at(-1)!.endsWith(".ts")) {
    throw new Error(`not an entry point of src: ${path.join("/")}`)
  }
  const bundled = join(inject("serverBundle"), ...rest).replace(/\.ts$/, ".js")
  if (!existsSync(bundled)) throw new Error(`${path.join("/")} is not in the test bundle (test/support/globalSetup.ts)`)
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
 * with `TestServer` (test/support/Server.ts). The test's own DATABASE_URL and APP_ENV are not
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
 * first start leaves it, `makeClusterTemplate` in test/support/globalSetup.ts): the start skips initdb's seconds.
 */
export const withInitialisedDataDir = (test: (dir: string) => Promise<void>) =>
  withDataDir(async (dir) => {
    copyCluster(inject("clusterTemplate"), dir)
    await test(dir)
  })

/**
 * A real server process on port 0, its port read back from its start log, stopped with the scope.
 * When the test fails, the process's log is printed with the failure: what a server answered
 * under load (a 503 and why) is otherwise lost with the process.
 */
export const serverInstance = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const server = spawnServer({ ...env, PORT: "0" })
      return { base: `http://127.0.0.1:${await servingPort(server)}`, server }
    }),
    ({ base, server }, exit) =>
      Effect.promise(async () => {
        server.child.kill("SIGTERM")
        await server.exited
        if (Exit.isFailure(exit)) console.log(`the server at ${base} logged:\n${server.output()}`)
      })
  )
