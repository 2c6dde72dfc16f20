import { Effect, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../src/Api.js"

/**
 * The Api's typed client (`HttpApiClient.make(Api)`) over the test server's HttpClient, which
 * already prefixes the server's address; with `token`, as that partner.
 */
export const apiClient = (token?: string) =>
  HttpApiClient.make(
    Api,
    token === undefined ? {} : { transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token)) }
  )

/**
 * A typed call made `withResponse`, as a partner sees it on the wire: its status and headers, and
 * the decoded body encoded back to JSON by the endpoint's own schema.
 */
export const wire =
  <A, I>(schema: Schema.Codec<A, I>) =>
  <E, R>(call: Effect.Effect<[A, HttpClientResponse.HttpClientResponse], E, R>) =>
    Effect.flatMap(call, ([value, response]) =>
      Effect.map(Schema.encodeEffect(schema)(value), (body) => ({
        status: response.status,
        headers: response.headers,
        body: body as any
      }))
    ).pipe(Effect.orDie)

/**
 * A request body as an endpoint's payload type: decoded by the endpoint's schema as the server
 * would (defaults filled in), so a test writes its bodies as JSON and the client encodes them
 * back. A body that does not decode throws: a test of bad input is a test of raw HTTP.
 */
export const payloadOf =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  (body: unknown): S["Type"] =>
    Schema.decodeUnknownSync(schema)(body)

/**
 * A typed call made with `responseMode: "decoded-and-response"`, as its status and decoded body:
 * for the tests that tell a 201 from a 200 replay.
 */
export const withStatus = <A, E, R>(call: Effect.Effect<[A, HttpClientResponse.HttpClientResponse], E, R>) =>
  Effect.map(call, ([body, response]) => ({ status: response.status, body }))
