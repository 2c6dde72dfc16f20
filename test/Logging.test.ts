import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger, LogLevel } from "effect"
import { jsonLogger, logInfoWith } from "../src/Logging.js"

/** The lines `effect` logs through jsonLogger, as LOG_FORMAT=json prints them. */
const linesOf = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    const collector = Logger.map(jsonLogger, (line) => {
      lines.push(line)
    })
    yield* effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, collector)))
    return lines
  })

const fields = { method: "POST", route: "/api/public/booking-options", status: 200, duration_ms: 12 }

describe("logInfoWith", () => {
  it.effect(
    "writes the line annotateLogs around logInfo writes: same fields, same order, the fiber's own annotations kept",
    () =>
      Effect.gen(function* () {
        const annotated = (log: Effect.Effect<void>) =>
          log.pipe(Effect.annotateLogs({ request_id: "trace-4711", partner: "p-1" }))
        const direct = yield* linesOf(annotated(logInfoWith("request", fields)))
        const viaAnnotateLogs = yield* linesOf(annotated(Effect.annotateLogs(Effect.logInfo("request"), fields)))
        expect(direct).toHaveLength(1)
        expect(direct).toEqual(viaAnnotateLogs)
        expect(JSON.parse(direct[0]!)).toMatchObject({
          level: "info",
          msg: "request",
          request_id: "trace-4711",
          ...fields
        })
      })
  )

  it.effect("leaves the fiber's annotations as they were and honours the minimum log level", () =>
    Effect.gen(function* () {
      const after = yield* linesOf(Effect.zipRight(logInfoWith("request", fields), Effect.logInfo("next")))
      expect(JSON.parse(after[1]!)).not.toHaveProperty("route")
      const quiet = yield* linesOf(logInfoWith("request", fields).pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))
      expect(quiet).toEqual([])
    })
  )
})
