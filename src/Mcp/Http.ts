import type { Config } from "effect"
import { Effect, Layer, Option, Redacted, Result, type Schema } from "effect"
import * as McpProtocol from "effect/ai/McpProtocol"
import * as McpSchema from "effect/ai/McpSchema"
import * as McpServer from "effect/ai/McpServer"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import type * as SqlClient from "effect/sql/SqlClient"
import { AppConfig } from "../AppConfig.js"
import { CapabilitiesDocument } from "../Capabilities/Document.js"
import { bookingsSpecVersion, requestsSpecVersion } from "../Domain/Capabilities.js"
import { DatabaseUnavailable, MalformedJson } from "../Domain/Errors.js"
import { requestClientAddressOf } from "../Http/ClientAddress.js"
import { jsonBody, refusal } from "../Http/ErrorContract.js"
import type { RouteBeside } from "../Http/Routes.js"
import { Authenticator, bearerTokenOf } from "../Partners/Authentication.js"
import { logFailure, logFailureWarning } from "../Shared/FailureSummary.js"
import { capabilitiesOf } from "./CapabilitiesView.js"
import { instructionsFor, McpContractLive } from "./Contract.js"
import { OriginNotAllowed, ProtocolVersionMismatch, SessionNotFound, SessionRequired } from "./Errors.js"
import {
  cleanError,
  errorResponse,
  idOf,
  initializeIssues,
  internal,
  invalidParamsError,
  invalidRequestError,
  isRequest,
  type JsonRpcError,
  type Message,
  messageIssues,
  methodNotFoundError,
  notJson,
  paramsIssues,
  rejected,
  toolCallIssues
} from "./JsonRpc.js"
import { McpSessions, type Session, type SessionOwner } from "./Sessions.js"
import { McpCaller, type ToolServices } from "./ToolKit.js"
import { bookingTools, ToolServicesLive } from "./Tools.js"

const mcpPath = "/mcp"

/** The routes /mcp answers, for the server's route list. */
export const mcpRoutesBeside: ReadonlyArray<RouteBeside> = [
  ["POST", mcpPath],
  ["DELETE", mcpPath]
]

const serverInfo = {
  name: "home-service-booking-api",
  version: `${bookingsSpecVersion} / ${requestsSpecVersion}`
}

/** The protocol versions /mcp speaks, the newest first (a client offering another gets the newest). */
const protocolVersions: ReadonlyArray<McpProtocol.StatefulProtocolVersion> = [
  McpProtocol.v2025_11_25,
  McpProtocol.v2025_06_18,
  McpProtocol.v2025_03_26,
  McpProtocol.v2024_11_05
].map((protocol) => protocol.protocolVersion)

const negotiated = (offered: unknown) => protocolVersions.find((version) => version === offered) ?? protocolVersions[0]!

/** Tools, one resource and one prompt; no `logging` (it sends none) and no resource subscriptions. */
const capabilities = {
  completions: {},
  prompts: { listChanged: true },
  resources: { subscribe: false, listChanged: true },
  tools: { listChanged: true }
}

/** Each tool as tools/list gives it: its argument schema as generated, and no outputSchema (see docs/mcp.md). */
const toolList = Object.entries(bookingTools).map(([name, { title, description, inputSchema, annotations }]) => ({
  name,
  title,
  description,
  inputSchema,
  annotations
}))

interface Caller {
  readonly token: Redacted.Redacted<string>
  readonly owner: SessionOwner
}

const databaseUnavailable = (safe_next_step: string) => refusal(new DatabaseUnavailable({ safe_next_step }))

/** A method's params, decoded with the schema McpSchema gives its request; -32602 naming what is wrong. */
const decodeParams = <S extends Schema.Top>(method: string, schema: S, params: unknown) => {
  const issues = paramsIssues(schema, params ?? {})
  return issues.length > 0
    ? Effect.fail(invalidParamsError(method, issues))
    : Effect.succeed((params ?? {}) as S["Type"])
}

/** A call of McpServer's registrations: a failure with JSON-RPC's standard members only, a defect as -32603. */
const inProcess = <A, E>(
  effect: Effect.Effect<A, E, McpSchema.McpServerClient>,
  client: McpSchema.McpServerClient["Service"]
) =>
  effect.pipe(
    Effect.provideService(McpSchema.McpServerClient, client),
    Effect.mapError(cleanError),
    Effect.catchDefect((defect) =>
      Effect.andThen(logFailure("unexpected defect in an MCP method", defect), Effect.fail(internal))
    )
  )

/**
 * The /mcp route answers the Streamable HTTP transport itself (Origin check, sessions, 202 for
 * notifications, protocol versions, JSON-RPC's error codes). Sessions are kept in PostgreSQL, so
 * any instance serves any session; a tool call runs in this request, on REST's services.
 */
const mcpRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const authenticator = yield* Authenticator
    const sessions = yield* McpSessions
    const document = yield* CapabilitiesDocument
    const server = yield* McpServer.McpServer
    const services = yield* Effect.context<ToolServices>()
    const allowedOrigin = new URL(config.publicBaseUrl).origin

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
      const tokens = [bearerTokenOf(request.headers), Redacted.make(request.headers["x-service-requests-token"] ?? "")]
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

    const initialize = Effect.fn("Mcp.initialize")(function* (message: Message, owner: SessionOwner) {
      const id = idOf(message)
      if (!isRequest(message)) return HttpServerResponse.empty({ status: 202 })
      const issues = initializeIssues(message.params)
      if (issues.length > 0)
        return HttpServerResponse.jsonUnsafe(errorResponse(id, invalidParamsError("initialize", issues)))
      const version = negotiated((message.params as Record<string, unknown>).protocolVersion)
      const answer = {
        protocolVersion: version,
        capabilities,
        serverInfo,
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

    /** The client McpServer's registrations are called for: the session's, which keeps only its version. */
    const clientOf = (session: Session) => {
      const clientInfo = { name: "mcp-session", version: "1" }
      return McpSchema.McpServerClient.of({
        clientId: 0,
        protocolVersion: negotiated(session.protocolVersion),
        clientCapabilities: {},
        clientInfo,
        initializePayload: { protocolVersion: session.protocolVersion, capabilities: {}, clientInfo },
        getClient: Effect.die(new Error("this server sends the client no requests"))
      })
    }

    const resultOf = (
      message: Message,
      session: Session,
      caller: Caller,
      request: HttpServerRequest.HttpServerRequest
    ): Effect.Effect<unknown, JsonRpcError> => {
      const method = String(message.method)
      const { params } = message
      const client = clientOf(session)
      switch (method) {
        case "ping":
          return Effect.succeed({})
        case "tools/list":
          return Effect.as(decodeParams(method, McpSchema.ListTools.payloadSchema, params), { tools: toolList })
        case "tools/call": {
          const issues = toolCallIssues(params)
          if (issues.length > 0) return Effect.fail(invalidParamsError(method, issues))
          const { name, arguments: args } = params as { readonly name: string; readonly arguments?: unknown }
          if (!Object.hasOwn(bookingTools, name))
            return Effect.fail(invalidParamsError(method, [`Tool '${name}' not found`]))
          return bookingTools[name]!.handle(args ?? {}).pipe(
            Effect.provideService(McpCaller, { token: caller.token, request }),
            Effect.provideContext(services)
          )
        }
        case "resources/list":
          return Effect.as(decodeParams(method, McpSchema.ListResources.payloadSchema, params), {
            resources: server.resources.map(({ resource }) => resource)
          })
        case "resources/templates/list":
          return Effect.as(decodeParams(method, McpSchema.ListResourceTemplates.payloadSchema, params), {
            resourceTemplates: server.resourceTemplates.map(({ template }) => template)
          })
        case "resources/read":
          return Effect.flatMap(decodeParams(method, McpSchema.ReadResource.payloadSchema, params), ({ uri }) =>
            inProcess(server.findResource(uri), client)
          )
        case "prompts/list":
          return Effect.as(decodeParams(method, McpSchema.ListPrompts.payloadSchema, params), {
            prompts: server.prompts.map(({ prompt }) => prompt)
          })
        case "prompts/get":
          return Effect.flatMap(decodeParams(method, McpSchema.GetPrompt.payloadSchema, params), (get) =>
            inProcess(server.getPromptResult(get), client)
          )
        case "completion/complete":
          return Effect.flatMap(decodeParams(method, McpSchema.Complete.payloadSchema, params), (complete) =>
            inProcess(server.completion(complete), client)
          )
        default:
          return Effect.fail(methodNotFoundError(method))
      }
    }

    const post = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const caller = yield* identify(request)
      if (Result.isFailure(caller)) return caller.failure

      // A body too large, of another media type or unstorable gets the contract's error body, as
      // on REST; one that is not JSON is JSON-RPC's parse error.
      const parsed = yield* Effect.result(jsonBody(request))
      if (Result.isFailure(parsed)) {
        return parsed.failure instanceof MalformedJson ? rejected(null, notJson) : refusal(parsed.failure)
      }
      const body = parsed.success
      const issues = messageIssues(body)
      if (issues.length > 0) return rejected(Array.isArray(body) ? null : idOf(body), invalidRequestError(issues))
      const messages: ReadonlyArray<Message> = Array.isArray(body) ? body : [body]

      if (messages.length === 1 && messages[0]!.method === "initialize") {
        return yield* initialize(messages[0]!, caller.success.owner)
      }

      const session = yield* sessionOf(request, caller.success.owner)
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

      // Notifications are never answered; every request is, in the order sent.
      const replies = yield* Effect.forEach(messages.filter(isRequest), (message) =>
        resultOf(message, session.success, caller.success, request).pipe(
          Effect.match({
            onSuccess: (result) => ({ jsonrpc: "2.0", id: idOf(message), result }),
            onFailure: (error) => errorResponse(idOf(message), error)
          })
        )
      )
      if (replies.length === 0) return HttpServerResponse.empty({ status: 202 })
      return HttpServerResponse.jsonUnsafe(Array.isArray(body) ? replies : replies[0])
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

/** Its type names all it needs from the app, so a service the tools use without its layer here fails to compile. */
export const McpLive: Layer.Layer<never, Config.ConfigError, AppConfig | SqlClient.SqlClient | HttpRouter.HttpRouter> =
  Layer.mergeAll(mcpRoutes, McpContractLive).pipe(
    Layer.provide(McpServer.McpServer.layer),
    Layer.provide([McpSessions.Default, ToolServicesLive])
  )
