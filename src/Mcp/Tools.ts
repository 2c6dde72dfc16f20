import { Cause, Clock, Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import * as McpSchema from "effect/ai/McpSchema"
import * as McpServer from "effect/ai/McpServer"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { BookingStatusPath } from "../Bookings/Api.js"
import { Bookings } from "../Bookings/Bookings.js"
import { Changes } from "../Bookings/Changes.js"
import { CapabilitiesDocument } from "../Capabilities/Document.js"
import { BookingConfirmationRequest, BookingConfirmationResponse, BookingStatusResponse } from "../Domain/Booking.js"
import {
  CancelBookingArguments,
  CancelBookingResponse,
  RescheduleBookingArguments,
  RescheduleBookingResponse,
  ReschedulePreview
} from "../Domain/BookingChange.js"
import { Capabilities } from "../Domain/Capabilities.js"
import { ErrorBodyFields, InternalError } from "../Domain/Errors.js"
import { inputParseOptions } from "../Domain/Input.js"
import { issuesOf } from "../Domain/Issues.js"
import {
  RequestStatusPath,
  ServiceRequestCreate,
  ServiceRequestResponse,
  ServiceRequestStatusResponse
} from "../Domain/Request.js"
import { BookingSearchRequest, BookingSearchResponse } from "../Domain/Search.js"
import { CurrentSurface, mcpSurface } from "../Domain/Surface.js"
import { invalidRequestOf } from "../Http/ErrorContract.js"
import { cleanJsonSchema } from "../Http/OpenApiDocument.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Authenticator } from "../Partners/Authentication.js"
import { Requests } from "../Requests/Requests.js"
import { BookingSearch } from "../Search/Search.js"
import { logFailure } from "../Shared/FailureSummary.js"
import { wireError } from "./Errors.js"

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
const currentCaller: Effect.Effect<McpCaller["Service"]> = Effect.flatMap(
  Effect.serviceOption(McpCaller),
  Option.match({
    onNone: () => Effect.die(new Error("an MCP tool was called outside the /mcp route")),
    onSome: Effect.succeed
  })
)

const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key]) => key !== "$id")
            .map(([key, inner]) => [key, withoutIds(inner)])
        )
      : value

/**
 * The JSON Schema of a tool's arguments or result, generated as the OpenAPI document's is. MCP
 * wants an object at the root (also for a union of objects), and Effect's `$id`s are dropped:
 * clients compile every tool's schema into one validator, which refuses an `$id` seen twice.
 * Cleaned as the OpenAPI document's schemas are (formats, no framework titles).
 */
export const toolJsonSchema = (schema: Schema.Top): Record<string, unknown> => {
  const { schema: root, definitions } = Schema.toJsonSchemaDocument(schema)
  const document = cleanJsonSchema(withoutIds(inlined(root, definitions)) as Record<string, unknown>)
  // An empty struct: any object, as the tools' schemas have always said it.
  if (isNotNull(document)) return { type: "object", anyOf: [{ type: "object" }, { type: "array" }] }
  return document.type === "object" ? document : { type: "object", ...document }
}

/** A schema's JSON Schema, cleaned and without definitions. */
const jsonSchemaOf = (schema: Schema.Top): Record<string, unknown> => {
  const { schema: root, definitions } = Schema.toJsonSchemaDocument(schema)
  return cleanJsonSchema(withoutIds(inlined(root, definitions)) as Record<string, unknown>)
}

const isNotNull = (document: Record<string, unknown>) =>
  JSON.stringify(document) === JSON.stringify({ type: "object", not: { type: "null" } }) ||
  JSON.stringify(document) === JSON.stringify({ not: { type: "null" } })

/** Every `$defs` reference written in place: the tools' schemas stand alone, without definitions. */
const inlined = (node: unknown, definitions: Readonly<Record<string, unknown>>): unknown => {
  if (Array.isArray(node)) return node.map((each) => inlined(each, definitions))
  if (typeof node !== "object" || node === null) return node
  const ref = (node as { readonly $ref?: unknown }).$ref
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const { $ref: _, ...rest } = node as Record<string, unknown>
    return { ...(inlined(definitions[ref.slice("#/$defs/".length)], definitions) as object), ...rest }
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(value, definitions)]))
}

