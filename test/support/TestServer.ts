import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { appConfigFrom } from "../../src/AppConfig.js"
import { HttpAppLive } from "../../src/Http.js"
import { TestDatabaseLive } from "./TestDatabase.js"

/** Signing key of the test runs, so no test writes a development key under ./.data. */
export const testEnv: Readonly<Record<string, string>> = {
  BOOKING_OPTION_SIGNING_KEYS: "test-1:test-secret-0123456789abcdef0123456789abcdef"
}

/** The whole app on an ephemeral port, with its own database and the given environment. */
export const TestServerLive = (env: Record<string, string> = {}) =>
  HttpAppLive.pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provideMerge(TestDatabaseLive),
    Layer.provideMerge(appConfigFrom({ ...testEnv, ...env }))
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
  call(HttpClientRequest.post(path).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyUnsafeJson(body)))

export const postRaw = (path: string, body: string, contentType: string, headers: Record<string, string> = {}) =>
  call(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyText(body, contentType)
    )
  )

export const getText = (path: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.get(path)).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
    ),
    Effect.scoped,
    Effect.orDie
  )
