import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Whether a request could be handed to anyone at all, decided when it is stored; what was
  // delivered since is in the outbox.
  yield* sql`ALTER TABLE service_requests ADD COLUMN handoff text NOT NULL DEFAULT 'queued'
    CHECK (handoff IN ('queued', 'no_candidates', 'no_reachable_candidates'))`
})
