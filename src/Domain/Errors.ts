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
 * An error class of the contract: its `_tag` is the `error` code, its status (with the description
 * OpenAPI shows) travels with the class, and it declares the details of the body it fills in
 * besides `safe_next_step`.
 * On the wire every error has the one section 7 body (`errorBody`), whatever it fills in.
 */
export const ContractError =
  <Self = never>() =>
  <Tag extends string, const Carries extends Array<Detail> = []>(
    tag: Tag,
    status: number,
    description: string,
    carries: Carries = [] as unknown as Carries
  ) => {
    statusByTag.set(tag, status)
    return Schema.TaggedError<Self>()(tag, detailsOf(carries), { httpApiStatus: status, description })
  }

/** Each error code's HTTP status, for the wire form (HttpApi reads the same status from the annotation). */
const statusByTag = new Map<string, number>()

export type ErrorClass = Schema.Top & { readonly identifier: string }

/** The HTTP status an error class answers with. */
export const errorStatus = (error: { readonly identifier: string }): number => statusByTag.get(error.identifier)!

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
  const status = statusByTag.get(error.identifier)!
  const body = Schema.Struct({
    ok: Schema.Literal(false),
    error: Schema.Literal(error.identifier),
    status: Schema.Literal(status),
    ...errorDetails,
    ...extraDetailsOf(error)
  })
  const wire = body.pipe(
    Schema.decodeTo(
      error,
      SchemaTransformation.transform<any, any>({
        decode: ({ ok: _ok, error: tag, status: _status, ...rest }) => ({ ...rest, _tag: tag }),
        encode: ({ _tag, ...rest }) => ({ ...rest, ok: false as const, error: _tag, status })
      }) as never
    ),
    HttpApiSchema.status(status)
  )
  return wire as unknown as Schema.Codec<E["Type"], ErrorBody>
}

export class InvalidRequest extends ContractError<InvalidRequest>()(
  "invalid_request",
  400,
  "The request body or parameters are invalid",
  [
    "issues",
    "accepted_job_type_ids",
    "supported_vertical_ids",
    "consent_required_before_create",
    "option_refresh_required",
    "suggested_vertical_id",
    "suggested_job_type_id"
  ]
) {}

export class MalformedJson extends ContractError<MalformedJson>()("malformed_json", 400, "The body is not valid JSON", [
  "issues"
]) {}

export class Unauthorized extends ContractError<Unauthorized>()("unauthorized", 401, "Missing or invalid API token") {}

export class NotFound extends ContractError<NotFound>()("not_found", 404, "No such route", ["issues"]) {}

export class MethodNotAllowed extends ContractError<MethodNotAllowed>()(
  "method_not_allowed",
  405,
  "The route exists but not for this method",
  ["issues"]
) {}

export class PayloadTooLarge extends ContractError<PayloadTooLarge>()(
  "payload_too_large",
  413,
  "The body is larger than 1 MB",
  ["issues"]
) {}

export class UnsupportedMediaType extends ContractError<UnsupportedMediaType>()(
  "unsupported_media_type",
  415,
  "The body must be application/json",
  ["issues"]
) {}

export class UnsupportedVertical extends ContractError<UnsupportedVertical>()(
  "unsupported_vertical",
  422,
  "The vertical is not supported",
  ["issues", "supported_vertical_ids", "suggested_vertical_id", "suggested_job_type_id"]
) {}

export class UnsupportedJobType extends ContractError<UnsupportedJobType>()(
  "unsupported_job_type",
  422,
  "The job type is not one of the vertical's job types",
  ["issues", "accepted_job_type_ids", "suggested_vertical_id", "suggested_job_type_id"]
) {}

export class RateLimited extends ContractError<RateLimited>()("rate_limited", 429, "Rate limit exceeded", ["issues"]) {}

export class InternalError extends ContractError<InternalError>()("internal_error", 500, "Unexpected server error") {}

export class DatabaseUnavailable extends ContractError<DatabaseUnavailable>()(
  "database_unavailable",
  503,
  "The database does not answer"
) {}

export class AuthNotConfigured extends ContractError<AuthNotConfigured>()(
  "auth_not_configured",
  503,
  "Production has no API token configured"
) {}

/**
 * The key already holds a booking or a request made with different details. The body names what
 * it holds, so nobody is sent to book again for something that exists.
 */
export class IdempotencyKeyReused extends ContractError<IdempotencyKeyReused>()(
  "idempotency_key_reused",
  409,
  "The idempotency key was used with a different request; the body names what it holds",
  ["issues", "booking_id", "request_id", "existing_booking", "existing_request"]
) {}
