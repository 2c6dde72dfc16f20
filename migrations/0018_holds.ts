import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A hold takes its time in the same calendar as bookings and blocks, so the exclusion constraint
  // decides a hold racing a confirm, a block or another hold for one slot. A sandbox partner's
  // hold lives in its sandbox calendar, as its bookings do.
  yield* sql`ALTER TABLE calendar_bookings DROP CONSTRAINT calendar_bookings_kind_check`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_kind_check
    CHECK (kind IN ('booking', 'block', 'hold'))`
  yield* sql`ALTER TABLE calendar_bookings DROP CONSTRAINT calendar_bookings_kind_service`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_kind_service
    CHECK ((kind <> 'block') = (service_id IS NOT NULL) AND (kind <> 'block' OR calendar = 'live'))`
  // expires_at: a hold's end on the service's clock. claimed_at: the service's clock when a row
  // was written, against which the insert trigger frees the holds that have run out. replaces: the
  // hold a booking's row takes over from its holder.
  yield* sql`ALTER TABLE calendar_bookings
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN claimed_at timestamptz,
    ADD COLUMN replaces uuid,
    ADD CONSTRAINT calendar_bookings_hold_expiry CHECK ((kind = 'hold') = (expires_at IS NOT NULL))`
  yield* sql`CREATE INDEX calendar_bookings_active_holds ON calendar_bookings (provider_id, expires_at)
    WHERE kind = 'hold' AND released_at IS NULL`

  // An exclusion constraint cannot read a clock, so an expired hold would still refuse an overlap:
  // before any row takes time, the holds it overlaps that have run out by the writer's clock (and
  // the hold it replaces) are released in the same statement, so an expired hold never blocks,
  // whether or not a sweep has run. A writer that states no clock frees nothing.
  yield* sql`CREATE FUNCTION calendar_bookings_free_expired_holds() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE calendar_bookings h
        SET released_at = CASE WHEN h.expires_at <= NEW.claimed_at THEN h.expires_at ELSE NEW.claimed_at END
        WHERE h.provider_id = NEW.provider_id AND h.calendar = NEW.calendar AND h.kind = 'hold'
          AND h.released_at IS NULL AND h.during && NEW.during
          AND (h.expires_at <= NEW.claimed_at OR h.id = NEW.replaces);
      RETURN NEW;
    END $$`
  yield* sql`CREATE TRIGGER calendar_bookings_free_expired_holds BEFORE INSERT ON calendar_bookings
    FOR EACH ROW EXECUTE FUNCTION calendar_bookings_free_expired_holds()`

  // Imported busy times and dates off refuse a hold as they refuse a booking.
  yield* sql`CREATE OR REPLACE FUNCTION calendar_bookings_provider_free() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.kind IN ('booking', 'hold') AND (
        EXISTS (SELECT 1 FROM provider_busy_times t WHERE t.provider_id = NEW.provider_id AND t.during && NEW.during)
        OR EXISTS (SELECT 1 FROM provider_dates_off d WHERE d.provider_id = NEW.provider_id
          AND tstzrange(d.date::timestamp AT TIME ZONE 'Europe/Stockholm',
                        (d.date + 1)::timestamp AT TIME ZONE 'Europe/Stockholm') && NEW.during)
      ) THEN
        RAISE EXCEPTION 'the provider is busy then' USING ERRCODE = 'exclusion_violation';
      END IF;
      RETURN NEW;
    END $$`

  // What a partner holds: the option as search returned it and what the answer shows of it, never
  // a person's details. Expired is not a stored status: a hold is active until its expires_at.
  yield* sql`CREATE TABLE booking_holds (
    id uuid PRIMARY KEY REFERENCES calendar_bookings (id),
    partner_id text NOT NULL,
    sandbox boolean NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'released', 'confirmed')),
    booking_option_id text NOT NULL,
    provider_id text NOT NULL REFERENCES providers (id),
    service_id text NOT NULL,
    slot_start timestamptz NOT NULL,
    slot_end timestamptz NOT NULL,
    slot_label text NOT NULL,
    time_zone text NOT NULL,
    price_sek integer NOT NULL CHECK (price_sek >= 0),
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    released_at timestamptz,
    booking_id uuid,
    confirmed_at timestamptz,
    CONSTRAINT booking_holds_outcome CHECK (
      (status = 'confirmed') = (booking_id IS NOT NULL AND confirmed_at IS NOT NULL)
      AND (status = 'released') = (released_at IS NOT NULL))
  )`
  yield* sql`CREATE INDEX booking_holds_partner_active ON booking_holds (partner_id, expires_at) WHERE status = 'active'`
  // Every confirm looks for the partner's hold on the option's slot.
  yield* sql`CREATE INDEX booking_holds_partner_slot ON booking_holds (partner_id, provider_id, slot_start)`

  yield* sql`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_scope_check`
  yield* sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_scope_check
    CHECK (scope IN ('booking', 'request', 'cancel', 'reschedule', 'withdraw', 'erase', 'hold'))`
})
