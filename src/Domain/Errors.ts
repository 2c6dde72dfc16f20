import { Schema, SchemaTransformation } from "effect"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import { Cancellation } from "./CancellationPolicy.js"
import { VerticalId } from "./Catalog.js"

/**
 * Every error class's `_tag` is its stable snake_case `error` code. On the wire the tag
 * travels as `error`, beside `ok: false` and the HTTP status (spec section 7).
 */
const errorDetails = {
  issues: Schema.optional(Schema.Array(Schema.String)),
  accepted_job_type_ids: Schema.optional(Schema.Array(Schema.String)),
  supported_vertical_ids: Schema.optional(Schema.Array(VerticalId)),
  consent_required_before_create: Schema.optional(Schema.Boolean),
  option_refresh_required: Schema.optional(Schema.Boolean),
  safe_next_step: Schema.optional(Schema.String)
}

/** The confirmed booking a refusal is about (a used key, an option already booked): never the customer's details. */
export const ExistingBooking = Schema.Struct({
  id: Schema.String,
  request_id: Schema.String,
  status: Schema.Literal("confirmed"),
  provider_id: Schema.String,
  provider_name: Schema.String,
  service_id: Schema.String,
  slot_start_at: Schema.String,
  slot_end_at: Schema.String,
  slot_label: Schema.String
}).annotate({ identifier: "ExistingBooking" })
export type ExistingBooking = typeof ExistingBooking.Type

/** The follow-up request a used key holds: never the customer's details. */
export const ExistingRequest = Schema.Struct({
  id: Schema.String,
  session_id: Schema.String,
  /** `withdrawn` once the partner withdrew it (POST /api/public/requests/{id}/withdraw). */
  status: Schema.Literals(["ready_to_send", "withdrawn"]),
  vertical_id: VerticalId,
  job_type_id: Schema.String
}).annotate({ identifier: "ExistingRequest" })
export type ExistingRequest = typeof ExistingRequest.Type

/**
 * Details beside section 7's, each carried only by the classes that name it, so the other
 * error bodies stay as section 7 draws them: what a refusal is about, and the closest supported
 * vertical or job type when the caller named one we do not have.
 */
const extraDetails = {
  booking_id: Schema.optional(Schema.String),
  request_id: Schema.optional(Schema.String),
  existing_booking: Schema.optional(ExistingBooking),
  existing_request: Schema.optional(ExistingRequest),
  cancellation: Schema.optional(Cancellation),
  suggested_vertical_id: Schema.optional(VerticalId),
  suggested_job_type_id: Schema.optional(Schema.String)
}

const allDetails = { ...errorDetails, ...extraDetails }

type Detail = Exclude<keyof typeof allDetails, "safe_next_step">

/** Every error may tell the assistant what to do next; the other details are the class's own. */
const detailsOf = <Carries extends Array<Detail>>(carries: Carries) =>
  Object.fromEntries([...carries, "safe_next_step" as const].map((detail) => [detail, allDetails[detail]])) as Pick<
    typeof allDetails,
    Carries[number] | "safe_next_step"
  >

/** The extra details a class carries: its wire body adds exactly these to section 7's. */
const extraDetailsOf = (error: ErrorClass) => {
  const fields = (error as unknown as { readonly fields?: Record<string, unknown> }).fields ?? {}
  return Object.fromEntries(Object.entries(extraDetails).filter(([name]) => name in fields)) as typeof extraDetails
}

/**
 * What the error catalogue (docs/errors.md, GET /api/public/errors) says of a code besides its
 * status and meaning. Required of every class, so none is declared without them.
 */
export interface ErrorGuidance<Carries extends Array<Detail>> {
  /** The details of the body the class fills in besides `safe_next_step`. */
  readonly carries?: Carries
  /** Sending the same request again, with the same idempotency key, is safe and can succeed. */
  readonly retrySafe: boolean
  /** What the caller does next. */
  readonly recovery: string
}

/** One entry of the error catalogue. */
export interface CatalogueFacts {
  readonly error: string
  readonly status: number
  readonly meaning: string
  readonly retry_safe: boolean
  readonly recovery: string
}

/**
 * An error class of the contract: its `_tag` is the `error` code, its status (with the description
 * OpenAPI shows) travels with the class, with what the catalogue says of it.
 * On the wire every error has the one section 7 body (`errorBody`), whatever it fills in.
 */