/** The 400 `invalid_request` body REST gives for the same body (see the error contract). */
const invalidArguments = (error: Schema.SchemaError) => invalidRequestOf(issuesOf(error.issue))

const decodeArguments = <S extends Schema.Codec<any, any>>(schema: S, args: unknown) =>
  Effect.mapError(
    Schema.decodeUnknownEffect(schema)(args, inputParseOptions) as Effect.Effect<S["Type"], Schema.SchemaError>,
    invalidArguments
  )

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

const textOf = (body: unknown) => [{ type: "text" as const, text: JSON.stringify(body) }]

/**
 * The REST body as the result, and every failure as a tool error carrying the REST error body.
 * Its next steps name tools, not REST paths (CurrentSurface).
 */
const toolResult = <E extends { readonly _tag: string }>(
  effect: Effect.Effect<unknown, E>
): Effect.Effect<McpSchema.CallToolResult> =>
  effect.pipe(
    Effect.provideService(CurrentSurface, mcpSurface),
    Effect.map((body) => new McpSchema.CallToolResult({ content: textOf(body), structuredContent: body })),
    Effect.catchCause((cause): Effect.Effect<McpSchema.CallToolResult> => {
      if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
      const failure = Cause.findErrorOption(cause)
      const error: Effect.Effect<{ readonly _tag: string }> = Option.isSome(failure)
        ? Effect.succeed(failure.value)
        : Effect.as(
            logFailure("unexpected defect in an MCP tool", cause),
            new InternalError({ safe_next_step: "Retry later; if it persists, contact the operator." })
          )
      return Effect.map(error, (error) => {
        const body = wireError(error)
        return new McpSchema.CallToolResult({ isError: true, content: textOf(body), structuredContent: body })
      })
    })
  )

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
/** A write that is safe to retry only with the same idempotency_key, and reaches real providers. */
const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true }

const noArguments = Schema.Struct({})

