import { SqlError } from "effect/sql"
import { describe, expect, it } from "vitest"
import { writeOutcome } from "../../src/Shared/Idempotency.js"

/** A failure as @effect/sql-pg 4 reports it: a statement it sent, or (connect) one that got no connection. */
const failed = (cause: unknown, message = "PgConnection: Query failed", operation = "query") =>
  new SqlError.SqlError({
    reason:
      operation === "connect"
        ? new SqlError.ConnectionError({ cause, message, operation })
        : new SqlError.UnknownError({ cause, message, operation })
  })

describe("writeOutcome: what a failed writing statement says about what was written", () => {
  it("an ERROR PostgreSQL answered aborted the statement: not written", () => {
    for (const code of ["23P01", "23505", "57014", "40P01", "53300"]) {
      expect(writeOutcome(failed({ severity: "ERROR", code }))._tag).toBe("NotWritten")
    }
  })

  it("a statement that never got a connection was never sent: not written", () => {
    expect(writeOutcome(failed(new Error("timed out"), "Failed to acquire connection", "connect"))._tag).toBe(
      "NotWritten"
    )
  })

  it("no answer, a lost connection or a FATAL may have come after the commit: unknown", () => {
    expect(writeOutcome(failed(new Error("Query read timeout")))._tag).toBe("CommitUnknown")
    expect(writeOutcome(failed(new Error("Connection terminated unexpectedly")))._tag).toBe("CommitUnknown")
    expect(writeOutcome(failed(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })))._tag).toBe(
      "CommitUnknown"
    )
    expect(writeOutcome(failed({ severity: "FATAL", code: "57P01" }))._tag).toBe("CommitUnknown")
    expect(writeOutcome(failed(new Error("Connection error"), "Connection error"))._tag).toBe("CommitUnknown")
  })
})
