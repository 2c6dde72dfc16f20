import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import { VerticalId } from "./Catalog.js"

/**
 * Every error class's `_tag` is its stable snake_case `error` code. On the wire the tag
 * travels as `error`, beside `ok: false` and the HTTP status (spec section 7).
 */
export const errorDetails = {
  issues: Schema.optional(Schema.Array(Schema.String)),
  accepted_job_type_ids: Schema.optional(Schema.Array(Schema.String)),
  supported_vertical_ids: Schema.optional(Schema.Array(VerticalId)),
  consent_required_before_create: Schema.optional(Schema.Boolean),
  option_refresh_required: Schema.optional(Schema.Boolean),
  safe_next_step: Schema.optional(Schema.String)
}

type ErrorClass = Schema.Schema.AnyNoContext & { readonly _tag: string }

export const ErrorBodyFields = Schema.Struct({
  ok: Schema.Literal(false),
  error: Schema.String,
  status: Schema.Int,
  ...errorDetails
})
export type ErrorBody = typeof ErrorBodyFields.Type

/** The section 7 wire form of an error class, keeping the class's status annotation. */
export const errorBody = <E extends ErrorClass>(error: E): Schema.Schema<Schema.Schema.Type<E>, ErrorBody> => {
  const status = HttpApiSchema.getStatusError(error)
  const body = Schema.Struct({
    ok: Schema.Literal(false),
    error: Schema.Literal(error._tag),
    status: Schema.Literal(status),
    ...errorDetails
  })
  const target = error as unknown as Schema.Schema<{ readonly _tag: string }, { readonly _tag: string }>
  const wire = Schema.transform(body, target, {
    strict: false,
    decode: ({ ok: _ok, error: tag, status: _status, ...rest }) => ({ ...rest, _tag: tag }),
    encode: ({ _tag, ...rest }) => ({ ...rest, ok: false as const, error: _tag, status })
  }).annotations(HttpApiSchema.annotations({ status }))
  return wire as unknown as Schema.Schema<Schema.Schema.Type<E>, ErrorBody>
}

export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()(
  "invalid_request",
  errorDetails,
  HttpApiSchema.annotations({ status: 400, description: "The request body or parameters are invalid" })
) {}

export class MalformedJson extends Schema.TaggedError<MalformedJson>()(
  "malformed_json",
  errorDetails,
  HttpApiSchema.annotations({ status: 400, description: "The body is not valid JSON" })
) {}

export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "unauthorized",
  errorDetails,
  HttpApiSchema.annotations({ status: 401, description: "Missing or invalid API token" })
) {}

export class NotFound extends Schema.TaggedError<NotFound>()(
  "not_found",
  errorDetails,
  HttpApiSchema.annotations({ status: 404, description: "No such route" })
) {}

export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()(
  "method_not_allowed",
  errorDetails,
  HttpApiSchema.annotations({ status: 405, description: "The route exists but not for this method" })
) {}

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "payload_too_large",
  errorDetails,
  HttpApiSchema.annotations({ status: 413, description: "The body is larger than 1 MB" })
) {}

export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "unsupported_media_type",
  errorDetails,
  HttpApiSchema.annotations({ status: 415, description: "The body must be application/json" })
) {}

export class UnsupportedVertical extends Schema.TaggedError<UnsupportedVertical>()(
  "unsupported_vertical",
  errorDetails,
  HttpApiSchema.annotations({ status: 422, description: "The vertical is not supported" })
) {}

export class UnsupportedJobType extends Schema.TaggedError<UnsupportedJobType>()(
  "unsupported_job_type",
  errorDetails,
  HttpApiSchema.annotations({ status: 422, description: "The job type is not one of the vertical's job types" })
) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()(
  "rate_limited",
  errorDetails,
  HttpApiSchema.annotations({ status: 429, description: "Rate limit exceeded" })
) {}

export class InternalError extends Schema.TaggedError<InternalError>()(
  "internal_error",
  errorDetails,
  HttpApiSchema.annotations({ status: 500, description: "Unexpected server error" })
) {}

export class DatabaseUnavailable extends Schema.TaggedError<DatabaseUnavailable>()(
  "database_unavailable",
  errorDetails,
  HttpApiSchema.annotations({ status: 503, description: "The database does not answer" })
) {}

export class AuthNotConfigured extends Schema.TaggedError<AuthNotConfigured>()(
  "auth_not_configured",
  errorDetails,
  HttpApiSchema.annotations({ status: 503, description: "Production has no API token configured" })
) {}

export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()(
  "idempotency_key_reused",
  errorDetails,
  HttpApiSchema.annotations({ status: 409, description: "The idempotency key was used with a different request" })
) {}
