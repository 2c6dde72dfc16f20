import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
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

export class SearchApi extends HttpApiGroup.make("search")
  .add(
    HttpApiEndpoint.post("search", "/api/public/booking-options")
      .setPayload(BookingSearchRequest)
      .addSuccess(BookingSearchResponse)
      .addError(errorBody(UnsupportedVertical))
      .addError(errorBody(UnsupportedJobType))
      .addError(errorBody(Unauthorized))
      .addError(errorBody(RateLimited))
      .addError(errorBody(SigningNotConfigured))
      .addError(errorBody(DatabaseUnavailable))
      .annotate(
        OpenApi.Summary,
        "Search bookable options (provider, fixed price, free slot, terms) without personal data"
      )
  )
  .annotate(OpenApi.Title, "Search") {}
