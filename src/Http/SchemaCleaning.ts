/**
 * The JSON Schemas Effect generates, cleaned to say what the API accepts and sends, in the words
 * the contract uses: no framework titles, ids or descriptions, formats where the contract has them.
 */
type Json = any

/** Effect's descriptions of its own filters ("a string at least 1 character(s) long"), not the API's words. */
export const frameworkDescription =
  /^(an? (string|number|integer|non[- ]?\w+|positive|negative|valid)\b|a non empty string$)|character\(s\)|^Error$/

const isDateTimeKey = (key: string) => key.endsWith("_at")
const isUriKey = (key: string) => key === "url" || key === "endpoint"

const safeInteger = 9007199254740991

/**
 * A JSON Schema node saying what the API accepts and sends: an optional property is absent or its
 * schema, never null (Effect writes `anyOf [..., {type: null}]`, the JSON form of undefined, which
 * the decoder refuses as a value); an integer has no safe-integer bounds (no answer nears them, and
 * they would read as limits); a check's own schema is part of the node; a struct lists `required`
 * (empty too) and allows no other property, as the decoder refuses unknown keys.
 */
export const asAccepted = (node: Json): void => {
  if (Array.isArray(node)) {
    for (const each of node) asAccepted(each)
    return
  }
  if (typeof node !== "object" || node === null) return
  if (Array.isArray(node.allOf) && node.allOf.every((part: Json) => Object.keys(part).every((key) => !(key in node)))) {
    const parts = node.allOf
    delete node.allOf
    for (const part of parts) Object.assign(node, part)
  }
  if (node.maximum === safeInteger) delete node.maximum
  if (node.minimum === -safeInteger) delete node.minimum
  if (node.properties !== undefined && typeof node.properties === "object") {
    const required: ReadonlyArray<string> = node.required ?? []
    for (const [name, property] of Object.entries<Json>(node.properties)) {
      if (required.includes(name)) continue
      const alternatives = property?.anyOf
      if (Array.isArray(alternatives) && alternatives.some((alternative: Json) => alternative?.type === "null")) {
        const rest = alternatives.filter((alternative: Json) => alternative?.type !== "null")
        node.properties[name] =
          rest.length === 1 ? { ...rest[0], ...withoutAnyOf(property) } : { ...property, anyOf: rest }
      }
    }
    node.required = required
    if (node.additionalProperties === true && Object.keys(node.properties).length > 0) node.additionalProperties = false
  }
  for (const value of Object.values<Json>(node)) if (typeof value === "object") asAccepted(value)
}

const withoutAnyOf = (schema: Json): Json => {
  const { anyOf: _, ...rest } = schema
  return rest
}

/**
 * Effect 4 names a component after its schema's identifier and encoding (`CapabilitiesEncoded`,
 * `invalid_requestEncoded`): a named body keeps its name (`Capabilities`), and an error body is
 * written inline, so completeDocument names it by its code (`InvalidRequestError`), one component per code.
 */
export const renameEncoded = (root: Json, components: Record<string, Json>, prefix: string): void => {
  const inline = new Map<string, Json>()
  const renamed = new Map<string, string>()
  for (const [name, schema] of Object.entries<Json>(components)) {
    const match = /^(.*?)Encoded(_\d+)?$/.exec(name)
    if (match === null) continue
    if (errorCodeOf(schema) !== undefined) inline.set(name, schema)
    else if (components[match[1]!] === undefined) renamed.set(name, match[1]!)
  }
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite)
    if (typeof node !== "object" || node === null) return node
    if (typeof node.$ref === "string" && node.$ref.startsWith(prefix)) {
      const name = node.$ref.slice(prefix.length)
      const schema = inline.get(name)
      if (schema !== undefined) return rewrite(structuredClone(schema))
      const to = renamed.get(name)
      if (to !== undefined) return { ...node, $ref: `${prefix}${to}` }
    }
    const out: Record<string, Json> = {}
    for (const [key, value] of Object.entries<Json>(node)) out[key] = rewrite(value)
    return out
  }
  const rewritten = rewrite(root)
  for (const key of Object.keys(root)) delete root[key]
  Object.assign(root, rewritten)
  const target = prefix === "#/$defs/" ? root.$defs : root.components.schemas
  for (const name of inline.keys()) delete target[name]
  for (const [from, to] of renamed) {
    target[to] = target[from]
    delete target[from]
  }
}

/** Every schema node: no framework titles or $ids, one lower bound each, formats where the contract has them. */
export const cleanSchema = (node: Json, key?: string): void => {
  if (Array.isArray(node)) {
    for (const each of node) cleanSchema(each)
    return
  }
  if (typeof node !== "object" || node === null) return
  delete node.$id
  delete node.title
  if (node.$ref === "#/components/schemas/Int") {
    delete node.$ref
    node.type = "integer"
  }
  if (typeof node.description === "string" && frameworkDescription.test(node.description)) delete node.description
  if (node.minimum !== undefined && node.exclusiveMinimum !== undefined) {
    if (node.exclusiveMinimum >= node.minimum) delete node.minimum
    else delete node.exclusiveMinimum
  }
  if (node.maximum !== undefined && node.exclusiveMaximum !== undefined) {
    if (node.exclusiveMaximum <= node.maximum) delete node.maximum
    else delete node.exclusiveMaximum
  }
  if (node.type === "string" && node.format === undefined && key !== undefined) {
    if (isDateTimeKey(key)) node.format = "date-time"
    else if (isUriKey(key)) node.format = "uri"
    else if (key === "email") node.format = "email"
  }
  if (key === "source_urls" && node.items?.type === "string") node.items.format = "uri"
  for (const [name, value] of Object.entries<Json>(node.properties ?? {})) cleanSchema(value, name)
  for (const [name, value] of Object.entries<Json>(node)) {
    if (name !== "properties" && typeof value === "object") cleanSchema(value)
  }
}

export const errorCodeOf = (schema: Json): string | undefined => {
  const code = schema?.properties?.error?.enum
  return schema?.properties?.ok?.enum?.[0] === false && Array.isArray(code) && code.length === 1 ? code[0] : undefined
}
