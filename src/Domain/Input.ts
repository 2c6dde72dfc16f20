import type { Schema } from "effect"

/**
 * "No extra properties" is part of the contract, and Effect Schema ignores excess properties
 * by default; every request body goes through this so an unknown key is an error everywhere.
 */
export const strictInput = <S extends Schema.Schema.Any>(schema: S): S =>
  schema.annotations({ parseOptions: { onExcessProperty: "error", errors: "all" } }) as S