/** One tool per REST operation (`rest`, its twin): the same Schemas in and out, the same services behind. */
export const bookingTools = {
  get_capabilities: {
    title: "What this service supports and the rules for assistants",
    rest: "GET /api/public/requests/capabilities",
    description:
      "What this service can book and the rules for using it: the supported trades (vertical_id) with their job_type_ids, price kinds, quantity bounds, the emergency job types and the assistant contract (agent_contract). The MCP form of GET /api/public/requests/capabilities. Call it first in a conversation to choose vertical_id and job_type_id for search_booking_options. It describes what the service supports, never what is free now: only search_booking_options with direct_booking_available true proves availability. Read-only; needs no token and no personal data.",
    input: noArguments,
    output: Capabilities,
    annotations: readOnly
  },
  search_booking_options: {
    title: "Search bookable options (no personal data)",
    rest: "POST /api/public/booking-options",
    description:
      "Search bookable options for a home-service job in Sweden. The MCP form of POST /api/public/booking-options. Send the job (vertical_id, job_type_id, a description), the Swedish postcode (NNN NN), the timing in the user's words and, for unit prices, the quantities in details. Never send personal data here: no names, phone numbers, e-mail or street addresses (they are refused). Each option has a provider, a price, a free slot, booking terms and a booking_option_id that expires at expires_at, minutes after the search. Availability is proven only by a result with direct_booking_available true, and a search books nothing. If direct_booking_available is false, read safe_next_step first: when it asks for a missing quantity or detail, ask the user and search again; when the result has alternative_options (the nearest free times outside the requested time, each a full option that confirm_booking accepts), tell the user nothing is free at the time they asked for and offer those times first; otherwise tell the user nothing is booked and offer create_follow_up_request. A refused vertical_id or job_type_id comes with the closest supported one (suggested_vertical_id, suggested_job_type_id) when there is one. Each price carries tax_deduction: for kind rut or rot, say both figures and the condition (\"X SEK, or Y SEK after RUT if you are eligible and have room under this year's cap; the provider applies it on the invoice\"), never the lower figure alone or as a promise; amount_sek is the price before it; kind none means no deduction, so promise none. Each option's cancellation_policy is stated as it stands now: when free_cancellation_available is false the free cancellation period has already passed (say so, as summary_en words it; never offer free cancellation), and when change_available is false the time can no longer be changed. With a sandbox token, options leave out slots that sandbox already booked. This service is not for emergencies: the emergency job types (agent_contract.emergencies in get_capabilities) get no options, and the user gets the 112 advice in safe_next_step. Read-only; needs no token.",
    input: BookingSearchRequest,
    output: BookingSearchResponse,
    annotations: readOnly
  },
  confirm_booking: {
    title: "Book one searched option (after the user's consent)",
    rest: "POST /api/public/bookings",
    description:
      "Book one option from search_booking_options. The MCP form of POST /api/public/bookings. Call it only after the user has picked the option, accepted its booking terms (send its terms.version as booking_terms_version) and explicitly agreed that their name, phone, e-mail and address are sent to the provider: never send personal data before that consent, and set user_consent_confirmed and booking_terms_accepted to true only then. Send an idempotency_key that is new for each booking the user asks for, and the same key when retrying: a retry of the same booking (same option, customer, addresses and terms version; new time stamps do not matter) returns the same booking (idempotent_replay true) and never books twice. If the key already holds a booking made with other details, the error idempotency_key_reused names that booking (booking_id, request_id, existing_booking): tell the user about it, and use a new key only if they want a second, separate booking. option_already_booked means this option is already booked for this customer: say so, and do not book again. A booking exists only when the result has booking_created, availability_checked and provider_selected all true and booking.status confirmed; the price is booking.price_sek of that result, not an earlier figure, and it is the price before any tax deduction. If the user wants the option's RUT or ROT deduction made on the invoice, send tax_deduction_requested true (refused when the option's tax_deduction kind is none): the provider is told and collects the identity details it needs, so never ask for or send a personal identity number. The result's tax_deduction says the deduction as an if: say both figures and the condition, never the lower one as certain. An error with option_refresh_required true (option expired, slot taken, price or terms changed) means this call booked nothing: search again and offer the new options. option_invalid says in issues why the id was refused. Requires the partner token.",
    input: BookingConfirmationRequest,
    output: BookingConfirmationResponse,
    annotations: write
  },
  get_booking_status: {
    title: "Look up a booking",
    rest: "GET /api/public/bookings/{booking_id}",
    description:
      "Look up a booking made with confirm_booking, by its booking.id or request_id. The MCP form of GET /api/public/bookings/{booking_id}. A booking exists only when found is true and the result has booking_created, availability_checked and provider_selected true and booking.status confirmed; its tax_deduction (and tax_deduction_requested) says the deduction as confirmed, as an if, never as a promise; its cancellation_policy says whether free cancellation and changing are still open now (free_cancellation_available, change_available); found false means no booking with this id exists for your token (or, when no token was sent, among bookings made without one). Use it when the user asks about a booking, or to learn the outcome when confirm_booking said it was unknown. Customer details are never returned. Read-only; requires the partner token.",
    input: BookingStatusPath,
    output: BookingStatusResponse,
    annotations: readOnly
  },
  cancel_booking: {
    title: "Cancel a booking (preview first with dry_run)",
    rest: "POST /api/public/bookings/{booking_id}/cancel",
    description:
      "Cancel a booking made with confirm_booking, by its booking.id or request_id, under the provider's cancellation policy. The MCP form of POST /api/public/bookings/{booking_id}/cancel. First call it with dry_run true: it changes nothing and returns the fee that would apply now (cancellation.fee_sek, 0 within the free period), the free_until deadline and the booking's cancellation_policy as it stands now (free_cancellation_available false: the free period has passed). Tell the user that fee and deadline in the policy's words (a fee is what the provider may charge under its terms, never a sum they owe us), ask whether to cancel, and call it again without dry_run only on their yes. Never tell the user a booking is cancelled unless a result has cancelled true. Send an idempotency_key and reuse it when retrying: a retry returns the same cancellation (idempotent_replay true). cancelled_by is customer (default) or partner. Errors: booking_already_cancelled (its cancellation says when and by whom), booking_started (too late: the user must contact the provider), booking_changed (expected_version is stale: look the booking up first), booking_not_found. Sandbox bookings can be cancelled too; nobody is told (every delivery is skipped, reason sandbox). Requires the partner token.",
    input: CancelBookingArguments,
    output: CancelBookingResponse,
    annotations: { ...write, destructiveHint: true }
  },
  reschedule_booking: {
    title: "Move a booking to another time (preview first with dry_run)",
    rest: "POST /api/public/bookings/{booking_id}/reschedule",
    description:
      "Move a booking to another time of the same provider and service, keeping its id and request_id. The MCP form of POST /api/public/bookings/{booking_id}/reschedule. Search again with search_booking_options, let the user pick a new time of the same provider and service (another provider or service is refused with option_not_for_this_booking: cancel and book anew instead), and send its booking_option_id with the user's acceptance of that option's terms (booking_terms_accepted true, booking_terms_version, booking_terms_accepted_at). dry_run true changes nothing and shows the new time, its price (new_price, with its tax_deduction; the booking takes it), price_difference_sek against current_price_sek, and its cancellation policy: tell the user all of it, and act only on their yes. The customer's details and consent carry over. The booking is moved only when a result has booking.slot_start_at at the new time and booking.version one higher; previous_slot is the time it no longer holds. slot_taken means the new time went meanwhile and the booking at its old time still stands; outside_change_window means the provider's change deadline has passed (cancel_booking with dry_run shows what cancelling would cost). Send an idempotency_key and reuse it on retries. Requires the partner token.",
    input: RescheduleBookingArguments,
    output: Schema.Union([RescheduleBookingResponse, ReschedulePreview]),
    annotations: write
  },
  create_follow_up_request: {
    title: "Hand the job to providers (never a booking)",
    rest: "POST /api/public/requests",
    description:
      "Hand a job to providers as a follow-up request, when search_booking_options found no direct booking (direct_booking_available false) or the user prefers to be contacted. The MCP form of POST /api/public/requests. It is never a booking: no provider, time or price is reserved (booking_created, availability_checked and provider_selected are false), so tell the user nothing is booked, and say what request.handoff and safe_next_step say of who received it: a provider may contact the user only when handoff.status is sent (never with a sandbox token, whose requests reach no provider). Ask for the user's explicit consent before sending their name, phone, e-mail and address, and set user_consent_confirmed to true only then. Send an idempotency_key and reuse it when retrying: a retry of the same request returns it and never sends it twice; if the key already holds a request made with other details, the error names it (request_id, existing_request). Keep request.id to look the request up later with get_follow_up_request. Emergencies are refused with the advice to call 112. Requires the partner token.",
    input: ServiceRequestCreate,
    output: ServiceRequestResponse,
    annotations: write
  },
  get_follow_up_request: {
    title: "Look up a follow-up request",
    rest: "GET /api/public/requests/{request_id}",
    description:
      "Look up a follow-up request made with create_follow_up_request, by its request.id (or session_id). The MCP form of GET /api/public/requests/{request_id}. It tells whether providers have received it (request.handoff); it is never a booking: booking_created, availability_checked and provider_selected are always false. Customer details are never returned. An unknown id, or another partner's, is the error request_not_found. Read-only; requires the partner token.",
    input: RequestStatusPath,
    output: ServiceRequestStatusResponse,
    annotations: readOnly
  }
} as const

