import { Schema } from "effect"

/**
 * Whether decoding `schema` would accept `u`, told by the schema's own checks without building a
 * decoded copy. Effect 3 needed a hand-written compiler of the AST here (its `Schema.is` copied
 * every struct and wrapped every field in an Either); Effect 4's parser checks a value of a
 * check-only schema in place, so `Schema.is` on the schema's type side is the whole of it. Only
 * for schemas whose decoding checks and never changes a value (the signed option's claims).
 */
export const decodable = <S extends Schema.Top>(schema: S): ((u: unknown) => u is S["Type"]) =>
  Schema.is(Schema.toType(schema)) as (u: unknown) => u is S["Type"]
