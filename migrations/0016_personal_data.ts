import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A booking's or a request's personal data is erased in place (GDPR art. 5(1)(e), 17): the
  // customer's contact goes (customer NULL), the addresses keep only their postcode, free text goes,
  // and what is not personal (provider, slot, price, status) stays. When and why it went is kept.
  yield* sql`ALTER TABLE bookings ALTER COLUMN customer DROP NOT NULL`
  yield* sql`ALTER TABLE bookings
    ADD COLUMN personal_data_erased_at timestamptz,
    ADD COLUMN personal_data_erased_by text CHECK (personal_data_erased_by IN ('request', 'retention')),
    ADD COLUMN personal_data_erasure_id uuid,
    ADD CONSTRAINT bookings_erasure_check
      CHECK ((personal_data_erased_at IS NULL) = (personal_data_erased_by IS NULL)
        AND (personal_data_erased_at IS NULL OR customer IS NULL))`
  yield* sql`ALTER TABLE service_requests
    ADD COLUMN personal_data_erased_at timestamptz,
    ADD COLUMN personal_data_erased_by text CHECK (personal_data_erased_by IN ('request', 'retention')),
    ADD COLUMN personal_data_erasure_id uuid,
    ADD CONSTRAINT service_requests_erasure_check
      CHECK ((personal_data_erased_at IS NULL) = (personal_data_erased_by IS NULL))`
  // personal_data_erasure_id is the subject of the providers' notices of an erasure asked for.
  // The retention pass reads only what still holds personal data.
  yield* sql`CREATE INDEX bookings_retention ON bookings (coalesce(cancelled_at, slot_end))
    WHERE personal_data_erased_at IS NULL`
  yield* sql`CREATE INDEX service_requests_retention ON service_requests (updated_at)
    WHERE personal_data_erased_at IS NULL`

  yield* sql`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_scope_check`
  yield* sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_scope_check
    CHECK (scope IN ('booking', 'request', 'cancel', 'reschedule', 'withdraw', 'erase'))`
  // The provider is told of an erasure (art. 19) by its notification channel, without the erased values.
  yield* sql`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_topic_check`
  yield* sql`ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_topic_check
    CHECK (topic IN ('booking_confirmed', 'request_created', 'booking_cancelled', 'booking_rescheduled',
      'busy_time_conflict', 'request_withdrawn', 'personal_data_erased'))`
})
