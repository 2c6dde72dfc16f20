import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // The options a search handed out, by the random handle inside their short booking_option_id,
  // so any instance confirms what another offered. Unlogged: a search writes up to ten rows
  // and a commit that wrote only unlogged tables waits for no WAL flush; an option lives minutes,
  // and one lost with a crash answers option_invalid ("not on record: search again"), never a
  // wrong booking. No index on expires_at: the sweep reads the table a few times an hour, while
  // every search would maintain the index.
  yield* sql`CREATE UNLOGGED TABLE booking_options (
    id text PRIMARY KEY,
    expires_at timestamptz NOT NULL,
    option text NOT NULL
  )`
})
