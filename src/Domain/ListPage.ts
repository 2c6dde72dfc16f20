import { Schema } from "effect"
import { BookingStatusResponse } from "./Booking.js"
import { bookingsSpecVersion, requestsSpecVersion } from "./Capabilities.js"
import { DateTimeString, optional } from "./Input.js"
import { ServiceRequestStatusResponse } from "./Request.js"

export const defaultPageLimit = 50
export const maxPageLimit = 100

/** `limit` as a query string carries it: a whole number of items per page. */
export const PageLimit = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: 1, maximum: maxPageLimit })
).annotate({ description: `1 to ${maxPageLimit} (default ${defaultPageLimit}).` })

/** The `next_cursor` of the page before, passed on unchanged. */
export const PageCursor = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1000)).annotate({
  description: "The last page's next_cursor, unchanged."
})

/** A list's query: what has changed since when, in which state, a page at a time. */
export const listQuery = <const Statuses extends ReadonlyArray<string>>(statuses: Statuses) =>
  Schema.Struct({
    updated_since: optional(DateTimeString.annotate({ description: "Changed at or after this instant (RFC 3339)." })),
    status: optional(Schema.Literals(statuses)),
    limit: optional(PageLimit),
    cursor: optional(PageCursor)
  })

export const BookingListQuery = listQuery(["confirmed", "cancelled"] as const)
export type BookingListQuery = typeof BookingListQuery.Type
export const RequestListQuery = listQuery(["ready_to_send", "withdrawn"] as const)
export type RequestListQuery = typeof RequestListQuery.Type
export const DeliveryListQuery = Schema.Struct({ limit: optional(PageLimit), cursor: optional(PageCursor) })
export type DeliveryListQuery = typeof DeliveryListQuery.Type

/** The filters a walk was started with; a cursor carries them. */
export interface PageFilters {
  readonly status?: string | undefined
  readonly updatedSince?: string | undefined
}

/**
 * Where a page ended: the last item's change time (the database's own text, to the microsecond)
 * and id. The next page starts strictly after it in (changed_at DESC, id DESC) order.
 */
export interface PagePosition {
  readonly at: string
  readonly id: string
}

/** What a cursor holds: which list of whose it continues, with which filters, from where. */
export const CursorClaims = Schema.Struct({
  list: Schema.String,
  owner: Schema.String,
  status: optional(Schema.String),
  since: optional(Schema.String),
  at: Schema.String,
  id: Schema.String
})
export type CursorClaims = typeof CursorClaims.Type

export const nextCursorField = Schema.NullOr(Schema.String).annotate({
  description: "Send it as cursor for the next page; null on the last page."
})

/** One page asked of a table's owner: the walk's filters, where it continues, how many. */
export interface PageQuery {
  readonly filters: PageFilters
  readonly after: PagePosition | undefined
  readonly limit: number
}

export const BookingListResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  /** Each as GET /api/public/bookings/{booking.id} answers it now, last changed first. */
  bookings: Schema.Array(BookingStatusResponse),
  next_cursor: nextCursorField
}).annotate({ identifier: "BookingListResponse" })
export type BookingListResponse = typeof BookingListResponse.Type

export const RequestListResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(requestsSpecVersion),
  /** Each as GET /api/public/requests/{request.id} answers it now, last changed first. */
  requests: Schema.Array(ServiceRequestStatusResponse),
  next_cursor: nextCursorField
}).annotate({ identifier: "RequestListResponse" })
export type RequestListResponse = typeof RequestListResponse.Type
