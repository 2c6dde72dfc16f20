import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE partners (
    id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{1,63}$'),
    name text NOT NULL,
    active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now()
  )`
  // Only a SHA-256 of each token is kept; the short public prefix finds it without a scan.
  yield* sql`CREATE TABLE partner_tokens (
    prefix text PRIMARY KEY,
    partner_id text NOT NULL REFERENCES partners (id),
    token_sha256 bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX partner_tokens_partner ON partner_tokens (partner_id)`
})
