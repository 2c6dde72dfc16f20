import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // MCP sessions, kept here so that any instance serves a session's next call (no sticky routing).
  // The id itself is never stored, only its SHA-256: a reader of the table cannot use a session.
  // owner is `partner:<id>`, or `address:<client address>` for a caller without a token.
  yield* sql`CREATE TABLE mcp_sessions (
    id_hash text PRIMARY KEY,
    owner text NOT NULL,
    anonymous boolean NOT NULL,
    protocol_version text NOT NULL,
    created_at timestamptz NOT NULL,
    last_used_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX mcp_sessions_owner ON mcp_sessions (owner, last_used_at)`
  yield* sql`CREATE INDEX mcp_sessions_anonymous ON mcp_sessions (last_used_at) WHERE anonymous`
})
