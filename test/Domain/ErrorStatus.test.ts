import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { errorBody, errorStatus } from "../../src/Domain/Errors.js"

/** Declared without ContractError: only the class's own annotation can tell its status. */
class Teapot extends Schema.TaggedError<Teapot>()("teapot", {}, { httpApiStatus: 418 }) {}

describe("an error's status", () => {
  it("is read from the class's own httpApiStatus annotation, not from a list of known classes", () => {
    expect(errorStatus(Teapot)).toBe(418)
    expect(Schema.encodeSync(errorBody(Teapot))(new Teapot())).toEqual({ ok: false, error: "teapot", status: 418 })
  })

  it("is required of a class that answers with it", () => {
    class Unannotated extends Schema.TaggedError<Unannotated>()("unannotated", {}) {}
    expect(() => errorStatus(Unannotated)).toThrow(/unannotated declares no httpApiStatus/)
  })
})
