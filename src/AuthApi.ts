import { Schema } from "effect"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import { AuthNotConfigured, errorBody, Unauthorized } from "./Domain/Errors.js"
import { Partner } from "./Domain/Partner.js"

/**
 * The middleware tags only: what the Api declares (security schemes, failures, the partner it
 * provides). The implementation is in Auth.ts, so the Api and the typed client import no server code.
 */
const security = {
  bearer: HttpApiSecurity.bearer,
  serviceToken: HttpApiSecurity.apiKey({ key: "X-Service-Requests-Token", in: "header" })
}

/** Confirm and status: a production server with no token configured answers 401 (spec section 5). */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("Booking/Authentication", {
  failure: errorBody(Unauthorized),
  provides: Partner,
  security
}) {}

/** Request creation: a production server with no token configured answers 503 (spec sections 4.5 and 5). */
export class RequestAuthentication extends HttpApiMiddleware.Tag<RequestAuthentication>()(
  "Booking/RequestAuthentication",
  {
    failure: Schema.Union([errorBody(Unauthorized), errorBody(AuthNotConfigured)]),
    provides: Partner,
    security
  }
) {}
