import { Context, Effect, Layer, Metric, Option, References, type Scope, type Types } from "effect"
import * as HttpMiddleware from "effect/http/HttpMiddleware"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import type * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import type * as SqlClient from "effect/sql/SqlClient"
import { Api } from "./Api.js"
import { AppConfig, hostForUrl } from "./AppConfig.js"
import { BookingsLive } from "./Bookings/Http.js"
import { conflictTags } from "./Bookings/Refusals.js"
import { CapabilitiesLive } from "./Capabilities/Http.js"
import { withDatabaseBudget } from "./Database/Database.js"
import { DocsLive } from "./Docs/Http.js"
import { documentationRoutesBeside } from "./Docs/Paths.js"
import { ErrorsLive } from "./Errors/Http.js"
import { HealthLive } from "./Health/Http.js"
import { HoldsLive } from "./Holds/Http.js"
import { isTrustedProxy } from "./Http/ClientAddress.js"
import { ContractErrorsLive, contractHeadersFor, errorContractFor } from "./Http/ErrorContract.js"
import { listen, securityHeaders } from "./Http/Listener.js"
import { requestIdOf } from "./Http/Logging.js"
import {
  bookingConflicts,
  bookingsConfirmed,
  notificationLabels,
  notifications,
  presentFromStart,
  rateLimited,
  rateLimitStoreFailures
} from "./Http/Metrics.js"
import { requestObservability } from "./Http/Observability.js"
import { limitedEndpoints } from "./Http/RateLimiter.js"
import { type RouteBeside, routesOf } from "./Http/Routes.js"
import { BackgroundLoopsLive } from "./Main/BackgroundLoops.js"
import { McpLive, mcpRoutesBeside } from "./Mcp/Http.js"
import { AuthenticationLive } from "./Partners/Authentication.js"
import { CalendarFeedLive, calendarFeedRoutesBeside } from "./Providers/FeedHttp.js"
import { ProviderLive } from "./Providers/Http.js"
import { RequestsLive } from "./Requests/Http.js"
import { SearchLive } from "./Search/Http.js"
import { tracingLayer } from "./Tracing/Tracing.js"
import { WebhooksLive } from "./Webhooks/Http.js"

/** Every group's handlers, each with its services; the Api and test Apis are built from it. */
export const GroupsLive = Layer.mergeAll(
  CapabilitiesLive,
  SearchLive,
  BookingsLive,
  HoldsLive,
  RequestsLive,
  WebhooksLive,
  ErrorsLive,
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

/** What the server answers beside the Api (DocsLive, McpLive, CalendarFeedLive), each declared by its owner. */
const besideApi: ReadonlyArray<RouteBeside> = [
  ...documentationRoutesBeside,
  ...mcpRoutesBeside,
  ...calendarFeedRoutesBeside
]

/** Every route the server answers, the Api's and those beside it. */
export const servedRoutes = routesOf(Api, besideApi)

const nosniffOnly = { "x-content-type-options": securityHeaders["x-content-type-options"] } as const

/**
 * X-Request-Id (the id requestObservability gave the request) and the security headers, in one
 * step; a response that chose its own Cache-Control (the cacheable documents) keeps it.
 */
const withServerHeaders = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
) => {
  const fixed = response.headers["cache-control"] === undefined ? securityHeaders : nosniffOnly
  const requestId = requestIdOf(request)
  return HttpServerResponse.setHeaders(
    response,
    requestId === undefined ? fixed : { ...fixed, "x-request-id": requestId }
  )
}

/**
 * The router's one global middleware: the error contract for what the Api does not answer itself
 * (paths, unknown routes and methods, body refusals, defects), and the headers every answer gets
 * from the server rather than its handler: X-Request-Id, Cache-Control and X-Content-Type-Options,
 * and the error contract's by status. In
 * Effect 4 the server's own middleware sees a response only once it is sent, so this one is the
 * router's; the request id, access line and metrics (requestObservability) are the server's.
 */
