import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Provider API tokens, kept as partner tokens are: a SHA-256 and the public prefix that finds it.
  yield* sql`CREATE TABLE provider_tokens (
    prefix text PRIMARY KEY,
    provider_id text NOT NULL REFERENCES providers (id),
    token_sha256 bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX provider_tokens_provider ON provider_tokens (provider_id)`

  // A provider's block takes its time in the same calendar as bookings, so the exclusion
  // constraint decides a block and a confirm racing for one slot.
  yield* sql`ALTER TABLE calendar_bookings ADD COLUMN kind text NOT NULL DEFAULT 'booking'
    CHECK (kind IN ('booking', 'block'))`
  yield* sql`ALTER TABLE calendar_bookings ALTER COLUMN service_id DROP NOT NULL`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_kind_service
    CHECK ((kind = 'booking') = (service_id IS NOT NULL) AND (kind = 'booking' OR calendar = 'live'))`
  yield* sql`CREATE TABLE provider_blocks (
    id uuid PRIMARY KEY REFERENCES calendar_bookings (id) ON DELETE CASCADE,
    provider_id text NOT NULL REFERENCES providers (id),
    note text CHECK (length(note) <= 500),
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX provider_blocks_provider ON provider_blocks (provider_id)`

  // Once a provider sets its own hours, a supply import no longer overwrites them.
  yield* sql`ALTER TABLE providers ADD COLUMN hours_set_by_provider_at timestamptz`
  yield* sql`CREATE TABLE provider_dates_off (
    provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    date date NOT NULL,
    PRIMARY KEY (provider_id, date)
  )`

  // The secret feed URL's token is derived from the service's key and this row's id; only its
  // SHA-256 is kept, which is all a request for the feed is checked against.
  yield* sql`CREATE TABLE provider_calendar_feeds (
    id uuid PRIMARY KEY,
    provider_id text NOT NULL REFERENCES providers (id),
    token_sha256 bytea NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    last_fetched_at timestamptz
  )`
  yield* sql`CREATE UNIQUE INDEX provider_calendar_feeds_live ON provider_calendar_feeds (provider_id)
    WHERE revoked_at IS NULL`

  // The provider's own calendar, imported on a schedule.
  yield* sql`CREATE TABLE provider_calendar_imports (
    provider_id text PRIMARY KEY REFERENCES providers (id),
    url text NOT NULL,
    etag text,
    last_modified text,
    next_fetch_at timestamptz NOT NULL,
    last_attempt_at timestamptz,
    last_synced_at timestamptz,
    last_error text,
    updated_at timestamptz NOT NULL
  )`
  yield* sql`CREATE TABLE provider_busy_times (
    provider_id text NOT NULL REFERENCES providers (id),
    during tstzrange NOT NULL CHECK (NOT isempty(during))
  )`
  yield* sql`CREATE INDEX provider_busy_times_during ON provider_busy_times USING gist (provider_id, during)`

  // Confirm treats imported busy times and dates off as taken: the same refusal (23P01) as an
  // overlapping booking, inside the statement that takes the slot.
  yield* sql`CREATE FUNCTION calendar_bookings_provider_free() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.kind = 'booking' AND (
        EXISTS (SELECT 1 FROM provider_busy_times t WHERE t.provider_id = NEW.provider_id AND t.during && NEW.during)
        OR EXISTS (SELECT 1 FROM provider_dates_off d WHERE d.provider_id = NEW.provider_id
          AND tstzrange(d.date::timestamp AT TIME ZONE 'Europe/Stockholm',
                        (d.date + 1)::timestamp AT TIME ZONE 'Europe/Stockholm') && NEW.during)
      ) THEN
        RAISE EXCEPTION 'the provider is busy then' USING ERRCODE = 'exclusion_violation';
      END IF;
      RETURN NEW;
    END $$`
  yield* sql`CREATE TRIGGER calendar_bookings_provider_free BEFORE INSERT ON calendar_bookings
    FOR EACH ROW EXECUTE FUNCTION calendar_bookings_provider_free()`
})
