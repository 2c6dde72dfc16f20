import { createServer } from "node:http"
import type { Duplex } from "node:stream"
import { HttpApiBuilder } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { Api } from "./Api.js"
import { AppConfig } from "./AppConfig.js"
import { AuthenticationLive } from "./Auth.js"
import { Bookings } from "./Bookings/Bookings.js"
import { BookingsLive } from "./Bookings/Http.js"
import { CapabilitiesDocument } from "./Capabilities/Document.js"
import { CapabilitiesLive } from "./Capabilities/Http.js"
import { DocsLive } from "./Docs/Http.js"
import { ErrorContractLive } from "./ErrorContract.js"
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
export const HttpAppLive = HttpApiBuilder.serve(requestObservability(routesOf(Api))).pipe(
  Layer.provide(DocsLive),
  Layer.provide(McpLive),
  Layer.provide(ErrorContractLive),
  Layer.provide(ApiLive),
  // Provided last so it is built first: the demo supply is in place before anything reads it.
  Layer.provide(DemoSupplyLive.pipe(Layer.provideMerge(Supply.Default)))
)

const unparsable = (error: NodeJS.ErrnoException) => {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        error: "headers_too_large",
        issue: "headers: are larger than 16 KB"
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        error: "request_timeout",
        issue: "request: did not arrive in time"
      }
    default:
      return {
        status: 400,
        reason: "Bad Request",
        error: "invalid_request",
        issue: `request: is not valid HTTP/1.1 (${error.message})`
      }
  }
}

/**
 * Node answers what it cannot parse (a NUL or control character in a header, say) before the
 * app sees it, by default with a bare 400; here with the section 7 body, as every error is.
 */
const answerClientError = (error: NodeJS.ErrnoException, socket: Duplex) => {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && inFlight?.headersSent !== true && error.code !== "ECONNRESET") {
    const { status, reason, ...rest } = unparsable(error)
    const body = JSON.stringify({ ok: false, error: rest.error, status, issues: [rest.issue] })
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
  }
  socket.destroy()
}

/** The Node server every instance and every test serves on. */
export const createHttpServer = () => createServer().on("clientError", answerClientError)

export const HttpLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    HttpAppLive.pipe(
      Layer.tap(() =>
        Effect.logInfo(
          `serving ${config.publicBaseUrl} (docs: ${config.publicBaseUrl}/docs, OpenAPI: ${config.publicBaseUrl}/openapi.json)`
        )
      ),
      Layer.provide(NodeHttpServer.layer(createHttpServer, { port: config.port, host: config.host }))
    )
  )
)
