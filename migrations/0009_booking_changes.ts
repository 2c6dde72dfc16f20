import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A service's cancellation policy (issue 27): free cancellation until free_cancellation_hours
  // before the start, a late fee the provider may charge after that (0: none), and changes of the
  // time until change_hours before the start. Services imported before it state none: no fee, and
  // both deadlines at the start.
  yield* sql`ALTER TABLE provider_services
    ADD COLUMN free_cancellation_hours integer NOT NULL DEFAULT 0 CHECK (free_cancellation_hours BETWEEN 0 AND 8760),
    ADD COLUMN late_fee_sek integer NOT NULL DEFAULT 0 CHECK (late_fee_sek >= 0),
    ADD COLUMN change_hours integer NOT NULL DEFAULT 0 CHECK (change_hours BETWEEN 0 AND 8760)`

  // A booking keeps its id through changes; its version counts them (1 at confirm). It carries the
  // policy it was confirmed under, and once cancelled, who cancelled it, when, and what it may cost.
  // notice_subject_id names the outbox rows of its current confirmation (a move sends new ones).
  yield* sql`ALTER TABLE bookings DROP CONSTRAINT bookings_status_check`
  yield* sql`ALTER TABLE bookings ADD CONSTRAINT bookings_status_check CHECK (status IN ('confirmed', 'cancelled'))`
  yield* sql`ALTER TABLE bookings
    ADD COLUMN version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    ADD COLUMN free_cancellation_hours integer NOT NULL DEFAULT 0,
    ADD COLUMN late_fee_sek integer NOT NULL DEFAULT 0,
    ADD COLUMN change_hours integer NOT NULL DEFAULT 0,
    ADD COLUMN notice_subject_id uuid,
    ADD COLUMN cancelled_at timestamptz,
    ADD COLUMN cancelled_by text CHECK (cancelled_by IN ('customer', 'partner', 'provider')),
    ADD COLUMN cancel_reason text,
    ADD COLUMN cancel_fee_sek integer,
    ADD COLUMN cancel_within_free_period boolean,
    ADD COLUMN cancel_free_until timestamptz,
    ADD CONSTRAINT bookings_cancellation_check CHECK ((status = 'cancelled') = (cancelled_at IS NOT NULL))`

  // The history of a booking's slots: every slot it held stays in calendar_bookings, released when
  // the booking moved or was cancelled. The no-overlap guarantee holds among the slots still held.
  yield* sql`ALTER TABLE calendar_bookings
    ADD COLUMN booking_id uuid,
    ADD COLUMN released_at timestamptz`
  yield* sql`UPDATE calendar_bookings SET booking_id = id`
  yield* sql`ALTER TABLE calendar_bookings ALTER COLUMN booking_id SET NOT NULL`
  // A slot written without its booking named is its booking's first: the booking shares its id.
  yield* sql`CREATE FUNCTION calendar_bookings_booking_id() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN NEW.booking_id := coalesce(NEW.booking_id, NEW.id); RETURN NEW; END $$`
  yield* sql`CREATE TRIGGER calendar_bookings_booking_id BEFORE INSERT ON calendar_bookings
    FOR EACH ROW EXECUTE FUNCTION calendar_bookings_booking_id()`
  yield* sql`CREATE INDEX calendar_bookings_booking ON calendar_bookings (booking_id)`
  yield* sql`ALTER TABLE calendar_bookings DROP CONSTRAINT calendar_bookings_no_overlap`
  yield* sql`ALTER TABLE calendar_bookings ADD CONSTRAINT calendar_bookings_no_overlap
    EXCLUDE USING gist (provider_id WITH =, calendar WITH =, during WITH &&) WHERE (released_at IS NULL)`

  // One row per change of a booking: what an idempotency key of a cancel or a reschedule holds,
  // and the subject of the messages it sent.
  yield* sql`CREATE TABLE booking_changes (
    id uuid PRIMARY KEY,
    booking_id uuid NOT NULL REFERENCES bookings (id),
    kind text NOT NULL CHECK (kind IN ('cancel', 'reschedule')),
    version integer NOT NULL,
    previous_slot_start timestamptz NOT NULL,
    previous_slot_end timestamptz NOT NULL,
    slot_start timestamptz,
    slot_end timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (booking_id, version)
  )`

  yield* sql`ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_scope_check`
  yield* sql`ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_scope_check
    CHECK (scope IN ('booking', 'request', 'cancel', 'reschedule'))`
  yield* sql`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_topic_check`
  yield* sql`ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_topic_check
    CHECK (topic IN ('booking_confirmed', 'request_created', 'booking_cancelled', 'booking_rescheduled'))`
})
