import { HttpApiBuilder, HttpMiddleware, HttpServer } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import { Api } from "./Api.js"
import { AppConfig, hostForUrl } from "./AppConfig.js"
import { AuthenticationLive } from "./Auth.js"
import { Bookings, conflictTags } from "./Bookings/Bookings.js"
import { BookingsLive } from "./Bookings/Http.js"
import { CapabilitiesDocument } from "./Capabilities/Document.js"
import { CapabilitiesLive } from "./Capabilities/Http.js"
import { DocsLive } from "./Docs/Http.js"
import { ErrorContractLive } from "./ErrorContract.js"
import { HealthLive } from "./Health/Http.js"
import { Readiness } from "./Health/Readiness.js"
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
import { Notifier } from "./Notifier.js"
import { requestObservability } from "./Observability.js"
import { OptionSigner } from "./OptionSigner.js"
import { limitedEndpoints, RateLimiterLive } from "./RateLimiter.js"
import { RequestsLive } from "./Requests/Http.js"
import { Requests } from "./Requests/Requests.js"
import { routesOf } from "./Routes.js"
import { SearchLive } from "./Search/Http.js"
import { BookingSearch } from "./Search/Search.js"
import { DemoSupplyLive, Supply } from "./Supply.js"

/** Every group's handlers with the services they use; the Api and test Apis are built from it. */
export const GroupsLive = Layer.mergeAll(CapabilitiesLive, SearchLive, BookingsLive, RequestsLive, HealthLive).pipe(
  Layer.provide([
    CapabilitiesDocument.Default,
    BookingSearch.Default,
    Bookings.Default,
    Requests.Default,
    Readiness.Default
  ]),
  Layer.provide([OptionSigner.Default, Notifier.Default, RateLimiterLive])
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

export const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(GroupsLive), Layer.provide(AuthenticationLive))

/**
 * The Api with its docs, OpenAPI and error contract, on `server`. The server is built last, after
 * the database, the demo supply and every handler, so nothing listens before the app can answer.
 */
export const serveApi = <ROut, E, RIn>(server: Layer.Layer<ROut, E, RIn>) =>
  HttpApiBuilder.serve(requestObservability(routesOf(Api))).pipe(
    // No tracer is exported anywhere, so the platform's per-request server span (a URL parse,
    // every header copied into attributes) is work nobody reads; requests are observed by
    // requestObservability's access line and metrics instead.
    HttpMiddleware.withTracerDisabledWhen(() => true),
    Layer.provideMerge(server),
    Layer.provide(DocsLive),
    Layer.provide(McpLive),
    Layer.provide(ErrorContractLive),
    Layer.provide(ApiLive),
    Layer.provide(CountersLive),
    // Provided last so it is built first: the demo supply is in place before anything reads it.
    Layer.provide(DemoSupplyLive.pipe(Layer.provideMerge(Supply.Default)))
  )

export const HttpLive = Layer.unwrapEffect(
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
        const url = `http://${hostForUrl(config.host)}:${address._tag === "TcpAddress" ? address.port : config.port}`
        return Effect.logInfo(`serving ${url} (docs: ${url}/docs, OpenAPI: ${url}/openapi.json)`)
      })
    )
  )
)
