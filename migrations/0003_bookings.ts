import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // One row per idempotency key of a partner and endpoint; the unique key makes racing
  // duplicates wait for the first and then see its result.
  yield* sql`CREATE TABLE idempotency_keys (
    partner_id text NOT NULL,
    scope text NOT NULL CHECK (scope IN ('booking', 'request')),
    key text NOT NULL CHECK (length(key) BETWEEN 1 AND 200),
    request_hash text NOT NULL,
    resource_id uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (partner_id, scope, key)
  )`
  yield* sql`CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)`

  // The confirmed provider offer. Its id is the id of its calendar booking.
  yield* sql`CREATE TABLE bookings (
    id uuid PRIMARY KEY REFERENCES calendar_bookings (id),
    request_id text NOT NULL UNIQUE,
    partner_id text NOT NULL,
    status text NOT NULL DEFAULT 'confirmed' CHECK (status = 'confirmed'),
    provider_id text NOT NULL REFERENCES providers (id),
    provider_name text NOT NULL,
    service_id text NOT NULL,
    vertical_id text NOT NULL,
    job_type_id text NOT NULL,
    service_label_sv text NOT NULL,
    slot_start timestamptz NOT NULL,
    slot_end timestamptz NOT NULL,
    slot_label text NOT NULL,
    time_zone text NOT NULL,
    price_sek integer NOT NULL CHECK (price_sek >= 0),
    pricing_model text NOT NULL,
    price_type text NOT NULL,
    unit_price_sek integer,
    unit text,
    quantity numeric,
    terms_version text NOT NULL,
    terms_url text NOT NULL,
    scope jsonb NOT NULL,
    customer jsonb NOT NULL,
    service_location jsonb NOT NULL,
    destination_location jsonb,
    consent jsonb NOT NULL,
    source text NOT NULL,
    external_reference text,
    confirmed_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE INDEX bookings_partner ON bookings (partner_id, confirmed_at)`

  // Transactional outbox: rows are written with the booking (or request) they announce and
  // delivered after commit, retried by the dispatcher until sent or given up.
  yield* sql`CREATE TABLE notification_outbox (
    id uuid PRIMARY KEY,
    topic text NOT NULL CHECK (topic IN ('booking_confirmed', 'request_created')),
    subject_id uuid NOT NULL,
    recipient_role text NOT NULL CHECK (recipient_role IN ('customer', 'provider')),
    provider_id text REFERENCES providers (id),
    channel text NOT NULL CHECK (channel IN ('email', 'webhook', 'none')),
    address text,
    subject text NOT NULL,
    body text NOT NULL,
    payload jsonb NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    give_up_at timestamptz NOT NULL DEFAULT now() + interval '24 hours',
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz
  )`
  yield* sql`CREATE INDEX notification_outbox_subject ON notification_outbox (subject_id)`
  yield* sql`CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at) WHERE status = 'pending'`
})
