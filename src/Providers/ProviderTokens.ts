import { Context, Effect, Layer, Option, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { rowsOf } from "../Database/Rows.js"
import { entryOf, storedToken, tokenTable } from "../Partners/Partners.js"

export class ProviderTokenError extends Schema.TaggedError<ProviderTokenError>()("ProviderTokenError", {
  message: Schema.String
}) {}

/**
 * `hsp_<12-char public prefix>_<secret>`: a partner token (`hsb_…`) never matches it, nor this one
 * a partner's, so neither kind of token can be taken for the other.
 */
export const providerTokenPattern = /^hsp_([A-Za-z0-9_-]{12})_[A-Za-z0-9_-]{43}$/

const TokenRow = Schema.Struct({
  ...storedToken,
  providerId: Schema.String,
  providerName: Schema.String
})

const ProviderTokenListRow = Schema.Struct({
  providerId: Schema.String,
  providerName: Schema.String,
  prefix: Schema.String,
  createdAt: Schema.Date,
  lastUsedAt: Schema.NullOr(Schema.Date),
  revokedAt: Schema.NullOr(Schema.Date)
})

/** Provider API tokens (PostgreSQL): shown once, kept as a SHA-256 beside a public prefix, as partner tokens are. */
export class ProviderTokens extends Context.Service<ProviderTokens>()("Booking/ProviderTokens", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const table = tokenTable(sql, "provider", providerTokenPattern, (message) => new ProviderTokenError({ message }))

    const list = sql`
      SELECT t.provider_id, p.name AS provider_name, t.prefix, t.created_at, t.last_used_at, t.revoked_at
      FROM provider_tokens t JOIN providers p ON p.id = t.provider_id
      ORDER BY t.provider_id, t.created_at`.pipe(rowsOf(ProviderTokenListRow))

    /** Every token that authenticates now: unrevoked, of an active provider. */
    const liveTokens = sql`
      SELECT t.prefix, t.token_sha256, p.id AS provider_id, p.name AS provider_name
      FROM provider_tokens t JOIN providers p ON p.id = t.provider_id
      WHERE t.revoked_at IS NULL AND p.active`.pipe(
      rowsOf(TokenRow),
      Effect.map((rows) => rows.map(entryOf))
    )

    /** The live token with this prefix, if there is one (a token issued since the last full read). */
    const liveToken = (prefix: string) =>
      sql`
        SELECT t.prefix, t.token_sha256, p.id AS provider_id, p.name AS provider_name
        FROM provider_tokens t JOIN providers p ON p.id = t.provider_id
        WHERE t.prefix = ${prefix} AND t.revoked_at IS NULL AND p.active`.pipe(
        rowsOf(TokenRow),
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), entryOf))
      )

    return { issue: table.issue, revoke: table.revoke, list, liveTokens, liveToken, markUsed: table.markUsed } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
