import { Context, Effect, Layer, Metric, References, type Scope } from "effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as SqlClient from "effect/sql/SqlClient"
import { Api } from "./Api.js"
import { AppConfig, hostForUrl } from "./AppConfig.js"
import { AuthenticationLive } from "./Auth.js"
import { conflictTags } from "./Bookings/Bookings.js"
import { BookingsLive } from "./Bookings/Http.js"
import { CapabilitiesLive } from "./Capabilities/Http.js"
import type { DirectQuery } from "./Database.js"
import { DocsLive } from "./Docs/Http.js"
import { ContractErrorsLive, contractHeadersFor, errorContractFor } from "./ErrorContract.js"
import { HealthLive } from "./Health/Http.js"
import { listen } from "./HttpListener.js"
import { McpLive } from "./Mcp/Http.js"
import {
  bookingConflicts,
  bookingsConfirmed,
  notificationLabels,
  notifications,
  presentFromStart,
  rateLimited,
  rateLimitStoreFailures
} from "./Metrics.js"
import { requestIdHeader, requestObservability } from "./Observability.js"
import { CalendarFeedLive } from "./Providers/FeedHttp.js"
import { ProviderLive } from "./Providers/Http.js"
import { limitedEndpoints } from "./RateLimiter.js"
import { RequestsLive } from "./Requests/Http.js"
import { routesOf } from "./Routes.js"
import { SearchLive } from "./Search/Http.js"

/** Every group's handlers, each with its services; the Api and test Apis are built from it. */
export const GroupsLive = Layer.mergeAll(
  CapabilitiesLive,
  SearchLive,
  BookingsLive,
  RequestsLive,
  HealthLive,
  ProviderLive
)

/** Business counters are exported at 0 from the start, so rates and alerts work before the first event. */
const CountersLive = Layer.effectDiscard(
  Effect.all([
    presentFromStart(bookingsConfirmed),
    presentFromStart(
      bookingConflicts,
      [...conflictTags].map((code) => ({ code }))
    ),
    presentFromStart(notifications, notificationLabels),
    presentFromStart(
      rateLimited,
      limitedEndpoints.map((endpoint) => ({ endpoint }))
    ),
    presentFromStart(rateLimitStoreFailures)
  ])
)

export const ApiLive = HttpApiBuilder.layer(Api).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(AuthenticationLive),
  Layer.provide(ContractErrorsLive)
)

/**
 * The router's one global middleware: the error contract for what the Api does not answer itself
 * (paths, unknown routes and methods, body refusals, defects), and the headers every answer gets
 * from the server rather than its handler: X-Request-Id, and the error contract's by status. In
 * Effect 4 the server's own middleware sees a response only once it is sent, so this one is the
 * router's; the request id, access line and metrics (requestObservability) are the server's.
 */
export const contractLiveFor = (api: typeof Api) => {
  const contractHeaders = contractHeadersFor(api)
  const errorContract = errorContractFor(api)
  const contractMiddleware = (app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) =>
    Effect.flatMap(errorContract(app), (response) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        Effect.flatMap(requestIdHeader(request, response), (withId) => contractHeaders(request, withId))
      )
    ).pipe(Effect.orDie)
  // It handles every error of every route (the error contract), which the router's types cannot say.
  return HttpRouter.middleware(contractMiddleware as never, { global: true })
}
const ContractLive = contractLiveFor(Api)

const observability = requestObservability(routesOf(Api))
export const observed = (
  app: Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    HttpServerError.HttpServerError,
    HttpServerRequest.HttpServerRequest | Scope.Scope
  >
) => observability(app)

/**
 * The Api with its docs, OpenAPI and error contract, on `server`. The server is built last, after
 * the database, the supply and every handler, so nothing listens before the app can answer.
 */
export const serveApi = <ROut, E, RIn>(
  server: Layer.Layer<ROut, E, RIn>
): Layer.Layer<ROut, unknown, RIn | AppConfig | SqlClient.SqlClient | DirectQuery> =>
  HttpRouter.serve(Layer.mergeAll(ApiLive, DocsLive, McpLive, CalendarFeedLive, ContractLive), {
    // requestObservability writes the access line; the listening address is logged by HttpLive.
    disableLogger: true,
    disableListenLog: true,
    middleware: observed
  }).pipe(
    // No tracer is exported anywhere, so the platform's per-request server span (a URL parse,
    // every header copied into attributes) is work nobody reads; requests are observed by
    // requestObservability's access line and metrics instead.
    Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen, () => true)),
    Layer.provideMerge(server),
    // For the same reason the spans of named services and SQL statements are made as no-ops, not
    // recorded with their attributes and timings for no one.
    Layer.provide(Layer.succeed(References.TracerEnabled, false)),
    // Effect's fiber counts, exported as effect_fiber_* (see prometheusText).
    Layer.provide(Metric.enableRuntimeMetricsLayer),
    Layer.provide(CountersLive)
  )

export const HttpLive: Layer.Layer<HttpServer.HttpServer, unknown, AppConfig | SqlClient.SqlClient | DirectQuery> =
  Layer.unwrap(
    Effect.map(AppConfig, (config) =>
      serveApi(
        listen({
          host: config.host,
          port: config.port,
          headersTimeoutMs: config.httpHeadersTimeoutMs,
          requestTimeoutMs: config.httpRequestTimeoutMs,
          keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs,
          maxConnections: config.httpMaxConnections,
          shutdownGraceMs: config.shutdownGraceMs
        })
      ).pipe(
        Layer.tap((context) => {
          const address = Context.get(context, HttpServer.HttpServer).address
          const url = `http://${hostForUrl(config.host)}:${address._tag === "UnixPathAddress" ? config.port : address.port}`
          return Effect.logInfo(`serving ${url} (docs: ${url}/docs, OpenAPI: ${url}/openapi.json)`)
        })
      )
    )
  )
