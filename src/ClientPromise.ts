/**
 * The client for partners not on Effect (`home-service-booking-client/promise`): every call a
 * Promise of the answer's JSON exactly as the server sent it, once the endpoint's own success
 * schema has accepted it; a refusal rejects with `BookingApiError`, carrying the HTTP status and
 * the contract's error body (spec section 7). The pack bundles it with the Effect code it uses,
 * so it needs no `effect` installed.
 *
 * Bodies go as given: the server fills the defaults and refuses what it refuses, with the
 * `issues` of its 400, so this client never judges a body differently from the server.
 */

import { Schema } from "effect"
import type * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import { Api } from "./Api.js"
import { type ErrorBody, ErrorBodyFields } from "./Domain/Errors.js"

export interface BookingClientOptions {
  /** Where the API is, e.g. `https://api.example.se` (no trailing path). */
  readonly baseUrl: string
  /** The partner API token, sent as `Authorization: Bearer <token>`. */
  readonly token?: string | undefined
}

/** What an idempotent call may carry beside its body. */
export interface IdempotentCall {
  /** Sent as the `Idempotency-Key` header; a retry with the same key replays the first answer. */
  readonly idempotencyKey?: string | undefined
}

/** A refusal in the contract's words: the HTTP status and the error body as the server sent it. */
export class BookingApiError extends Error {
  override readonly name = "BookingApiError"
  constructor(
    readonly status: number,
    readonly body: ErrorBody
  ) {
    super(`${status} ${body.error}${body.safe_next_step === undefined ? "" : `: ${body.safe_next_step}`}`)
  }
}

/** An answer the contract does not describe (a proxy's page, a body the endpoint's schema refuses). */
export class UnexpectedAnswerError extends Error {
  override readonly name = "UnexpectedAnswerError"
  constructor(
    readonly status: number,
    readonly text: string,
    why: string
  ) {
    super(`${status}: ${why}`)
  }
}

type Groups = typeof Api.groups
type EndpointOf<G extends keyof Groups, N extends keyof Groups[G]["endpoints"]> = Groups[G]["endpoints"][N]
/** The JSON form of a schema the Api wraps in its JSON codec. */
type Wire<C> = C extends Schema.toCodecJson<infer S> ? S["Encoded"] : never
/** An endpoint's answer as JSON: what its success schemas encode to. */
type Answer<E> = Wire<HttpApiEndpoint.Success<E>>
/** An endpoint's body as JSON: what its payload schema decodes from. */
type Body<E> = Wire<HttpApiEndpoint.Payload<E>>

/** A list's query as the URL carries it. */
export interface PageQuery {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly status?: string | undefined
  readonly updated_since?: string | undefined
}

interface Call<E> {
  readonly params?: Record<string, string>
  readonly query?: PageQuery
  readonly body?: Body<E>
  readonly idempotencyKey?: string | undefined
}

const isErrorBody = Schema.is(ErrorBodyFields)

/** Whether a JSON value is one of the endpoint's answers (the schemas of these endpoints need no services). */
const answerCheck = (success: ReadonlySet<Schema.Top>) => {
  const decode = Schema.decodeUnknownExit(Schema.Union([...success]) as unknown as Schema.Codec<unknown>)
  return (json: unknown) => {
    const exit = decode(json)
    return exit._tag === "Success" ? undefined : String(exit.cause)
  }
}

const caller = (options: BookingClientOptions) => {
  const baseUrl = options.baseUrl.replace(/\/+$/, "")
  return <G extends keyof Groups, N extends keyof Groups[G]["endpoints"] & string>(group: G, name: N) => {
    const endpoint = (Api.groups[group].endpoints as Record<string, HttpApiEndpoint.Top>)[name]!
    const check = answerCheck(endpoint.success)
    return async (call: Call<EndpointOf<G, N>> = {}): Promise<Answer<EndpointOf<G, N>>> => {
      const path = endpoint.path.replace(/:(\w+)/g, (_: string, param: string) =>
        encodeURIComponent(call.params?.[param] ?? "")
      )
      const headers: Record<string, string> = { accept: "application/json" }
      if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
      if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey
      if (call.body !== undefined) headers["content-type"] = "application/json"
      const query = new URLSearchParams()
      for (const [name, value] of Object.entries(call.query ?? {}))
        if (value !== undefined) query.set(name, String(value))
      const search = query.size === 0 ? "" : `?${query}`
      const response = await fetch(`${baseUrl}${path}${search}`, {
        method: endpoint.method,
        headers,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) })
      })
      const text = await response.text()
      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        throw new UnexpectedAnswerError(response.status, text, "the body is not JSON")
      }
      if (!response.ok) {
        if (isErrorBody(json)) throw new BookingApiError(response.status, json)
        throw new UnexpectedAnswerError(response.status, text, "the body is not the contract's error body")
      }
      const refused = check(json)
      if (refused !== undefined) throw new UnexpectedAnswerError(response.status, text, refused)
      return json as Answer<EndpointOf<G, N>>
    }
  }
}

