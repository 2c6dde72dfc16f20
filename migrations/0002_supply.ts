import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE providers (
    id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{1,63}$'),
    name text NOT NULL,
    city text NOT NULL,
    rating_label text,
    active boolean NOT NULL DEFAULT true,
    notify_email text,
    notify_webhook_url text,
    notify_webhook_secret text,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`
  // Postcodes are five-digit integers (111 22 -> 11122); an area is an inclusive range.
  yield* sql`CREATE TABLE provider_areas (
    provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    postcodes int4range NOT NULL CHECK (NOT isempty(postcodes) AND lower(postcodes) >= 10000 AND upper(postcodes) <= 100000),
    PRIMARY KEY (provider_id, postcodes)
  )`
  yield* sql`CREATE INDEX provider_areas_postcodes ON provider_areas USING gist (postcodes)`
  yield* sql`CREATE TABLE provider_services (
    provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    service_id text NOT NULL,
    vertical_id text NOT NULL,
    job_type_id text NOT NULL,
    label_sv text NOT NULL,
    label_en text,
    pricing_model text NOT NULL,
    price_type text NOT NULL,
    amount_sek integer CHECK (amount_sek >= 0),
    unit_price_sek integer CHECK (unit_price_sek >= 0),
    unit text,
    duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 15 AND 1440),
    scope jsonb NOT NULL DEFAULT '{}',
    terms_version text NOT NULL CHECK (length(terms_version) BETWEEN 8 AND 240),
    terms_url text NOT NULL,
    terms_sections jsonb NOT NULL DEFAULT '[]',
    terms_source_urls jsonb NOT NULL DEFAULT '[]',
    active boolean NOT NULL DEFAULT true,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider_id, service_id),
    CHECK (amount_sek IS NOT NULL OR unit_price_sek IS NOT NULL)
  )`
  yield* sql`CREATE INDEX provider_services_job ON provider_services (vertical_id, job_type_id) WHERE active`
  // Local wall-clock hours in Europe/Stockholm; ISO weekday 1 = Monday.
  yield* sql`CREATE TABLE provider_working_hours (
    provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    iso_weekday smallint NOT NULL CHECK (iso_weekday BETWEEN 1 AND 7),
    opens time NOT NULL,
    closes time NOT NULL CHECK (closes > opens),
    PRIMARY KEY (provider_id, iso_weekday, opens)
  )`
  // The overlap guarantee lives here: two confirmed bookings of one provider can never overlap.
  yield* sql`CREATE TABLE calendar_bookings (
    id uuid PRIMARY KEY,
    provider_id text NOT NULL REFERENCES providers (id),
    service_id text NOT NULL,
    during tstzrange NOT NULL CHECK (NOT isempty(during) AND lower_inc(during) AND NOT upper_inc(during)),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT calendar_bookings_no_overlap EXCLUDE USING gist (provider_id WITH =, during WITH &&)
  )`
})
