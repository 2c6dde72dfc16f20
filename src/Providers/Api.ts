import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import { BookingUnavailable } from "../Domain/Booking.js"
import { BookingAlreadyCancelled, BookingNotFound, BookingStarted } from "../Domain/BookingChange.js"
import { DatabaseUnavailable, errorBody, IdempotencyKeyReused, Unauthorized } from "../Domain/Errors.js"
import {
  AreasRequest,
  AreasResponse,
  ChangesQuery,
  ChangesResponse,
  PolicyRequest,
  PolicyResponse,
  ServiceEditRequest,
  ServiceEditResponse,
  ServiceNotFound,
  ServicePath,
  ServicesResponse
} from "../Domain/Offer.js"
import {
  type AuthenticatedProvider,
  BlockNotFound,
  BlockOverlapsBlock,
  BlockOverlapsBooking,
  BlockOverlapsHold,
  BlockPath,
  BlockRequest,
  BlockResponse,
  BlocksResponse,
  CalendarFeedResponse,
  CalendarImportRequest,
  CalendarImportResponse,
  CalendarUrlRefused,
  DeletedResponse,
  ProviderBookingPath,
  ProviderBookingsQuery,
  ProviderBookingsResponse,
  ProviderCancelRequest,
  ProviderCancelResponse,
  WorkingHoursRequest,
  WorkingHoursResponse
} from "../Domain/Provider.js"
import { IdempotencyKeyHeader } from "../Domain/Request.js"
import { documented } from "../Http/OperationDocs.js"
import {
  blocksExample,
  bookingsExample,
  calendarFeedExample,
  calendarImportExample,
  cancelBookingExample,
  createBlockExample,
  deleteBlockExample,
  removeCalendarImportExample,
  revokeCalendarFeedExample,
  setCalendarImportExample,
  setWorkingHoursExample,
  workingHoursExample
} from "./Examples.js"
import {
  changesExample,
  editServiceExample,
  servicesExample,
  setAreasExample,
  setPolicyExample
} from "./OfferExamples.js"

/** A provider token (`hsp_…`, from `npm run provider -- token:issue`): partner tokens never pass. */
export class ProviderAuthentication extends HttpApiMiddleware.Service<
  ProviderAuthentication,
  { provides: AuthenticatedProvider }
>()("Booking/ProviderAuthentication", {
  error: errorBody(Unauthorized),
  security: { providerBearer: HttpApiSecurity.bearer }
}) {}

const unavailable = errorBody(DatabaseUnavailable)

