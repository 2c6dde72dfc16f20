import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The provider's identity the consumer must be told before the contract (2005:59, 2 kap. 2 §):
  // its organisation number and how to reach it. Null only for providers imported before.
  yield* sql`ALTER TABLE providers
    ADD COLUMN organisation_number text,
    ADD COLUMN contact_email text,
    ADD COLUMN contact_phone text,
    ADD COLUMN contact_address text`

  // Whether the customer asked for the work to start within the withdrawal period, in their words:
  // it decides what a withdrawal after work has begun costs (2 kap. 15 §).
  yield* sql`ALTER TABLE bookings
    ADD COLUMN early_start_requested boolean,
    ADD COLUMN early_start_statement text CHECK (length(early_start_statement) <= 500)`

  // On what a cancellation's fee rests. Rows cancelled before it was recorded rested on the
  // provider's terms, or on the provider's own cancel.
  yield* sql`ALTER TABLE bookings ADD COLUMN cancel_legal_basis text
    CHECK (cancel_legal_basis IN ('withdrawal_right', 'provider_terms', 'provider_cancelled'))`
  yield* sql`UPDATE bookings SET cancel_legal_basis =
    CASE WHEN cancelled_by = 'provider' THEN 'provider_cancelled' ELSE 'provider_terms' END
    WHERE status = 'cancelled'`
})
