import { createServer } from "node:http"
import { HttpApiBuilder, HttpApiScalar } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { Api } from "./Api.js"
import { AppConfig } from "./AppConfig.js"
import { AuthenticationLive } from "./Auth.js"
import { Bookings } from "./Bookings/Bookings.js"
import { BookingsLive } from "./Bookings/Http.js"
import { CapabilitiesDocument } from "./Capabilities/Document.js"
import { CapabilitiesLive } from "./Capabilities/Http.js"
import { ErrorContractLive, retryAfterOnUnavailable } from "./ErrorContract.js"
import { HealthLive } from "./Health/Http.js"
import { McpLive } from "./Mcp/Http.js"
import { Notifier } from "./Notifier.js"
import { requestObservability } from "./Observability.js"
import { OptionSigner } from "./OptionSigner.js"
import { RateLimiterLive } from "./RateLimiter.js"
import { RequestsLive } from "./Requests/Http.js"
import { Requests } from "./Requests/Requests.js"
import { routesOf } from "./Routes.js"
import { SearchLive } from "./Search/Http.js"
import { BookingSearch } from "./Search/Search.js"
import { DemoSupplyLive, Supply } from "./Supply.js"

/** Every group's handlers with the services they use; the Api and test Apis are built from it. */
export const GroupsLive = Layer.mergeAll(CapabilitiesLive, SearchLive, BookingsLive, RequestsLive, HealthLive).pipe(
  Layer.provide([CapabilitiesDocument.Default, BookingSearch.Default, Bookings.Default, Requests.Default]),
  Layer.provide([OptionSigner.Default, Notifier.Default, RateLimiterLive])
)

export const ApiLive = HttpApiBuilder.api(Api).pipe(Layer.provide(GroupsLive), Layer.provide(AuthenticationLive))

/** The Api with its docs, OpenAPI and error contract, on whatever HttpServer is provided. */
const routes = routesOf(Api)

export const HttpAppLive = HttpApiBuilder.serve((app) =>
  requestObservability(routes)(retryAfterOnUnavailable(app))
).pipe(
  Layer.provide(HttpApiScalar.layer({ path: "/docs" })),
  Layer.provide(McpLive),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(ErrorContractLive),
  Layer.provide(ApiLive),
  // Provided last so it is built first: the demo supply is in place before anything reads it.
  Layer.provide(DemoSupplyLive.pipe(Layer.provideMerge(Supply.Default)))
)

export const HttpLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    HttpAppLive.pipe(
      Layer.tap(() =>
        Effect.logInfo(
          `serving ${config.publicBaseUrl} (docs: ${config.publicBaseUrl}/docs, OpenAPI: ${config.publicBaseUrl}/openapi.json)`
        )
      ),
      Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
    )
  )
)
