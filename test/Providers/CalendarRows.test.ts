import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { decodedAs } from "../../src/Database/Rows.js"
import { BlockRow, FeedRow } from "../../src/Providers/CalendarRows.js"
import { TestDatabaseLive } from "../support/Database.js"

describe("the provider calendar's rows", () => {
  it.layer(TestDatabaseLive)((it) => {
    it.effect("are decoded as their schema says: times as dates, the feed's digest as bytes", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [feed] = yield* sql`SELECT gen_random_uuid()::text AS id, '\\x0a0b'::bytea AS token_sha256,
            now() AS created_at, NULL::timestamptz AS last_fetched_at`.pipe(decodedAs(FeedRow))
        expect([...feed!.tokenSha256]).toEqual([10, 11])
        expect(feed!.createdAt).toBeInstanceOf(Date)
        expect(feed!.lastFetchedAt).toBeNull()
      })
    )

    it.effect("a row of another shape is a defect naming the column, never read as what it is not", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const exit = yield* sql`SELECT 'b1' AS id, 'not a time' AS start_at, now() AS end_at, NULL AS note,
            now() AS created_at`.pipe(decodedAs(BlockRow), Effect.exit)
        expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
        expect(String(Exit.isFailure(exit) ? Cause.squash(exit.cause) : "")).toContain("startAt")
      })
    )
  })
})
