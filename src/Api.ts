import { HttpApi, OpenApi } from "@effect/platform"
import { BookingsApi } from "./Bookings/Api.js"
import { CapabilitiesApi } from "./Capabilities/Api.js"
import {
  errorBody,
  InternalError,
  InvalidRequest,
  MalformedJson,
  MethodNotAllowed,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType
} from "./Domain/Errors.js"
import { HealthApi } from "./Health/Api.js"
import { RequestsApi } from "./Requests/Api.js"
import { SearchApi } from "./Search/Api.js"

/**
 * HttpApi declares its own decode error on every endpoint; the error contract turns it into
 * `invalid_request` before it leaves the server, so the document should not promise it.
 */
const withoutDecodeErrorSchema = (spec: Record<string, any>) => {
  const decodeError = "#/components/schemas/HttpApiDecodeError"
  for (const operations of Object.values<Record<string, any>>(spec.paths ?? {})) {
    for (const operation of Object.values<any>(operations)) {
      const schema = operation?.responses?.["400"]?.content?.["application/json"]?.schema
      if (!Array.isArray(schema?.anyOf)) continue
      const rest = schema.anyOf.filter((s: { $ref?: string }) => s.$ref !== decodeError)
      operation.responses["400"].content["application/json"].schema = rest.length === 1 ? rest[0] : { anyOf: rest }
    }
  }
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey"]) delete spec.components?.schemas?.[name]
  return spec
}

export class Api extends HttpApi.make("home-service-booking-api")
  .add(CapabilitiesApi)
  .add(SearchApi)
  .add(BookingsApi)
  .add(RequestsApi)
  .add(HealthApi)
  .addError(errorBody(InvalidRequest))
  .addError(errorBody(MalformedJson))
  .addError(errorBody(NotFound))
  .addError(errorBody(MethodNotAllowed))
  .addError(errorBody(PayloadTooLarge))
  .addError(errorBody(UnsupportedMediaType))
  .addError(errorBody(InternalError))
  .annotate(OpenApi.Title, "Home-service booking API (Sweden)")
  .annotate(OpenApi.Version, "public_bookings_api_v1 / public_requests_api_v1")
  .annotate(OpenApi.Transform, withoutDecodeErrorSchema)
  .annotate(
    OpenApi.Description,
    "Search and confirm home-service bookings in Sweden, or hand a job to providers as a follow-up request."
  ) {}
