import * as HttpApi from "effect/http-api/HttpApi"
import * as OpenApi from "effect/http-api/OpenApi"
import { BookingsApi } from "./Bookings/Api.js"
import { CapabilitiesApi } from "./Capabilities/Api.js"
import * as Errors from "./Domain/Errors.js"
import { HealthApi } from "./Health/Api.js"
import { completeDocument } from "./OpenApiDocument.js"
import { RequestsApi } from "./Requests/Api.js"
import { SearchApi } from "./Search/Api.js"

export class Api extends HttpApi.make("home-service-booking-api")
  .add(CapabilitiesApi)
  .add(SearchApi)
  .add(BookingsApi)
  .add(RequestsApi)
  .add(HealthApi)
  .addError(Errors.errorBody(Errors.InvalidRequest))
  .addError(Errors.errorBody(Errors.MalformedJson))
  .addError(Errors.errorBody(Errors.NotFound))
  .addError(Errors.errorBody(Errors.MethodNotAllowed))
  .addError(Errors.errorBody(Errors.PayloadTooLarge))
  .addError(Errors.errorBody(Errors.UnsupportedMediaType))
  .addError(Errors.errorBody(Errors.InternalError))
  .annotate(OpenApi.Title, "Home-service booking API (Sweden)")
  .annotate(OpenApi.Version, "public_bookings_api_v1 / public_requests_api_v1")
  .annotate(OpenApi.Transform, completeDocument)
  .annotate(
    OpenApi.Description,
    "Search and confirm home-service bookings in Sweden, or hand a job to providers as a follow-up request."
  ) {}
