import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse, HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import { createHttpServer } from "../../src/Http/Listener.js"
import { serveApi } from "../../src/Http.js"
import { loopsLive } from "../../src/Main/BackgroundLoops.js"
import { TestDatabaseLive } from "./TestDatabase.js"

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
export const NodeServerTest = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerNodeHttpOptions({ keepAlive: false })),
  Layer.provideMerge(NodeHttpServer.layer(createHttpServer, { port: 0 }))
)

/**
 * The loops a test server runs: all but the outbox dispatcher, so a test sees the delivery that
 * deliverNow made and no later pass (test/Notifications composes the dispatcher to test it).
 */
export const testServerLoops = loopsLive([
  "capabilitiesRefresh",
  "webhookDispatcher",
  "partnerTokenRefresh",
  "providerTokenRefresh",
  "idempotencyCleanup",
  "calendarImport"
])

/**
 * One layer value for every test server of a kind: two `it.layer` blocks of one file, each with
 * a fresh copy from serveApi, registered a route twice on the second block's router.
 */
const appOnTestServer = {
  "all but the outbox dispatcher": serveApi(NodeServerTest, testServerLoops),
  all: serveApi(NodeServerTest)
} as const

export type TestServerLoops = keyof typeof appOnTestServer

/** The whole app on an ephemeral port, with the given database, environment and loops. */
export const TestServerWith = <A, E>(
  database: Layer.Layer<A, E>,
  env: Record<string, string> = {},
  loops: TestServerLoops = "all but the outbox dispatcher"
) =>
  appOnTestServer[loops].pipe(
    Layer.provideMerge(database),
    Layer.provideMerge(appConfigFrom({ ...testEnv, ...env })),
    Layer.provide(Layer.effectDiscard(TestClock.setTime(testNow)))
  )

/** The whole app on an ephemeral port, with its own database, the given environment and loops. */
export const TestServerLive = (env: Record<string, string> = {}, loops?: TestServerLoops) =>
  TestServerWith(TestDatabaseLive, env, loops)

/**
 * Runs `effect` against the whole app built for `env` (and `logger`, when given) and torn
 * down afterwards: for tests that each need their own configuration.
 */
export const withTestServer =
  (env: Record<string, string>, logger: Layer.Layer<never> = Layer.empty) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.scoped(
      Effect.flatMap(Layer.build(TestServerLive(env).pipe(Layer.provide(logger))), (context) =>
        Effect.provide(effect, context)
      )
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
