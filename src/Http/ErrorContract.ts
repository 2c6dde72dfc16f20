import type { IncomingMessage } from "node:http"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Cause, Effect, type Exit, Layer, Option, Schema, Stream } from "effect"
import * as HttpMethod from "effect/http/HttpMethod"
import * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiError from "effect/http-api/HttpApiError"
import type { unhandled } from "effect/Types"
import { type Api, ContractErrors } from "../Api.js"
import {
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
import { logFailure } from "./FailureSummary.js"
import { pathOf, type Route, routesOf } from "./Routes.js"

export const maxBodyBytes = 1024 * 1024

/** Seconds a client should wait before retrying a 503: long enough for a database failover. */
export const retryAfterSeconds = 5

/** Far deeper than any body of the contract, far shallower than anything that strains a walk. */
export const maxJsonDepth = 32

/** A body full of bad strings is refused with this many issues, not one per string. */
const maxListedIssues = 20

export const authenticateChallenge = 'Bearer realm="booking-api"'

/** `location.postcode: must match NNN NN`: the field path, then what is wrong with it. */
export const formatIssues = (issues: ReadonlyArray<InputIssue>): Array<string> =>
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

/** How much of a body past `maxBodyBytes` is read and discarded so the connection stays usable. */
const maxDiscardBytes = maxBodyBytes

/**
 * The body up to `maxBodyBytes`, however it is framed. Past the limit it reads on and discards up
 * to `maxDiscardBytes` more before answering: @effect/platform-node 4 drains at most 256 KiB of an
 * unread body after the response and closes the connection past that, where Node (and Effect 3)
 * drained it all. A longer body still gets its 413, then the connection is closed. The stream is
 * never destroyed: the client reads a 413 where a destroyed socket would have reset it.
 */
const readBody = (source: IncomingMessage) =>
  Effect.callback<Buffer, PayloadTooLarge>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onAbort)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes <= maxBodyBytes) chunks.push(chunk)
      else if (bytes > maxBodyBytes + maxDiscardBytes) {
        stop()
        resume(Effect.fail(tooLarge()))
      } else chunks.length = 0
    }
    const onEnd = () => {
      stop()
      resume(bytes > maxBodyBytes ? Effect.fail(tooLarge()) : Effect.succeed(Buffer.concat(chunks)))
    }
    // The client went away mid-body: nobody is left to answer.
    const onAbort = () => {
      stop()
      resume(Effect.interrupt)
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onAbort)
    return Effect.sync(stop)
  })

const utf8 = new TextDecoder("utf-8", { fatal: true })

const isJson = (contentType: string | undefined) =>
  contentType === undefined || contentType === "" || /^application\/json\s*(;|$)/i.test(contentType)

const notJson = (contentType: string | undefined) =>
  new UnsupportedMediaType({ issues: [`content-type: must be application/json, got ${contentType}`] })

interface CheckedBody {
  readonly body: unknown
  readonly text: string
  readonly bytes: Buffer
}

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
const checkedBody = (bytes: Buffer): Effect.Effect<CheckedBody, MalformedJson | InvalidRequest> => {
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
  return Effect.succeed({ body, text, bytes })
}

/**
 * Every JSON body the Api decodes passes here first: size, encoding, syntax, nesting, and strings
 * PostgreSQL cannot store (at any depth, keys included), each refused with the field's path.
 */
const jsonBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<CheckedBody, BodyRefusal> => {
  const contentType = request.headers["content-type"]
  if (!isJson(contentType)) return Effect.fail(notJson(contentType))
  if (Number(request.headers["content-length"] ?? 0) > maxBodyBytes) return Effect.fail(tooLarge())
  // A client that asked to be told before it sends the body is told now (Node leaves that to the
  // server once one listens for checkContinue, as Effect 4's does).
  if (/100-continue/i.test(request.headers.expect ?? "")) {
    const response = NodeHttpServerRequest.toServerResponse(request)
    if (!response.headersSent && "writeContinue" in response) response.writeContinue()
  }
  return Effect.flatMap(readBody(NodeHttpServerRequest.toIncomingMessage(request) as IncomingMessage), checkedBody)
}

type BodyRefusal = InvalidRequest | MalformedJson | PayloadTooLarge | UnsupportedMediaType

const isBodyRefusal = (defect: unknown): defect is BodyRefusal =>
  defect instanceof InvalidRequest ||
  defect instanceof MalformedJson ||
  defect instanceof PayloadTooLarge ||
  defect instanceof UnsupportedMediaType

/** Each request's body check, once run: later readers get the same outcome. */
const checkedBodies = new WeakMap<HttpServerRequest.HttpServerRequest, Exit.Exit<CheckedBody>>()

const checkedBodyOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<CheckedBody> =>
  Effect.suspend(
    () =>
      checkedBodies.get(request) ??
      Effect.onExit(Effect.orDie(jsonBody(request)), (exit) => Effect.sync(() => checkedBodies.set(request, exit)))
  )

const bytesOf = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(checkedBodyOf(request), ({ bytes }) => bytes)

const refusedFor = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.suspend(() => Effect.die(notJson(request.headers["content-type"])))

type Readers = Pick<
  HttpServerRequest.HttpServerRequest,
  "json" | "text" | "arrayBuffer" | "stream" | "urlParamsBody" | "multipart" | "multipartStream"
