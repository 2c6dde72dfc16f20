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
import { InvalidRequest } from "../Domain/Errors.js"
import { requestClientAddressOf } from "../Http/ClientAddress.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Authenticator, bearerTokenOf } from "../Partners/Authentication.js"
import { Requests } from "../Requests/Requests.js"
import { BookingSearch } from "../Search/Search.js"
import { capabilitiesOf, instructionsFor, McpContractLive } from "./Contract.js"
import { OriginNotAllowed, ProtocolVersionMismatch, refusal, SessionNotFound, SessionRequired } from "./Errors.js"
import { McpSessions } from "./Sessions.js"
import { inputSchemas, McpCaller, McpToolsLive, outputSchemas } from "./Tools.js"

export const mcpPath = "/mcp"

const serverInfo = {
  name: "home-service-booking-api",
  version: `${bookingsSpecVersion} / ${requestsSpecVersion}`
}

type Message = { readonly method?: unknown; readonly id?: unknown; readonly params?: unknown }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const isRequest = (message: Message) => typeof message.method === "string" && message.id !== undefined

const isToolCall = (message: Message): message is Message & { readonly params: Record<string, unknown> } =>
  message.method === "tools/call" && isObject(message.params)

/** What the JSON-RPC codec cannot read, said in the REST way rather than as its garbled defect. */
const messageIssues = (messages: ReadonlyArray<unknown>) =>
  messages.flatMap((message, index) => {
    const at = messages.length > 1 ? `[${index}].` : ""
    if (!isObject(message) || message.jsonrpc !== "2.0") return [`${at}jsonrpc: must be a JSON-RPC 2.0 message`]
    // JSON-RPC ids are strings or integers; Effect 4's codec answers both.
    return message.id !== undefined && typeof message.id !== "string" && !Number.isSafeInteger(message.id)
      ? [`${at}id: must be a string or an integer`]
      : []
  })

const decoder = new TextDecoder()

const jsonBodyOf = (response: HttpServerResponse.HttpServerResponse): unknown => {
  const body = response.body
  if (body._tag === "Uint8Array") return JSON.parse(decoder.decode(body.body))
  if (body._tag === "Raw" && typeof body.body === "string") return JSON.parse(body.body)
  return undefined
}

const resultsOf = (body: unknown): ReadonlyArray<Record<string, unknown>> =>
  (Array.isArray(body) ? body : [body]).flatMap((message) =>
    isObject(message) && isObject(message.result) ? [message.result] : []
  )

/**
 * Each tool as tools/list has always given it: its schemas as generated (the transport's encoding
 * of a tool's JSON Schema reorders its keys), its output schema last.
 */
const toolsAsListed = (response: HttpServerResponse.HttpServerResponse) => {
  const body = jsonBodyOf(response)
  const lists = resultsOf(body).filter((result) => Array.isArray(result.tools))
  for (const result of lists) {
    result.tools = (result.tools as Array<Record<string, unknown>>).map(
      ({ name, title, description, inputSchema, annotations, outputSchema, ...rest }) => {
        const input = inputSchemas.get(String(name)) ?? inputSchema
        const output = outputSchemas.get(String(name)) ?? outputSchema
        return { name, title, description, inputSchema: input, annotations, ...rest, outputSchema: output }
      }
    )
  }
  return lists.length === 0 ? response : HttpServerResponse.jsonUnsafe(body)
}

