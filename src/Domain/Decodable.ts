import { Result, Schema } from "effect"

/**
 * Whether `Schema.decodeUnknownResult(schema)` would accept `u`. Effect 3 needed a hand-written
 * compiler of the AST here, calling the schema's own refinements on `u` in place, because its
 * decoding copied every struct and wrapped every field in an Either (several times the cost, on
 * every verified option). Effect 4's parser decodes a check-only struct without those wrappers,
 * so the answer is decoding's own; the decoder is built once per schema.
 */
export const decodable = <S extends Schema.Codec<any, any>>(schema: S): ((u: unknown) => u is S["Type"]) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (u: unknown): u is S["Type"] => Result.isSuccess(decode(u))
}