>

const reader = <K extends keyof Readers>(
  read: (request: HttpServerRequest.HttpServerRequest) => Readers[K]
): PropertyDescriptor => ({
  get(this: HttpServerRequest.HttpServerRequest) {
    return read(this)
  },
  enumerable: true,
  configurable: true
})

/**
 * The request's body readers, made only when one is asked for: JSON, the text and bytes of the
 * same checked JSON (the MCP transport reads text), and a refusal for every other kind of body.
 * One descriptor map for every request, so installing them builds nothing per request.
 */
const jsonOnlyReaders: Record<keyof Readers, PropertyDescriptor> = {
  json: reader<"json">((request) => Effect.map(checkedBodyOf(request), ({ body }) => body as Schema.Json)),
  text: reader<"text">((request) => Effect.map(checkedBodyOf(request), ({ text }) => text)),
  arrayBuffer: reader<"arrayBuffer">((request) =>
    Effect.map(bytesOf(request), (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer)
  ),
  stream: reader<"stream">((request) => Stream.fromEffect(Effect.map(bytesOf(request), (b) => new Uint8Array(b)))),
  urlParamsBody: reader<"urlParamsBody">(refusedFor),
  multipart: reader<"multipart">(refusedFor),
  multipartStream: reader<"multipartStream">((request) => Stream.fromEffect(refusedFor(request)))
}

/**
 * The request as the Api sees it: its body is read once, by `jsonBody`, and only as JSON. The
 * platform decodes a payload through `json` (or, for other content types, the other readers)
 * and turns their failures into defects, which the contract turns back into these refusals.
 *
 * The readers are defined on the platform's own request object, which serves this request only:
 * a wrapper whose prototype is the request cost ~17 µs a request, and providing it in the
 * request's place another context change.
 */
const jsonOnly = (request: HttpServerRequest.HttpServerRequest) => {
  Object.defineProperties(request, jsonOnlyReaders)
}

/**
 * The headers the contract's statuses carry: `Allow` on every 405, `WWW-Authenticate` on every
 * 401, `Retry-After` on every 503 that has none. One handler for every answer, installed once
 * for the server (src/Http.ts), not per request: it reads the path off the request when it needs it.
 */
export const contractHeadersFor = (api: typeof Api) => {
  const allowedMethods = methodsFor(routesOf(api))
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

/** The section 7 body of a contract error, for answers made outside the Api's own encoding. */
const refusal = (error: { readonly _tag: string }) => {
  const body = Schema.encodeSync(errorBody(error.constructor as unknown as ErrorClass))(error)
  return HttpServerResponse.jsonUnsafe(body, { status: body.status })
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
 * The Api's own errors (Api.ts's ContractErrors), for every endpoint: a request the schema
 * refuses is the contract's 400 with its issues (Effect 4 answers it with an empty 400), and a
 * body of another content type the contract's 415 (Effect 4 answers it in plain text).
 */
export const ContractErrorsLive = Layer.succeed(ContractErrors, (httpEffect, { endpoint }) =>
  httpEffect.pipe(
    Effect.catchCause((cause): Effect.Effect<never, InvalidRequest | unhandled> => {
      const failure = Cause.findErrorOption(cause)
      if (Option.isSome(failure) && HttpApiError.HttpApiSchemaError.is(failure.value)) {
        return Effect.fail(invalidOf(failure.value, endpoint))
      }
      if (Option.isNone(failure) && !Cause.hasInterruptsOnly(cause)) {
        const defect = Cause.squash(cause)
        if (HttpApiError.HttpApiSchemaError.is(defect)) return Effect.fail(invalidOf(defect, endpoint))
      }
      return Effect.failCause(cause)
    }),
    Effect.flatMap((response) =>
      response.status === 415 && HttpMethod.hasBody(endpoint.method)
        ? Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
            Effect.fail(notJson(request.headers["content-type"]))
          )
        : Effect.succeed(response)
    )
  )
)

/**
 * Turns everything that is not a domain error into the section 7 body: undecodable paths and
 * bodies, unknown routes, wrong methods and defects (their headers are `contractHeadersFor`'s).
 * The server's one middleware around the router (src/Http.ts).
 */
export const errorContractFor = (api: typeof Api) => {
  const routes = routesOf(api)
  const allowedMethods = methodsFor(routes)
  const issuesOfPath = pathIssues(routes)
  return <E, R>(
    httpApp: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const path = pathOf(request.url)
      const badPath = issuesOfPath(path)
      if (badPath.length > 0) return Effect.succeed(refusal(new InvalidRequest({ issues: badPath })))
      // A GET, HEAD or OPTIONS payload is decoded from the query, never from a body (HttpMethod.hasBody).
      if (HttpMethod.hasBody(request.method)) jsonOnly(request)
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
          const defect = Option.isSome(failure) ? failure.value : Cause.squash(cause)
          if (isBodyRefusal(defect)) return Effect.succeed(refusal(defect))
          return logFailure("unexpected defect", cause).pipe(
            Effect.as(
              refusal(new InternalError({ safe_next_step: "Retry later; if it persists, contact the operator." }))
            )
          )
        })
      ) as Effect.Effect<HttpServerResponse.HttpServerResponse, never, R | HttpServerRequest.HttpServerRequest>
    })
}
