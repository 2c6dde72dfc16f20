/**
 * The typed client partners import (`home-service-booking-api/client`): built from the same `Api`
 * the server runs, and importing nothing server-side (no configuration, database or crypto), so
 * it runs in Node, Deno, Bun or a browser with a `fetch`.
 *
 * Fields with defaults (`locale`, `timezone`, `source`) are optional here, as on the wire: every
 * method takes the body in its encoded (JSON) form and decodes it with the server's own schema,
 * which fills the defaults and refuses a body the server would refuse, before anything is sent.
 */

import { Effect, Schema } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import { Api } from "./Api.js"
import { BookingConfirmationRequest } from "./Domain/Booking.js"
import { CancelBookingRequest, RescheduleBookingRequest } from "./Domain/BookingChange.js"
import { HoldRequest } from "./Domain/Hold.js"
import { BookingListQuery, DeliveryListQuery, RequestListQuery } from "./Domain/ListPage.js"
import { ServiceRequestCreate, WithdrawRequest } from "./Domain/Request.js"
import { BookingSearchRequest } from "./Domain/Search.js"
import { WebhookCreate } from "./Domain/Webhook.js"

export { Api } from "./Api.js"
export type {
  BookingConfirmationRequest,
  BookingConfirmationResponse,
  BookingStatusResponse
} from "./Domain/Booking.js"
export type { Capabilities } from "./Domain/Capabilities.js"
export type { Hold, HoldReleaseResponse, HoldRequest, HoldResponse, HoldStatusResponse } from "./Domain/Hold.js"
export type { BookingListQuery, BookingListResponse, RequestListQuery, RequestListResponse } from "./Domain/ListPage.js"
export type {
  ServiceRequestCreate,
  ServiceRequestResponse,
  ServiceRequestStatusResponse,
  WithdrawRequest
} from "./Domain/Request.js"
export type { BookingSearchRequest, BookingSearchResponse } from "./Domain/Search.js"
export type { TaxDeductionAnswer as TaxDeduction } from "./Domain/TaxDeductionSchema.js"
export type { Webhook, WebhookCreate, WebhookDelivery } from "./Domain/Webhook.js"
export type { WebhookEvent, WebhookEventType } from "./Domain/WebhookEvents.js"

export interface BookingClientOptions {
  /** Where the API is, e.g. `https://api.example.se` (no trailing path). */
  readonly baseUrl: string
  /** The partner API token, sent as `Authorization: Bearer <token>` (confirm, status, requests). */
  readonly token?: string | undefined
}

/** What an idempotent call may carry beside its body. */
export interface IdempotentCall {
  /** Sent as the `Idempotency-Key` header; a retry with the same key replays the first answer. */
  readonly idempotencyKey?: string | undefined
}

const idempotencyHeaders = (call: IdempotentCall | undefined) =>
  call?.idempotencyKey === undefined ? {} : { "idempotency-key": call.idempotencyKey }

