import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// btree_gist lets an exclusion constraint combine provider equality with time-range overlap.
export default Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE EXTENSION IF NOT EXISTS btree_gist`)
