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
import { RateLimitClass } from "../Http/RateLimitClass.js"

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.post("search", "/api/public/booking-options", {
      payload: BookingSearchRequest,
      success: BookingSearchResponse,
      error: [
        errorBody(UnsupportedVertical),
        errorBody(UnsupportedJobType),
        errorBody(Unauthorized),
        errorBody(RateLimited),
        errorBody(SigningNotConfigured),
        errorBody(DatabaseUnavailable)
      ]
    })
      .annotate(
        OpenApi.Summary,
        "Search bookable options (provider, fixed price, free slot, terms) without personal data"
      )
      .annotate(RateLimitClass, "search")
  )
  .annotate(OpenApi.Title, "Search") {}
