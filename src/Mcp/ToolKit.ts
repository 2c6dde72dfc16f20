import { Cause, Clock, Context, Effect, Option, type Redacted, Schema } from "effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import type { Bookings } from "../Bookings/Bookings.js"
import type { Changes } from "../Bookings/Changes.js"
import type { CapabilitiesDocument } from "../Capabilities/Document.js"
import { type AuthNotConfigured, InternalError, type Unauthorized } from "../Domain/Errors.js"
import { inputParseOptions } from "../Domain/Input.js"
import { issuesOf } from "../Domain/Issues.js"
import { Partner } from "../Domain/Partner.js"
import { CurrentSurface, mcpSurface } from "../Domain/Surface.js"
import type { Holds } from "../Holds/Holds.js"
import { invalidRequestOf, wireError } from "../Http/ErrorContract.js"
import type { RateLimiter } from "../Http/RateLimiter.js"
import { Authentication, RequestAuthentication } from "../Partners/AuthApi.js"
import { Authenticator } from "../Partners/Authentication.js"
import type { Requests } from "../Requests/Requests.js"
import type { BookingSearch } from "../Search/Search.js"
import type { BookingOptions } from "../Shared/BookingOptions.js"
import type { Calendar } from "../Shared/Calendar.js"
import { logFailure } from "../Shared/FailureSummary.js"
import type { OptionSigner } from "../Shared/OptionSigner.js"
import { type Presented, presentAsIs } from "./Present.js"
import { argumentsSchema } from "./Schemas.js"

/** Who sent the MCP HTTP request a tool call arrived on. */
export class McpCaller extends Context.Service<
  McpCaller,
  {
    /** The token presented on the request; empty when none was. */
    readonly token: Redacted.Redacted<string>
    readonly request: HttpServerRequest.HttpServerRequest
  }
>()("Booking/McpCaller") {}

export const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

/** The services the tools run on: the app's own, shared with REST. */
export type ToolServices =
  | Authenticator
  | BookingOptions
  | BookingSearch
  | Bookings
  | CapabilitiesDocument
  | Calendar
  | Changes
  | Holds
  | OptionSigner
  | RateLimiter
  | Requests

export interface ToolAnnotations {
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
}

/** Reads this service's own data: safe to call again, reaches no provider. */
export const readOnly: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
}
/** A write that is safe to retry only with the same idempotency_key, and reaches real providers. */
export const write: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: true
}
/**
 * Takes a searched time from other partners for a few minutes: no provider is told and nothing is
 * booked, so not destructive; a retry with the same idempotency_key answers the same hold.
 */
export const holding: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
}
/** Gives a held time back to everyone: nothing booked is undone, and a second release changes nothing. */
export const releasing: ToolAnnotations = holding

/** What a tool reads of the HttpApiEndpoint it is the MCP form of. */
export interface RestEndpoint {
  readonly method: string
  readonly path: string
  readonly middlewares: ReadonlySet<unknown>
}

/**
 * The schema an endpoint decodes its JSON body with, for a tool that takes the endpoint's body as
 * its arguments: the same object REST decodes with, so both refuse the same input the same way.
 */
export const payloadOf = <P extends Schema.Top>(endpoint: {
  readonly "~Payload": P
  readonly payload: HttpApiEndpoint.PayloadMap
}): P => {
  const json = endpoint.payload.get("application/json")
  if (json === undefined) throw new Error("the endpoint takes no JSON body")
  return json.schemas[0] as P
}

/** One tool: what tools/list says of it, and how a call is decoded, run and answered. */
export interface ToolDefinition<S extends Schema.Top, B> {
  readonly title: string
  /**
   * The REST endpoint it is the MCP form of, when it has one: its path names the tool in the
   * contract's texts, and its authentication middleware says which partner check the call gets.
   */
  readonly endpoint?: RestEndpoint
  readonly description: string
  /** The endpoint's own body schema (with its path parameters where it has them). */
  readonly input: S
  /** Arguments the REST body may leave to a header, required here (a tool call has no headers). */
  readonly alsoRequired?: ReadonlyArray<string>
  readonly annotations: ToolAnnotations
  /** Runs as the endpoint's handler does: with the Partner its authentication provides, when it has one. */
  readonly run: (args: S["Type"]) => Effect.Effect<B, { readonly _tag: string }, ToolServices | McpCaller | Partner>
  readonly present: (body: B) => Presented
}

