import type { IncomingMessage } from "node:http"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import type * as HttpApiError from "@effect/platform/HttpApiError"
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMethod from "@effect/platform/HttpMethod"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { Cause, Effect, type Exit, Option, Stream } from "effect"
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
import {
  hasUnstorableCharacters,
  type InputIssue,
  nestingDepth,
  unstorableMessage,
  unstorableStrings
} from "./Domain/Input.js"
import { logFailure } from "./Failure.js"
import { pathOf, type Route, routesOf } from "./Routes.js"

type ContractError = typeof Api extends HttpApi.HttpApi<infer _Id, infer _Groups, infer E, infer _R> ? E : never

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

/**
 * The body up to `maxBodyBytes`, however it is framed. Past the limit it stops listening but does
 * not destroy the stream: Node discards the rest of the body, and the client reads a 413 where a
 * destroyed socket would have given it a connection reset.
 */
const readBody = (source: IncomingMessage) =>
  Effect.async<Buffer, PayloadTooLarge>((resume) => {
    const chunks: Array<Buffer> = []
    let bytes = 0
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onAbort)
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > maxBodyBytes) {
        stop()
        resume(Effect.fail(tooLarge()))
      } else chunks.push(chunk)
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(Buffer.concat(chunks)))
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
  return Effect.flatMap(readBody(NodeHttpServerRequest.toIncomingMessage(request)), checkedBody)
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
  json: reader<"json">((request) => Effect.map(checkedBodyOf(request), ({ body }) => body)),
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

/**
 * Turns everything that is not a domain error into the section 7 body: undecodable paths and
 * bodies, decode failures, unknown routes, wrong methods and defects (their headers are
 * `contractHeadersFor`'s).
 */
export const errorContractFor = (api: typeof Api) =>
  HttpApiBuilder.middleware(
    api,
    Effect.sync(() => {
      const routes = routesOf(api)
      const allowedMethods = methodsFor(routes)
      const issuesOfPath = pathIssues(routes)
      return (httpApp: HttpApp.Default): HttpApp.Default<ContractError> =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const path = pathOf(request.url)
          const badPath = issuesOfPath(path)
          if (badPath.length > 0) return Effect.fail(new InvalidRequest({ issues: badPath }))
          // A GET, HEAD or OPTIONS payload is decoded from the query, never from a body (HttpMethod.hasBody).
          if (HttpMethod.hasBody(request.method)) jsonOnly(request)
          return httpApp.pipe(
            Effect.catchAllCause((cause) => {
              const failure = Cause.failureOption(cause as Cause.Cause<unknown>)
              if (Option.isSome(failure)) {
                const error: unknown = failure.value
                if (error instanceof HttpServerError.RouteNotFound) {
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
                  return Effect.fail(invalidRequestOf((error as HttpApiError.HttpApiDecodeError).issues))
                }
                return Effect.failCause(cause as Cause.Cause<ContractError>)
              }
              if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
              const defect = Cause.squash(cause)
              if (isBodyRefusal(defect)) return Effect.fail(defect)
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