export class ProviderApi extends HttpApiGroup.make("provider")
  .add(
    HttpApiEndpoint.get("bookings", "/api/provider/bookings", {
      query: ProviderBookingsQuery,
      success: ProviderBookingsResponse,
      error: unavailable
    }).annotateMerge(
      documented(
        "The provider's bookings in a window (default: the next 30 days; at most 92), with the customer's contact",
        {
          example: bookingsExample,
          description:
            "The provider's bookings whose slot overlaps the window (`from`, `to`: RFC 3339 with an offset; default from now for 30 days, at most 92 days), with the customer's name, phone, e-mail and service address: the one place they leave the service besides the provider's confirmation. Sandbox bookings are never listed."
        }
      )
    )
  )
  .add(
    HttpApiEndpoint.post("cancelBooking", "/api/provider/bookings/:booking_id/cancel", {
      params: ProviderBookingPath,
      payload: ProviderCancelRequest,
      headers: IdempotencyKeyHeader,
      success: ProviderCancelResponse,
      error: [
        errorBody(BookingNotFound),
        errorBody(BookingAlreadyCancelled),
        errorBody(BookingStarted),
        errorBody(IdempotencyKeyReused),
        errorBody(BookingUnavailable)
      ]
    })
      .annotateMerge(
        documented("Cancel a job you cannot do: the customer is told and pays no fee", {
          example: cancelBookingExample
        })
      )
      .annotate(
        OpenApi.Description,
        "Cancels one of your bookings before its start. In one transaction the booking is cancelled (cancelled_by: provider, no fee for the customer), its time is freed, the customer's notice is queued (retried; confirmation_delivery says how far it got) and the partner who booked it gets booking.cancelled on its webhooks; its status then answers found: false with the cancellation. reason (1–500 characters) is shown only to that partner, never to the customer, in a webhook or in a log. idempotency_key (or the Idempotency-Key header) is optional: a retry with the same key answers the first cancel again (idempotent_replay: true); without one, a second call answers 409 booking_already_cancelled. Another provider's booking, a sandbox booking or an unknown id is 404 booking_not_found; a cancelled booking 409 booking_already_cancelled; a started one 409 booking_started."
      )
  )
  .add(
    HttpApiEndpoint.post("createBlock", "/api/provider/blocks", {
      payload: BlockRequest,
      success: BlockResponse.pipe(HttpApiSchema.status(201)),
      error: [errorBody(BlockOverlapsBooking), errorBody(BlockOverlapsBlock), errorBody(BlockOverlapsHold), unavailable]
    }).annotateMerge(
      documented("Block time: searches no longer offer it and no booking can take it", {
        example: createBlockExample,
        description:
          "Blocks time in the same no-overlap calendar as bookings: searches stop offering it at once, and a confirm racing for it loses (409 `slot_taken`). A block over an active booking is 409 `block_overlaps_booking` naming the booking; over another block, 409 `block_overlaps_block`."
      })
    )
  )
  .add(
    HttpApiEndpoint.get("blocks", "/api/provider/blocks", {
      success: BlocksResponse,
      error: unavailable
    }).annotateMerge(documented("The provider's blocks that have not ended", { example: blocksExample }))
  )
  .add(
    HttpApiEndpoint.delete("deleteBlock", "/api/provider/blocks/:block_id", {
      params: BlockPath,
      success: DeletedResponse,
      error: [errorBody(BlockNotFound), unavailable]
    }).annotateMerge(documented("Delete a block, freeing its time", { example: deleteBlockExample }))
  )
  .add(
    HttpApiEndpoint.get("workingHours", "/api/provider/working-hours", {
      success: WorkingHoursResponse,
      error: unavailable
    }).annotateMerge(
      documented("Weekly working hours and dates off (Europe/Stockholm)", { example: workingHoursExample })
    )
  )
  .add(
    HttpApiEndpoint.put("setWorkingHours", "/api/provider/working-hours", {
      payload: WorkingHoursRequest,
      success: WorkingHoursResponse,
      error: unavailable
    }).annotateMerge(
      documented("Replace the weekly working hours and dates off (Europe/Stockholm)", {
        example: setWorkingHoursExample,
        description:
          "Replaces the weekly hours and dates off (Europe/Stockholm wall-clock time). Searches and confirms follow them at once; bookings already made stand. From then on a supply import leaves this provider's hours alone."
      })
    )
  )
  .add(
    HttpApiEndpoint.get("calendarFeed", "/api/provider/calendar-feed", {
      success: CalendarFeedResponse,
      error: unavailable
    }).annotateMerge(
      documented("The secret iCalendar feed URL of the provider's bookings (made on first request)", {
        example: calendarFeedExample,
        description:
          "The secret address of an iCalendar feed of the provider's bookings, to subscribe to in a calendar app: made on the first request, the same address afterwards. The feed (`GET /calendar-feeds/{secret}.ics`, `text/calendar`, ETag and If-None-Match) carries times and services, never the customer's contact."
      })
    )
  )
  .add(
    HttpApiEndpoint.post("rotateCalendarFeed", "/api/provider/calendar-feed/rotate", {
      success: CalendarFeedResponse,
      error: unavailable
    }).annotateMerge(documented("Replace the feed URL; the old one stops working", { example: calendarFeedExample }))
  )
  .add(
    HttpApiEndpoint.delete("revokeCalendarFeed", "/api/provider/calendar-feed", {
      success: DeletedResponse,
      error: unavailable
    }).annotateMerge(documented("Revoke the feed URL", { example: revokeCalendarFeedExample }))
  )
  .add(
    HttpApiEndpoint.put("setCalendarImport", "/api/provider/calendar-import", {
      payload: CalendarImportRequest,
      success: CalendarImportResponse,
      error: [errorBody(CalendarUrlRefused), unavailable]
    }).annotateMerge(
      documented("Register the provider's own iCalendar address; fetched in the background, then on a schedule", {
        example: setCalendarImportExample,
        description:
          "Registers the provider's own private iCalendar address, under the same address rules as webhooks: an address whose host is not public (loopback, private, link-local, unique-local, metadata, or a name that resolves to one) is refused at once with 422 `calendar_url_refused`. The answer comes at once with `fetch_status: pending`; the first fetch runs in the background (GET shows how it went), then every CALENDAR_IMPORT_INTERVAL_MINUTES (default 10), conditionally, bounded in size and time. A confirmed booking an imported busy time overlaps is flagged (`conflicts_with_busy_time` in GET /api/provider/bookings) and the provider is told once. Busy events (recurrences expanded; free and cancelled events ignored) are never offered or booked. When a fetch fails, the busy times last read stay in force and `last_error` says why."
      })
    )
  )
  .add(
    HttpApiEndpoint.get("calendarImport", "/api/provider/calendar-import", {
      success: CalendarImportResponse,
      error: unavailable
    }).annotateMerge(
      documented("The imported calendar: url, last_synced_at, last_error", { example: calendarImportExample })
    )
  )
  .add(
    HttpApiEndpoint.delete("removeCalendarImport", "/api/provider/calendar-import", {
      success: DeletedResponse,
      error: unavailable
    }).annotateMerge(
      documented("Stop importing the provider's calendar and free its busy times", {
        example: removeCalendarImportExample
      })
    )
  )
  .add(
    HttpApiEndpoint.get("services", "/api/provider/services", {
      success: ServicesResponse,
      error: unavailable
    }).annotateMerge(
      documented("Your services as searches offer them: prices, scope, terms, RUT/ROT, policy, active", {
        example: servicesExample,
        description:
          "Every service of yours, active or not, in the shape PUT /api/provider/services/{service_id} takes back, with its current terms.version (made by the service) and when you last edited it (null: as the operator's supply import set it)."
      })
    )
  )
  .add(
    HttpApiEndpoint.put("editService", "/api/provider/services/:service_id", {
      params: ServicePath,
      payload: ServiceEditRequest,
      success: ServiceEditResponse,
      error: [errorBody(ServiceNotFound), unavailable]
    }).annotateMerge(
      documented("Change one of your services: label, job type, price, unit, duration, scope, terms, RUT/ROT, active", {
        example: editServiceExample,
        description:
          "Replaces the service with the body: the same fields and rules as a service of the supply file (`npm run supply:import`), so a refusal is a 400 `invalid_request` whose issues name the field (a job type not in the catalog, or one the catalog gives no fixed price; a unit price without its unit; a RUT/ROT declaration that does not hold). Omit cancellation_policy to keep the current one. Any change of what an option states (price, scope, terms, duration, deduction, policy) makes a new terms.version at once: an option searched before is refused at confirm with 409 `terms_changed` and `option_refresh_required`, naming the new figures; bookings already made keep what they were booked at; a partner's live hold keeps its price until it ends. `active: false` stops every search offering it and every confirm of it. From then on the supply import leaves this service alone unless the operator overwrites it (`--overwrite-provider-edits`). One transaction, recorded in GET /api/provider/changes. `dry_run: true` changes nothing and answers what searches would then offer. Another provider's service, or an unknown one, is 404 `service_not_found`: new services come with the operator's import."
      })
    )
  )
  .add(
    HttpApiEndpoint.put("setAreas", "/api/provider/areas", {
      payload: AreasRequest,
      success: AreasResponse,
      error: unavailable
    }).annotateMerge(
      documented("Replace the postcodes you serve: single postcodes or ranges", {
        example: setAreasExample,
        description:
          'Replaces the postcodes you serve (1 to 500 entries, each a postcode "111 22" or a range { from, to }; ranges that touch are merged). Searches on every instance follow at once, and a confirm of an option at a postcode you no longer serve is refused (409 `provider_unavailable`); bookings already made stand. From then on the supply import leaves your postcodes alone unless the operator overwrites them. `dry_run: true` changes nothing.'
      })
    )
  )
  .add(
    HttpApiEndpoint.put("setCancellationPolicy", "/api/provider/cancellation-policy", {
      payload: PolicyRequest,
      success: PolicyResponse,
      error: [errorBody(ServiceNotFound), unavailable]
    }).annotateMerge(
      documented("Set your cancellation and change policy, for every service or one", {
        example: setPolicyExample,
        description:
          "Sets free_cancellation_hours, late_fee_sek and change_hours for the service named by service_id, or without it for every service of yours. A service whose policy changes gets a new terms.version: options searched before are refused at confirm (409 `terms_changed`, `option_refresh_required`) with the new policy; bookings already made keep the policy they were booked under. Within the statutory withdrawal period cancelling before the start stays free whatever the policy says. `dry_run: true` changes nothing."
      })
    )
  )
  .add(
    HttpApiEndpoint.get("offerChanges", "/api/provider/changes", {
      query: ChangesQuery,
      success: ChangesResponse,
      error: unavailable
    }).annotateMerge(
      documented("The trail of every change to your offer, newest first, a page at a time", {
        example: changesExample,
        description:
          "Every change to your services, postcodes and policy: when, by which token (its public prefix) or by the operator's import, which fields, and their values before and after, with the terms versions. Newest first; pass next_cursor back as cursor. No customer data is in it."
      })
    )
  )
  .middleware(ProviderAuthentication)
  .annotate(OpenApi.Title, "provider")
  .annotate(
    OpenApi.Description,
    "For providers, with a provider token (never a partner token): their offer (services, prices, terms, RUT/ROT, postcodes, cancellation policy, and the trail of changes to it), their jobs with the customer's contact, blocks, working hours and dates off, the calendar feed to subscribe to, and the import of their own calendar's busy times."
  ) {}
