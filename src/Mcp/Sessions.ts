import { createHash, randomBytes } from "node:crypto"
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"

/** A session unused this long is gone; the client initializes a new one. */
export const sessionIdleTimeout = Duration.minutes(30)

export interface SessionLimits {
  /** Sessions one partner may hold; its least recently used goes when it opens one more. */
  readonly perPartner: number
  /** Sessions one client address without a token may hold; its least recently used goes first. */
  readonly perAddress: number
  /**
   * Sessions without a token, of every address together; beyond it the least recently used
   * anonymous session goes. A partner's session is never counted here, nor ended for it.
   */
  readonly anonymous: number
}

export const sessionLimits: SessionLimits = { perPartner: 100, perAddress: 20, anonymous: 10_000 }

/** Who opened a session: a partner (by its token), or a client address without a token. */
export type SessionOwner =
  | { readonly _tag: "Partner"; readonly partnerId: string }
  | { readonly _tag: "Address"; readonly address: string }

export const ownerKey = (owner: SessionOwner) =>
  owner._tag === "Partner" ? `partner:${owner.partnerId}` : `address:${owner.address}`

export interface Session {
  readonly id: string
  readonly protocolVersion: string
}

/** Only the id's digest is stored, so a reader of the table cannot use a session. */
const idHash = (id: string) => createHash("sha256").update(id).digest("hex")

/** Serialises the anonymous capacity check of every instance (one lock for all anonymous opens). */
const anonymousLock = "home-service-booking-api:mcp-anonymous-sessions"

/**
 * MCP sessions in PostgreSQL, so that any instance serves a session's next call: they hold no
 * booking state, only who opened them and the protocol version agreed, so a lost session costs
 * the client one new initialize. Times are the instance's clock, as the outbox's are.
 */
export class McpSessions extends Context.Service<
  McpSessions,
  {
    readonly open: (owner: SessionOwner, protocolVersion: string) => Effect.Effect<Session, SqlError>
    /** The caller's live session by id, marked as used now. */
    readonly use: (id: string, owner: SessionOwner) => Effect.Effect<Option.Option<Session>, SqlError>
    /** Ends the caller's session; false when it had none by this id. */
    readonly close: (id: string, owner: SessionOwner) => Effect.Effect<boolean, SqlError>
  }
>()("Booking/McpSessions") {
  static readonly make = (limits: SessionLimits) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const idleMillis = Duration.toMillis(sessionIdleTimeout)
      const times = Effect.map(Clock.currentTimeMillis, (now) => ({
        now: new Date(now),
        expiry: new Date(now - idleMillis)
      }))

      const open = Effect.fn("McpSessions.open")(function* (owner: SessionOwner, protocolVersion: string) {
        const { now, expiry } = yield* times
        const key = ownerKey(owner)
        const anonymous = owner._tag === "Address"
        const perOwner = anonymous ? limits.perAddress : limits.perPartner
        const id = randomBytes(24).toString("base64url")
        yield* sql.withTransaction(
          Effect.gen(function* () {
            // One owner's opens wait for each other on every instance, so its count is exact.
            yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`
            yield* sql`DELETE FROM mcp_sessions WHERE owner = ${key} AND (last_used_at <= ${expiry} OR id_hash IN (
              SELECT id_hash FROM mcp_sessions WHERE owner = ${key} AND last_used_at > ${expiry}
              ORDER BY last_used_at DESC, id_hash OFFSET ${perOwner - 1}))`
            if (anonymous) {
              // Only anonymous sessions make room for an anonymous one: a partner's are never touched.
              yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${anonymousLock}, 0))`
              yield* sql`DELETE FROM mcp_sessions WHERE anonymous AND (last_used_at <= ${expiry} OR id_hash IN (
                SELECT id_hash FROM mcp_sessions WHERE anonymous AND last_used_at > ${expiry}
                ORDER BY last_used_at DESC, id_hash OFFSET ${limits.anonymous - 1}))`
            }
            yield* sql`INSERT INTO mcp_sessions (id_hash, owner, anonymous, protocol_version, created_at, last_used_at)
              VALUES (${idHash(id)}, ${key}, ${anonymous}, ${protocolVersion}, ${now}, ${now})`
          })
        )
        return { id, protocolVersion } satisfies Session
      })

      const use = Effect.fn("McpSessions.use")(function* (id: string, owner: SessionOwner) {
        const { now, expiry } = yield* times
        const rows = yield* sql<{ readonly protocolVersion: string }>`UPDATE mcp_sessions SET last_used_at = ${now}
            WHERE id_hash = ${idHash(id)} AND owner = ${ownerKey(owner)} AND last_used_at > ${expiry}
            RETURNING protocol_version`

        return Option.map(Option.fromNullishOr(rows[0]), ({ protocolVersion }) => ({ id, protocolVersion }))
      })

      const close = Effect.fn("McpSessions.close")(function* (id: string, owner: SessionOwner) {
        const { expiry } = yield* times
        const rows = yield* sql`DELETE FROM mcp_sessions WHERE id_hash = ${idHash(id)} AND owner = ${ownerKey(owner)}
            RETURNING last_used_at > ${expiry} AS live`

        return rows.some((row) => (row as { readonly live?: unknown }).live === true)
      })

      return McpSessions.of({ open, use, close })
    })

  static readonly layer = (limits: SessionLimits) => Layer.effect(this, this.make(limits))
  static readonly Default = this.layer(sessionLimits)
}
