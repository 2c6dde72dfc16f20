import type { LegalBasis } from "./Withdrawal.js"
import { formatInZone, formatStamp } from "./Zone.js"

/**
 * What partners hear through webhooks. Payloads are thin on purpose: ids, statuses, slot times,
 * the provider and the price, never a customer's name, contact or address, so a leaked or
 * mis-sent delivery discloses nobody. The builders copy field by field, so an object carrying
 * more (a stored booking with its customer) cannot widen a payload.
 */

export const webhookEventTypes = [
  "booking.confirmed",
  "booking.cancelled",
  "booking.rescheduled",
  "booking.confirmation_failed",
  "request.created",
  "request.handoff_changed",
  "request.withdrawn",
  "webhook.test"
] as const

export type WebhookEventType = (typeof webhookEventTypes)[number]

const knownTypes: ReadonlySet<string> = new Set(webhookEventTypes)

/** For validating a subscription's `events`. */
export const isWebhookEventType = (value: string): value is WebhookEventType => knownTypes.has(value)

export interface Slot {
  readonly start_at: string
  readonly end_at: string
}

interface BookingData {
  readonly booking_id: string
  readonly request_id: string
  readonly provider_id: string
  readonly service_id: string
  readonly slot: Slot
  readonly price_sek: number
  readonly currency: "SEK"
  readonly sandbox: boolean
}

export interface BookingConfirmedData extends BookingData {
  readonly status: "confirmed"
}

export type CancelledBy = "customer" | "partner" | "provider" | "operator"

export interface BookingCancelledData extends BookingData {
  readonly status: "cancelled"
  readonly cancelled_by: CancelledBy
  /** What the customer owes for the cancel, and why: the right of withdrawal or the provider's terms. */
  readonly fee_sek?: number
  readonly legal_basis?: LegalBasis
}

export interface BookingRescheduledData extends BookingData {
  readonly status: "confirmed"
  readonly previous_slot: Slot
}

/** The booking stands; its confirmation could not be delivered to `recipient` and is no longer retried. */
export interface BookingConfirmationFailedData extends BookingData {
  readonly status: "confirmed"
  readonly recipient: "customer" | "provider"
}

/** The hand-off as a request's response tells it. */
export interface Handoff {
  readonly status: "sent" | "queued" | "not_sent" | "unknown"
  readonly providers_reached: number
  readonly providers_pending: number
  readonly reason?: "no_postcode" | "no_candidates" | "no_reachable_candidates" | "sandbox" | undefined
}

export interface RequestCreatedData {
  readonly request_id: string
  readonly status: "ready_to_send"
  readonly vertical_id: string
  readonly job_type_id: string
  readonly handoff: Handoff
  readonly sandbox: boolean
}

export interface RequestHandoffChangedData {
  readonly request_id: string
  readonly handoff: Handoff
  readonly previous_handoff_status: Handoff["status"]
  readonly sandbox: boolean
}

/** The partner withdrew the request; the providers who had it are told (sandbox: nobody had it). */
export interface RequestWithdrawnData {
  readonly request_id: string
  readonly status: "withdrawn"
  readonly vertical_id: string
  readonly job_type_id: string
  /** Providers who had it (or were being sent it) and are told of the withdrawal. */
  readonly providers_to_tell: number
  readonly sandbox: boolean
}

export interface WebhookTestData {
  readonly endpoint_id: string
  readonly sandbox: boolean
}

export interface WebhookEventData {
  readonly "booking.confirmed": BookingConfirmedData
  readonly "booking.cancelled": BookingCancelledData
  readonly "booking.rescheduled": BookingRescheduledData
  readonly "booking.confirmation_failed": BookingConfirmationFailedData
  readonly "request.created": RequestCreatedData
  readonly "request.handoff_changed": RequestHandoffChangedData
  readonly "request.withdrawn": RequestWithdrawnData
  readonly "webhook.test": WebhookTestData
}

/** The body of a delivery; `timestamp` is when the event happened, not when it was sent. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = {
  readonly [K in T]: { readonly type: K; readonly timestamp: string; readonly data: WebhookEventData[K] }
}[T]

/** The booking's fields an event reads, named as a stored booking names them (one can be passed as it is). */
export interface BookingFacts {
  readonly id: string
  readonly requestId: string
  readonly providerId: string
  readonly serviceId: string
  readonly slotStart: Date
  readonly slotEnd: Date
  readonly priceSek: number
  readonly sandbox: boolean
  /** The zone the booking's answers tell its times in, so an event's slot reads as GET of the booking does. */
  readonly timeZone: string
}

