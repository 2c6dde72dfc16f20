import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Logger } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { jsonLogger, LogFields, requestIdOf, setRequestId } from "../../src/Http/Logging.js"

/** The JSON lines `effect` logs, as LOG_FORMAT=json writes them. */
const linesOf = <A, E>(effect: Effect.Effect<A, E>) => {
  const lines: Array<Record<string, unknown>> = []
  const collector = Logger.layer([
    Logger.map(jsonLogger, (line) => {
      lines.push(JSON.parse(line))
    })
  ])
  return Effect.as(Effect.provide(effect, collector), lines)
}

describe("log lines", () => {
  it.effect("name the request they were logged for, also from a fiber it started, and nothing outside one", () =>
    Effect.gen(function* () {
      const request = HttpServerRequest.fromWeb(new Request("http://127.0.0.1/api/public/booking-options"))
      setRequestId(request, "trace-0815")
      const lines = yield* linesOf(
        Effect.gen(function* () {
          yield* Effect.logInfo("inside").pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request))
          yield* Effect.logWarning("forked").pipe(
            Effect.forkChild,
            Effect.flatMap((fiber) => Fiber.await(fiber)),
            Effect.provideService(HttpServerRequest.HttpServerRequest, request)
          )
          yield* Effect.logInfo("outside")
        })
      )
      expect(lines.map(({ msg, request_id }) => ({ msg, request_id }))).toEqual([
        { msg: "inside", request_id: "trace-0815" },
        { msg: "forked", request_id: "trace-0815" },
        { msg: "outside", request_id: undefined }
      ])
    })
  )

  it("a request the platform derives from another (modify, a mounted router) has the same id", () => {
    const request = HttpServerRequest.fromWeb(new Request("http://127.0.0.1/api/public/bookings/abc"))
    setRequestId(request, "trace-4712")
    expect(requestIdOf(request.modify({ url: "/bookings/abc" }))).toBe("trace-4712")
    expect(requestIdOf(HttpServerRequest.fromWeb(new Request("http://127.0.0.1/")))).toBeUndefined()
  })

  it.effect("a line's own fields are written beside msg, flat, and the reserved names stay the line's", () =>
    Effect.gen(function* () {
      const lines = yield* linesOf(
        Effect.logInfo("request", new LogFields({ method: "POST", status: 201, duration_ms: 4, msg: "not this" }))
      )
      expect(lines).toEqual([
        { time: expect.any(String), level: "info", msg: "request", method: "POST", status: 201, duration_ms: 4 }
      ])
    })
  )
})
