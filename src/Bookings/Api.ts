import { Schema } from "effect"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
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
  CancelBookingResponse,
  OptionNotForThisBooking,
  OutsideChangeWindow,
  RescheduleBookingRequest,
  RescheduleBookingResponse,
  ReschedulePreview
} from "../Domain/BookingChange.js"
import { OptionExpired, OptionInvalid } from "../Domain/BookingOption.js"
import { errorBody, IdempotencyKeyReused, RateLimited } from "../Domain/Errors.js"
import { IdempotencyKeyHeader } from "../Domain/Request.js"
import { RateLimitClass } from "../Http/RateLimitClass.js"
import { Authentication } from "../Partners/AuthApi.js"

export const BookingStatusPath = Schema.Struct({ booking_id: Schema.String.check(Schema.isMinLength(1)) })

export class BookingsApi extends HttpApiGroup.make("bookings")
  .add(
    HttpApiEndpoint.post("confirm", "/api/public/bookings", {
      payload: BookingConfirmationRequest,
      headers: IdempotencyKeyHeader,
      success: [
        BookingConfirmationResponse.pipe(HttpApiSchema.status(201)),
        BookingConfirmationResponse.annotate({ description: "Idempotent replay" })
      ],
      error: [
        errorBody(OptionExpired),
        errorBody(OptionInvalid),
        errorBody(PriceChanged),
        errorBody(TermsChanged),
        errorBody(ProviderUnavailable),
        errorBody(SlotTaken),
        errorBody(OptionAlreadyBooked),
        errorBody(IdempotencyKeyReused),
        errorBody(BookingAlreadyCancelled),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotate(OpenApi.Summary, "Confirm one booking option with the user's consent")
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.post("cancel", "/api/public/bookings/:booking_id/cancel", {
      params: BookingStatusPath,
      payload: CancelBookingRequest,
      headers: IdempotencyKeyHeader,
      success: CancelBookingResponse,
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
      .annotate(OpenApi.Summary, "Cancel a booking under the provider's policy (dry_run: preview the fee)")
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.post("reschedule", "/api/public/bookings/:booking_id/reschedule", {
      params: BookingStatusPath,
      payload: RescheduleBookingRequest,
      headers: IdempotencyKeyHeader,
      success: [RescheduleBookingResponse, ReschedulePreview.annotate({ description: "Dry run" })],
      error: [
        errorBody(BookingNotFound),
        errorBody(OptionNotForThisBooking),
        errorBody(OptionExpired),
        errorBody(OptionInvalid),
        errorBody(PriceChanged),
        errorBody(TermsChanged),
        errorBody(ProviderUnavailable),
        errorBody(SlotTaken),
        errorBody(BookingAlreadyCancelled),
        errorBody(OutsideChangeWindow),
        errorBody(BookingChanged),
        errorBody(IdempotencyKeyReused),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotate(OpenApi.Summary, "Move a booking to a new slot of the same provider and service, keeping its id")
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/bookings/:booking_id", {
      params: BookingStatusPath,
      success: BookingStatusResponse,
      error: errorBody(BookingUnavailable)
    }).annotate(OpenApi.Summary, "Look up a booking by booking id or request id, redacted")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Bookings") {}
