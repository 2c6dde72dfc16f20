import type { IncomingMessage } from "node:http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { ByteSize, Cause, Effect, Layer, Option, Schema } from "effect"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpMethod from "effect/http/HttpMethod"
import * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiError from "effect/http-api/HttpApiError"
import type { unhandled } from "effect/Types"
import {
  type ErrorBody,
  type ErrorClass,
  errorBody,
  InternalError,
  InvalidRequest,
  MalformedJson,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType
} from "../Domain/Errors.js"
import {
  hasUnstorableCharacters,
  type InputIssue,
  inputParseOptions,
  nestingDepth,
  unstorableMessage,
  unstorableStrings
} from "../Domain/Input.js"
import { issuesOf } from "../Domain/Issues.js"
import { logFailure } from "../Shared/FailureSummary.js"
import { ContractErrors } from "./ContractErrors.js"
import { pathOf, type Route } from "./Routes.js"

const maxBodyBytes = 1024 * 1024

/** Long enough for a database failover. */
const retryAfterSeconds = 5

/** Far deeper than any body of the contract, far shallower than anything that strains a walk. */
const maxJsonDepth = 32

/** A body full of bad strings is refused with this many issues, not one per string. */
const maxListedIssues = 20

const authenticateChallenge = 'Bearer realm="booking-api"'

/** `location.postcode: must match NNN NN`: the field path, then what is wrong with it. */
const formatIssues = (issues: ReadonlyArray<InputIssue>): Array<string> =>
  issues.map((issue) => `${issue.path.length === 0 ? "body" : issue.path.map(String).join(".")}: ${issue.message}`)

/** The 400 for a body the schema refused, as REST and MCP both answer it. */
export const invalidRequestOf = (issues: ReadonlyArray<InputIssue>) =>
  new InvalidRequest({
    issues: formatIssues(issues),
    // Personal data is stored only after consent: a flag a client can test for.
    ...(issues.some((issue) => issue.path[0] === "user_consent_confirmed")
      ? { consent_required_before_create: true }
      : {})
  })

/** Each method once: a path two routes match (`/requests/capabilities` and `/requests/:request_id`) lists GET once. */
const methodsFor = (routes: ReadonlyArray<Route>) => (path: string) => [
  ...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))
]

/** Per RFC 9110, with HEAD wherever GET is served (the router answers it). */
const allowHeader = (methods: ReadonlyArray<string>) =>
  (methods.includes("GET") ? [...methods, "HEAD"] : methods).join(", ")

/**
 * The path is decoded before anything routes it: bad percent-encoding is the client's error, and
 * a path parameter PostgreSQL cannot store is named like a field (`booking_id: …`).
 */
const pathIssues = (routes: ReadonlyArray<Route>) => (path: string) => {
  // Without a percent sign each segment decodes to itself, so the path as it is has the answer.
  if (!path.includes("%") && !hasUnstorableCharacters(path)) return []
  let segments: Array<string>
  try {
    segments = path.split("/").map(decodeURIComponent)
  } catch {
    return ["path: must be valid percent-encoded UTF-8"]
  }
  const template = () => routes.find((route) => route.pattern.test(path))?.template.split("/") ?? []
  return segments.flatMap((segment, index) => {
    if (!hasUnstorableCharacters(segment)) return []
    const parameter = /^\{(.+)\}$/.exec(template()[index] ?? "")?.[1]
    return [`${parameter ?? "path"}: ${unstorableMessage}`]
  })
}

const tooLarge = () => new PayloadTooLarge({ issues: [`body: must be at most ${maxBodyBytes} bytes`] })

/**
 * Waits, up to another `maxBodyBytes`, for the rest of a body the platform stopped keeping at its
 * `MaxBodySize`: answering before the end would close the connection (the platform discards at
 * most 256 KiB of an unread body), where the contract keeps it usable after a 413.
 */
const restDiscarded = (source: IncomingMessage) =>
  Effect.callback<void>((resume) => {
    if (source.complete || source.destroyed) return resume(Effect.void)
    let bytes = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("close", onEnd)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxBodyBytes) onEnd()
    }
    const onEnd = () => {
      stop()
      resume(Effect.void)
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("close", onEnd)
    return Effect.sync(stop)
  })

