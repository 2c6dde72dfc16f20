import { ContractError } from "../Domain/Errors.js"

export class OriginNotAllowed extends ContractError<OriginNotAllowed>()(
  "origin_not_allowed",
  403,
  "The Origin header names a site that may not call /mcp",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Call /mcp from a server or an allowed origin; a browser page of another site may not call it."
  }
) {}

export class SessionRequired extends ContractError<SessionRequired>()(
  "mcp_session_required",
  400,
  "Only initialize may be sent without Mcp-Session-Id",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Send initialize first and then the Mcp-Session-Id header it returned on every other message."
  }
) {}

export class SessionNotFound extends ContractError<SessionNotFound>()(
  "mcp_session_not_found",
  404,
  "The MCP session expired, was closed or is not the caller's",
  { carries: ["issues"], retrySafe: false, recovery: "Start a new session with initialize and use its Mcp-Session-Id." }
) {}

export class ProtocolVersionMismatch extends ContractError<ProtocolVersionMismatch>()(
  "mcp_protocol_version_mismatch",
  400,
  "MCP-Protocol-Version is not the version the session agreed",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Send the MCP-Protocol-Version the session agreed at initialize, or start a new session."
  }
) {}

/** The errors /mcp answers with beside the Api's, for the error catalogue. */
export const mcpErrorCodes = [OriginNotAllowed, SessionRequired, SessionNotFound, ProtocolVersionMismatch].map(
  (error) => error.identifier
)