export const ContractError =
  <Self = never>() =>
  <Tag extends string, const Carries extends Array<Detail> = []>(
    tag: Tag,
    status: number,
    description: string,
    guidance: ErrorGuidance<Carries>
  ) => {
    factsByTag.set(tag, {
      error: tag,
      status,
      meaning: description,
      retry_safe: guidance.retrySafe,
      recovery: guidance.recovery
    })
    return Schema.TaggedError<Self>()(tag, detailsOf(guidance.carries ?? ([] as unknown as Carries)), {
      httpApiStatus: status,
      description
    })
  }

const factsByTag = new Map<string, CatalogueFacts>()

/** The catalogue facts of an error code. */
export const catalogueFactsOf = (tag: string): CatalogueFacts | undefined => factsByTag.get(tag)

export type ErrorClass = Schema.Top & { readonly identifier: string }

/** The HTTP status an error class answers with: its own `httpApiStatus`, the annotation HttpApi reads. */
export const errorStatus = (error: ErrorClass): number => {
  const status = error.ast.annotations?.httpApiStatus
  if (typeof status !== "number") throw new Error(`${error.identifier} declares no httpApiStatus`)
  return status
}

export const ErrorBodyFields = Schema.Struct({
  ok: Schema.Literal(false),
  error: Schema.String,
  status: Schema.Int,
  ...errorDetails,
  ...extraDetails
})
export type ErrorBody = typeof ErrorBodyFields.Type

/** The section 7 wire form of an error class, keeping the class's status annotation. */
export const errorBody = <E extends ErrorClass>(error: E): Schema.Codec<E["Type"], ErrorBody> => {
  const status = errorStatus(error)
  const body = Schema.Struct({
    ok: Schema.Literal(false),
    error: Schema.Literal(error.identifier),
    status: Schema.Literal(status),
    ...errorDetails,
    ...extraDetailsOf(error)
  })
  const wire = body.pipe(
    Schema.decodeTo<Schema.Top, typeof body>(
      error,
      SchemaTransformation.transform<unknown, typeof body.Type>({
        decode: ({ ok: _ok, error: tag, status: _status, ...rest }) => ({ ...rest, _tag: tag }),
        // The class's encoded side is its fields with `_tag`; the wire names the tag `error`.
        encode: (value) => {
          const { _tag, ...rest } = value as { readonly _tag: string }
          return { ...rest, ok: false as const, error: _tag, status }
        }
      })
    ),
    HttpApiSchema.status(status)
  )
  return wire as unknown as Schema.Codec<E["Type"], ErrorBody>
}

export class InvalidRequest extends ContractError<InvalidRequest>()(
  "invalid_request",
  400,
  "The request body or parameters are invalid",
  {
    carries: [
      "issues",
      "accepted_job_type_ids",
      "supported_vertical_ids",
      "consent_required_before_create",
      "option_refresh_required",
      "suggested_vertical_id",
      "suggested_job_type_id"
    ],
    retrySafe: false,
    recovery:
      "Fix the field or fields named in issues (use accepted_job_type_ids, supported_vertical_ids or the suggestion when given) and send the corrected request."
  }
) {}

export class MalformedJson extends ContractError<MalformedJson>()("malformed_json", 400, "The body is not valid JSON", {
  carries: ["issues"],
  retrySafe: false,
  recovery: "Send a valid JSON body; issues says where parsing stopped."
}) {}

export class Unauthorized extends ContractError<Unauthorized>()("unauthorized", 401, "Missing or invalid API token", {
  retrySafe: false,
  recovery:
    "Send a valid token in the Authorization header (a partner's, or a provider's on /api/provider/…); a revoked or mistyped token keeps failing."
}) {}

export class NotFound extends ContractError<NotFound>()("not_found", 404, "No such route", {
  carries: ["issues"],
  retrySafe: false,
  recovery: "Check the method and path against /openapi.json; the route does not exist."
}) {}

export class MethodNotAllowed extends ContractError<MethodNotAllowed>()(
  "method_not_allowed",
  405,
  "The route exists but not for this method",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Use one of the methods the route allows (the Allow header lists them)."
  }
) {}

