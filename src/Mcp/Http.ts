import { Effect, Layer, Option, Redacted, Result, type Scope } from "effect"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpServer from "effect/ai/McpServer"
import * as HttpEffect from "effect/http/HttpEffect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as RpcSerialization from "effect/rpc/RpcSerialization"
import * as RpcServer from "effect/rpc/RpcServer"
import { AppConfig } from "../AppConfig.js"
import { Bookings } from "../Bookings/Bookings.js"
import { CapabilitiesDocument } from "../Capabilities/Document.js"
import { bookingsSpecVersion, requestsSpecVersion } from "../Domain/Capabilities.js"
import { DatabaseUnavailable, MalformedJson } from "../Domain/Errors.js"
import { requestClientAddressOf } from "../Http/ClientAddress.js"
import { refusal as contractRefusal, jsonBody } from "../Http/ErrorContract.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import type { RouteBeside } from "../Http/Routes.js"
import { Authenticator, bearerTokenOf } from "../Partners/Authentication.js"
import { Requests } from "../Requests/Requests.js"
import { BookingSearch } from "../Search/Search.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import { capabilitiesOf } from "./CapabilitiesView.js"
import { instructionsFor, McpContractLive } from "./Contract.js"
import { OriginNotAllowed, ProtocolVersionMismatch, refusal, SessionNotFound, SessionRequired } from "./Errors.js"
import {
  cleanError,
  errorResponse,
  idOf,
  initializeIssues,
  invalidParamsError,
  invalidRequestError,
  isObject,
  isRequest,
  type JsonRpcError,
  type Message,
  messageIssues,
  methodNotFoundError,
  notJson,
  rejected,
  toolCallIssues,
  unofferedMethods
} from "./JsonRpc.js"
import { McpSessions, type SessionOwner } from "./Sessions.js"
import { inputSchemas, McpCaller, McpToolsLive } from "./Tools.js"

export const mcpPath = "/mcp"

/** The routes /mcp answers (its POST and DELETE below), for the server's route list (Http.ts gathers it). */
export const mcpRoutesBeside: ReadonlyArray<RouteBeside> = [
  ["POST", mcpPath],
  ["DELETE", mcpPath]
]

const serverInfo = {
  name: "home-service-booking-api",
  version: `${bookingsSpecVersion} / ${requestsSpecVersion}`
}

/** The protocol versions /mcp speaks, the newest first (a client offering another gets the newest). */
const protocols = [
  McpProtocol.v2025_11_25,
  McpProtocol.v2025_06_18,
  McpProtocol.v2025_03_26,
  McpProtocol.v2024_11_05
] as const
const protocolVersions: ReadonlyArray<string> = protocols.map((protocol) => protocol.protocolVersion)

const negotiated = (offered: unknown) =>
  typeof offered === "string" && protocolVersions.includes(offered) ? offered : protocolVersions[0]!

const isToolCall = (message: Message): message is Message & { readonly params: Record<string, unknown> } =>
  message.method === "tools/call" && isObject(message.params)

const decoder = new TextDecoder()

const jsonBodyOf = (response: HttpServerResponse.HttpServerResponse): unknown => {
  const body = response.body
  if (body._tag === "Uint8Array") return body.body.length === 0 ? undefined : JSON.parse(decoder.decode(body.body))
  if (body._tag === "Raw" && typeof body.body === "string") return JSON.parse(body.body)
  return undefined
}

const resultsOf = (body: unknown): ReadonlyArray<Record<string, unknown>> =>
  (Array.isArray(body) ? body : [body]).flatMap((message) =>
    isObject(message) && isObject(message.result) ? [message.result] : []
  )

/**
 * Each tool as tools/list gives it: its argument schema as generated (the transport's encoding
 * of a tool's JSON Schema reorders its keys), and no outputSchema (see docs/mcp.md).
 */
const listToolsAsGenerated = (body: unknown) => {
  for (const result of resultsOf(body).filter((result) => Array.isArray(result.tools))) {
    result.tools = (result.tools as Array<Record<string, unknown>>).map(
      ({ name, title, description, inputSchema, annotations, outputSchema: _, ...rest }) => {
        const input = inputSchemas.get(String(name)) ?? inputSchema
        return { name, title, description, inputSchema: input, annotations, ...rest }
      }
    )
  }
}

/** What the route answers itself instead of the transport: the methods it does not offer, and params it cannot take. */
const routeError = (message: Message): JsonRpcError | undefined => {
  const method = String(message.method)
  if (unofferedMethods.has(method)) return methodNotFoundError(method)
  if (method === "tools/call") {
    const issues = toolCallIssues(message.params)
    return issues.length > 0 ? invalidParamsError(method, issues) : undefined
  }
  return undefined
}

