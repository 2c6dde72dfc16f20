import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as OpenApi from "effect/http-api/OpenApi"
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
import { RateLimitClass } from "../Http/RateLimitClass.js"
import { RequestAuthentication } from "../Partners/AuthApi.js"

export class RequestsApi extends HttpApiGroup.make("requests")
  .add(
    HttpApiEndpoint.post("create", "/api/public/requests", {
      payload: ServiceRequestCreate,
      headers: IdempotencyKeyHeader,
      success: [
        ServiceRequestResponse.pipe(HttpApiSchema.status(201)),
        ServiceRequestResponse.annotate({ description: "Idempotent replay" })
      ],
      error: [
        errorBody(IdempotencyKeyReused),
        errorBody(RateLimited),
        errorBody(BookingUnavailable),
        errorBody(EmergencyNotSupported)
      ]
    })
      .annotate(OpenApi.Summary, "Hand a job to providers as a follow-up request (never a booking)")
      .annotate(RateLimitClass, "requests")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/requests/:request_id", {
      params: RequestStatusPath,
      success: ServiceRequestStatusResponse,
      error: [errorBody(RequestNotFound), errorBody(BookingUnavailable)]
    }).annotate(OpenApi.Summary, "Look up a follow-up request by request.id or session_id, redacted (never a booking)")
  )
  .middleware(RequestAuthentication)
  .annotate(OpenApi.Title, "Requests") {}