/** The client's operations; needs an `HttpClient` (see `BookingClient.layer` for one on fetch). */
export const makeBookingClient = (options: BookingClientOptions) =>
  Effect.gen(function* () {
    const token = options.token
    const client = yield* HttpApiClient.make(Api, {
      baseUrl: options.baseUrl,
      ...(token === undefined ? {} : { transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(token)) })
    })
    return {
      /** The raw generated client, every endpoint with the server's own types. */
      api: client,
      capabilities: () => client.capabilities.capabilities(),
      search: (body: typeof BookingSearchRequest.Encoded) =>
        Effect.flatMap(Schema.decodeEffect(BookingSearchRequest)(body), (payload) => client.search.search({ payload })),
      confirm: (body: typeof BookingConfirmationRequest.Encoded, call?: IdempotentCall) =>
        Effect.flatMap(Schema.decodeEffect(BookingConfirmationRequest)(body), (payload) =>
          client.bookings.confirm({ payload, headers: idempotencyHeaders(call) })
        ),
      status: (bookingId: string) => client.bookings.status({ params: { booking_id: bookingId } }),
      /** Holds an option's time while the user gives consent (nothing is booked); confirm it before `expires_at`. */
      hold: (body: typeof HoldRequest.Encoded, call?: IdempotentCall) =>
        Effect.flatMap(Schema.decodeEffect(HoldRequest)(body), (payload) =>
          client.holds.hold({ payload, headers: idempotencyHeaders(call) })
        ),
      /** A hold as it stands: active, expired, released, or confirmed with its booking_id. */
      holdStatus: (holdId: string) => client.holds.status({ params: { hold_id: holdId } }),
      /** Frees a held time at once; idempotent. */
      releaseHold: (holdId: string) => client.holds.release({ params: { hold_id: holdId } }),
      /** Cancels a booking (`dry_run: true` previews the fee and changes nothing). */
      cancel: (bookingId: string, body: typeof CancelBookingRequest.Encoded, call?: IdempotentCall) =>
        Effect.flatMap(Schema.decodeEffect(CancelBookingRequest)(body), (payload) =>
          client.bookings.cancel({ params: { booking_id: bookingId }, payload, headers: idempotencyHeaders(call) })
        ),
      /** Moves a booking to a new option of the same provider and service, keeping its id. */
      reschedule: (bookingId: string, body: typeof RescheduleBookingRequest.Encoded, call?: IdempotentCall) =>
        Effect.flatMap(Schema.decodeEffect(RescheduleBookingRequest)(body), (payload) =>
          client.bookings.reschedule({ params: { booking_id: bookingId }, payload, headers: idempotencyHeaders(call) })
        ),
      createRequest: (body: typeof ServiceRequestCreate.Encoded, call?: IdempotentCall) =>
        Effect.flatMap(Schema.decodeEffect(ServiceRequestCreate)(body), (payload) =>
          client.requests.create({ payload, headers: idempotencyHeaders(call) })
        ),
      /** A follow-up request by its `request.id` (or `session_id`); never a booking. */
      requestStatus: (requestId: string) => client.requests.status({ params: { request_id: requestId } }),
      /** A page of the partner's bookings, last changed first; pass `next_cursor` back as `cursor`. */
      listBookings: (page: typeof BookingListQuery.Encoded = {}) =>
        Effect.flatMap(Schema.decodeEffect(BookingListQuery)(page), (query) => client.bookings.list({ query })),
      /** A page of the partner's follow-up requests, last changed first. */
      listRequests: (page: typeof RequestListQuery.Encoded = {}) =>
        Effect.flatMap(Schema.decodeEffect(RequestListQuery)(page), (query) => client.requests.list({ query })),
      /** Withdraws a follow-up request; the providers who received it are told. */
      withdrawRequest: (requestId: string, body: typeof WithdrawRequest.Encoded, call?: IdempotentCall) =>
        Effect.flatMap(Schema.decodeEffect(WithdrawRequest)(body), (payload) =>
          client.requests.withdraw({ params: { request_id: requestId }, payload, headers: idempotencyHeaders(call) })
        ),
      webhooks: {
        create: (body: typeof WebhookCreate.Encoded) =>
          Effect.flatMap(Schema.decodeEffect(WebhookCreate)(body), (payload) => client.webhooks.create({ payload })),
        list: () => client.webhooks.list(),
        remove: (webhookId: string) => client.webhooks.remove({ params: { webhook_id: webhookId } }),
        rotateSecret: (webhookId: string) => client.webhooks.rotateSecret({ params: { webhook_id: webhookId } }),
        test: (webhookId: string) => client.webhooks.test({ params: { webhook_id: webhookId } }),
        /** A page of the webhook's deliveries, newest first; pass `next_cursor` back as `cursor`. */
        deliveries: (webhookId: string, page: typeof DeliveryListQuery.Encoded = {}) =>
          Effect.flatMap(Schema.decodeEffect(DeliveryListQuery)(page), (query) =>
            client.webhooks.deliveries({ params: { webhook_id: webhookId }, query })
          ),
        retry: (webhookId: string, deliveryId: string) =>
          client.webhooks.retry({ params: { webhook_id: webhookId, delivery_id: deliveryId } })
      }
    }
  })

export type BookingClient = Effect.Success<ReturnType<typeof makeBookingClient>>

/** `makeBookingClient` on the platform's `fetch`, for a program that has no HttpClient of its own. */
export const bookingClient = (options: BookingClientOptions) =>
  makeBookingClient(options).pipe(Effect.provide(FetchHttpClient.layer))

export type {
  AreasRequest as ProviderAreasRequest,
  AreasResponse as ProviderAreasResponse,
  FieldChange as ProviderOfferFieldChange,
  OfferChange as ProviderOfferChange,
  OfferPreview as ProviderOfferPreview,
  OfferService as ProviderOfferService,
  PolicyRequest as ProviderCancellationPolicyRequest,
  PolicyResponse as ProviderCancellationPolicyResponse,
  ServiceEditRequest as ProviderServiceEditRequest,
  ServiceEditResponse as ProviderServiceEditResponse
} from "./Domain/Offer.js"
export type { Block, ProviderBooking, ProviderCancelRequest, ProviderCancelResponse } from "./Domain/Provider.js"

export interface ProviderClientOptions {
  readonly baseUrl: string
  /** The provider's token (`npm run provider -- token:issue <provider-id>`); a partner token is refused. */
  readonly token: string
}

/**
 * The provider API's operations, typed from the same `Api`: `bookings`, `cancelBooking` (a job the
 * provider cannot do: `{ params: { booking_id }, payload: { reason }, headers: {} }`), `createBlock`, `blocks`,
 * `deleteBlock`, `workingHours`, `setWorkingHours`, `calendarFeed`, `rotateCalendarFeed`,
 * `revokeCalendarFeed`, `setCalendarImport`, `calendarImport`, `removeCalendarImport`, and the
 * provider's offer: `services`, `editService` (`{ params: { service_id }, payload }`), `setAreas`,
 * `setCancellationPolicy` (each payload may carry `dry_run: true`) and `offerChanges` (paged).
 */
export const makeProviderClient = (options: ProviderClientOptions) =>
  Effect.map(
    HttpApiClient.make(Api, {
      baseUrl: options.baseUrl,
      transformClient: HttpClient.mapRequest(HttpClientRequest.bearerToken(options.token))
    }),
    (client) => client.provider
  )

/** `makeProviderClient` on the platform's `fetch`. */
export const providerClient = (options: ProviderClientOptions) =>
  makeProviderClient(options).pipe(Effect.provide(FetchHttpClient.layer))
