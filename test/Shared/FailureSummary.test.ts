import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Logger } from "effect"
import { SqlError } from "effect/sql"
import { failureSummary, logFailure } from "../../src/Shared/FailureSummary.js"

/** What PostgreSQL sends back when it rejects a JSON document: its detail and context quote the values. */
const rejection = Object.assign(new Error("unsupported Unicode escape sequence"), {
  code: "22P05",
  detail: "\\u0000 cannot be converted to text.",
  where: 'JSON data, line 1: {"name":"Astrid Lindqvist","phone":"+46 70 123 45 67","email":"astrid@example.se"...'
})

describe("failure logging", () => {
  it("keeps the kind and the SQLSTATE of a database error, never its message, detail or context", () => {
    const error = new SqlError.SqlError({
      reason: new SqlError.UnknownError({ cause: rejection, message: "PgConnection: Query failed", operation: "query" })
    })
    expect(failureSummary(error)).toEqual({ error: "SqlError", sql_state: "22P05" })
    expect(failureSummary(Cause.die(error))).toEqual({ error: "SqlError", sql_state: "22P05" })
    const refused = new SqlError.SqlError({
      reason: new SqlError.ConnectionError({
        cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }),
        operation: "connect"
      })
    })
    expect(failureSummary(refused)).toEqual({ error: "SqlError", code: "ECONNREFUSED" })
  })

  it.effect("a logged database rejection carries no personal data", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const logger = Logger.map(Logger.formatJson, (line) => {
        lines.push(line)
      })
      yield* logFailure(
        "booking persistence failed",
        new SqlError.SqlError({ reason: new SqlError.UnknownError({ cause: rejection }) })
      ).pipe(Effect.provide(Logger.layer([logger])))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("booking persistence failed")
      expect(lines[0]).toContain("22P05")
      expect(lines[0]).not.toMatch(/Astrid|Lindqvist|123 45 67|example\.se|u0000/)
    })
  )
})
