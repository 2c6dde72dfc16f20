import type { IncomingMessage } from "node:http"
import {
  type HttpApi,
  HttpApiBuilder,
  type HttpApiError,
  HttpApp,
  HttpMethod,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
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

const methodsFor = (routes: ReadonlyArray<Route>) => (path: string) =>
  routes.filter((route) => route.pattern.test(path)).map((route) => route.method)

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

/**
 * The request as the Api sees it: its body is read once, by `jsonBody`, and only as JSON. The
 * platform decodes a payload through `json` (or, for other content types, the other readers)
 * and turns their failures into defects, which the contract turns back into these refusals.
 *
 * The readers are defined on the platform's own request object, which serves this request only:
 * a wrapper whose prototype is the request (as this was) cost ~17 µs a request, the request object
 * turned into a prototype, and providing the wrapper in its place another context change.
 */
const jsonOnly = (request: HttpServerRequest.HttpServerRequest) => {
  // Read at most once, by whichever reader asks first; later readers get the same outcome.
  // A plain memo, not Effect.cached: that would start a fiber per request just to build it.
  let outcome: Exit.Exit<CheckedBody> | undefined
  const remember = (exit: Exit.Exit<CheckedBody>) => {
    outcome = exit
    return Effect.void
  }
  const checked = Effect.suspend(() => outcome ?? Effect.onExit(Effect.orDie(jsonBody(request)), remember))
  // Built only when a reader other than JSON is asked for: constructing the error is not free.
  const refused = Effect.suspend(() => Effect.die(notJson(request.headers["content-type"])))
  // A reader of the raw body (the MCP transport reads text) gets the same checked JSON.
  const bytes = Effect.map(checked, ({ bytes }) => bytes)
  const readers = {
    json: Effect.map(checked, ({ body }) => body),
    text: Effect.map(checked, ({ text }) => text),
    arrayBuffer: Effect.map(bytes, (b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer),
    stream: Stream.fromEffect(Effect.map(bytes, (b) => new Uint8Array(b))),
    urlParamsBody: refused,
    multipart: refused,
    multipartStream: Stream.fromEffect(refused)
  }
  for (const [name, value] of Object.entries(readers)) {
    Object.defineProperty(request, name, { value, writable: true, enumerable: true, configurable: true })
  }
}

/**
 * Turns everything that is not a domain error into the section 7 body: undecodable paths and
 * bodies, decode failures, unknown routes, wrong methods and defects. It also owns the headers
 * those statuses carry: `Allow` on every 405, `WWW-Authenticate` on every 401.
 */
export const errorContractFor = (api: typeof Api) =>
  HttpApiBuilder.middleware(
    api,
    Effect.sync(() => {
      const routes = routesOf(api)
      const allowedMethods = methodsFor(routes)
      const issuesOfPath = pathIssues(routes)
      // One handler for every request: it reads the path off the request when it needs it.
      const contractHeaders = (
        request: HttpServerRequest.HttpServerRequest,
        response: HttpServerResponse.HttpServerResponse
      ) =>
        Effect.succeed(
          response.status === 405
            ? HttpServerResponse.setHeader(response, "allow", allowHeader(allowedMethods(pathOf(request.url))))
            : response.status === 401
              ? HttpServerResponse.setHeader(response, "www-authenticate", authenticateChallenge)
              : response.status === 503 && response.headers["retry-after"] === undefined
                ? HttpServerResponse.setHeader(response, "retry-after", String(retryAfterSeconds))
                : response
        )
      return (httpApp: HttpApp.Default): HttpApp.Default<ContractError> =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const path = pathOf(request.url)
          yield* HttpApp.appendPreResponseHandler(contractHeaders)
          const badPath = issuesOfPath(path)
          if (badPath.length > 0) return yield* new InvalidRequest({ issues: badPath })
          // A GET, HEAD or OPTIONS payload is decoded from the query, never from a body (HttpMethod.hasBody).
          if (HttpMethod.hasBody(request.method)) jsonOnly(request)
          return yield* httpApp.pipe(
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