/** The body's bytes up to `maxBodyBytes`, kept by the platform for the Api's own decoding. */
const bodyBytes = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Uint8Array, PayloadTooLarge> =>
  request.arrayBuffer.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxBodyBytes)),
    Effect.map((buffer) => new Uint8Array(buffer)),
    Effect.catch((error) =>
      error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
        ? Effect.andThen(
            restDiscarded(NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage),
            Effect.fail(tooLarge())
          )
        : Effect.interrupt
    )
  )

const utf8 = new TextDecoder("utf-8", { fatal: true })

const isJson = (contentType: string | undefined) =>
  contentType === undefined || contentType === "" || /^application\/json\s*(;|$)/i.test(contentType)

const notJson = (contentType: string | undefined) =>
  new UnsupportedMediaType({ issues: [`content-type: must be application/json, got ${contentType}`] })

/**
 * Strict UTF-8 text holds no lone surrogate, and JSON.parse refuses a raw NUL, so only an escape
 * (`\u0000`, `\uD800`-`\uDFFF`) can put either into a parsed string or key: without one, the walk
 * would find nothing. An escaped backslash before a `u` matches too, and is walked.
 */
const mayHoldUnstorable = /\\u(?:0000|[dD][89a-fA-F])/

/** Nesting deeper than `maxJsonDepth` takes more opening brackets than that, in strings or not. */
const mayNestTooDeep = (text: string) => {
  let opened = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if ((code === 0x7b || code === 0x5b) && ++opened > maxJsonDepth) return true
  }
  return false
}

/** Encoding, syntax, nesting and unstorable strings of a body read whole; the walks only when the text needs them. */
const checkedBody = (bytes: Uint8Array): Effect.Effect<unknown, MalformedJson | InvalidRequest> => {
  let text: string
  try {
    text = utf8.decode(bytes)
  } catch {
    return Effect.fail(new MalformedJson({ issues: ["body: is not valid UTF-8"] }))
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return Effect.fail(new MalformedJson({ issues: [text === "" ? "body: is empty" : "body: is not valid JSON"] }))
  }
  if (mayNestTooDeep(text) && nestingDepth(body, maxJsonDepth) > maxJsonDepth) {
    return Effect.fail(new InvalidRequest({ issues: [`body: must not nest more than ${maxJsonDepth} levels deep`] }))
  }
  if (mayHoldUnstorable.test(text)) {
    const unstorable = unstorableStrings(body, maxListedIssues)
    if (unstorable.length > 0) return Effect.fail(new InvalidRequest({ issues: formatIssues(unstorable) }))
  }
  return Effect.succeed(body)
}

type BodyRefusal = InvalidRequest | MalformedJson | PayloadTooLarge | UnsupportedMediaType

/**
 * A JSON body, checked before anything decodes it: media type, size, encoding, syntax, nesting,
 * and strings PostgreSQL cannot store (keys included), each refused with the field's path.
 */
export const jsonBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown, BodyRefusal> => {
  const contentType = request.headers["content-type"]
  if (!isJson(contentType)) return Effect.fail(notJson(contentType))
  if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) return Effect.fail(tooLarge())
  return Effect.flatMap(bodyBytes(request), checkedBody)
}

