import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { RequestAuthentication } from "../AuthApi.js"
import { BookingUnavailable } from "../Domain/Booking.js"
import { errorBody, IdempotencyKeyReused, RateLimited } from "../Domain/Errors.js"
import {
  IdempotencyKeyHeader,
  RequestNotFound,
  RequestStatusPath,
  ServiceRequestCreate,
  ServiceRequestResponse,
  ServiceRequestStatusResponse
} from "../Domain/Request.js"
import { EmergencyNotSupported } from "../Domain/Safety.js"

export class RequestsApi extends HttpApiGroup.make("requests")
  .add(
    HttpApiEndpoint.post("create", "/api/public/requests")
      .setPayload(ServiceRequestCreate)
      .setHeaders(IdempotencyKeyHeader)
      .addSuccess(ServiceRequestResponse, { status: 201 })
      .addSuccess(ServiceRequestResponse.annotations({ description: "Idempotent replay" }))
      .addError(errorBody(IdempotencyKeyReused))
      .addError(errorBody(RateLimited))
      .addError(errorBody(BookingUnavailable))
      .addError(errorBody(EmergencyNotSupported))
      .annotate(OpenApi.Summary, "Hand a job to providers as a follow-up request (never a booking)")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/requests/:request_id")
      .setPath(RequestStatusPath)
      .addSuccess(ServiceRequestStatusResponse)
      .addError(errorBody(RequestNotFound))
      .addError(errorBody(BookingUnavailable))
      .annotate(OpenApi.Summary, "Look up a follow-up request by request.id or session_id, redacted (never a booking)")
  )
  .middleware(RequestAuthentication)
  .annotate(OpenApi.Title, "Requests") {}
