import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * Every place of the whole database a value survives in: each text, character, json and jsonb
 * column (and text arrays) of every table of the public schema, read from information_schema, so a
 * table added later is searched too. Answers `table.column: value` for each hit.
 */
export const databaseHolding = (values: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = yield* sql<{ tbl: string; col: string }>`
      SELECT c.table_name AS tbl, c.column_name AS col FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
          OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar')))
      ORDER BY c.table_name, c.column_name`.pipe(Effect.map((rows) => rows as ReadonlyArray<any>))
    expect(columns.length).toBeGreaterThan(20)
    const found: Array<string> = []
    for (const { tbl: table_name, col: column_name } of columns) {
      const column = sql.literal(`"${table_name}"."${column_name}"::text`)
      for (const value of values) {
        const rows = yield* sql<{ n: number }>`
          SELECT count(*)::int AS n FROM ${sql.literal(`"${table_name}"`)}
          WHERE strpos(lower(${column}), lower(${value})) > 0`
        if ((rows[0] as any).n > 0) found.push(`${table_name}.${column_name}: ${value}`)
      }
    }
    return found
  }).pipe(Effect.orDie)
