/**
 * The OpenAPI document as partners get it: generated from the same `Api` the server runs, then
 * cleaned and completed so that Redocly, Spectral and Ajv accept it without a finding
 * (test/Http/OpenApi.test.ts runs all three). Pure: no configuration is read here, the public base
 * URL is passed in, so the typed client can import the Api without server code.
 */
import type * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import * as Errors from "../Domain/Errors.js"
import type { OperationFacts } from "./OperationDocs.js"
import { asAccepted, cleanSchema, errorCodeOf, frameworkDescription, renameEncoded } from "./SchemaCleaning.js"

type Json = any

const json = "application/json"

/**
 * Paths the server answers beside the Api (the documentation's own), as the feature serving them
 * declares them: their tag (each group's comes from its OpenApi.Title and OpenApi.Description),
 * their path objects and their facts, as OperationDocs gives an endpoint's.
 */
export interface PathsBeside {
  readonly tag: { readonly name: string; readonly description: string }
  readonly paths: Json
  readonly facts: ReadonlyMap<string, OperationFacts>
}

const parameterDescriptions: Readonly<Record<string, string>> = {
  booking_id: "The booking's `booking.id` or the `request_id` of its confirmation.",
  request_id: "The follow-up request's `request.id` (or its `session_id`), from the creation answer.",
  "idempotency-key":
    "Makes a retry safe: the same key with the same request replays the first answer (200, `idempotent_replay: true`); with a different request it is 409 `idempotency_key_reused`, naming what the key holds."
}

/** Errors only a request with a body can cause. */
const bodyErrors = new Set(["malformed_json", "payload_too_large", "unsupported_media_type"])

/** Errors every operation shares (the error contract's and authentication's), listed before an operation's own. */
const sharedErrors = new Set([
  ...bodyErrors,
  "invalid_request",
  "internal_error",
  "unauthorized",
  "auth_not_configured"
])

/** Errors of a route that does not exist, or a method it does not have: never of a documented operation. */
const routeErrors = new Set(["not_found", "method_not_allowed"])

/**
 * Answers of the listener itself, before any route is chosen, so possible on every operation
 * (src/Http/Listener.ts): headers over 16 KB, a request that does not arrive in time, and a
 * connection made while the app is still starting.
 */
const listenerErrors = Errors.listenerErrors.map((error) => ({
  code: error.identifier,
  status: Errors.errorStatus(error),
  description: Errors.catalogueFactsOf(error.identifier)!.meaning
}))

const headers: Json = {
  "X-Request-Id": {
    description:
      "The request's id: the caller's `X-Request-Id` when it is a plain token, else a new one. Quote it to support.",
    schema: { type: "string" }
  },
  RateLimit: {
    description:
      'The quota left in the current window (IETF httpapi RateLimit draft): `"<policy>";r=<remaining>;t=<seconds to reset>`.',
    schema: { type: "string" }
  },
  "RateLimit-Policy": {
    description: 'The quota of this operation: `"<policy>";q=<requests>;w=60` (per 60-second window).',
    schema: { type: "string" }
  },
  "Retry-After": {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 0 }
  },
  ETag: {
    description: "Strong validator of this representation; send it back as `If-None-Match` to get 304.",
    schema: { type: "string" }
  }
}

const ifNoneMatch = {
  name: "If-None-Match",
  in: "header",
  required: false,
  description: "An ETag from an earlier answer: 304 without a body when the document is unchanged.",
  schema: { type: "string" }
}

/** `invalid_request` → `InvalidRequestError`. */
const componentName = (code: string) =>
  `${code
    .split("_")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}Error`

/** A JSON Schema cleaned as the document's are (the MCP tools' schemas must equal the REST bodies'). */
export const cleanJsonSchema = <A>(schema: A): A => {
  const copy = structuredClone(schema)
  const defs = (copy as Json)?.$defs
  if (defs !== undefined) renameEncoded(copy, defs, "#/$defs/")
  asAccepted(copy)
  cleanSchema(copy)
  return copy
}

