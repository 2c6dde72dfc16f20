import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Authentication } from "../AuthApi.js"
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
import { OptionExpired, OptionInvalid } from "../Domain/BookingOption.js"
import { errorBody, IdempotencyKeyReused, RateLimited } from "../Domain/Errors.js"
import { IdempotencyKeyHeader } from "../Domain/Request.js"

export const BookingStatusPath = Schema.Struct({ booking_id: Schema.String.pipe(Schema.minLength(1)) })

export class BookingsApi extends HttpApiGroup.make("bookings")
  .add(
    HttpApiEndpoint.post("confirm", "/api/public/bookings")
      .setPayload(BookingConfirmationRequest)
      .setHeaders(IdempotencyKeyHeader)
      .addSuccess(BookingConfirmationResponse, { status: 201 })
      .addSuccess(BookingConfirmationResponse.annotations({ description: "Idempotent replay" }))
      .addError(errorBody(OptionExpired))
      .addError(errorBody(OptionInvalid))
      .addError(errorBody(PriceChanged))
      .addError(errorBody(TermsChanged))
      .addError(errorBody(ProviderUnavailable))
      .addError(errorBody(SlotTaken))
      .addError(errorBody(OptionAlreadyBooked))
      .addError(errorBody(IdempotencyKeyReused))
      .addError(errorBody(RateLimited))
      .addError(errorBody(BookingUnavailable))
      .annotate(OpenApi.Summary, "Confirm one booking option with the user's consent")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/bookings/:booking_id")
      .setPath(BookingStatusPath)
      .addSuccess(BookingStatusResponse)
      .addError(errorBody(BookingUnavailable))
      .annotate(OpenApi.Summary, "Look up a booking by booking id or request id, redacted")
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Bookings") {}
