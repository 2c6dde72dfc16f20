import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { McpSessions, sessionCapacity, sessionIdleTimeout, sessionsPerCaller } from "../../src/Mcp/Sessions.js"

const alive = (sessions: McpSessions["Service"], id: string, owner: string) =>
  Effect.map(sessions.use(id, owner), Option.isSome)

describe("MCP sessions", () => {
  it.effect("a session unused for the idle timeout is gone; using it keeps it alive", () =>
    Effect.gen(function* () {
      const sessions = yield* McpSessions
      const idle = yield* sessions.open("partner:a", "2025-06-18")
      const busy = yield* sessions.open("partner:a", "2025-06-18")
      yield* TestClock.adjust(Duration.subtract(sessionIdleTimeout, Duration.seconds(1)))
      expect(yield* alive(sessions, busy.id, "partner:a")).toBe(true)
      yield* TestClock.adjust("1 second")
      expect(yield* alive(sessions, idle.id, "partner:a")).toBe(false)
      expect(yield* alive(sessions, busy.id, "partner:a")).toBe(true)
      yield* TestClock.adjust(sessionIdleTimeout)
      expect(yield* alive(sessions, busy.id, "partner:a")).toBe(false)
    }).pipe(Effect.provide(McpSessions.Default))
  )

  it.effect("a session answers only to its owner, and a closed one is gone", () =>
    Effect.gen(function* () {
      const sessions = yield* McpSessions
      const session = yield* sessions.open("partner:a", "2025-06-18")
      expect(yield* alive(sessions, session.id, "partner:b")).toBe(false)
      expect(yield* alive(sessions, session.id, "address:127.0.0.1")).toBe(false)
      expect(yield* sessions.close(session.id, "partner:b")).toBe(false)
      expect(yield* sessions.use(session.id, "partner:a")).toEqual(Option.some(session))
      expect(yield* sessions.close(session.id, "partner:a")).toBe(true)
      expect(yield* alive(sessions, session.id, "partner:a")).toBe(false)
    }).pipe(Effect.provide(McpSessions.Default))
  )

  it.effect(`at most ${sessionsPerCaller} per caller and ${sessionCapacity} in all: the least recently used goes`, () =>
    Effect.gen(function* () {
      const sessions = yield* McpSessions
      const owners = Array.from({ length: sessionCapacity / sessionsPerCaller }, (_, i) => `partner:${i}`)
      const opened = new Map<string, Array<string>>()
      for (const owner of owners) {
        const ids: Array<string> = []
        for (let i = 0; i < sessionsPerCaller; i++) ids.push((yield* sessions.open(owner, "2025-06-18")).id)
        opened.set(owner, ids)
      }
      const [first, second] = owners as [string, string]
      // Full everywhere: a caller's new session ends that caller's least recently used one.
      const extra = yield* sessions.open(second, "2025-06-18")
      expect(yield* alive(sessions, opened.get(second)![0]!, second)).toBe(false)
      expect(yield* alive(sessions, extra.id, second)).toBe(true)
      // A new caller, with the map at capacity, ends the least recently used of anyone's.
      yield* sessions.open("address:10.0.0.1", "2025-06-18")
      expect(yield* alive(sessions, opened.get(first)![0]!, first)).toBe(false)
      expect(yield* alive(sessions, opened.get(first)![1]!, first)).toBe(true)
    }).pipe(Effect.provide(McpSessions.Default))
  )
})
