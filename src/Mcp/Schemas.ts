import { Schema } from "effect"
import { cleanJsonSchema } from "../Http/OpenApiDocument.js"

const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([key]) => key !== "$id")
            .map(([key, inner]) => [key, withoutIds(inner)])
        )
      : value

/**
 * The JSON Schema of a tool's arguments or result, generated as the OpenAPI document's is. MCP
 * wants an object at the root (also for a union of objects), and Effect's `$id`s are dropped:
 * clients compile every tool's schema into one validator, which refuses an `$id` seen twice.
 * Cleaned as the OpenAPI document's schemas are (formats, no framework titles).
 */
const toolJsonSchema = (schema: Schema.Top): Record<string, unknown> => {
  const { schema: root, definitions } = Schema.toJsonSchemaDocument(schema)
  const document = cleanJsonSchema(withoutIds(inlined(root, definitions)) as Record<string, unknown>)
  // An empty struct: any object, which a client's validator accepts for a tool without arguments.
  if (isNotNull(document)) return { type: "object", anyOf: [{ type: "object" }, { type: "array" }] }
  return document.type === "object" ? document : { type: "object", ...document }
}

const isNotNull = (document: Record<string, unknown>) =>
  JSON.stringify(document) === JSON.stringify({ type: "object", not: { type: "null" } }) ||
  JSON.stringify(document) === JSON.stringify({ not: { type: "null" } })

/** Every `$defs` reference written in place: the tools' schemas stand alone, without definitions. */
const inlined = (node: unknown, definitions: Readonly<Record<string, unknown>>): unknown => {
  if (Array.isArray(node)) return node.map((each) => inlined(each, definitions))
  if (typeof node !== "object" || node === null) return node
  const ref = (node as { readonly $ref?: unknown }).$ref
  if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
    const { $ref: _, ...rest } = node as Record<string, unknown>
    return { ...(inlined(definitions[ref.slice("#/$defs/".length)], definitions) as object), ...rest }
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inlined(value, definitions)]))
}

/**
 * A tool's arguments as tools/list gives them: the REST body's schema, with the fields the REST
 * body may leave to a header listed as required too (a tool call has no headers).
 */
export const argumentsSchema = (schema: Schema.Top, alsoRequired: ReadonlyArray<string>) => {
  const document = toolJsonSchema(schema)
  if (alsoRequired.length === 0) return document
  const required = Array.isArray(document.required) ? (document.required as ReadonlyArray<string>) : []
  return { ...document, required: [...required, ...alsoRequired.filter((key) => !required.includes(key))] }
}
