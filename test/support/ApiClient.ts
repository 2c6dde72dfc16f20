import { Effect, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "../../src/Api.js"
import { BookingConfirmationRequest, BookingConfirmationResponse } from "../../src/Domain/Booking.js"
import {
  CancelBookingRequest,
  CancelBookingResponse,
  RescheduleBookingRequest,
  RescheduleBookingResponse,
  ReschedulePreview
} from "../../src/Domain/BookingChange.js"
import { ErrorBodyFields, type ErrorClass, errorStatus } from "../../src/Domain/Errors.js"
import { ServiceRequestCreate, ServiceRequestResponse } from "../../src/Domain/Request.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { WebhookCreated } from "../../src/Domain/Webhook.js"

/**
 * The Api's typed client (`HttpApiClient.make(Api)`) over the test server's HttpClient, which
 * already prefixes the server's address; with `token`, as that partner.
 */
export const apiClient = (token?: string) =>
  HttpApiClient.make(
    Api,
    token === undefined ? {} : { transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token)) }
  )

/**
 * A typed call made `withResponse`, as a partner sees it on the wire: its status and headers, and
 * the decoded body encoded back to JSON by the endpoint's own schema.
 */
export const wire =
  <A, I>(schema: Schema.Codec<A, I>) =>
  <E, R>(call: Effect.Effect<[A, HttpClientResponse.HttpClientResponse], E, R>) =>
    Effect.flatMap(call, encodedAs(schema)).pipe(Effect.orDie)

const encodedAs =
  <A, I>(schema: Schema.Codec<A, I>) =>
  ([value, response]: [A, HttpClientResponse.HttpClientResponse]) =>
    Effect.map(Schema.encodeEffect(schema)(value), (body) => ({
      status: response.status,
      headers: response.headers as Readonly<Record<string, string>>,
      body: body as any
    }))

/** The status of an error of the contract, read off its class; undefined for any other failure. */
const contractStatusOf = (error: unknown): number | undefined => {
  const cls = (error as { readonly constructor?: unknown }).constructor
  return Schema.isSchema(cls) && typeof (cls as ErrorClass).identifier === "string"
    ? errorStatus(cls as ErrorClass)
    : undefined
}

/**
 * `wire`, and a refusal the same way: an error of the Api's contract as its status and its
 * section 7 body encoded back (the client decodes an error only from the status it is declared
 * with; its headers are not kept). For tests that read 2xx and 4xx answers alike; anything else
 * the client fails with is a defect.
 */
export const answer =
  <A, I>(schema: Schema.Codec<A, I>) =>
  <E, R>(call: Effect.Effect<[A, HttpClientResponse.HttpClientResponse], E, R>) =>
    Effect.flatMap(call, encodedAs(schema)).pipe(
      Effect.catch((error) => {
        const tag = (error as { readonly _tag?: unknown })._tag
        const status = contractStatusOf(error)
        return status === undefined
          ? Effect.die(error)
          : Effect.map(
              Schema.encodeUnknownEffect(ErrorBodyFields)({ ...(error as object), ok: false, error: tag, status }),
              (body) => ({ status, headers: {} as Readonly<Record<string, string>>, body: body as any })
            )
      }),
      Effect.orDie
    )

/**
 * A request body as an endpoint's payload type: decoded by the endpoint's schema as the server
 * would (defaults filled in), so a test writes its bodies as JSON and the client encodes them
 * back. A body that does not decode throws: a test of bad input is a test of raw HTTP.
 */
export const payloadOf =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  (body: unknown): S["Type"] =>
    Schema.decodeUnknownSync(schema)(body)

/**
 * A typed call made with `responseMode: "decoded-and-response"`, as its status and decoded body:
 * for the tests that tell a 201 from a 200 replay.
 */
export const withStatus = <A, E, R>(call: Effect.Effect<[A, HttpClientResponse.HttpClientResponse], E, R>) =>
  Effect.map(call, ([body, response]) => ({ status: response.status, body }))

