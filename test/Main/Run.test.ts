import { describe, expect, it } from "vitest"
import { describeFailure } from "../../src/Main/Run.js"

describe("the start failure's one line", () => {
  it("names what caused the error, so a lost connection says why it was lost", () => {
    const lost = new Error("PgConnection: Socket error", { cause: new Error("Query read timeout") })
    expect(describeFailure(lost)).toBe("PgConnection: Socket error: Query read timeout")
  })

  it("skips an empty message and does not repeat a cause the message already quotes", () => {
    const serve = new Error("", { cause: new Error("listen EADDRINUSE: address already in use 127.0.0.1:8080") })
    expect(describeFailure(serve)).toBe("listen EADDRINUSE: address already in use 127.0.0.1:8080")
    const quoted = new Error("connect failed: ECONNREFUSED", { cause: new Error("ECONNREFUSED") })
    expect(describeFailure(quoted)).toBe("connect failed: ECONNREFUSED")
    expect(describeFailure("not an error")).toBeUndefined()
  })
})