export class PayloadTooLarge extends ContractError<PayloadTooLarge>()(
  "payload_too_large",
  413,
  "The body is larger than 1 MB",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Send a body under 1 MB; a description or list that long does not belong in one request."
  }
) {}

export class UnsupportedMediaType extends ContractError<UnsupportedMediaType>()(
  "unsupported_media_type",
  415,
  "The body must be application/json",
  { carries: ["issues"], retrySafe: false, recovery: "Send the body with Content-Type: application/json." }
) {}

export class UnsupportedVertical extends ContractError<UnsupportedVertical>()(
  "unsupported_vertical",
  422,
  "The vertical is not supported",
  {
    carries: ["issues", "supported_vertical_ids", "suggested_vertical_id", "suggested_job_type_id"],
    retrySafe: false,
    recovery:
      "Choose one of supported_vertical_ids (or the suggested one) from the capabilities; do not create a request for an unsupported trade."
  }
) {}

export class UnsupportedJobType extends ContractError<UnsupportedJobType>()(
  "unsupported_job_type",
  422,
  "The job type is not one of the vertical's job types",
  {
    carries: ["issues", "accepted_job_type_ids", "suggested_vertical_id", "suggested_job_type_id"],
    retrySafe: false,
    recovery: "Choose one of accepted_job_type_ids (or the suggested one) for the vertical and send again."
  }
) {}

export class RateLimited extends ContractError<RateLimited>()("rate_limited", 429, "Rate limit exceeded", {
  carries: ["issues"],
  retrySafe: true,
  recovery:
    "Wait as many seconds as issues names, then send the same request again (with the same idempotency key where it takes one)."
}) {}

export class InternalError extends ContractError<InternalError>()("internal_error", 500, "Unexpected server error", {
  retrySafe: true,
  recovery:
    "Send the same request again with the same idempotency key: a retry never acts twice. If it keeps failing, tell the user the service has a problem and nothing may be assumed booked until a status lookup shows it."
}) {}

export class DatabaseUnavailable extends ContractError<DatabaseUnavailable>()(
  "database_unavailable",
  503,
  "The database does not answer",
  {
    retrySafe: true,
    recovery:
      "Wait a moment (Retry-After when given) and send the same request again with the same idempotency key; nothing was written."
  }
) {}

export class AuthNotConfigured extends ContractError<AuthNotConfigured>()(
  "auth_not_configured",
  503,
  "Production has no API token configured",
  {
    retrySafe: false,
    recovery:
      "The service's operator has not configured tokens yet: tell the user the service cannot take bookings now; retrying does not help until it is configured."
  }
) {}

/**
 * The key already holds a booking or a request made with different details. The body names what
 * it holds, so nobody is sent to book again for something that exists.
 */
export class IdempotencyKeyReused extends ContractError<IdempotencyKeyReused>()(
  "idempotency_key_reused",
  409,
  "The idempotency key was used with a different request; the body names what it holds",
  {
    carries: ["issues", "booking_id", "request_id", "existing_booking", "existing_request"],
    retrySafe: false,
    recovery:
      "The key already holds the booking or request named in the body: tell the user about that one. Use a new idempotency key only for a truly new booking or request."
  }
) {}

/** Answered by the listener itself (src/Http/Listener.ts), before any route is chosen. */
export class RequestTimeout extends ContractError<RequestTimeout>()(
  "request_timeout",
  408,
  "The request did not arrive in time",
  {
    carries: ["issues"],
    retrySafe: true,
    recovery: "Send the whole request again promptly, with the same idempotency key; nothing was read."
  }
) {}

export class HeadersTooLarge extends ContractError<HeadersTooLarge>()(
  "headers_too_large",
  431,
  "The request headers are larger than 16 KB",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Send smaller headers (cookies and long custom headers are the usual cause)."
  }
) {}

export class Starting extends ContractError<Starting>()(
  "starting",
  503,
  "The service is starting; retry after Retry-After seconds",
  {
    retrySafe: true,
    recovery:
      "Wait the Retry-After seconds and send the same request again, with the same idempotency key; nothing was read."
  }
) {}

/** The listener's own answers, possible on every operation. */
export const listenerErrors = [RequestTimeout, HeadersTooLarge, Starting] as const
