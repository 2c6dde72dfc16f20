import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A service the provider edited through its token: the supply import leaves it alone from then on
  // unless the operator overwrites it on purpose (--overwrite-provider-edits).
  yield* sql`ALTER TABLE provider_services ADD COLUMN edited_by_provider_at timestamptz`
  // The same for the provider's postcodes.
  yield* sql`ALTER TABLE providers ADD COLUMN areas_set_by_provider_at timestamptz`

  // Every change to a provider's offer, by whom (the token's public prefix, or the import) and what
  // it was before and after. Offer fields only: no customer, and no token secret.
  yield* sql`CREATE TABLE provider_offer_changes (
    id uuid PRIMARY KEY,
    provider_id text NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
    changed_at timestamptz NOT NULL,
    changed_by text NOT NULL CHECK (length(changed_by) BETWEEN 1 AND 80),
    subject text NOT NULL CHECK (subject IN ('service', 'areas', 'cancellation_policy')),
    service_id text,
    changes jsonb NOT NULL,
    terms_version_before text,
    terms_version_after text
  )`
  yield* sql`CREATE INDEX provider_offer_changes_provider ON provider_offer_changes (provider_id, changed_at DESC, id DESC)`

  // What a service offered under each terms version it has left: a partner's live hold keeps the
  // price and terms it was made under until it ends, whatever the provider or the import changed
  // since. Kept by the database itself, so no writer of provider_services can forget it.
  yield* sql`CREATE TABLE provider_service_versions (
    provider_id text NOT NULL,
    service_id text NOT NULL,
    terms_version text NOT NULL,
    offer jsonb NOT NULL,
    superseded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (provider_id, service_id, terms_version),
    FOREIGN KEY (provider_id, service_id) REFERENCES provider_services (provider_id, service_id) ON DELETE CASCADE
  )`
  yield* sql.unsafe(`CREATE FUNCTION provider_service_superseded() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO provider_service_versions (provider_id, service_id, terms_version, offer)
      VALUES (OLD.provider_id, OLD.service_id, OLD.terms_version, jsonb_build_object(
        'labelSv', OLD.label_sv, 'labelEn', OLD.label_en, 'pricingModel', OLD.pricing_model,
        'priceType', OLD.price_type, 'amountSek', OLD.amount_sek, 'unitPriceSek', OLD.unit_price_sek,
        'unit', OLD.unit, 'durationMinutes', OLD.duration_minutes, 'scope', OLD.scope,
        'termsVersion', OLD.terms_version, 'termsUrl', OLD.terms_url, 'taxDeduction', OLD.tax_deduction,
        'cancellationPolicy', jsonb_build_object('freeCancellationHours', OLD.free_cancellation_hours,
          'lateFeeSek', OLD.late_fee_sek, 'changeHours', OLD.change_hours),
        'consumerInformation', (SELECT x FROM jsonb_array_elements(OLD.terms_sections) x
          WHERE x->>'id' = 'consumer_information' LIMIT 1)))
      ON CONFLICT DO NOTHING;
      RETURN NEW;
    END $$`)
  yield* sql.unsafe(`CREATE TRIGGER provider_services_superseded AFTER UPDATE OF terms_version ON provider_services
    FOR EACH ROW WHEN (OLD.terms_version IS DISTINCT FROM NEW.terms_version)
    EXECUTE FUNCTION provider_service_superseded()`)
})