/** The request's fields an event reads, named as a stored request names them. */
export interface RequestFacts {
  readonly id: string
  readonly verticalId: string
  readonly jobTypeId: string
  readonly sandbox: boolean
}

const slotOf = (start: Date, end: Date, timeZone: string): Slot => ({
  start_at: formatInZone(start, timeZone),
  end_at: formatInZone(end, timeZone)
})

const bookingData = (booking: BookingFacts): BookingData => ({
  booking_id: booking.id,
  request_id: booking.requestId,
  provider_id: booking.providerId,
  service_id: booking.serviceId,
  slot: slotOf(booking.slotStart, booking.slotEnd, booking.timeZone),
  price_sek: booking.priceSek,
  currency: "SEK",
  sandbox: booking.sandbox
})

const handoffOf = (handoff: Handoff): Handoff => ({
  status: handoff.status,
  providers_reached: handoff.providers_reached,
  providers_pending: handoff.providers_pending,
  ...(handoff.reason === undefined ? {} : { reason: handoff.reason })
})

const event = <T extends WebhookEventType>(type: T, at: Date, data: WebhookEventData[T]) =>
  ({ type, timestamp: formatStamp(at), data }) as WebhookEvent<T>

export const bookingConfirmed = (booking: BookingFacts, at: Date): WebhookEvent<"booking.confirmed"> =>
  event("booking.confirmed", at, { ...bookingData(booking), status: "confirmed" })

export const bookingCancelled = (
  booking: BookingFacts,
  cancelledBy: CancelledBy,
  at: Date,
  terms?: { readonly feeSek: number; readonly legalBasis: LegalBasis }
): WebhookEvent<"booking.cancelled"> =>
  event("booking.cancelled", at, {
    ...bookingData(booking),
    status: "cancelled",
    cancelled_by: cancelledBy,
    ...(terms === undefined ? {} : { fee_sek: terms.feeSek, legal_basis: terms.legalBasis })
  })

/** `booking` carries the new slot. */
export const bookingRescheduled = (
  booking: BookingFacts,
  previous: { readonly slotStart: Date; readonly slotEnd: Date },
  at: Date
): WebhookEvent<"booking.rescheduled"> =>
  event("booking.rescheduled", at, {
    ...bookingData(booking),
    status: "confirmed",
    previous_slot: slotOf(previous.slotStart, previous.slotEnd, booking.timeZone)
  })

export const bookingConfirmationFailed = (
  booking: BookingFacts,
  recipient: "customer" | "provider",
  at: Date
): WebhookEvent<"booking.confirmation_failed"> =>
  event("booking.confirmation_failed", at, { ...bookingData(booking), status: "confirmed", recipient })

export const requestCreated = (request: RequestFacts, handoff: Handoff, at: Date): WebhookEvent<"request.created"> =>
  event("request.created", at, {
    request_id: request.id,
    status: "ready_to_send",
    vertical_id: request.verticalId,
    job_type_id: request.jobTypeId,
    handoff: handoffOf(handoff),
    sandbox: request.sandbox
  })

export const requestHandoffChanged = (
  request: Pick<RequestFacts, "id" | "sandbox">,
  handoff: Handoff,
  previousStatus: Handoff["status"],
  at: Date
): WebhookEvent<"request.handoff_changed"> =>
  event("request.handoff_changed", at, {
    request_id: request.id,
    handoff: handoffOf(handoff),
    previous_handoff_status: previousStatus,
    sandbox: request.sandbox
  })

export const requestWithdrawn = (
  request: RequestFacts,
  providersToTell: number,
  at: Date
): WebhookEvent<"request.withdrawn"> =>
  event("request.withdrawn", at, {
    request_id: request.id,
    status: "withdrawn",
    vertical_id: request.verticalId,
    job_type_id: request.jobTypeId,
    providers_to_tell: providersToTell,
    sandbox: request.sandbox
  })

export const webhookTest = (endpoint: { readonly id: string; readonly sandbox: boolean }, at: Date) =>
  event("webhook.test", at, { endpoint_id: endpoint.id, sandbox: endpoint.sandbox })

/** The exact text that is signed and sent: sign and send the same string, never re-serialise. */
export const eventBody = (event: WebhookEvent): string => JSON.stringify(event)