/** `Allow` on every 405, `WWW-Authenticate` on every 401, `Retry-After` on every 503 that has none. */
export const contractHeadersFor = (routes: ReadonlyArray<Route>) => {
  const allowedMethods = methodsFor(routes)
  return (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
    Effect.succeed(
      response.status === 405
        ? HttpServerResponse.setHeader(response, "allow", allowHeader(allowedMethods(pathOf(request.url))))
        : response.status === 401
          ? HttpServerResponse.setHeader(response, "www-authenticate", authenticateChallenge)
          : response.status === 503 && response.headers["retry-after"] === undefined
            ? HttpServerResponse.setHeader(response, "retry-after", String(retryAfterSeconds))
            : response
    )
}

/** The section 7 body of any error class instance, as REST would write it. */
export const wireError = (error: { readonly _tag: string }): ErrorBody =>
  Schema.encodeSync(errorBody(error.constructor as unknown as ErrorClass))(error)

/** A contract error's answer, for answers made outside the Api's own encoding. */
export const refusal = (error: { readonly _tag: string }, headers: Record<string, string> = {}) => {
  const body = wireError(error)
  return HttpServerResponse.jsonUnsafe(body, { status: body.status, headers })
}

/** A decoding failure of the path, headers or body, as the 400 `invalid_request` it is. */
const invalidOf = (error: HttpApiError.HttpApiSchemaError, endpoint: HttpApiEndpoint.Top) =>
  invalidRequestOf(issuesOf(payloadIssue(error, endpoint)))

/**
 * Effect 4 decodes a payload as the union of the endpoint's payload schemas, even of one; a union
 * picks its member by the literal fields (confirm's `user_consent_confirmed: true`), so a body
 * without them fails as "no member matched", naming no field. The one member decoded on its own
 * says which fields are wrong, as the contract's issues must.
 */
const payloadIssue = (error: HttpApiError.HttpApiSchemaError, endpoint: HttpApiEndpoint.Top) => {
  const issue = error.cause.issue
  const schemas = [...endpoint.payload.values()].flatMap((entry) => entry.schemas)
  if (error.kind !== "Payload" || issue._tag !== "AnyOf" || issue.issues.length > 0 || schemas.length !== 1) {
    return issue
  }
  const exit = Schema.decodeUnknownExit(Schema.toCodecJson(schemas[0]!) as unknown as Schema.Codec<unknown, unknown>)(
    issue.input,
    inputParseOptions
  )
  if (exit._tag === "Success") return issue
  const failure = Cause.findErrorOption(exit.cause)
  return Option.isSome(failure) && Schema.isSchemaError(failure.value) ? failure.value.issue : issue
}

/**
 * The Api's own errors, for every endpoint: a body `jsonBody` refuses is refused before HttpApi
 * decodes it (HttpApi would answer a plain text 415 and an empty 400), and a request the schema
 * refuses is the contract's 400 with its issues.
 */
export const ContractErrorsLive = Layer.succeed(ContractErrors, (httpEffect, { endpoint }) =>
  // A GET's payload is its query.
  (endpoint.payload.size > 0 && HttpMethod.hasBody(endpoint.method)
    ? Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => Effect.andThen(jsonBody(request), httpEffect))
    : httpEffect
  ).pipe(
    Effect.catchCause((cause): Effect.Effect<never, BodyRefusal | unhandled> => {
      const failure = Cause.findErrorOption(cause)
      if (Option.isSome(failure) && HttpApiError.HttpApiSchemaError.is(failure.value)) {
        return Effect.fail(invalidOf(failure.value, endpoint))
      }
      if (Option.isNone(failure) && !Cause.hasInterruptsOnly(cause)) {
        const defect = Cause.squash(cause)
        if (HttpApiError.HttpApiSchemaError.is(defect)) return Effect.fail(invalidOf(defect, endpoint))
      }
      return Effect.failCause(cause)
    })
  )
)

/** Undecodable paths, unknown routes, wrong methods and defects as section 7 bodies, around the router. */
export const errorContractFor = (routes: ReadonlyArray<Route>) => {
  const allowedMethods = methodsFor(routes)
  const issuesOfPath = pathIssues(routes)
  return <E, R>(
    httpApp: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const path = pathOf(request.url)
      const badPath = issuesOfPath(path)
      if (badPath.length > 0) return Effect.succeed(refusal(new InvalidRequest({ issues: badPath })))
      return httpApp.pipe(
        Effect.catchCause((cause) => {
          const failure = Cause.findErrorOption(cause as Cause.Cause<unknown>)
          if (Option.isSome(failure)) {
            const error: unknown = failure.value
            if (HttpServerError.isHttpServerError(error) && error.reason._tag === "RouteNotFound") {
              const allowed = allowedMethods(path)
              return Effect.succeed(
                refusal(
                  allowed.length > 0
                    ? new MethodNotAllowed({
                        issues: [`method: ${request.method} is not allowed here; use ${allowed.join(", ")}`]
                      })
                    : new NotFound({ issues: [`path: no route for ${request.method} ${path}`] })
                )
              )
            }
          }
          if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
          return logFailure("unexpected defect", cause).pipe(
            Effect.as(
              refusal(new InternalError({ safe_next_step: "Retry later; if it persists, contact the operator." }))
            )
          )
        })
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest>
    })
}
