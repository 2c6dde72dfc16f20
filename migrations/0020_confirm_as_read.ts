import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // A confirm that checked the option against the offer as this instance last read it writes in
  // one statement, on the condition that the offer is still that text and that the partner holds
  // nothing on the slot (a hold changes what the statement must write). Either being otherwise
  // aborts the whole statement (claim and writes) with SQLSTATE HSB01, and the confirm reads
  // both and writes again. It returns true or raises, never false, so the claim it guards is
  // either written or the statement fails.
  yield* sql`CREATE FUNCTION confirm_as_read(offer text, offer_md5 text, held boolean) RETURNS boolean
    LANGUAGE plpgsql AS $$
    BEGIN
      IF offer IS NULL OR md5(offer) IS DISTINCT FROM offer_md5 OR held IS DISTINCT FROM false THEN
        RAISE EXCEPTION 'the offer or the partner''s hold changed since the confirm read them'
          USING ERRCODE = 'HSB01';
      END IF;
      RETURN true;
    END $$`
})
