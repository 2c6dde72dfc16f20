import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The W3C trace context of the request whose change the event announces, written with the row
  // when tracing is on: its delivery, made later by any instance, joins that request's trace.
  // Null when tracing was off, and for events no request caused.
  yield* sql`ALTER TABLE webhook_deliveries
    ADD COLUMN traceparent text CHECK (traceparent ~ '^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$')`
})
