import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Each sandbox partner keeps a calendar of its own ('sandbox:<partner id>'; partner ids hold no
  // colon), so its searches see what it booked, and no sandbox's bookings touch another's or the
  // real one ('live').
  yield* sql`ALTER TABLE calendar_bookings ADD COLUMN calendar text NOT NULL DEFAULT 'live'`
  yield* sql`UPDATE calendar_bookings c SET calendar = 'sandbox:' || b.partner_id
    FROM bookings b WHERE b.id = c.id AND c.sandbox`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_calendar_check
    CHECK ((calendar = 'live') = NOT sandbox)`
  yield* sql`ALTER TABLE calendar_bookings DROP CONSTRAINT calendar_bookings_no_overlap`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_no_overlap
    EXCLUDE USING gist (provider_id WITH =, calendar WITH =, during WITH &&)`
})
