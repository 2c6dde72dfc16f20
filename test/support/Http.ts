import { createConnection, type Socket } from "node:net"
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
import recordedRequestBody from "../contract/request-body.json" with { type: "json" }

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

/** A client that writes bytes as it likes: half a header, half a body, or nothing at all. */
export interface RawConnection {
  readonly socket: Socket
  readonly received: () => string
  /** Resolves when the server (or anything) closes the connection. */
  readonly closed: Promise<void>
}

/** `localAddress` picks the client's source address: all of 127.0.0.0/8 is loopback on Linux. */
export const rawConnect = (port: number, host = "127.0.0.1", localAddress?: string) =>
  new Promise<RawConnection>((resolve, reject) => {
    const socket = createConnection(localAddress === undefined ? { port, host } : { port, host, localAddress })
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => {
      received += chunk
    })
    const closed = new Promise<void>((done) => socket.once("close", () => done()))
    socket.once("error", reject)
    socket.once("connect", () => {
      socket.off("error", reject)
      socket.on("error", () => {})
      resolve({ socket, received: () => received, closed })
    })
  })

/** "connected", or the error code of a connection that was refused or reset. */
export const connectOutcome = (port: number, host = "127.0.0.1") =>
  rawConnect(port, host).then(
    ({ socket }) => {
      socket.destroy()
      return "connected"
    },
    (error: NodeJS.ErrnoException) => error.code ?? "error"
  )

export const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)

/** With 100-continue, the interim answer shows the server holds the request before any body is sent. */
export const postHead = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`

/** The status of the final answer, after any 100 Continue. */
export const finalStatusOf = (response: string) => statusOf(response.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ""))

/** Valid bodies of every endpoint, for tests that break them one field at a time. */

export const paths = {
  capabilities: "/api/public/requests/capabilities",
  search: "/api/public/booking-options",
  confirm: "/api/public/bookings",
  status: (bookingId: string) => `/api/public/bookings/${bookingId}`,
  requests: "/api/public/requests"
} as const

export const searchBody = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE" as const, postcode: "111 22" },
  timing: { preferred_time_text: "den här veckan" }
}

/** The same search for another time phrase ("nästa vecka" reaches a whole week of slots), or postcode. */
export const searchBodyFor = (preferred_time_text: string, postcode = searchBody.location.postcode) => ({
  ...searchBody,
  location: { country_code: "SE" as const, postcode },
  timing: { preferred_time_text }
})

export const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" }

export const confirmBody = (bookingOptionId: string, termsVersion: string, idempotencyKey: string) => ({
  booking_option_id: bookingOptionId,
  customer,
  service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "111 22" },
  user_consent_confirmed: true,
  user_consent_statement: "Jag godkänner att mina uppgifter skickas till hantverkaren.",
  consent_collected_at: "2026-11-23T08:58:00+01:00",
  consent_source: "chat",
  booking_terms_accepted: true,
  booking_terms_version: termsVersion,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: idempotencyKey
})

/** The customer of the short confirm body below. */
export const shortCustomer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }

/**
 * The shortest body confirm takes (no consent wording, the key in the body), for an option as a
 * search answered it.
 */
export const shortConfirmBody = (
  option: { readonly booking_option_id: string; readonly terms: { readonly version: string } },
  idempotencyKey: string,
  customer: object = shortCustomer
) => ({
  booking_option_id: option.booking_option_id,
  customer,
  service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: idempotencyKey
})

/** The follow-up request the suite sends; a data file, so scripts/contract-snapshot.ts sends the same one without loading the app. */
export const requestBody = recordedRequestBody

export interface JsonResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: any
}

const toJson = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.map(
    response.text,
    (text): JsonResponse => ({
      status: response.status,
      headers: response.headers,
      body: text.length > 0 ? JSON.parse(text) : undefined
    })
  )

/** A raw call: status, headers and the parsed body exactly as a partner sees them. */
export const call = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.execute(request)).pipe(
    Effect.flatMap(toJson),
    Effect.scoped,
    Effect.orDie
  )

export const get = (path: string, headers: Record<string, string> = {}) =>
  call(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))

export const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(HttpClientRequest.post(path).pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyJsonUnsafe(body)))

export const postRaw = (path: string, body: string, contentType: string, headers: Record<string, string> = {}) =>
  call(
    HttpClientRequest.post(path).pipe(
      HttpClientRequest.setHeaders(headers),
      HttpClientRequest.bodyText(body, contentType)
    )
  )

export const getText = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.get(path, { headers })).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.text, (text) => ({ status: response.status, headers: response.headers, text }))
    ),
    Effect.scoped,
    Effect.orDie
  )
