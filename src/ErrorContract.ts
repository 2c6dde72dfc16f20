import {
  type HttpApi,
  HttpApiBuilder,
  type HttpApiError,
  HttpApp,
  HttpIncomingMessage,
  HttpMiddleware,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import { Api } from "./Api.js"
import {
  InternalError,
  InvalidRequest,
  MalformedJson,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType
} from "./Domain/Errors.js"
import { logFailure } from "./Failure.js"
import { type Route, routesOf } from "./Routes.js"

type ContractError = typeof Api extends HttpApi.HttpApi<infer _Id, infer _Groups, infer E, infer _R> ? E : never

export const maxBodyBytes = 1024 * 1024

/** `location.postcode: must match NNN NN`: the field path, then what is wrong with it. */
export const formatIssues = (
  issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>
): Array<string> =>
  issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.map(String).join(".")}: ${issue.message}`
  )

const methodsFor = (routes: ReadonlyArray<Route>) => (path: string) =>
  routes.filter((route) => route.pattern.test(path)).map((route) => route.method)

const hasJsonBody = (request: HttpServerRequest.HttpServerRequest) => {
  const type = request.headers["content-type"]
  return type === undefined || /^application\/([a-z.+-]*\+)?json\b/i.test(type)
}

/**
 * Turns everything that is not a domain error into the section 7 body: decode failures,
 * unknown routes, wrong methods, oversized or non-JSON bodies and defects.
 */
export const errorContractFor = (api: typeof Api) =>
  HttpApiBuilder.middleware(
    api,
    Effect.sync(() => {
      const allowedMethods = methodsFor(routesOf(api))
      return (httpApp: HttpApp.Default): HttpApp.Default<ContractError> =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const length = Number(request.headers["content-length"] ?? 0)
          if (length > maxBodyBytes) {
            return yield* new PayloadTooLarge({ issues: [`body: must be at most ${maxBodyBytes} bytes`] })
          }
          return yield* httpApp.pipe(
            HttpIncomingMessage.withMaxBodySize(Option.some(maxBodyBytes)),
            Effect.catchAllCause((cause) => {
              const failure = Cause.failureOption(cause as Cause.Cause<unknown>)
              if (Option.isSome(failure)) {
                const error: unknown = failure.value
                if (error instanceof HttpServerError.RouteNotFound) {
                  const path = request.url.split("?")[0] ?? "/"
                  const allowed = allowedMethods(path)
                  return allowed.length > 0
                    ? Effect.fail(
                        new MethodNotAllowed({
                          issues: [`method: ${request.method} is not allowed here; use ${allowed.join(", ")}`]
                        })
                      )
                    : Effect.fail(new NotFound({ issues: [`path: no route for ${request.method} ${path}`] }))
                }
                if (
                  typeof error === "object" &&
                  error !== null &&
                  "_tag" in error &&
                  error._tag === "HttpApiDecodeError"
                ) {
                  if (!hasJsonBody(request)) {
                    return Effect.fail(
                      new UnsupportedMediaType({
                        issues: [`content-type: must be application/json, got ${request.headers["content-type"]}`]
                      })
                    )
                  }
                  const issues = (error as HttpApiError.HttpApiDecodeError).issues
                  return Effect.fail(
                    new InvalidRequest({
                      issues: formatIssues(issues),
                      // Personal data is stored only after consent: a flag a client can test for.
                      ...(issues.some((issue) => issue.path[0] === "user_consent_confirmed")
                        ? { consent_required_before_create: true }
                        : {})
                    })
                  )
                }
                return Effect.failCause(cause as Cause.Cause<ContractError>)
              }
              if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
              const defect = Cause.squash(cause)
              if (defect instanceof HttpServerError.RequestError && defect.reason === "Decode") {
                return defect.cause instanceof Error && defect.cause.message === "maxBytes exceeded"
                  ? Effect.fail(new PayloadTooLarge({ issues: [`body: must be at most ${maxBodyBytes} bytes`] }))
                  : Effect.fail(new MalformedJson({ issues: ["body: is not valid JSON"] }))
              }
              return logFailure("unexpected defect", cause).pipe(
                Effect.zipRight(
                  Effect.fail(
                    new InternalError({ safe_next_step: "Retry later; if it persists, contact the operator." })
                  )
                )
              )
            })
          )
        })
    })
  )

export const ErrorContractLive = errorContractFor(Api)

/** Seconds a client should wait before retrying a 503: long enough for a database failover. */
export const retryAfterSeconds = 5

/**
 * Every 503 says when to come back. Added to the finished response, so it covers every
 * endpoint and error class that answers 503 without each having to remember it.
 */
export const retryAfterOnUnavailable = HttpMiddleware.make((app) =>
  Effect.zipRight(
    // Errors become responses only when written, so the header goes in as a pre-response handler.
    HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(
        response.status === 503 && response.headers["retry-after"] === undefined
          ? HttpServerResponse.setHeader(response, "retry-after", String(retryAfterSeconds))
          : response
      )
    ),
    app
  )
)
