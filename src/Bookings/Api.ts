import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import {
  BookingConfirmationRequest,
  BookingConfirmationResponse,
  BookingStatusResponse,
  BookingUnavailable,
  OptionAlreadyBooked,
  PriceChanged,
  ProviderUnavailable,
  SlotTaken,
  TermsChanged
} from "../Domain/Booking.js"
import {
  BookingAlreadyCancelled,
  BookingChanged,
  BookingNotFound,
  BookingStarted,
  CancelBookingRequest,
  CancelledBooking,
  CancelPreview,
  OptionNotForThisBooking,
  OutsideChangeWindow,
  RescheduleBookingRequest,
  RescheduleBookingResponse,
  ReschedulePreview
} from "../Domain/BookingChange.js"
import { OptionExpired, OptionInvalid } from "../Domain/BookingOption.js"
import { errorBody, IdempotencyKeyReused, RateLimited } from "../Domain/Errors.js"
import { HoldNotFound } from "../Domain/Hold.js"
import { BookingListQuery, BookingListResponse } from "../Domain/ListPage.js"
import { IdempotencyKeyHeader } from "../Domain/Request.js"
import { BookingActive, ErasePersonalDataRequest, PersonalDataResponse } from "../Domain/Retention.js"
import { madeOrReplayed } from "../Http/Idempotent.js"
import { documented } from "../Http/OperationDocs.js"
import { RateLimitClass } from "../Http/RateLimitClass.js"
import { Authentication } from "../Partners/AuthApi.js"
import { erasePersonalDataExample, personalDataExample } from "../PersonalData/Examples.js"
import {
  cancelExample,
  cancelPreviewExample,
  confirmExample,
  listExample,
  rescheduleExample,
  reschedulePreviewExample,
  statusExample
} from "./Examples.js"

export const BookingStatusPath = Schema.Struct({ booking_id: Schema.String.check(Schema.isMinLength(1)) })

/** A booking made by this request (201), or a retry's first answer again (200). */
const [BookingConfirmed, BookingReplayed] = madeOrReplayed(BookingConfirmationResponse)

/** Why an option can no longer be booked as sent: confirm's and reschedule's refusals alike. */
const optionRefusals = [
  errorBody(OptionExpired),
  errorBody(OptionInvalid),
  errorBody(PriceChanged),
  errorBody(TermsChanged),
  errorBody(ProviderUnavailable),
  errorBody(SlotTaken),
  errorBody(HoldNotFound)
] as const

