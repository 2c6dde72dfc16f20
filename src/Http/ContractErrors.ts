import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as Errors from "../Domain/Errors.js"

/**
 * The errors every endpoint may answer, whatever it does: the body, the path, the route and
 * defects (ErrorContract.ts implements it). Effect 4 declares an Api's own errors on a middleware.
 */
export class ContractErrors extends HttpApiMiddleware.Service<ContractErrors>()("Booking/ContractErrors", {
  error: [
    Errors.errorBody(Errors.InvalidRequest),
    Errors.errorBody(Errors.MalformedJson),
    Errors.errorBody(Errors.NotFound),
    Errors.errorBody(Errors.MethodNotAllowed),
    Errors.errorBody(Errors.PayloadTooLarge),
    Errors.errorBody(Errors.UnsupportedMediaType),
    Errors.errorBody(Errors.InternalError)
  ]
}) {}
