import { Schema } from "effect"
import * as McpSchema from "effect/ai/McpSchema"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { issuesOf } from "../Domain/Issues.js"

/**
 * JSON-RPC 2.0's own error codes, which /mcp answers with: the body is not JSON (-32700), not a
 * JSON-RPC request (-32600), a method the server does not offer (-32601), parameters the method
 * cannot take (-32602), and anything that went wrong inside (-32603).
 */
export const parseError = -32700
export const invalidRequest = -32600
export const methodNotFound = -32601
export const invalidParams = -32602
export const internalError = -32603

/** MCP's own codes sit in JSON-RPC's server range (-32002 resource not found, ...). */
const isServerRange = (code: number) => code >= -32099 && code <= -32000
const standardCodes: ReadonlySet<number> = new Set([
  parseError,
  invalidRequest,
  methodNotFound,
  invalidParams,
  internalError
])

export type Message = {
  readonly jsonrpc?: unknown
  readonly method?: unknown
  readonly id?: unknown
  readonly params?: unknown
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A request is answered; a notification (no id) never is. */
export const isRequest = (message: Message) => message.id !== undefined

export type JsonRpcId = string | number | null

/** The id to echo: the message's, when it is one JSON-RPC allows, else null. */
export const idOf = (message: unknown): JsonRpcId => {
  const id = isObject(message) ? message.id : undefined
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as string | number) : null
}

export interface JsonRpcError {
  readonly code: number
  readonly message: string
  readonly data?: { readonly issues: ReadonlyArray<string> }
}

export const errorResponse = (id: JsonRpcId, error: JsonRpcError) => ({ jsonrpc: "2.0" as const, id, error })

/** A POST the server cannot read as JSON-RPC at all: 400, as the Streamable HTTP transport asks. */
export const rejected = (id: JsonRpcId, error: JsonRpcError) =>
  HttpServerResponse.jsonUnsafe(errorResponse(id, error), { status: 400 })

export const notJson: JsonRpcError = {
  code: parseError,
  message: "Parse error: the body is not valid JSON",
  data: { issues: ["body: is not valid JSON"] }
}

/** What makes a message (or the batch) something other than a JSON-RPC 2.0 request or notification. */
export const messageIssues = (body: unknown): ReadonlyArray<string> => {
  if (Array.isArray(body) && body.length === 0) return ["body: an empty batch holds no message"]
  const messages: ReadonlyArray<unknown> = Array.isArray(body) ? body : [body]
  return messages.flatMap((message, index) => {
    const at = messages.length > 1 ? `[${index}].` : ""
    if (!isObject(message) || message.jsonrpc !== "2.0") return [`${at}jsonrpc: must be "2.0"`]
    const issues: Array<string> = []
    // JSON-RPC ids are strings or integers; Effect 4's codec answers both.
    if (message.id !== undefined && typeof message.id !== "string" && !Number.isSafeInteger(message.id)) {
      issues.push(`${at}id: must be a string or an integer`)
    }
    if (typeof message.method !== "string") issues.push(`${at}method: must be a string`)
    return issues
  })
}

export const invalidRequestError = (issues: ReadonlyArray<string>): JsonRpcError => ({
  code: invalidRequest,
  message: `Invalid Request: ${issues.join("; ")}`,
  data: { issues }
})

/** Why a method's params cannot be taken by the schema McpSchema gives its request, if they cannot. */
export const paramsIssues = (schema: Schema.Top, params: unknown): ReadonlyArray<string> => {
  const decoded = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>)(params)
  return decoded._tag === "Success"
    ? []
    : issuesOf(decoded.failure.issue).map((issue) => `params.${issue.path.map(String).join(".")}: ${issue.message}`)
}

/** Why initialize's params cannot be taken, if they cannot. */
export const initializeIssues = (params: unknown): ReadonlyArray<string> =>
  isObject(params)
    ? paramsIssues(McpSchema.Initialize.payloadSchema, params)
    : ["params: must be an object with protocolVersion, capabilities and clientInfo"]

/** Why a tools/call's params cannot be taken, if they cannot (the tool's arguments are its own to refuse). */
export const toolCallIssues = (params: unknown): ReadonlyArray<string> => {
  if (!isObject(params)) return ["params: must be an object with name and arguments"]
  const issues: Array<string> = []
  if (typeof params.name !== "string") issues.push("params.name: must be a string naming a tool")
  if (params.arguments !== undefined && !isObject(params.arguments)) issues.push("params.arguments: must be an object")
  return issues
}

export const invalidParamsError = (method: string, issues: ReadonlyArray<string>): JsonRpcError => ({
  code: invalidParams,
  message: `Invalid params for ${method}: ${issues.join("; ")}`,
  data: { issues }
})

export const methodNotFoundError = (method: string): JsonRpcError => ({
  code: methodNotFound,
  message: `Method not found: ${method}`
})

/**
 * A JSON-RPC error as the transport produced it, said with the standard members only: its code
 * when it is JSON-RPC's or MCP's, its message's first line, and none of the encoded cause the
 * codec puts beside them (`_tag`, `data` with the failure). Any other code is -32603.
 */
export const cleanError = (error: unknown): JsonRpcError => {
  const code = isObject(error) && typeof error.code === "number" ? error.code : undefined
  const message = isObject(error) && typeof error.message === "string" ? error.message : ""
  if (code === undefined || !(standardCodes.has(code) || isServerRange(code))) return internal
  const line = message.split("\n")[0]!.slice(0, 200)
  return { code, message: line.length > 0 ? line : "Error" }
}

export const internal: JsonRpcError = { code: internalError, message: "Internal error" }
