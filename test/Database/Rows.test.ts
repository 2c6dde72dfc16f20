import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { rowsOf } from "../../src/Database/Rows.js"
import { TestDatabaseLive } from "../support/Database.js"

describe("rowsOf", () => {
  it.layer(TestDatabaseLive)((it) => {
    it.effect("answers the rows as their schema decodes them: column names camelCase, bytea as bytes", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql`SELECT 7 AS service_count, '\\x0102'::bytea AS digest, now() AS read_at`.pipe(
          rowsOf(Schema.Struct({ serviceCount: Schema.Int, digest: Schema.Uint8Array, readAt: Schema.Date }))
        )
        expect(rows).toHaveLength(1)
        expect(rows[0]!.serviceCount).toBe(7)
        expect([...rows[0]!.digest]).toEqual([1, 2])
        expect(rows[0]!.readAt).toBeInstanceOf(Date)
      })
    )

    it.effect("fails with the SchemaError, naming the column, when a row has another shape than its type says", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const error = yield* sql`SELECT 7 AS service_count`.pipe(
          rowsOf(Schema.Struct({ serviceCount: Schema.String })),
          Effect.flip
        )
        expect(error._tag).toBe("SchemaError")
        expect(String(error)).toContain("serviceCount")
      })
    )
  })
})
