import { randomBytes } from "node:crypto"
import { Clock, Context, Duration, Effect, Layer, Option } from "effect"

/** A session unused this long is gone; the client initializes a new one. */
export const sessionIdleTimeout = Duration.minutes(30)

/** Sessions one caller (a partner, or an address without a token) may hold; the oldest-used goes first. */
export const sessionsPerCaller = 100

/** Sessions of every caller together, so a flood of addresses cannot grow the map without bound. */
export const sessionCapacity = 10_000

export interface Session {
  readonly id: string
  /** `partner:<id>` or `address:<client address>`: a session answers only to the caller who opened it. */
  readonly owner: string
  readonly protocolVersion: string
  lastUsed: number
  /** The id Effect 4's transport gave the session it keeps behind this one. */
  transportId: string | undefined
}

/**
 * MCP sessions of this instance, in memory: they hold no booking state, only who opened them and
 * the protocol version agreed, so a lost session costs the client one new initialize.
 */
export class McpSessions extends Context.Service<McpSessions>()("Booking/McpSessions", {
  make: Effect.sync(() => {
    // Kept in order of last use, so the first entries are the ones to evict.
    const sessions = new Map<string, Session>()
    const idleMillis = Duration.toMillis(sessionIdleTimeout)
    const expired = (session: Session, now: number) => now - session.lastUsed >= idleMillis

    const evictOldest = (ofOwner: (session: Session) => boolean) => {
      for (const session of sessions.values()) {
        if (ofOwner(session)) {
          sessions.delete(session.id)
          return
        }
      }
    }

    const open = Effect.fn("McpSessions.open")(function* (owner: string, protocolVersion: string) {
      const now = yield* Clock.currentTimeMillis
      let owned = 0
      for (const session of sessions.values()) {
        if (expired(session, now)) sessions.delete(session.id)
        else if (session.owner === owner) owned++
      }
      if (owned >= sessionsPerCaller) evictOldest((session) => session.owner === owner)
      if (sessions.size >= sessionCapacity) evictOldest(() => true)
      const session: Session = {
        id: randomBytes(24).toString("base64url"),
        owner,
        protocolVersion,
        lastUsed: now,
        transportId: undefined
      }
      sessions.set(session.id, session)
      return session
    })

    /** The caller's live session by id, marked as used now. */
    const use = Effect.fn("McpSessions.use")(function* (id: string, owner: string) {
      const now = yield* Clock.currentTimeMillis
      const session = sessions.get(id)
      if (session === undefined || session.owner !== owner) return Option.none<Session>()
      sessions.delete(id)
      if (expired(session, now)) return Option.none<Session>()
      session.lastUsed = now
      sessions.set(id, session)
      return Option.some(session)
    })

    const close = (id: string, owner: string) =>
      Effect.sync(() => sessions.get(id)?.owner === owner && sessions.delete(id))

    return { open, use, close } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