/** A search through the typed client (with `token`, as that partner), as its options in JSON form. */
export const searchOptions = (body: unknown, token?: string) =>
  Effect.flatMap(apiClient(token), (client) =>
    client.search.search({ payload: payloadOf(BookingSearchRequest)(body) })
  ).pipe(Effect.map((response) => response.options as Array<any>))

/** A typed call's body and headers, answered with its response as `answer` reads it. */
const sent = <P, H>(payload: P, headers: H) => ({ payload, headers, responseMode: "decoded-and-response" as const })

type KeyHeader = { readonly "idempotency-key"?: string }

/** A confirm through the typed client, read by `answer`: 201, 200 on a replay, or a refusal. */
export const confirmAnswer = (body: unknown, token?: string, headers: KeyHeader = {}) =>
  Effect.flatMap(apiClient(token), (client) =>
    answer(BookingConfirmationResponse)(
      client.bookings.confirm(sent(payloadOf(BookingConfirmationRequest)(body), headers))
    )
  )

/** A follow-up request through the typed client, read by `answer`: 201, 200 on a replay, or a refusal. */
export const requestAnswer = (body: unknown, token?: string, headers: KeyHeader = {}) =>
  Effect.flatMap(apiClient(token), (client) =>
    answer(ServiceRequestResponse)(client.requests.create(sent(payloadOf(ServiceRequestCreate)(body), headers)))
  )

/** A webhook subscription through the typed client, read by `answer` (201 with the secret, or a refusal). */
export const registerWebhook = (token: string, url: string, events?: ReadonlyArray<string>) =>
  Effect.flatMap(apiClient(token), (client) =>
    answer(WebhookCreated)(
      client.webhooks.create({
        payload: { url, ...(events ? { events } : {}) },
        responseMode: "decoded-and-response"
      })
    )
  )

/** A webhook's deliveries through the typed client, newest first. */
export const deliveriesOf = (token: string, webhookId: string) =>
  Effect.flatMap(apiClient(token), (client) =>
    client.webhooks.deliveries({ params: { webhook_id: webhookId }, query: {} })
  ).pipe(Effect.map((list) => list.deliveries as Array<any>))

/** A change of a booking (cancel, reschedule) as the typed client takes it: its id and body, no header. */
const changeOf = <P>(bookingId: string, payload: P) => ({ params: { booking_id: bookingId }, ...sent(payload, {}) })

/** A cancel through the typed client, read by `answer`: 200 (a dry run and a replay too), or a refusal. */
export const cancelAnswer = (bookingId: string, body: unknown, token?: string) =>
  Effect.flatMap(apiClient(token), (client) =>
    answer(CancelBookingResponse)(client.bookings.cancel(changeOf(bookingId, payloadOf(CancelBookingRequest)(body))))
  )

const RescheduleAnswer = Schema.Union([RescheduleBookingResponse, ReschedulePreview])

/** A reschedule through the typed client, read by `answer`: the move, its dry run, a replay, or a refusal. */
export const rescheduleAnswer = (bookingId: string, body: unknown, token?: string) =>
  Effect.flatMap(apiClient(token), (client) =>
    answer(RescheduleAnswer)(client.bookings.reschedule(changeOf(bookingId, payloadOf(RescheduleBookingRequest)(body))))
  )

/** A retry of a webhook delivery through the typed client, as its status (202) and the delivery queued. */
export const retryDelivery = (token: string, webhookId: string, deliveryId: string) =>
  Effect.flatMap(apiClient(token), (client) =>
    withStatus(
      client.webhooks.retry({
        params: { webhook_id: webhookId, delivery_id: deliveryId },
        responseMode: "decoded-and-response"
      })
    )
  )

/** A follow-up request's status through the typed client. */
export const requestStatusOf = (token: string, requestId: string) =>
  Effect.flatMap(apiClient(token), (client) => client.requests.status({ params: { request_id: requestId } }))

/** /readyz through the typed client, read by `answer`: 200 ready, or 503 not_ready naming the issues. */
export const readyz = () =>
  Effect.flatMap(apiClient(), (client) =>
    answer(Schema.Unknown)(client.health.readyz({ responseMode: "decoded-and-response" }))
  )
