import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A partner's subscriptions. The secret signs every delivery; during a rotation the one it
  // replaced signs beside it until previous_secret_until.
  yield* sql`CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY,
    partner_id text NOT NULL,
    sandbox boolean NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_until timestamptz,
    status text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    disabled_reason text CHECK (disabled_reason IN ('gone', 'failing')),
    failing_since timestamptz,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX webhook_endpoints_partner ON webhook_endpoints (partner_id, created_at)`

  // The webhook outbox: one row per event and subscribed endpoint, written in the transaction of
  // the change it announces. Its id is the webhook-id of every attempt.
  yield* sql`CREATE TABLE webhook_deliveries (
    id text PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type text NOT NULL,
    body text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    last_status_code integer,
    last_error text,
    created_at timestamptz NOT NULL,
    delivered_at timestamptz
  )`
  yield* sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC)`
})
