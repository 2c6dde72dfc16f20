import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import { createHttpServer } from "../../src/Http/Listener.js"
import { serveApi } from "../../src/Http.js"
import { loopsLive } from "../../src/Main/BackgroundLoops.js"
import { serveProbe } from "./ProbeApi.js"
import { TestDatabaseLive, testDatabaseAt } from "./TestDatabase.js"

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
  /** Serve the Api with the probe endpoints of test/support/ProbeApi.ts, which reach every error path. */
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
 * HttpClient that already prefixes its address (for `apiClient()` and the raw calls below).
 * A suite shares one with `it.layer(TestServer(options))`; a test of its own configuration runs
 * `effect.pipe(Effect.provide(TestServer(options)))`, torn down when the effect ends.
 * test/support/ServerProcess.ts starts a real process instead, only for tests about processes.
 */
export const TestServer = <D = SqlClient.SqlClient>(options: TestServerOptions<D> = {}) =>
  (options.probe ? probeOnTestServer : appOnTestServer[options.loops ?? "all but the outbox dispatcher"]).pipe(
    Layer.provideMerge(databaseOf(options.database)),
    Layer.provideMerge(appConfigFrom({ ...testEnv, ...options.env })),
    Layer.provide(options.now === false ? Layer.empty : Layer.effectDiscard(setTestClock(options.now ?? testNow)))
  )

export interface JsonResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
}

const toJson = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(
    response.text,
    (text): JsonResponse => ({
      status: response.status,
      headers: response.headers,
      body: text.length > 0 ? JSON.parse(text) : undefined
    })
  )

/** A raw call: status, headers and the parsed body exactly as a partner sees them. */
export const call = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.execute(request)).pipe(
    Effect.flatMap(toJson),
    Effect.scoped,
    Effect.orDie
  )

export const get = (path: string, headers: Record<string, string> = {}) =>
  call(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

export const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(HttpClientRequest.post(path).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyJsonUnsafe(body)))

export const postRaw = (path: string, body: string, contentType: string, headers: Record<string, string> = {}) =>
  call(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyText(body, contentType)
    )
  )

export const getText = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.get(path, { headers })).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
    ),
    Effect.scoped,
    Effect.orDie
  )