export class BookingsApi extends HttpApiGroup.make("bookings")
  .add(
    HttpApiEndpoint.post("confirm", "/api/public/bookings", {
      payload: BookingConfirmationRequest,
      headers: IdempotencyKeyHeader,
      success: [BookingConfirmed, BookingReplayed],
      error: [
        ...optionRefusals,
        errorBody(OptionAlreadyBooked),
        errorBody(IdempotencyKeyReused),
        errorBody(BookingAlreadyCancelled),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotateMerge(
        documented("Confirm one booking option with the user's consent", {
          example: confirmExample,
          description:
            "Confirms one option from a search, after the user has picked it, accepted its terms and consented to sharing contact details. Idempotent: send the same `Idempotency-Key` header (or `idempotency_key`) on a retry to get the first answer again (200) instead of a second booking (201). A retry is the same request when it books the same option for the same customer at the same addresses under the same terms version; new acceptance or consent time stamps, consent wording and `source` do not change that. A key that holds another booking is 409 `idempotency_key_reused` naming it; an option this partner already booked for this customer is 409 `option_already_booked` naming it.",
          requestName: "BookingConfirmationRequest",
          responseName: "BookingConfirmationResponse"
        })
      )
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/api/public/bookings/:booking_id/cancel", {
      params: BookingStatusPath,
      payload: CancelBookingRequest,
      headers: IdempotencyKeyHeader,
      success: [CancelledBooking, CancelPreview.annotate({ description: "Dry run", examples: [cancelPreviewExample] })],
      error: [
        errorBody(BookingNotFound),
        errorBody(BookingAlreadyCancelled),
        errorBody(BookingStarted),
        errorBody(BookingChanged),
        errorBody(IdempotencyKeyReused),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotateMerge(
        documented("Cancel a booking under the provider's policy (dry_run: preview the fee)", {
          example: cancelExample,
          description:
            "Cancels a confirmed booking under the provider's cancellation policy, for the customer (default) or the partner. Send `dry_run: true` first: it changes nothing and answers `CancelPreview`: `cancelled: false`, the fee that would apply now and the free period's end (`cancellation`, without a `cancelled_at`: nothing was cancelled), the booking's `cancellation_policy` as it stands now, and both deliveries `skipped` with `reason: dry_run`, for the assistant to tell the user before asking. A cancel frees the slot at once. Idempotent per key (`idempotent_replay: true` on a retry); a second cancel under a new key is 409 `booking_already_cancelled` with its `cancellation`. Unknown or another partner's booking: 404 `booking_not_found`; the slot has started: 409 `booking_started`; a stale `expected_version`: 409 `booking_changed`. The fee is what the provider may charge under its terms, never a sum this service collects.",
          requestName: "CancelBookingRequest",
          responseName: "CancelBookingResponse"
        })
      )
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.post("reschedule", "/api/public/bookings/:booking_id/reschedule", {
      params: BookingStatusPath,
      payload: RescheduleBookingRequest,
      headers: IdempotencyKeyHeader,
      success: [
        RescheduleBookingResponse,
        ReschedulePreview.annotate({ description: "Dry run", examples: [reschedulePreviewExample] })
      ],
      error: [
        errorBody(BookingNotFound),
        errorBody(OptionNotForThisBooking),
        ...optionRefusals,
        errorBody(BookingAlreadyCancelled),
        errorBody(OutsideChangeWindow),
        errorBody(BookingChanged),
        errorBody(IdempotencyKeyReused),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotateMerge(
        documented("Move a booking to a new slot of the same provider and service, keeping its id", {
          example: rescheduleExample,
          description:
            "Moves a confirmed booking to a new option of the same provider and service (else 422 `option_not_for_this_booking`), keeping its `id` and `request_id`; `booking.version` goes up by one and the old slot is released in the same transaction. Answers the confirm body plus `previous_slot`; `dry_run: true` changes nothing and shows the new time, its price (`new_price`, as the option states it, with its `tax_deduction`: the booking takes it), `current_price_sek`, `price_difference_sek` (new less current, before any deduction) and the new time's policy. The new slot taken meanwhile: 409 `slot_taken` (the booking at its old time still stands); past the policy's `change_until`: 409 `outside_change_window`; a cancelled booking: 409 `booking_already_cancelled`. Idempotent per key.",
          requestName: "RescheduleBookingRequest"
        })
      )
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/bookings/:booking_id", {
      params: BookingStatusPath,
      success: BookingStatusResponse,
      error: errorBody(BookingUnavailable)
    }).annotateMerge(
      documented("Look up a booking by booking id or request id, redacted", {
        example: statusExample,
        description:
          "Looks a booking up by its `booking.id` or `request_id`, with personal data redacted. Only the partner that made the booking sees it.",
        responseName: "BookingStatusResponse"
      })
    )
  )
  .add(
    HttpApiEndpoint.get("list", "/api/public/bookings", {
      query: BookingListQuery,
      success: BookingListResponse,
      error: errorBody(BookingUnavailable)
    }).annotateMerge(
      documented("The partner's bookings, last changed first, a page at a time (reconciliation)", {
        example: listExample,
        description:
          "The partner's bookings, confirmed and cancelled, each as `GET /api/public/bookings/{booking.id}` answers it (redacted), last changed first. Filters: `status`, `updated_since` (RFC 3339); `limit` 1 to 100 (default 50). Pass `next_cursor` as `cursor` for the next page (null on the last). A walk lists each booking not changed during it exactly once; a changed one moves to the front, for the next walk with `updated_since` (docs/reconciliation.md). A bad cursor is 400 naming `cursor`.",
        responseName: "BookingListResponse"
      })
    )
  )
  .add(
    HttpApiEndpoint.get("personalData", "/api/public/bookings/:booking_id/personal-data", {
      params: BookingStatusPath,
      success: PersonalDataResponse,
      error: [errorBody(BookingNotFound), errorBody(BookingUnavailable)]
    }).annotateMerge(
      documented("What is stored about the booking's customer, who received it, and when it is erased", {
        example: personalDataExample,
        description:
          "The customer's right of access (GDPR art. 15), for the partner that made the booking (`booking.id` or `request_id`; any other is 404 `booking_not_found`): every personal value stored (`stored`: name, phone, e-mail, addresses, free text), the provider who received it and how (`recipients`), and when it is erased (`retention.erase_after`: `PERSONAL_DATA_RETENTION_DAYS`, default 180, after the slot's end or the cancellation), or that it was erased and when (`status: erased`, `erased_at`, `erased_by`). An erased booking keeps its provider, service, time, price and status: its status lookup and lists answer as before, and the provider API shows `customer: null`.",
        responseName: "PersonalDataResponse"
      })
    )
  )
  .add(
    HttpApiEndpoint.delete("erasePersonalData", "/api/public/bookings/:booking_id/personal-data", {
      params: BookingStatusPath,
      payload: ErasePersonalDataRequest,
      headers: IdempotencyKeyHeader,
      success: PersonalDataResponse,
      error: [
        errorBody(BookingNotFound),
        errorBody(BookingActive),
        errorBody(IdempotencyKeyReused),
        errorBody(BookingUnavailable)
      ]
    }).annotateMerge(
      documented("Erase the booking customer's personal data now (past or cancelled bookings); the provider is told", {
        example: erasePersonalDataExample,
        description:
          "The customer's right to erasure (GDPR art. 17): erases at once the customer's name, phone, e-mail, the addresses (their postcode stays) and free text of a booking whose slot has ended or that was cancelled, with the copies in its messages, and tells the provider by its notification channel (art. 19), naming only the booking's request_id. An active booking (confirmed, slot not ended) is 409 `booking_active`: cancel it first. Send `{\"idempotency_key\": …}` or the Idempotency-Key header; the same key again answers the same (`idempotent_replay: true`), the key with another booking is 409 `idempotency_key_reused`. An already erased booking answers its erasure again, telling nobody.",
        requestName: "ErasePersonalDataRequest",
        responseName: "PersonalDataResponse"
      })
    )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Bookings")
  .annotate(OpenApi.Description, "Confirm an option with the user's consent, and look a booking up afterwards.") {}
