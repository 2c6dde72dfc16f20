import { SqlClient } from "effect/sql"
import { Effect } from "effect"

// btree_gist lets an exclusion constraint combine provider equality with time-range overlap.
export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE EXTENSION IF NOT EXISTS btree_gist`)
