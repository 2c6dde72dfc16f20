import { Cause, Clock, Context, Effect, Option, type Redacted, Schema } from "effect"
import * as McpSchema from "effect/ai/McpSchema"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import type { Bookings } from "../Bookings/Bookings.js"
import type { Changes } from "../Bookings/Changes.js"
import type { CapabilitiesDocument } from "../Capabilities/Document.js"
import { InternalError } from "../Domain/Errors.js"
import { inputParseOptions } from "../Domain/Input.js"
import { issuesOf } from "../Domain/Issues.js"
import { CurrentSurface, mcpSurface } from "../Domain/Surface.js"
import type { Holds } from "../Holds/Holds.js"
import { invalidRequestOf } from "../Http/ErrorContract.js"
import type { RateLimiter } from "../Http/RateLimiter.js"
import type { Authenticator } from "../Partners/Authentication.js"
import type { Requests } from "../Requests/Requests.js"
import type { BookingSearch } from "../Search/Search.js"
import type { BookingOptions } from "../Shared/BookingOptions.js"
import type { Calendar } from "../Shared/Calendar.js"
import { logFailure } from "../Shared/FailureSummary.js"
import type { OptionSigner } from "../Shared/OptionSigner.js"
import { wireError } from "./Errors.js"
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

/**
 * @effect/rpc runs a handler with the context of the HTTP request that carried it, so the caller
 * the /mcp route provides is there; McpServer's handler type has no room to say so.
 */
export const currentCaller: Effect.Effect<McpCaller["Service"]> = Effect.flatMap(
  Effect.serviceOption(McpCaller),
  Option.match({
    onNone: () => Effect.die(new Error("an MCP tool was called outside the /mcp route")),
    onSome: Effect.succeed
  })
)

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
export const releasing: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false
}

/** One tool: what tools/list says of it, and how a call is decoded, run and answered. */
export interface ToolDefinition<S extends Schema.Top, B> {
  readonly title: string
  /** The REST operation it is the MCP form of, when it has one. */
  readonly rest?: string
  readonly description: string
  readonly input: S
  /** Arguments the REST body may leave to a header, required here (a tool call has no headers). */
  readonly alsoRequired?: ReadonlyArray<string>
  readonly annotations: ToolAnnotations
  readonly run: (args: S["Type"]) => Effect.Effect<B, { readonly _tag: string }, ToolServices>
  readonly present: (body: B) => Presented
}

export interface Tool {
  readonly title: string
  readonly rest: string | undefined
  readonly description: string
  readonly inputSchema: Record<string, unknown>
  readonly annotations: ToolAnnotations
  readonly handle: (args: unknown) => Effect.Effect<McpSchema.CallToolResult, never, ToolServices>
}

/** The 400 `invalid_request` body REST gives for the same body (see the error contract). */
const invalidArguments = (error: Schema.SchemaError) => invalidRequestOf(issuesOf(error.issue))

const decodeArguments = <S extends Schema.Top>(schema: S, args: unknown) =>
  Effect.mapError(
    Schema.decodeUnknownEffect(schema as unknown as Schema.Codec<S["Type"], unknown>)(
      args,
      inputParseOptions
    ) as Effect.Effect<S["Type"], Schema.SchemaError>,
    invalidArguments
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

const resultOf = (presented: Presented, isError: boolean) =>
  new McpSchema.CallToolResult({
    ...(isError ? { isError: true } : {}),
    content: [{ type: "text", text: presented.text }],
    structuredContent: stepSaidOnce(presented)
  })

/** A failure as a tool error: the REST error body, its step naming tools (CurrentSurface). */
const failed = (cause: Cause.Cause<{ readonly _tag: string }>): Effect.Effect<McpSchema.CallToolResult> => {
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
  rest: definition.rest,
  description: definition.description,
  inputSchema: argumentsSchema(definition.input, definition.alsoRequired ?? []),
  annotations: definition.annotations,
  handle: (args) =>
    decodeArguments(definition.input, args).pipe(
      Effect.flatMap(definition.run),
      Effect.map((body) => resultOf(definition.present(body), false)),
      Effect.provideService(CurrentSurface, mcpSurface),
      Effect.catchCause(failed)
    )
})
