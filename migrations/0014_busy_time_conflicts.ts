import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A provider is told once per booking when a busy time imported from its own calendar overlaps it.
  yield* sql`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_topic_check`
  yield* sql`ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_topic_check
    CHECK (topic IN ('booking_confirmed', 'request_created', 'booking_cancelled', 'booking_rescheduled',
      'busy_time_conflict'))`
})