export type BookingToolName = keyof typeof bookingTools

/**
 * A result is the REST body of the operation, or on a tool error the REST error body (clients
 * check structuredContent against outputSchema also on errors). Each tool carries its outputSchema.
 */
export const outputSchemas: ReadonlyMap<string, Record<string, unknown>> = new Map(
  Object.entries(bookingTools).map(([name, tool]) => [
    name,
    // The result's schema and the error body's side by side, each as generated on its own.
    { type: "object", anyOf: [jsonSchemaOf(tool.output), jsonSchemaOf(ErrorBodyFields)] }
  ])
)

/** Each tool's argument schema, as tools/list gives it (src/Mcp/Http.ts writes these over the transport's encoding). */
export const inputSchemas: ReadonlyMap<string, Record<string, unknown>> = new Map(
  Object.entries(bookingTools).map(([name, tool]) => [name, toolJsonSchema(tool.input)])
)

const encodeStatus = Schema.encodeEffect(BookingStatusResponse)

export const McpToolsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const server = yield* McpServer.McpServer
    const document = yield* CapabilitiesDocument
    const search = yield* BookingSearch
    const bookings = yield* Bookings
    const changes = yield* Changes
    const requests = yield* Requests
    const limiter = yield* RateLimiter
    const authenticator = yield* Authenticator
    const decoder = new TextDecoder()

    const handlers: Record<BookingToolName, (args: unknown) => Effect.Effect<McpSchema.CallToolResult>> = {
      get_capabilities: () =>
        toolResult(
          Effect.map(document.current, ({ bodies }) => JSON.parse(decoder.decode(bodies.identity)) as unknown)
        ),
      search_booking_options: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const request = yield* decodeArguments(BookingSearchRequest, args)
            yield* limiter
              .byClient("search")
              .pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, caller.request))
            // The route identified the caller: an empty token is an anonymous one.
            const partner = Redacted.value(caller.token) === "" ? undefined : yield* authenticator.partner(caller.token)
            return yield* search.search(request, yield* now, partner)
          })
        ),
      confirm_booking: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const partner = yield* authenticator.partner(caller.token)
            const request = yield* decodeArguments(BookingConfirmationRequest, args)
            yield* limiter.byPartner("confirm", partner.id)
            const body = yield* bookings.confirm(request, undefined, partner, yield* now)
            return body
          })
        ),
      get_booking_status: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const partner = yield* authenticator.partner(caller.token)
            const { booking_id } = yield* decodeArguments(BookingStatusPath, args)
            const body = yield* bookings.status(booking_id, partner)
            return yield* Effect.orDie(encodeStatus(body))
          })
        ),
      cancel_booking: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const partner = yield* authenticator.partner(caller.token)
            const { booking_id, ...request } = yield* decodeArguments(CancelBookingArguments, args)
            yield* limiter.byPartner("confirm", partner.id)
            return yield* changes.cancel(booking_id, request, undefined, partner, yield* now)
          })
        ),
      reschedule_booking: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const partner = yield* authenticator.partner(caller.token)
            const { booking_id, ...request } = yield* decodeArguments(RescheduleBookingArguments, args)
            yield* limiter.byPartner("confirm", partner.id)
            return yield* changes.reschedule(booking_id, request, undefined, partner, yield* now)
          })
        ),
      create_follow_up_request: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const partner = yield* authenticator.requester(caller.token)
            const request = yield* decodeArguments(ServiceRequestCreate, args)
            yield* limiter.byPartner("requests", partner.id)
            const body = yield* requests.create(request, undefined, partner, yield* now)
            return body
          })
        ),
      get_follow_up_request: (args) =>
        toolResult(
          Effect.gen(function* () {
            const caller = yield* currentCaller
            const partner = yield* authenticator.requester(caller.token)
            const { request_id } = yield* decodeArguments(RequestStatusPath, args)
            return yield* requests.status(request_id, partner)
          })
        )
    }

    for (const [name, tool] of Object.entries(bookingTools)) {
      yield* server.addTool({
        tool: new McpSchema.Tool({
          name,
          title: tool.title,
          description: tool.description,
          inputSchema: inputSchemas.get(name) as never,
          outputSchema: outputSchemas.get(name) as never,
          annotations: McpSchema.ToolAnnotations.make({ title: tool.title, ...tool.annotations })
        }),
        annotations: Context.empty(),
        handle: handlers[name as BookingToolName]
      })
    }
  })
  // Cancel and reschedule share REST's instance of Changes (a layer is built once per app).
).pipe(Layer.provide(Changes.Default))
