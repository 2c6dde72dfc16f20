import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { TestClock } from "effect/testing"
import { McpSessions, type SessionOwner, sessionIdleTimeout, sessionLimits } from "../../src/Mcp/Sessions.js"
import { TestDatabaseLive } from "../support/Database.js"
import { clearMcpSessions } from "../support/Fixtures.js"
import { testNow } from "../support/Server.js"

const partner = (partnerId: string): SessionOwner => ({ _tag: "Partner", partnerId })
const address = (address: string): SessionOwner => ({ _tag: "Address", address })

const alive = (sessions: McpSessions["Service"], id: string, owner: SessionOwner) =>
  Effect.map(sessions.use(id, owner), Option.isSome)

/** Small limits, so that filling them takes a few statements; the rules are the same at any size. */
const limits = { perPartner: 3, perAddress: 2, anonymous: 5 }

const clean = clearMcpSessions

describe("MCP sessions in PostgreSQL", () => {
  it.layer(McpSessions.layer(limits).pipe(Layer.provideMerge(TestDatabaseLive)))((it) => {
    it.effect("a session unused for the idle timeout is gone; using it keeps it alive", () =>
      Effect.gen(function* () {
        yield* clean
        yield* TestClock.setTime(testNow)
        const sessions = yield* McpSessions
        const idle = yield* sessions.open(partner("a"), "2025-06-18")
        const busy = yield* sessions.open(partner("a"), "2025-06-18")
        yield* TestClock.adjust(Duration.subtract(sessionIdleTimeout, Duration.seconds(1)))
        expect(yield* alive(sessions, busy.id, partner("a"))).toBe(true)
        yield* TestClock.adjust("1 second")
        expect(yield* alive(sessions, idle.id, partner("a"))).toBe(false)
        expect(yield* alive(sessions, busy.id, partner("a"))).toBe(true)
        yield* TestClock.adjust(sessionIdleTimeout)
        expect(yield* alive(sessions, busy.id, partner("a"))).toBe(false)
      })
    )

    it.effect("a session answers only to its owner, keeps its protocol version, and a closed one is gone", () =>
      Effect.gen(function* () {
        yield* clean
        yield* TestClock.setTime(testNow)
        const sessions = yield* McpSessions
        const session = yield* sessions.open(partner("a"), "2025-03-26")
        expect(yield* alive(sessions, session.id, partner("b"))).toBe(false)
        expect(yield* alive(sessions, session.id, address("127.0.0.1"))).toBe(false)
        expect(yield* sessions.close(session.id, partner("b"))).toBe(false)
        expect(yield* sessions.use(session.id, partner("a"))).toEqual(
          Option.some({ id: session.id, protocolVersion: "2025-03-26" })
        )
        expect(yield* sessions.close(session.id, partner("a"))).toBe(true)
        expect(yield* alive(sessions, session.id, partner("a"))).toBe(false)
      })
    )

    it.effect("the id is never stored, only its digest", () =>
      Effect.gen(function* () {
        yield* clean
        const sessions = yield* McpSessions
        const session = yield* sessions.open(partner("a"), "2025-06-18")
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly idHash: string }>`SELECT id_hash FROM mcp_sessions`
        expect(rows).toHaveLength(1)
        expect(rows[0]!.idHash).not.toContain(session.id)
        expect(rows[0]!.idHash).toMatch(/^[0-9a-f]{64}$/)
      })
    )

    it.effect(
      "a partner's new session beyond its bound ends its own least recently used, never another partner's",
      () =>
        Effect.gen(function* () {
          yield* clean
          yield* TestClock.setTime(testNow)
          const sessions = yield* McpSessions
          const other = yield* sessions.open(partner("b"), "2025-06-18")
          const mine: Array<string> = []
          for (let i = 0; i < limits.perPartner; i++) {
            mine.push((yield* sessions.open(partner("a"), "2025-06-18")).id)
            yield* TestClock.adjust("1 second")
          }
          // The first is used again, so the second becomes the least recently used.
          expect(yield* alive(sessions, mine[0]!, partner("a"))).toBe(true)
          yield* TestClock.adjust("1 second")
          const newest = yield* sessions.open(partner("a"), "2025-06-18")
          expect(yield* alive(sessions, mine[1]!, partner("a"))).toBe(false)
          for (const id of [mine[0]!, mine[2]!, newest.id]) expect(yield* alive(sessions, id, partner("a"))).toBe(true)
          expect(yield* alive(sessions, other.id, partner("b"))).toBe(true)
        })
    )

    it.effect("anonymous sessions are bounded per address and in all, and never end a partner's", () =>
      Effect.gen(function* () {
        yield* clean
        yield* TestClock.setTime(testNow)
        const sessions = yield* McpSessions
        // The partner's session is the least recently used of all when the flood comes.
        const held = yield* sessions.open(partner("a"), "2025-06-18")
        yield* TestClock.adjust("1 second")

        const first = yield* sessions.open(address("10.0.0.1"), "2025-06-18")
        yield* TestClock.adjust("1 second")
        const second = yield* sessions.open(address("10.0.0.1"), "2025-06-18")
        yield* TestClock.adjust("1 second")
        const third = yield* sessions.open(address("10.0.0.1"), "2025-06-18")
        // One address: its third session ended its first.
        expect(yield* alive(sessions, first.id, address("10.0.0.1"))).toBe(false)
        expect(yield* alive(sessions, second.id, address("10.0.0.1"))).toBe(true)
        expect(yield* alive(sessions, third.id, address("10.0.0.1"))).toBe(true)

        // A flood from many addresses: far more sessions than the anonymous bound.
        for (let i = 0; i < 4 * limits.anonymous; i++) {
          yield* TestClock.adjust("1 second")
          yield* sessions.open(address(`10.1.0.${i}`), "2025-06-18")
        }
        const sql = yield* SqlClient.SqlClient
        const [counts] = yield* sql<{ readonly anonymous: number; readonly partners: number }>`
          SELECT count(*) FILTER (WHERE anonymous)::int AS anonymous, count(*) FILTER (WHERE NOT anonymous)::int AS partners
          FROM mcp_sessions`
        expect(counts).toEqual({ anonymous: limits.anonymous, partners: 1 })
        expect(yield* alive(sessions, held.id, partner("a"))).toBe(true)
        expect(yield* alive(sessions, third.id, address("10.0.0.1"))).toBe(false)
      })
    )
  })

  it("the limits in production: 100 per partner, 20 per address, 10 000 anonymous", () => {
    expect(sessionLimits).toEqual({ perPartner: 100, perAddress: 20, anonymous: 10_000 })
  })
})