export interface Tool {
  readonly title: string
  readonly rest: string | undefined
  readonly description: string
  readonly inputSchema: Record<string, unknown>
  readonly annotations: ToolAnnotations
  readonly handle: (args: unknown) => Effect.Effect<ToolResult, never, ToolServices | McpCaller>
}

/** `POST /api/public/bookings/{booking_id}/cancel`, as the contract's texts name an endpoint. */
const restOf = (endpoint: RestEndpoint) => `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`

/**
 * The endpoint's authentication, as its middleware would run it: the Authenticator of the REST
 * middlewares, given the token the /mcp route identified the caller by (either header, as the
 * middleware reads them). Request creation's middleware answers an unconfigured server with 503,
 * the others with 401.
 */
const authenticated = <A, E, R>(
  endpoint: RestEndpoint | undefined,
  run: Effect.Effect<A, E, R | Partner>
): Effect.Effect<A, E | Unauthorized | AuthNotConfigured, R | Authenticator | McpCaller> => {
  const middleware = [RequestAuthentication, Authentication].find((key) => endpoint?.middlewares.has(key))
  // An endpoint without authentication middleware provides no Partner, so its tool reads none.
  if (middleware === undefined) return run as Effect.Effect<A, E, R>
  const partner = Effect.gen(function* () {
    const { token } = yield* McpCaller
    const authenticator = yield* Authenticator
    return yield* middleware === RequestAuthentication ? authenticator.requester(token) : authenticator.partner(token)
  })
  return Effect.provideServiceEffect(run, Partner, partner)
}

const decodeArguments = <S extends Schema.Top>(schema: S, args: unknown) =>
  Effect.mapError(
    Schema.decodeUnknownEffect(schema as unknown as Schema.Codec<S["Type"], unknown>)(
      args,
      inputParseOptions
    ) as Effect.Effect<S["Type"], Schema.SchemaError>,
    // The 400 REST gives for the same body.
    (error) => invalidRequestOf(issuesOf(error.issue))
  )

/**
 * A result's step is said once, in the text the model reads (a tool without an outputSchema is
 * read from its content); structuredContent keeps the flags and ids a program acts on. A body
 * kept as REST gives it (an error, a follow-up request) stays whole.
 */
const stepSaidOnce = ({ structured, text, whole }: Presented): Record<string, unknown> => {
  if (whole === true) return structured
  const { safe_next_step: step, ...rest } = structured
  return typeof step === "string" && text.includes(`Next: ${step}`) ? rest : structured
}

/** A tools/call result as MCP's CallToolResult reads. */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: "text"; readonly text: string }>
  readonly structuredContent: Record<string, unknown>
  readonly isError?: true
}

const resultOf = (presented: Presented, isError: boolean): ToolResult => ({
  content: [{ type: "text", text: presented.text }],
  structuredContent: stepSaidOnce(presented),
  ...(isError ? { isError: true } : {})
})

/** A failure as a tool error: the REST error body, its step naming tools (CurrentSurface). */
const failed = (cause: Cause.Cause<{ readonly _tag: string }>): Effect.Effect<ToolResult> => {
  if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
  const failure = Cause.findErrorOption(cause)
  const error: Effect.Effect<{ readonly _tag: string }> = Option.isSome(failure)
    ? Effect.succeed(failure.value)
    : Effect.as(
        logFailure("unexpected defect in an MCP tool", cause),
        new InternalError({ safe_next_step: "Retry later; if it persists, contact the operator." })
      )
  return Effect.map(error, (error) => resultOf(presentAsIs(wireError(error) as Record<string, unknown>), true))
}

export const defineTool = <S extends Schema.Top, B>(definition: ToolDefinition<S, B>): Tool => ({
  title: definition.title,
  rest: definition.endpoint === undefined ? undefined : restOf(definition.endpoint),
  description: definition.description,
  inputSchema: argumentsSchema(definition.input, definition.alsoRequired ?? []),
  annotations: definition.annotations,
  handle: (args) =>
    decodeArguments(definition.input, args).pipe(
      Effect.flatMap((args) => authenticated(definition.endpoint, definition.run(args))),
      Effect.map((body) => resultOf(definition.present(body), false)),
      Effect.provideService(CurrentSurface, mcpSurface),
      Effect.catchCause(failed)
    )
})
