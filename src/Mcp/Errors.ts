import { HttpApiSchema, HttpServerResponse } from "@effect/platform"
import { Schema } from "effect"
import { type ErrorBody, errorBody, errorDetails } from "../Domain/Errors.js"

export class OriginNotAllowed extends Schema.TaggedError<OriginNotAllowed>()(
  "origin_not_allowed",
  errorDetails,
  HttpApiSchema.annotations({ status: 403, description: "The Origin header names a site that may not call /mcp" })
) {}

export class SessionRequired extends Schema.TaggedError<SessionRequired>()(
  "mcp_session_required",
  errorDetails,
  HttpApiSchema.annotations({ status: 400, description: "Only initialize may be sent without Mcp-Session-Id" })
) {}

export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()(
  "mcp_session_not_found",
  errorDetails,
  HttpApiSchema.annotations({ status: 404, description: "The MCP session expired, was closed or is not the caller's" })
) {}

export class ProtocolVersionMismatch extends Schema.TaggedError<ProtocolVersionMismatch>()(
  "mcp_protocol_version_mismatch",
  errorDetails,
  HttpApiSchema.annotations({ status: 400, description: "MCP-Protocol-Version is not the version the session agreed" })
) {}

type ErrorClass = Schema.Schema.AnyNoContext & { readonly _tag: string }

/** The section 7 body of any error class instance, as REST would write it. */
export const wireError = (error: { readonly _tag: string }): ErrorBody =>
  Schema.encodeSync(errorBody(error.constructor as unknown as ErrorClass))(error)

export const refusal = (error: { readonly _tag: string }, headers: Record<string, string> = {}) => {
  const body = wireError(error)
  return HttpServerResponse.unsafeJson(body, { status: body.status, headers })
}
