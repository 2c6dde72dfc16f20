import { Schema } from "effect"

const deepFreeze = <A>(value: A): A => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * `decoded` with the keys of every object in the order `raw` (the stored JSON) has them. Effect 4
 * decodes a struct in the schema's order (Effect 3 kept the input's with `propertyOrder:
 * "original"`), and responses repeat scope and terms as stored (jsonb's key order).
 */
export const inStoredOrder = (decoded: unknown, raw: unknown): unknown => {
  if (Array.isArray(decoded) && Array.isArray(raw)) return decoded.map((item, index) => inStoredOrder(item, raw[index]))
  if (!isRecord(decoded) || !isRecord(raw) || Object.getPrototypeOf(decoded) !== Object.prototype) return decoded
  const ordered: Record<string, unknown> = {}
  for (const key in raw) if (Object.hasOwn(decoded, key)) ordered[key] = inStoredOrder(decoded[key], raw[key])
  for (const key in decoded) if (!Object.hasOwn(ordered, key)) ordered[key] = decoded[key]
  return ordered
}

/**
 * A decoder of rows the database returns as one JSON text (an offer, built by json_build_object)
 * that decodes each distinct text once. The key is the text itself, the row as stored now, so a
 * re-imported service is another text and an entry can never answer for a changed row; the
 * supply is a bounded set, and the map is emptied should it ever hold `capacity`. Entries are
 * shared by every caller, so they are frozen: one that changed an entry would throw, not alter
 * other answers. A text that does not decode throws its SchemaError: a stored row that does not
 * decode is a bug or a damaged table, a defect where it is read.
 */
export const decodedOnce = <S extends Schema.Codec<any, any>>(
  schema: S,
  capacity = 5000
): ((text: string) => S["Type"]) => {
  // The value that did not decode is named in the defect: a stored offer holds no personal data.
  const decode = Schema.decodeUnknownSync(schema, { reportInput: true })
  const decoded = new Map<string, S["Type"]>()
  return (text) => {
    let value = decoded.get(text)
    if (value === undefined) {
      const raw: unknown = JSON.parse(text)
      value = deepFreeze(inStoredOrder(decode(raw), raw) as S["Type"])
      if (decoded.size >= capacity) decoded.clear()
      decoded.set(text, value)
    }
    return value
  }
}
