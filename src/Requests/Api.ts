import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { BookingUnavailable } from "../Domain/Booking.js"
import { errorBody, IdempotencyKeyReused, RateLimited } from "../Domain/Errors.js"
import { RequestListQuery, RequestListResponse } from "../Domain/ListPage.js"
import {
  IdempotencyKeyHeader,
  RequestAlreadyWithdrawn,
  RequestNotFound,
  RequestStatusPath,
  ServiceRequestCreate,
  ServiceRequestResponse,
  ServiceRequestStatusResponse,
  WithdrawRequest
} from "../Domain/Request.js"
import { ErasePersonalDataRequest, PersonalDataResponse, RequestActive } from "../Domain/Retention.js"
import { EmergencyNotSupported } from "../Domain/Safety.js"
import { madeOrReplayed } from "../Http/Idempotent.js"
import { documented } from "../Http/OperationDocs.js"
import { RateLimitClass } from "../Http/RateLimitClass.js"
import { RequestAuthentication } from "../Partners/AuthApi.js"
import { eraseRequestDataExample, requestDataExample } from "../PersonalData/Examples.js"
import { createExample, listExample, statusExample, withdrawExample } from "./Examples.js"

/** A follow-up request made by this call (201), or a retry's first answer again (200). */
const [RequestCreated, RequestReplayed] = madeOrReplayed(ServiceRequestResponse)

export class RequestsApi extends HttpApiGroup.make("requests")
  .add(
    HttpApiEndpoint.post("create", "/api/public/requests", {
      payload: ServiceRequestCreate,
      headers: IdempotencyKeyHeader,
      success: [RequestCreated, RequestReplayed],
      error: [
        errorBody(IdempotencyKeyReused),
        errorBody(RateLimited),
        errorBody(BookingUnavailable),
        errorBody(EmergencyNotSupported)
      ]
    })
      .annotateMerge(
        documented("Hand a job to providers as a follow-up request (never a booking)", {
          example: createExample,
          description:
            "Hands a job to providers as a follow-up request when no option could be booked directly. It is never a booking: providers contact the customer. Idempotent like confirm. Keep `request.id` to look the request up later.",
          requestName: "ServiceRequestCreate",
          responseName: "ServiceRequestResponse"
        })
      )
      .annotate(RateLimitClass, "requests")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/requests/:request_id", {
      params: RequestStatusPath,
      success: ServiceRequestStatusResponse,
      error: [errorBody(RequestNotFound), errorBody(BookingUnavailable)]
    }).annotateMerge(
      documented("Look up a follow-up request by request.id or session_id, redacted (never a booking)", {
        example: statusExample,
        description:
          "Looks a follow-up request up by its `request.id` (or `session_id`): whether providers have received it, with personal data redacted. It is never a booking. Only the partner that created it sees it; any other id is 404 `request_not_found`.",
        responseName: "ServiceRequestStatusResponse"
      })
    )
  )
  .add(
    HttpApiEndpoint.get("list", "/api/public/requests", {
      query: RequestListQuery,
      success: RequestListResponse,
      error: errorBody(BookingUnavailable)
    }).annotateMerge(
      documented("The partner's follow-up requests, last changed first, a page at a time (reconciliation)", {
        example: listExample,
        description:
          "The partner's follow-up requests, each as `GET /api/public/requests/{request.id}` answers it (redacted, never a booking), last changed (created or withdrawn) first. Filters, limit and cursor as for `GET /api/public/bookings`.",
        responseName: "RequestListResponse"
      })
    )
  )
  .add(
    HttpApiEndpoint.post("withdraw", "/api/public/requests/:request_id/withdraw", {
      params: RequestStatusPath,
      payload: WithdrawRequest,
      headers: IdempotencyKeyHeader,
      success: ServiceRequestResponse,
      error: [
        errorBody(RequestNotFound),
        errorBody(RequestAlreadyWithdrawn),
        errorBody(IdempotencyKeyReused),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotateMerge(
        documented("Withdraw a follow-up request; the providers who received it are told", {
          example: withdrawExample,
          description:
            "Withdraws a follow-up request (`request.id` or `session_id`): copies not yet delivered are stopped, and each provider who received it (or was being sent it) is told by the same channel, naming only its reference. Answers as the lookup does, with `request.withdrawal` and `idempotent_replay`. The same key again: the same answer; the key with another request or reason: 409 `idempotency_key_reused`; already withdrawn under another key: 409 `request_already_withdrawn`. A sandbox request reached nobody, so nobody is told. Emits `request.withdrawn`.",
          requestName: "WithdrawRequest",
          responseName: "ServiceRequestResponse"
        })
      )
      .annotate(RateLimitClass, "requests")
  )
  .add(
    HttpApiEndpoint.get("personalData", "/api/public/requests/:request_id/personal-data", {
      params: RequestStatusPath,
      success: PersonalDataResponse,
      error: [errorBody(RequestNotFound), errorBody(BookingUnavailable)]
    }).annotateMerge(
      documented(
        "What is stored about a follow-up request's customer, which providers received it, and when it is erased",
        {
          example: requestDataExample,
          description:
            "As `GET /api/public/bookings/{booking_id}/personal-data`, for a follow-up request (`request.id` or `session_id`; another partner's is 404 `request_not_found`): the values stored (contact, location, description, details, free text), each provider it was handed to and whether the copy reached it, and when it is erased (`PERSONAL_DATA_RETENTION_DAYS` after the request last changed).",
          responseName: "PersonalDataResponse"
        }
      )
    )
  )
  .add(
    HttpApiEndpoint.delete("erasePersonalData", "/api/public/requests/:request_id/personal-data", {
      params: RequestStatusPath,
      payload: ErasePersonalDataRequest,
      headers: IdempotencyKeyHeader,
      success: PersonalDataResponse,
      error: [
        errorBody(RequestNotFound),
        errorBody(RequestActive),
        errorBody(IdempotencyKeyReused),
        errorBody(BookingUnavailable)
      ]
    }).annotateMerge(
      documented("Erase a withdrawn follow-up request's personal data now; the providers who received it are told", {
        example: eraseRequestDataExample,
        description:
          "As the booking's erasure, for a follow-up request: it must be withdrawn first (else 409 `request_active`), since providers may still contact the customer about an open one. Each provider the request reached is told by its channel (GDPR art. 19), naming only the request's reference. Idempotent per key.",
        requestName: "ErasePersonalDataRequest",
        responseName: "PersonalDataResponse"
      })
    )
  )
  .middleware(RequestAuthentication)
  .annotate(OpenApi.Title, "Requests")
  .annotate(
    OpenApi.Description,
    "Hand a job to providers as a follow-up request when no option can be booked directly."
  ) {}