/** The Api's operations partners call, as Promises of their answers' JSON. */
export const createBookingClient = (options: BookingClientOptions) => {
  const operation = caller(options)
  const search = operation("search", "search")
  const confirm = operation("bookings", "confirm")
  const status = operation("bookings", "status")
  const cancel = operation("bookings", "cancel")
  const reschedule = operation("bookings", "reschedule")
  const hold = operation("holds", "hold")
  const holdStatus = operation("holds", "status")
  const releaseHold = operation("holds", "release")
  const createRequest = operation("requests", "create")
  const requestStatus = operation("requests", "status")
  const listBookings = operation("bookings", "list")
  const listRequests = operation("requests", "list")
  const withdrawRequest = operation("requests", "withdraw")
  const bookingPersonalData = operation("bookings", "personalData")
  const eraseBookingPersonalData = operation("bookings", "erasePersonalData")
  const requestPersonalData = operation("requests", "personalData")
  const eraseRequestPersonalData = operation("requests", "erasePersonalData")
  const webhook = {
    create: operation("webhooks", "create"),
    list: operation("webhooks", "list"),
    remove: operation("webhooks", "remove"),
    rotateSecret: operation("webhooks", "rotateSecret"),
    test: operation("webhooks", "test"),
    deliveries: operation("webhooks", "deliveries"),
    retry: operation("webhooks", "retry")
  }
  return {
    capabilities: operation("capabilities", "capabilities"),
    search: (body: Body<EndpointOf<"search", "search">>) => search({ body }),
    confirm: (body: Body<EndpointOf<"bookings", "confirm">>, call?: IdempotentCall) =>
      confirm({ body, idempotencyKey: call?.idempotencyKey }),
    /** A booking by its `booking.id` or `request_id`, personal data redacted. */
    status: (bookingId: string) => status({ params: { booking_id: bookingId } }),
    /** Holds an option's time while the user gives consent (nothing is booked); confirm it before `expires_at`. */
    hold: (body: Body<EndpointOf<"holds", "hold">>, call?: IdempotentCall) =>
      hold({ body, idempotencyKey: call?.idempotencyKey }),
    /** A hold as it stands: active, expired, released, or confirmed with its booking_id. */
    holdStatus: (holdId: string) => holdStatus({ params: { hold_id: holdId } }),
    /** Frees a held time at once; idempotent. */
    releaseHold: (holdId: string) => releaseHold({ params: { hold_id: holdId } }),
    /** Cancels a booking (`dry_run: true` previews the fee and changes nothing). */
    cancel: (bookingId: string, body: Body<EndpointOf<"bookings", "cancel">>, call?: IdempotentCall) =>
      cancel({ params: { booking_id: bookingId }, body, idempotencyKey: call?.idempotencyKey }),
    /** Moves a booking to a new option of the same provider and service, keeping its id. */
    reschedule: (bookingId: string, body: Body<EndpointOf<"bookings", "reschedule">>, call?: IdempotentCall) =>
      reschedule({ params: { booking_id: bookingId }, body, idempotencyKey: call?.idempotencyKey }),
    createRequest: (body: Body<EndpointOf<"requests", "create">>, call?: IdempotentCall) =>
      createRequest({ body, idempotencyKey: call?.idempotencyKey }),
    /** A follow-up request by its `request.id` (or `session_id`); never a booking. */
    requestStatus: (requestId: string) => requestStatus({ params: { request_id: requestId } }),
    /** A page of the partner's bookings, last changed first; pass `next_cursor` back as `cursor`. */
    listBookings: (query: PageQuery = {}) => listBookings({ query }),
    /** A page of the partner's follow-up requests, last changed first. */
    listRequests: (query: PageQuery = {}) => listRequests({ query }),
    /** Withdraws a follow-up request; the providers who received it are told. */
    withdrawRequest: (requestId: string, body: Body<EndpointOf<"requests", "withdraw">>, call?: IdempotentCall) =>
      withdrawRequest({ params: { request_id: requestId }, body, idempotencyKey: call?.idempotencyKey }),
    /** What is stored about a booking's customer, who received it, and when it is erased. */
    bookingPersonalData: (bookingId: string) => bookingPersonalData({ params: { booking_id: bookingId } }),
    /** Erases a past or cancelled booking's personal data now; the provider is told. */
    eraseBookingPersonalData: (bookingId: string, call: { readonly idempotencyKey: string }) =>
      eraseBookingPersonalData({ params: { booking_id: bookingId }, body: {}, idempotencyKey: call.idempotencyKey }),
    /** What is stored about a follow-up request's customer, which providers received it, and when it is erased. */
    requestPersonalData: (requestId: string) => requestPersonalData({ params: { request_id: requestId } }),
    /** Erases a withdrawn follow-up request's personal data now; the providers who received it are told. */
    eraseRequestPersonalData: (requestId: string, call: { readonly idempotencyKey: string }) =>
      eraseRequestPersonalData({ params: { request_id: requestId }, body: {}, idempotencyKey: call.idempotencyKey }),
    webhooks: {
      create: (body: Body<EndpointOf<"webhooks", "create">>) => webhook.create({ body }),
      list: () => webhook.list(),
      remove: (webhookId: string) => webhook.remove({ params: { webhook_id: webhookId } }),
      rotateSecret: (webhookId: string) => webhook.rotateSecret({ params: { webhook_id: webhookId } }),
      test: (webhookId: string) => webhook.test({ params: { webhook_id: webhookId } }),
      deliveries: (webhookId: string, query: Pick<PageQuery, "limit" | "cursor"> = {}) =>
        webhook.deliveries({ params: { webhook_id: webhookId }, query }),
      retry: (webhookId: string, deliveryId: string) =>
        webhook.retry({ params: { webhook_id: webhookId, delivery_id: deliveryId } })
    }
  }
}

export type BookingClient = ReturnType<typeof createBookingClient>
