import { Effect, Schema } from "effect"

/**
 * What a statement answered, decoded by its row schema: `sql<T>` only asserts a type, this checks
 * it. A row of another shape fails with the SchemaError, which the caller handles as it handles
 * the statement failing (nothing is read as what it is not).
 */
export const rowsOf = <S extends Schema.Decoder<unknown>>(row: S) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(row))
  return <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    Effect.flatMap(rows, (answered) => decode(answered)) as Effect.Effect<
      ReadonlyArray<S["Type"]>,
      E | Schema.SchemaError,
      R
    >
}

/**
 * `rowsOf` where a row of another shape is a defect (a schema that no longer matches its table, or
 * a damaged one), not an error for the caller to answer.
 */
export const decodedAs =
  <S extends Schema.Decoder<unknown>>(row: S) =>
  <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
    rows.pipe(
      rowsOf(row),
      Effect.catchTag("SchemaError", (error) => Effect.die(error))
    ) as Effect.Effect<ReadonlyArray<S["Type"]>, Exclude<E, Schema.SchemaError>, R>