/**
 * The /mcp route in front of McpServer's HTTP transport, which answers every POST on its own:
 * this adds what the Streamable HTTP transport asks of a server beside that (Origin check,
 * sessions, 202 for notifications, protocol version) and the service's own rules (the partner
 * token, sessions bounded per caller).
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
          return Result.succeed({ token: partner.success.token, owner: `partner:${partner.success.partner.id}` })
        }
        const presented =
          request.headers.authorization !== undefined || request.headers["x-service-requests-token"] !== undefined
        if (presented && partner.failure._tag === "unauthorized") {
          return Result.fail(refusal(partner.failure, { "www-authenticate": 'Bearer realm="mcp"' }))
        }
        return Result.succeed({ token: Redacted.make(""), owner: `address:${addressOf(request)}` })
      })

      /** The session the request names, if it is the caller's and alive. */
      const sessionOf = Effect.fn("Mcp.session")(function* (
        request: HttpServerRequest.HttpServerRequest,
        owner: string
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
        const session = yield* sessions.use(id, owner)
        if (Option.isNone(session)) {
          return Result.fail(
            refusal(
              new SessionNotFound({
                issues: ["mcp-session-id: no live session with this id for this caller"],
                safe_next_step: "The session expired or was closed: initialize a new session."
              })
            )
          )
        }
        return Result.succeed(session.value)
      })

      const post = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const caller = yield* identify(request)
        if (Result.isFailure(caller)) return caller.failure
        const { owner, token } = caller.success

        // A body that is not JSON or too large is the error contract's to answer, as on REST.
        const body: unknown = yield* Effect.orDie(request.json)
        const messages: ReadonlyArray<Message> = Array.isArray(body) ? body : [body]
        const issues = messageIssues(messages)
        if (issues.length > 0) return refusal(new InvalidRequest({ issues }))

        const initialize = messages.length === 1 && messages[0]?.method === "initialize"
        let transportId: string | undefined
        if (!initialize) {
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
          transportId = session.success.transportId
        }

        // McpSchema requires the tool arguments the protocol lets a client leave out.
        const complete = messages.map((message) =>
          isToolCall(message) && message.params.arguments === undefined
            ? { ...message, params: { ...message.params, arguments: {} } }
            : message
        )
        // The transport's own session stands behind the caller's: it is named to the transport.
        const { "mcp-session-id": _, ...headers } = request.headers
        const forwarded = HttpServerRequest.fromWeb(
          new Request(`http://mcp.invalid${mcpPath}`, {
            method: "POST",
            headers: { ...headers, ...(transportId === undefined ? {} : { "mcp-session-id": transportId }) },
            body: JSON.stringify(Array.isArray(body) ? complete : complete[0])
          })
        )
        const response = yield* httpApp.pipe(
          Effect.provideService(HttpServerRequest.HttpServerRequest, forwarded),
          Effect.provideService(McpCaller, { token, request })
        )

        if (!messages.some(isRequest)) return HttpServerResponse.empty({ status: 202 })
        if (initialize) {
          const answer = jsonBodyOf(response)
          const [result] = resultsOf(answer)
          if (result === undefined || typeof result.protocolVersion !== "string") {
            yield* Effect.logWarning(`MCP initialize answered no protocolVersion (${response.body._tag} body)`)
            return response
          }
          // The capabilities as this server has always declared them: it sends no log messages,
          // so Effect 4's `logging` capability is not offered.
          if (isObject(result.capabilities)) {
            const { completions, prompts, resources, tools } = result.capabilities
            result.capabilities = { completions, prompts, resources, tools }
          }
          const session = yield* sessions.open(owner, result.protocolVersion)
          result.instructions = instructionsFor(yield* capabilitiesOf(document))
          // Effect 4's transport names a session of its own in a pre-response handler; the
          // session a caller gets is this route's (bound to its owner, bounded per caller).
          yield* HttpEffect.appendPreResponseHandler((_, sent) => {
            session.transportId = sent.headers["mcp-session-id"]
            return Effect.succeed(HttpServerResponse.setHeader(sent, "mcp-session-id", session.id))
          })
          return HttpServerResponse.jsonUnsafe(answer)
        }
        return messages.some((message) => message.method === "tools/list") ? toolsAsListed(response) : response
      })

      const del = Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const caller = yield* identify(request)
        if (Result.isFailure(caller)) return caller.failure
        const session = yield* sessionOf(request, caller.success.owner)
        if (Result.isFailure(session)) return session.failure
        yield* sessions.close(session.success.id, caller.success.owner)
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
          protocols: [McpProtocol.v2025_06_18, McpProtocol.v2025_03_26, McpProtocol.v2024_11_05]
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
