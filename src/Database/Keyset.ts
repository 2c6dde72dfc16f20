import type * as SqlClient from "effect/sql/SqlClient"

/**
 * Keyset pages, newest first by (time column, id): a page continues strictly after the last
 * row's position, which is the column's own text to the microsecond (a JavaScript Date would
 * round it, and a rounded position repeats or skips rows). No OFFSET: a page costs the same
 * however deep the walk is, and rows written meanwhile do not shift it.
 */
export const positionColumn = (sql: SqlClient.SqlClient, column: string) =>
  sql.literal(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at`)

/** The condition for rows after `after` in (column DESC, id DESC) order; none on the first page. */
export const keysetAfter = (
  sql: SqlClient.SqlClient,
  column: string,
  id: { readonly column: string; readonly type: "uuid" | "text" },
  after: { readonly at: string; readonly id: string } | undefined
) =>
  after === undefined
    ? sql``
    : sql`AND (${sql.literal(column)}, ${sql.literal(id.column)}) < (${after.at}::timestamptz, ${after.id}::${sql.literal(id.type)})`
