import { Result, Schema } from "effect"

/**
 * Whether `Schema.decodeUnknownResult(schema)` would accept `u`, with the decoder built once per
 * schema (it runs on every verified option).
 */
export const decodable = <S extends Schema.Codec<any, any>>(schema: S): ((u: unknown) => u is S["Type"]) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (u: unknown): u is S["Type"] => Result.isSuccess(decode(u))
}
