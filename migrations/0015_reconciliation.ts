import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // When a booking last changed, on the service's clock: what a partner's list pages by, newest
  // first, with the id breaking ties. It never goes back, so a change only moves a booking
  // forward in that order. The default only covers rows written by hand; the service sets it.
  yield* sql`ALTER TABLE bookings ADD COLUMN updated_at timestamptz`
  yield* sql`UPDATE bookings b SET updated_at = greatest(b.confirmed_at, b.cancelled_at,
    (SELECT max(c.created_at) FROM booking_changes c WHERE c.booking_id = b.id))`
  yield* sql`ALTER TABLE bookings ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now()`
  yield* sql`CREATE INDEX bookings_partner_updated ON bookings (partner_id, updated_at DESC, id DESC)`

  // A follow-up request can be withdrawn; the providers who received it are told by the notices
  // whose subject is withdrawal_id (not the request's id, so the hand-off's count stays its own).
  yield* sql`ALTER TABLE service_requests DROP CONSTRAINT service_requests_status_check`
  yield* sql`ALTER TABLE service_requests ADD CONSTRAINT service_requests_status_check
    CHECK (status IN ('ready_to_send', 'withdrawn'))`
  yield* sql`ALTER TABLE service_requests
    ADD COLUMN updated_at timestamptz,
    ADD COLUMN withdrawn_at timestamptz,
    ADD COLUMN withdraw_reason text,
    ADD COLUMN withdrawal_id uuid,
    ADD CONSTRAINT service_requests_withdrawal_check
      CHECK ((status = 'withdrawn') = (withdrawn_at IS NOT NULL AND withdrawal_id IS NOT NULL))`
  yield* sql`UPDATE service_requests SET updated_at = created_at`
  yield* sql`ALTER TABLE service_requests ALTER COLUMN updated_at SET NOT NULL,
    ALTER COLUMN updated_at SET DEFAULT now()`
  yield* sql`CREATE INDEX service_requests_partner_updated ON service_requests (partner_id, updated_at DESC, id DESC)`

  yield* sql`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_scope_check`
  yield* sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_scope_check
    CHECK (scope IN ('booking', 'request', 'cancel', 'reschedule', 'withdraw'))`
  yield* sql`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_topic_check`
  yield* sql`ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_topic_check
    CHECK (topic IN ('booking_confirmed', 'request_created', 'booking_cancelled', 'booking_rescheduled',
      'busy_time_conflict', 'request_withdrawn'))`

  // A webhook's deliveries page by (created_at, id), newest first.
  yield* sql`DROP INDEX webhook_deliveries_endpoint`
  yield* sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`
})
