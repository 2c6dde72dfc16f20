import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A sandbox partner gets the same API; what it books and requests is marked and never reaches anyone.
  yield* sql`ALTER TABLE partners ADD COLUMN sandbox boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE bookings ADD COLUMN sandbox boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE service_requests ADD COLUMN sandbox boolean NOT NULL DEFAULT false`
  // Sandbox bookings keep a calendar of their own: they conflict with each other as real ones do,
  // and never with a provider's real bookings (the cast keeps btree_gist's older versions working).
  yield* sql`ALTER TABLE calendar_bookings ADD COLUMN sandbox boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE calendar_bookings DROP CONSTRAINT calendar_bookings_no_overlap`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_no_overlap
    EXCLUDE USING gist (provider_id WITH =, (sandbox::int) WITH =, during WITH &&)`
  // The sandbox sink: the message is kept in the row and nothing is sent.
  yield* sql`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_channel_check`
  yield* sql`ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_channel_check
    CHECK (channel IN ('email', 'webhook', 'none', 'sandbox'))`
})
