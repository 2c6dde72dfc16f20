import * as HttpApi from "effect/http-api/HttpApi"
import * as OpenApi from "effect/http-api/OpenApi"
import { BookingsApi } from "./Bookings/Api.js"
import { CapabilitiesApi } from "./Capabilities/Api.js"
import { documentation } from "./Docs/Paths.js"
import { inputParseOptions } from "./Domain/Input.js"
import { ErrorsApi } from "./Errors/Api.js"
import { HealthApi } from "./Health/Api.js"
import { HoldsApi } from "./Holds/Api.js"
import { ContractErrors } from "./Http/ContractErrors.js"
import { completeDocument } from "./Http/OpenApiDocument.js"
import { operationFactsOf } from "./Http/OperationDocs.js"
import { limitedOperationsOf } from "./Http/RateLimitClass.js"
import { ProviderApi } from "./Providers/Api.js"
import { RequestsApi } from "./Requests/Api.js"
import { SearchApi } from "./Search/Api.js"
import { WebhooksApi } from "./Webhooks/Api.js"

const groups = [
  CapabilitiesApi,
  SearchApi,
  BookingsApi,
  HoldsApi,
  RequestsApi,
  WebhooksApi,
  ErrorsApi,
  HealthApi,
  ProviderApi
] as const
const endpointFacts = operationFactsOf(groups)
const limitedOperations = limitedOperationsOf(groups)

export class Api extends HttpApi.make("home-service-booking-api")
  .add(...groups)
  .middleware(ContractErrors)
  .annotate(HttpApi.PayloadParseOptions, inputParseOptions)
  .annotate(OpenApi.Title, "Home-service booking API (Sweden)")
  .annotate(OpenApi.Version, "public_bookings_api_v1 / public_requests_api_v1")
  .annotate(OpenApi.Transform, (spec) => completeDocument(spec, endpointFacts, limitedOperations, documentation))
  .annotate(
    OpenApi.Description,
    "Search and confirm home-service bookings in Sweden, or hand a job to providers as a follow-up request."
  ) {}