const errorSchema = (code: string, status: number): Json => ({
  type: "object",
  required: ["ok", "error", "status"],
  properties: {
    ok: { type: "boolean", enum: [false] },
    error: { type: "string", enum: [code] },
    status: { type: "integer", enum: [status] },
    issues: { type: "array", items: { type: "string" } },
    safe_next_step: { type: "string" }
  },
  additionalProperties: false
})

const headerRefs = (names: ReadonlyArray<string>) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]))

/**
 * Cleans and completes the generated document in place: the `OpenApi.Transform` of the Api, so
 * `OpenApi.fromApi(Api)` is already the document partners get, but for its `servers`.
 * `endpointFacts`: each endpoint's OperationDocs annotation; `limitedOperations`: the operations
 * under a per-minute limit (their RateLimitClass annotation), whose every answer carries RateLimit
 * and RateLimit-Policy; `beside`: the paths served beside the Api.
 */
export const completeDocument = (
  spec: Json,
  endpointFacts: ReadonlyMap<string, OperationFacts>,
  limitedOperations: ReadonlySet<string>,
  beside: PathsBeside
): Json => {
  const factsOf = (id: string): OperationFacts => endpointFacts.get(id) ?? beside.facts.get(id) ?? {}
  if (spec.components?.schemas !== undefined) renameEncoded(spec, spec.components.schemas, "#/components/schemas/")
  asAccepted(spec.paths)
  asAccepted(spec.components?.schemas)
  for (const scheme of Object.values<Json>(spec.components?.securitySchemes ?? {})) {
    if (scheme.type === "http" && typeof scheme.scheme === "string") scheme.scheme = scheme.scheme.toLowerCase()
  }
  spec.openapi = "3.1.0"
  spec.info = {
    ...spec.info,
    license: { name: "Proprietary: use under a partner agreement", identifier: "LicenseRef-Proprietary" }
  }
  spec.paths = { ...spec.paths, ...structuredClone(beside.paths) }
  spec.components = { ...spec.components, schemas: spec.components?.schemas ?? {} }
  const components = spec.components
  const schemas = components.schemas
  for (const name of ["HttpApiDecodeError", "Issue", "PropertyKey", "Int"]) delete schemas[name]
  cleanSchema(schemas)
  components.headers = structuredClone(headers)
  // The partners' tags, then the documentation's, then the providers' (the document's last section).
  const providerTag = (spec.tags ?? []).findIndex((tag: Json) => tag.name === "provider")
  spec.tags = (spec.tags ?? []).toSpliced(providerTag < 0 ? (spec.tags ?? []).length : providerTag, 0, beside.tag)
  delete spec.security

  const named = new Map<string, string>()
  /** The schema as a component, one per distinct body: named ones by the table, errors by their code. */
  const hoist = (name: string, schema: Json): Json => {
    const text = JSON.stringify(schema)
    const existing = named.get(text)
    if (existing !== undefined) return { $ref: `#/components/schemas/${existing}` }
    let unique = name
    for (let n = 2; schemas[unique] !== undefined; n++) unique = `${name}${n}`
    schemas[unique] = schema
    named.set(text, unique)
    return { $ref: `#/components/schemas/${unique}` }
  }

  for (const operations of Object.values<Json>(spec.paths)) {
    for (const operation of Object.values<Json>(operations)) {
      const id: string = operation.operationId
      const hasBody = operation.requestBody !== undefined
      const facts = factsOf(id)
      operation.description = facts.description ?? operation.summary
      operation.security ??=
        facts.tokenOptional === true
          ? [{}, ...Object.keys(components.securitySchemes ?? {}).map((scheme) => ({ [scheme]: [] }))]
          : []
      for (const parameter of operation.parameters ?? []) {
        cleanSchema(parameter.schema)
        const description = parameterDescriptions[parameter.name]
        if (description !== undefined) parameter.description = description
        else if (typeof parameter.description === "string" && frameworkDescription.test(parameter.description))
          delete parameter.description
      }
      if (hasBody) {
        const media = operation.requestBody.content[json]
        cleanSchema(media.schema)
        if (facts.requestName !== undefined && media.schema.$ref === undefined)
          media.schema = hoist(facts.requestName, media.schema)
        const example = facts.example?.request
        if (example !== undefined) media.example = example
      }
      const responses: Json = operation.responses
      for (const [status, response] of Object.entries<Json>(responses)) {
        const media = response.content?.[json]
        // A text answer (metrics, the calendar feed) is described by what it is, not a generic "Success".
        if (media === undefined && response.description === "Success" && response.content !== undefined) {
          response.description = "a string"
        }
        if (media === undefined) continue
        cleanSchema(media.schema)
        if (Number(status) < 400) {
          if (media.schema.description === response.description) delete media.schema.description
          if (facts.responseName !== undefined && media.schema.$ref === undefined)
            media.schema = hoist(facts.responseName, media.schema)
          continue
        }
        const alternatives: Array<Json> = Array.isArray(media.schema.anyOf) ? media.schema.anyOf : [media.schema]
        const kept = alternatives.filter((schema) => {
          if (schema.$ref === "#/components/schemas/HttpApiDecodeError") return false
          const code = errorCodeOf(schema)
          if (code === undefined) return true
          if (routeErrors.has(code)) return false
          // Without a body, invalid_request can come only from a parameter.
          return (
            hasBody ||
            !(bodyErrors.has(code) || (code === "invalid_request" && (operation.parameters ?? []).length === 0))
          )
        })
        if (kept.length === 0) {
          delete responses[status]
          continue
        }
        // The Api's and the authentication's errors first, then the operation's own.
        kept.sort(
          (a, b) => Number(!sharedErrors.has(errorCodeOf(a) ?? "")) - Number(!sharedErrors.has(errorCodeOf(b) ?? ""))
        )
        const refs = kept.map((schema) => {
          const code = errorCodeOf(schema)
          return code === undefined ? schema : hoist(componentName(code), schema)
        })
        const codes = kept.map(errorCodeOf).filter((code) => code !== undefined)
        media.schema = refs.length === 1 ? refs[0] : { anyOf: refs }
        response.description = `Error${codes.length > 1 ? "s" : ""}: ${codes.map((code) => `\`${code}\``).join(", ")}`
      }
      for (const error of listenerErrors) {
        const key = String(error.status)
        const ref = hoist(componentName(error.code), errorSchema(error.code, error.status))
        const existing = responses[key]?.content?.[json]
        if (existing === undefined) {
          responses[key] = {
            description: `Error: \`${error.code}\`: ${error.description}`,
            content: { [json]: { schema: ref } }
          }
        } else {
          const refs = Array.isArray(existing.schema.anyOf) ? existing.schema.anyOf : [existing.schema]
          existing.schema = { anyOf: [...refs, ref] }
          responses[key].description = `${responses[key].description.replace(/^Error:/, "Errors:")}, \`${error.code}\``
        }
      }
      const example = facts.example?.response
      for (const [status, response] of Object.entries<Json>(responses)) {
        const code = Number(status)
        const names = [
          "X-Request-Id",
          ...(limitedOperations.has(id) ? ["RateLimit", "RateLimit-Policy"] : []),
          ...(code === 429 || code === 503 ? ["Retry-After"] : []),
          ...(facts.cached === true && code === 200 ? ["ETag"] : [])
        ]
        response.headers = { ...response.headers, ...headerRefs(names) }
        if (code >= 200 && code < 300 && example !== undefined) {
          const media = Object.values<Json>(response.content ?? {})[0]
          if (media !== undefined)
            media.example =
              code === 200 && (id.endsWith("confirm") || id.endsWith("create"))
                ? { ...(example as object), idempotent_replay: true }
                : example
        }
      }
      if (facts.cached === true) {
        operation.parameters = [...(operation.parameters ?? []), ifNoneMatch]
        responses["304"] = {
          description: "Not modified: the `If-None-Match` ETag is current",
          headers: headerRefs(["X-Request-Id", "ETag"])
        }
      }
    }
  }
  return spec
}

/** The document `/openapi.json` serves: the Api's, with the one server a partner calls (PUBLIC_BASE_URL). */
export const openApiDocument = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  publicBaseUrl: string
): Json => {
  const spec = OpenApi.fromApi(api) as unknown as Json
  const url = publicBaseUrl.replace(/\/+$/, "")
  return {
    ...spec,
    info: { ...spec.info, contact: { name: "Partner support", url: `${url}/docs` } },
    servers: [{ url, description: "This service" }]
  }
}
