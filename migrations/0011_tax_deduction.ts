import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A service's RUT/ROT declaration as its supply file states it; null for a service imported
  // before declarations, which an option states as not declared rather than guessing.
  yield* sql`ALTER TABLE provider_services ADD COLUMN tax_deduction jsonb`
  // What the confirmation said of the deduction, so a status lookup says the same; null for a
  // booking made before. Whether the customer asked for it is a flag: no identity detail is kept.
  yield* sql`ALTER TABLE bookings ADD COLUMN tax_deduction jsonb`
  yield* sql`ALTER TABLE bookings ADD COLUMN tax_deduction_requested boolean NOT NULL DEFAULT false`
})
