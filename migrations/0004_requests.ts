import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A provider follow-up request: never a booking. `body` is everything the partner sent.
  yield* sql`CREATE TABLE service_requests (
    id uuid PRIMARY KEY,
    session_id text NOT NULL UNIQUE,
    partner_id text NOT NULL,
    status text NOT NULL DEFAULT 'ready_to_send' CHECK (status IN ('ready_to_send')),
    vertical_id text NOT NULL,
    job_type_id text NOT NULL,
    taxonomy_confidence text NOT NULL,
    customer_next_step text NOT NULL,
    booking_mode text NOT NULL,
    body jsonb NOT NULL,
    consent jsonb NOT NULL,
    candidates jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE INDEX service_requests_partner ON service_requests (partner_id, created_at)`
})
