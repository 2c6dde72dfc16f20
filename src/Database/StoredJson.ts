import { Schema } from "effect"

const deepFreeze = <A>(value: A): A => {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
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
      value = deepFreeze(decode(JSON.parse(text)))
      if (decoded.size >= capacity) decoded.clear()
      decoded.set(text, value)
    }
    return value
  }
}
