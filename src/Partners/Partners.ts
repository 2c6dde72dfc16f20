import { createHash, randomBytes } from "node:crypto"
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { rowsOf } from "../Database/Rows.js"

export class PartnerError extends Schema.TaggedError<PartnerError>()("PartnerError", { message: Schema.String }) {}

/** `hsb_<12-char public prefix>_<secret>`: the prefix finds the token, the secret proves it. */
export const tokenPattern = /^hsb_([A-Za-z0-9_-]{12})_[A-Za-z0-9_-]{43}$/

export const tokenDigest = (token: string) => createHash("sha256").update(token, "utf8").digest()

/**
 * Issue, revoke and last use of one kind's API tokens (`partner_tokens` of active `partners`, or
 * `provider_tokens` of active `providers`): shown once as `hsb_…`/`hsp_…`, kept as a SHA-256
 * beside the public prefix. `pattern` reads the prefix out of a whole token.
 */
export const tokenTable = <E>(
  sql: SqlClient.SqlClient,
  kind: "partner" | "provider",
  pattern: RegExp,
  refused: (message: string) => E
) => {
  const tokens = sql.literal(`${kind}_tokens`)
  const owners = sql.literal(`${kind}s`)
  const ownerColumn = sql.literal(`${kind}_id`)

  /** Several live tokens per owner let it rotate without downtime; an owner that is not active gets none. */
  const issue = Effect.fn(`${kind}Tokens.issue`)(function* (ownerId: string) {
    const prefix = randomBytes(9).toString("base64url")
    const token = `${kind === "partner" ? "hsb" : "hsp"}_${prefix}_${randomBytes(32).toString("base64url")}`
    const rows = yield* sql`
      INSERT INTO ${tokens} (prefix, ${ownerColumn}, token_sha256)
      SELECT ${prefix}, id, ${tokenDigest(token)} FROM ${owners} WHERE id = ${ownerId} AND active
      RETURNING prefix`
    if (rows.length === 0) return yield* Effect.fail(refused(`no active ${kind} ${ownerId}`))
    return { token, prefix }
  })

  /** By prefix or by the whole token; answers the prefix revoked. */
  const revoke = Effect.fn(`${kind}Tokens.revoke`)(function* (prefixOrToken: string) {
    const prefix = pattern.exec(prefixOrToken)?.[1] ?? prefixOrToken
    const now = yield* DateTime.nowAsDate
    const rows = yield* sql`
      UPDATE ${tokens} SET revoked_at = ${now} WHERE prefix = ${prefix} AND revoked_at IS NULL RETURNING prefix`
    if (rows.length === 0) return yield* Effect.fail(refused(`no live token with prefix ${prefix}`))
    // The prefix, never what was given: a whole token must not be printed back.
    return prefix
  })

  const markUsed = (prefixes: ReadonlyArray<string>) =>
    prefixes.length === 0
      ? Effect.void
      : Effect.flatMap(
          DateTime.nowAsDate,
          (now) => sql`UPDATE ${tokens} SET last_used_at = ${now} WHERE ${sql.in("prefix", prefixes)}`
        ).pipe(Effect.asVoid)

  return { issue, revoke, markUsed } as const
}

/** A token's stored columns: the public prefix, and its SHA-256 as bytea. */
export const storedToken = { prefix: Schema.String, tokenSha256: Schema.Uint8Array }

/** A token row as a token store's entry: the owner's columns, and the SHA-256 as its digest. */
export const entryOf = <R extends { readonly tokenSha256: Uint8Array }>({ tokenSha256, ...owner }: R) => ({
  ...owner,
  digest: tokenSha256
})

export const TokenRow = Schema.Struct({
  ...storedToken,
  partnerId: Schema.String,
  partnerName: Schema.String,
  sandbox: Schema.Boolean
})

const PartnerTokenListRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  active: Schema.Boolean,
  sandbox: Schema.Boolean,
  prefix: Schema.NullOr(Schema.String),
  createdAt: Schema.NullOr(Schema.Date),
  lastUsedAt: Schema.NullOr(Schema.Date),
  revokedAt: Schema.NullOr(Schema.Date)
})

const IssuedRow = Schema.Struct({ issued: Schema.Boolean })

/** Partners and their API tokens (PostgreSQL); a token is shown once and kept only as a hash. */
export class Partners extends Context.Service<Partners>()("Booking/Partners", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** A sandbox partner's bookings and requests are marked and never notify anyone. */
    const create = Effect.fn("Partners.create")(function* (
      id: string,
      name: string,
      options?: { readonly sandbox?: boolean }
    ) {
      if (!/^[a-z0-9][a-z0-9_-]{1,63}$/.test(id)) {
        return yield* new PartnerError({ message: `partner id must match [a-z0-9][a-z0-9_-]{1,63}, got "${id}"` })
      }
      if (name.trim().length === 0) return yield* new PartnerError({ message: "partner name must not be empty" })
      const rows =
        yield* sql`INSERT INTO partners (id, name, sandbox) VALUES (${id}, ${name.trim()}, ${options?.sandbox === true})
          ON CONFLICT DO NOTHING RETURNING id`
      if (rows.length === 0) return yield* new PartnerError({ message: `partner ${id} already exists` })
    })

    const table = tokenTable(sql, "partner", tokenPattern, (message) => new PartnerError({ message }))

    const list = sql`
      SELECT p.id, p.name, p.active, p.sandbox, t.prefix, t.created_at, t.last_used_at, t.revoked_at
      FROM partners p LEFT JOIN partner_tokens t ON t.partner_id = p.id
      ORDER BY p.id, t.created_at`.pipe(rowsOf(PartnerTokenListRow))

    /** Every token that authenticates now: unrevoked, of an active partner. */
    const liveTokens = sql`
      SELECT t.prefix, t.token_sha256, p.id AS partner_id, p.name AS partner_name, p.sandbox
      FROM partner_tokens t JOIN partners p ON p.id = t.partner_id
      WHERE t.revoked_at IS NULL AND p.active`.pipe(
      rowsOf(TokenRow),
      Effect.map((rows) => rows.map(entryOf))
    )

    /** The live token with this prefix, if there is one (a token issued since the last full read). */
    const liveToken = (prefix: string) =>
      sql`
        SELECT t.prefix, t.token_sha256, p.id AS partner_id, p.name AS partner_name, p.sandbox
        FROM partner_tokens t JOIN partners p ON p.id = t.partner_id
        WHERE t.prefix = ${prefix} AND t.revoked_at IS NULL AND p.active`.pipe(
        rowsOf(TokenRow),
        Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), entryOf))
      )

    /** Whether a partner token was ever issued, revoked ones included. */
    const anyTokenEver = sql`SELECT EXISTS (SELECT 1 FROM partner_tokens) AS issued`.pipe(
      rowsOf(IssuedRow),
      Effect.map((rows) => rows[0]?.issued === true)
    )

    return {
      create,
      issueToken: table.issue,
      revokeToken: table.revoke,
      list,
      liveTokens,
      liveToken,
      anyTokenEver,
      markUsed: table.markUsed
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