interface Caller {
  readonly token: Redacted.Redacted<string>
  readonly owner: SessionOwner
}

const databaseUnavailable = (safe_next_step: string) => refusal(new DatabaseUnavailable({ safe_next_step }))

/**
 * The /mcp route in front of McpServer's HTTP transport, which answers every POST on its own:
 * this adds what the Streamable HTTP transport asks of a server beside that (Origin check,
 * sessions, 202 for notifications, protocol version, JSON-RPC's error codes) and the service's own
 * rules (the partner token, sessions bounded per caller).
 *
 * Sessions are this route's, kept in PostgreSQL (McpSessions), so any instance serves any session.
 * Behind them each instance holds one session of the transport's own per protocol version, opened
 * on first use and shared by every caller's session of that version: the transport keeps nothing
 * of a caller (its tools read the caller from each request), so no caller's state lives in one
 * instance, and no caller can grow the transport's memory.
 */
const mcpRoutes = (
  httpApp: Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    never,
    Scope.Scope | HttpServerRequest.HttpServerRequest
  >
) =>
  HttpRouter.use((router) =>
    Effect.gen(function* () {
      const config = yield* AppConfig
      const authenticator = yield* Authenticator
      const sessions = yield* McpSessions
      const document = yield* CapabilitiesDocument
      const allowedOrigin = new URL(config.publicBaseUrl).origin

      /** A request to the transport, as a root of its own: its pre-response handlers are its own. */
      const internalPost = (body: unknown, headers: Record<string, string>) =>
        Effect.gen(function* () {
          let sent: HttpServerResponse.HttpServerResponse | undefined
          const request = HttpServerRequest.fromWeb(
            new Request(`http://mcp.invalid${mcpPath}`, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                accept: "application/json, text/event-stream",
                ...headers
              },
              body: JSON.stringify(body)
            })
          )
          yield* HttpEffect.toHandled(httpApp, (_, response) =>
            Effect.sync(() => {
              sent = response
            })
          ).pipe(
            Effect.provideService(HttpServerRequest.HttpServerRequest, request),
            Effect.provideService(McpCaller, { token: Redacted.make(""), request })
          )
          return sent
        })

      /** This instance's transport session for a protocol version, and what its initialize answered. */
      const transportSessions = new Map<
        string,
        Effect.Effect<{ readonly id: string; readonly result: Record<string, unknown> }>
      >()
      for (const version of protocolVersions) {
        const open = Effect.gen(function* () {
          const opened = yield* internalPost(
            {
              jsonrpc: "2.0",
              id: 0,
              method: "initialize",
              params: {
                protocolVersion: version,
                capabilities: {},
                clientInfo: { name: `${serverInfo.name} /mcp`, version: "1" }
              }
            },
            {}
          )
          const id = opened?.headers["mcp-session-id"]
          const [result] = opened === undefined ? [] : resultsOf(jsonBodyOf(opened))
          if (id === undefined || result === undefined) {
            return yield* Effect.die(new Error(`the MCP transport opened no session for ${version}`))
          }
          yield* internalPost({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": id })
          return { id, result }
        })
        transportSessions.set(version, yield* Effect.cached(open))
      }
      const transportSession = (version: string) => transportSessions.get(negotiated(version))!

      /** A page of another site must not reach /mcp through the user's browser (DNS rebinding). */
      const originRefusal = (request: HttpServerRequest.HttpServerRequest) => {
        const origin = request.headers.origin
        return origin === undefined || origin === allowedOrigin
          ? Option.none()
          : Option.some(
              refusal(
                new OriginNotAllowed({
                  issues: [`origin: ${origin} may not call ${mcpPath}`],
                  safe_next_step: `Connect from a server-side MCP client (no Origin header) or from ${allowedOrigin}.`
                })
              )
            )
      }

      /** The address of a caller without a token, by the rate limiter's rule. */
      const addressOf = requestClientAddressOf(config.trustProxy)

      /**
       * No token is an anonymous caller, who may use capabilities and search as over REST; a token
       * that does not authenticate is refused here with 401, as MCP's authorization rules ask, and
       * a foreign Origin before anything else.
       */
      const identify = Effect.fn("Mcp.identify")(function* (request: HttpServerRequest.HttpServerRequest) {
        const refused = originRefusal(request)
        if (Option.isSome(refused)) return Result.fail(refused.value)
        // Either header, the bearer first, as the REST middlewares take them.
        const tokens = [
          bearerTokenOf(request.headers),
          Redacted.make(request.headers["x-service-requests-token"] ?? "")
        ]
        const partner = yield* Effect.result(
          Effect.firstSuccessOf(
            tokens.map((token) => Effect.map(authenticator.requester(token), (partner) => ({ token, partner })))
          )
        )
        if (Result.isSuccess(partner)) {
          const owner: SessionOwner = { _tag: "Partner", partnerId: partner.success.partner.id }
          return Result.succeed<Caller>({ token: partner.success.token, owner })
        }
        const presented =
          request.headers.authorization !== undefined || request.headers["x-service-requests-token"] !== undefined
        if (presented && partner.failure._tag === "unauthorized") {
          return Result.fail(refusal(partner.failure, { "www-authenticate": 'Bearer realm="mcp"' }))
        }
        // The address of a caller without a token, by the rate limiter's rule.
        const owner: SessionOwner = { _tag: "Address", address: addressOf(request) }
        return Result.succeed<Caller>({ token: Redacted.make(""), owner })
      })

      /** The session the request names, if it is the caller's and alive. */
      const sessionOf = Effect.fn("Mcp.session")(function* (
        request: HttpServerRequest.HttpServerRequest,
        owner: SessionOwner
      ) {
        const id = request.headers["mcp-session-id"]
        if (id === undefined) {
          return Result.fail(
            refusal(
              new SessionRequired({
                issues: ["mcp-session-id: is required on every request but initialize"],
                safe_next_step: "Send initialize first, then the Mcp-Session-Id it returned on every request."
              })
            )
          )
        }
        const session = yield* Effect.result(sessions.use(id, owner))
        if (Result.isFailure(session)) {
          yield* logFailureWarning("MCP session look-up failed", session.failure)
          return Result.fail(
            databaseUnavailable("The database does not answer: send the same request again in a few seconds.")
          )
        }
        if (Option.isNone(session.success)) {
          return Result.fail(
            refusal(
              new SessionNotFound({
                issues: ["mcp-session-id: no live session with this id for this caller"],
                safe_next_step: "The session expired or was closed: initialize a new session."
              })
            )
          )
        }
        return Result.succeed(session.success.value)
      })

      /** initialize, answered here: the caller's session is opened in PostgreSQL, the transport's is shared. */
      const initialize = Effect.fn("Mcp.initialize")(function* (message: Message, owner: SessionOwner) {
        const id = idOf(message)
        if (!isRequest(message)) return HttpServerResponse.empty({ status: 202 })
        const issues = initializeIssues(message.params)
        if (issues.length > 0)
          return HttpServerResponse.jsonUnsafe(errorResponse(id, invalidParamsError("initialize", issues)))
        const version = negotiated((message.params as Record<string, unknown>).protocolVersion)
        const { result } = yield* transportSession(version)
        // The capabilities as this server has always declared them: it sends no log messages,
        // so Effect 4's `logging` capability is not offered.
        const { completions, prompts, resources, tools } = isObject(result.capabilities) ? result.capabilities : {}
        const answer = {
          protocolVersion: version,
          capabilities: { completions, prompts, resources, tools },
          serverInfo: result.serverInfo,
          instructions: instructionsFor(yield* capabilitiesOf(document))
        }
        const session = yield* Effect.result(sessions.open(owner, version))
        if (Result.isFailure(session)) {
          yield* logFailureWarning("MCP session could not be opened", session.failure)
          return databaseUnavailable(
            "The database does not answer: no session was opened; send initialize again in a few seconds."
          )
        }
        return HttpServerResponse.jsonUnsafe(
          { jsonrpc: "2.0", id, result: answer },
          { headers: { "mcp-session-id": session.success.id, "mcp-protocol-version": version } }
        )
      })

      const post = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const caller = yield* identify(request)
        if (Result.isFailure(caller)) return caller.failure
        const { owner, token } = caller.success

        // A body too large, of another media type or unstorable gets the contract's error body, as
        // on REST; one that is not JSON is JSON-RPC's parse error.
        const parsed = yield* Effect.result(jsonBody(request))
        if (Result.isFailure(parsed)) {
          return parsed.failure instanceof MalformedJson ? rejected(null, notJson) : contractRefusal(parsed.failure)
        }
        const body = parsed.success
        const issues = messageIssues(body)
        if (issues.length > 0) return rejected(Array.isArray(body) ? null : idOf(body), invalidRequestError(issues))
        const messages: ReadonlyArray<Message> = Array.isArray(body) ? body : [body]

        if (messages.length === 1 && messages[0]!.method === "initialize") return yield* initialize(messages[0]!, owner)

        const session = yield* sessionOf(request, owner)
        if (Result.isFailure(session)) return session.failure
        const version = request.headers["mcp-protocol-version"]
        if (version !== undefined && version !== session.success.protocolVersion) {
          return refusal(
            new ProtocolVersionMismatch({
              issues: [`mcp-protocol-version: the session agreed ${session.success.protocolVersion}, not ${version}`],
              safe_next_step: "Send the protocolVersion that initialize returned."
            })
          )
        }

        // What the route answers itself, and what goes on to the transport.
        const answered: Array<unknown> = []
        const forwarded: Array<Message> = []
        for (const message of messages) {
          const error = routeError(message)
          if (error === undefined) forwarded.push(message)
          else if (isRequest(message)) answered.push(errorResponse(idOf(message), error))
        }
        // McpSchema requires the tool arguments the protocol lets a client leave out.
        const complete = forwarded.map((message) =>
          isToolCall(message) && message.params.arguments === undefined
            ? { ...message, params: { ...message.params, arguments: {} } }
            : message
        )

        let response: HttpServerResponse.HttpServerResponse | undefined
        if (complete.length > 0) {
          const transport = yield* transportSession(session.success.protocolVersion)
          // The caller's session stands for the transport's shared one of its version.
          const { "mcp-session-id": _, ...headers } = request.headers
          const inner = HttpServerRequest.fromWeb(
            new Request(`http://mcp.invalid${mcpPath}`, {
              method: "POST",
              headers: { ...headers, "mcp-session-id": transport.id },
              body: JSON.stringify(Array.isArray(body) ? complete : complete[0])
            })
          )
          response = yield* httpApp.pipe(
            Effect.provideService(HttpServerRequest.HttpServerRequest, inner),
            Effect.provideService(McpCaller, { token, request })
          )
        }

        if (!messages.some(isRequest)) return HttpServerResponse.empty({ status: 202 })
        const fromTransport = response === undefined ? undefined : jsonBodyOf(response)
        const replies = [
          ...(fromTransport === undefined ? [] : Array.isArray(fromTransport) ? fromTransport : [fromTransport]),
          ...answered
        ]
        for (const reply of replies) {
          if (!isObject(reply) || reply.error === undefined) continue
          const { error, unexpected } = cleanError(reply.error)
          if (unexpected) yield* Effect.logWarning("MCP transport answered an error without a JSON-RPC code")
          reply.error = error
        }
        if (messages.some((message) => message.method === "tools/list")) listToolsAsGenerated(replies)
        return HttpServerResponse.jsonUnsafe(Array.isArray(body) ? replies : replies[0], {
          status: response?.status ?? 200,
          headers: response === undefined ? {} : { ...response.headers, "content-type": "application/json" }
        })
      })

      const del = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const caller = yield* identify(request)
        if (Result.isFailure(caller)) return caller.failure
        const session = yield* sessionOf(request, caller.success.owner)
        if (Result.isFailure(session)) return session.failure
        const closed = yield* Effect.result(sessions.close(session.success.id, caller.success.owner))
        if (Result.isFailure(closed)) {
          yield* logFailureWarning("MCP session could not be closed", closed.failure)
          return databaseUnavailable("The database does not answer: send DELETE again in a few seconds.")
        }
        return HttpServerResponse.empty({ status: 204 })
      })

      yield* router.add("POST", mcpPath, post)
      yield* router.add("DELETE", mcpPath, del)
    })
  )

/** The MCP endpoint at /mcp: the REST operations as tools on the same services, Schemas and limits. */
export const McpLive = Layer.unwrap(
  Effect.map(RpcServer.makeProtocolWithHttpEffect(), ({ httpEffect, protocol }) =>
    Layer.mergeAll(mcpRoutes(httpEffect), McpToolsLive, McpContractLive).pipe(
      Layer.provide(
        McpServer.layer({
          ...serverInfo,
          protocols: [...protocols]
        }).pipe(Layer.provide(Layer.succeed(RpcServer.Protocol, protocol)))
      )
    )
  )
).pipe(
  Layer.provide(RpcSerialization.layerJsonRpc()),
  // The same layers the REST groups are built with, so both share one instance of each (and one rate limit).
  Layer.provide([
    McpSessions.Default,
    Authenticator.Default,
    CapabilitiesDocument.Default,
    BookingSearch.Default,
    Bookings.Default,
    Requests.Default,
    RateLimiter.Default
  ])
)
