import { Schema } from "effect"

/**
 * "No extra properties" is part of the contract, and Effect Schema ignores excess properties
 * by default; every request body goes through this so an unknown key is an error everywhere.
 */
export const strictInput = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } }) as S

/**
 * An optional input field that may be absent but not `undefined`: JSON has no undefined, and
 * without `exact` every error on the field would also say "Expected undefined".
 */
export const optional = <S extends Schema.Schema.All>(schema: S) => Schema.optionalWith(schema, { exact: true })

/** A string of `min` to `max` characters, the commonest bound of the contract. */
export const text = (min: number, max: number) => Schema.String.pipe(Schema.minLength(min), Schema.maxLength(max))
