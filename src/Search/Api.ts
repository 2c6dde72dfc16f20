import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { SigningNotConfigured } from "../Domain/BookingOption.js"
import {
  DatabaseUnavailable,
  errorBody,
  RateLimited,
  Unauthorized,
  UnsupportedJobType,
  UnsupportedVertical
} from "../Domain/Errors.js"
import { BookingSearchRequest, BookingSearchResponse } from "../Domain/Search.js"
import { documented } from "../Http/OperationDocs.js"
import { RateLimitClass } from "../Http/RateLimitClass.js"
import { alternativesExample, searchExample } from "./Examples.js"

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.post("search", "/api/public/booking-options", {
      payload: BookingSearchRequest,
      success: BookingSearchResponse.annotate({ examples: [alternativesExample] }),
      error: [
        errorBody(UnsupportedVertical),
        errorBody(UnsupportedJobType),
        errorBody(Unauthorized),
        errorBody(RateLimited),
        errorBody(SigningNotConfigured),
        errorBody(DatabaseUnavailable)
      ]
    })
      .annotateMerge(
        documented("Search bookable options (provider, fixed price, free slot, terms) without personal data", {
          example: searchExample,
          description:
            "Finds bookable options for a job at a Swedish postcode: provider, fixed price, a free slot and the booking terms. No personal data is sent or needed. Every option carries a signed `booking_option_id` valid until `expires_at`; nothing is booked until it is confirmed. When the requested time has no free slot, `alternative_options` carries up to 4 such options at the nearest free times outside it (the BookingSearchResponse schema's example shows one), while `direct_booking_available` and `options` still speak of the requested time. A token is optional: with a sandbox token the options leave out slots that sandbox already booked; a token that is sent is checked (401 if it is wrong).",
          requestName: "BookingSearchRequest",
          responseName: "BookingSearchResponse",
          tokenOptional: true
        })
      )
      .annotate(RateLimitClass, "search")
  )
  .annotate(OpenApi.Title, "Search")
  .annotate(
    OpenApi.Description,
    "Bookable options (provider, fixed price, free slot, terms) for a job, without personal data."
  ) {}
