import { Effect, Exit } from "effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpTraceContext from "effect/http/HttpTraceContext"
import { RequestSpan } from "./Tracing.js"

/** A 5xx is the server's failure, as OpenTelemetry marks server spans; the rest are answers. */
const serverFailure = (status: number) => {
  const error = new Error(`answered ${status}`)
  error.stack = error.message
  return Exit.fail(error)
}

/**
 * The request's server span, named by method and route template ("POST /api/public/bookings"),
 * continuing the caller's trace when it sends a W3C `traceparent` (or B3). It carries the
 * method, route, status and partner id (Authentication.ts), nothing of the URL's path values,
 * query, headers, body or client address, so no personal data reaches a span.
 *
 * `observe` runs the request and, once it has its status, calls `finish` with it: the span
 * is ended with that status and its trace id is returned for the access line.
 */
export const tracedRequest = <E, R>(
  request: HttpServerRequest.HttpServerRequest,
  route: string,
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  observe: (
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
    finish: (status: number) => string
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, any>
) =>
  Effect.clockWith((clock) => {
    const parent = HttpTraceContext.fromHeaders(request.headers)
    const matched = route !== "unmatched"
    return Effect.flatMap(
      Effect.makeSpan(matched ? `${request.method} ${route}` : request.method, {
        kind: "server",
        ...(parent._tag === "Some" ? { parent: parent.value } : {}),
        attributes: matched
          ? { "http.request.method": request.method, "http.route": route }
          : { "http.request.method": request.method }
      }),
      (span) => {
        const inSpan: typeof app = app.pipe(Effect.withParentSpan(span), Effect.provideService(RequestSpan, span))
        return observe(inSpan, (status) => {
          // Set again at the end: the router names the route its own way (`:id`); the span keeps
          // the label the access line and the metrics use.
          if (matched) span.attribute("http.route", route)
          span.attribute("http.response.status_code", status)
          span.end(clock.currentTimeNanosUnsafe(), status >= 500 ? serverFailure(status) : Exit.void)
          return span.traceId
        })
      }
    )
  })
