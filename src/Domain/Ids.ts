import { Schema } from "effect"

/** A provider's id as the supply file gives it. Branded so that it cannot be passed where a service's id is meant. */
export const ProviderId = Schema.String.pipe(Schema.brand("ProviderId"))
export type ProviderId = typeof ProviderId.Type

/** A service's id, unique within its provider. */
export const ServiceId = Schema.String.pipe(Schema.brand("ServiceId"))
export type ServiceId = typeof ServiceId.Type

/** A booking's id, shared with its calendar entry and the subject of its notifications. */
export const BookingId = Schema.String.check(Schema.isUUID()).pipe(Schema.brand("BookingId"))
export type BookingId = typeof BookingId.Type

/** Whether an id the caller sent is a UUID (a `booking.id`, a `request.id`) rather than a reference. */
export const isUuid = Schema.is(Schema.String.check(Schema.isUUID()))
