import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import { AuthNotConfigured, errorBody, Unauthorized } from "../Domain/Errors.js"
import type { Partner } from "../Domain/Partner.js"

/**
 * The middleware tags only: what the Api declares (security schemes, failures, the partner it
 * provides). The implementation is in Auth.ts, so the Api and the typed client import no server code.
 */
const security = {
  bearer: HttpApiSecurity.bearer,
  serviceToken: HttpApiSecurity.apiKey({ key: "X-Service-Requests-Token", in: "header" })
}

/** Confirm and status: a production server with no token configured answers 401 (spec section 5). */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Partner }>()(
  "Booking/Authentication",
  { error: errorBody(Unauthorized), security }
) {}

/** Request creation: a production server with no token configured answers 503 (spec sections 4.5 and 5). */
export class RequestAuthentication extends HttpApiMiddleware.Service<RequestAuthentication, { provides: Partner }>()(
  "Booking/RequestAuthentication",
  { error: [errorBody(Unauthorized), errorBody(AuthNotConfigured)], security }
) {}