export const contractLiveFor = (api: typeof Api) => {
  const routes = routesOf(api, besideApi)
  const contractHeaders = contractHeadersFor(routes)
  const errorContract = errorContractFor(routes)
  // It handles every error of every route (`handles: unknown`); it never fails, and its error type
  // keeps the router's `unhandled` marker, which the router asks of a middleware's answer.
  const contractMiddleware = (
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(errorContract(app), (response) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
        contractHeaders(request, withServerHeaders(request, response))
      )
    ).pipe(Effect.orDie)
  return HttpRouter.middleware<{ handles: unknown }>()(contractMiddleware, { global: true })
}
const ContractLive = contractLiveFor(Api)

const observability = requestObservability(servedRoutes)
export const observed = (
  app: Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    HttpServerError.HttpServerError,
    HttpServerRequest.HttpServerRequest | Scope.Scope
  >
) => observability(app)

/**
 * The Api with its docs, OpenAPI and error contract, on `server`, with `loops` beside it (all of
 * them unless told). The server is built last, after the database, the supply, every handler and
 * loop, so nothing listens before the app can answer.
 *
 * With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT, src/Tracing/) every request has a server span
 * of its own (requestObservability), every SQL statement a span, and every layer here
 * the exporting tracer; off, none of it is built.
 */
export const serveApi = <ROut, E, RIn>(
  server: Layer.Layer<ROut, E, RIn>,
  loops: Layer.Layer<never, unknown, AppConfig | SqlClient.SqlClient> = BackgroundLoopsLive
): Layer.Layer<ROut, unknown, RIn | AppConfig | SqlClient.SqlClient> =>
  Layer.unwrap(
    Effect.map(AppConfig, (config) => {
      // Every request, REST or MCP, gets one database budget from its arrival (every statement honours it).
      const budgeted = withDatabaseBudget(config.databaseRequestBudgetMs)
      const traced = Option.isSome(config.tracing)
      const observe = traced ? requestObservability(servedRoutes, { traced }) : observability
      return HttpRouter.serve(Layer.mergeAll(ApiLive, DocsLive, McpLive, CalendarFeedLive, ContractLive, loops), {
        // requestObservability writes the access line; the listening address is logged by HttpLive.
        disableLogger: true,
        disableListenLog: true,
        middleware: (app) => observe(budgeted(app))
      })
    })
  ).pipe(
    // The platform's own server span would carry the full URL, every header and the client's
    // address; a request's span is requestObservability's, which carries none of them.
    Layer.provide(Layer.succeed(HttpMiddleware.TracerDisabledWhen, () => true)),
    Layer.provideMerge(server),
    Layer.provide(TracerLive),
    // Effect's fiber counts, exported as effect_fiber_* (see prometheusText).
    Layer.provide(Metric.enableRuntimeMetricsLayer),
    Layer.provide(CountersLive)
  )

/**
 * With tracing on, the exporting tracer for every layer of the server; off, the spans of named
 * services and SQL statements are made as no-ops, not recorded with their attributes and
 * timings for no one.
 */
const TracerLive = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    Option.isSome(config.tracing) ? tracingLayer(config.tracing.value) : Layer.succeed(References.TracerEnabled, false)
  )
)

export const HttpLive: Layer.Layer<HttpServer.HttpServer, unknown, AppConfig | SqlClient.SqlClient> = Layer.unwrap(
  Effect.map(AppConfig, (config) =>
    serveApi(
      listen({
        host: config.host,
        port: config.port,
        headersTimeoutMs: config.httpHeadersTimeoutMs,
        requestTimeoutMs: config.httpRequestTimeoutMs,
        keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs,
        maxConnections: config.httpMaxConnections,
        maxConnectionsPerAddress: config.httpMaxConnectionsPerAddress,
        trustedProxy: isTrustedProxy(config.trustProxy),
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
