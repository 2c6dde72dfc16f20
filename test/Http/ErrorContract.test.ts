import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Errors from "../../src/Domain/Errors.js"
import { get, postJson, postRaw } from "../support/Http.js"
import { errorClasses, TestServer } from "../support/Server.js"

describe("error contract", () => {
  it.layer(TestServer({ probe: true }))((it) => {
    it.effect("a schema decode failure is 400 invalid_request with one readable issue per field path", () =>
      Effect.gen(function* () {
        const response = yield* postJson("/probe/echo", { name: "x", location: { postcode: "1234" } })
        expect(response.status).toBe(400)
        expect(response.body).toEqual({
          ok: false,
          error: "invalid_request",
          status: 400,
          issues: [
            'name: Expected a string at least 2 character(s) long, actual "x"',
            "location.postcode: must be a Swedish postcode: three digits, an optional space, two digits (NNN NN)"
          ]
        })
      })
    )

    it.effect("an unknown property anywhere is rejected, not ignored", () =>
      Effect.gen(function* () {
        const response = yield* postJson("/probe/echo", {
          name: "Anna",
          email: "anna@example.com",
          location: { postcode: "111 22", street: "Drottninggatan 1" }
        })
        expect(response.status).toBe(400)
        expect(response.body.error).toBe("invalid_request")
        expect(response.body.issues).toEqual([
          expect.stringMatching(/^email: is unexpected/),
          expect.stringMatching(/^location\.street: is unexpected/)
        ])
      })
    )

    it.effect("a valid body passes through unchanged", () =>
      Effect.gen(function* () {
        const body = { name: "Anna", location: { postcode: "111 22" } }
        const response = yield* postJson("/probe/echo", body)
        expect(response).toMatchObject({ status: 200, body })
      })
    )

    it.effect("malformed JSON is 400 malformed_json", () =>
      Effect.gen(function* () {
        const response = yield* postRaw("/probe/echo", '{"name": "Anna",', "application/json")
        expect(response.status).toBe(400)
        expect(response.body).toEqual({
          ok: false,
          error: "malformed_json",
          status: 400,
          issues: ["body: is not valid JSON"]
        })
      })
    )

    it.effect("an unknown route is 404 not_found", () =>
      Effect.gen(function* () {
        const response = yield* get("/api/public/nothing-here")
        expect(response.status).toBe(404)
        expect(response.body).toEqual({
          ok: false,
          error: "not_found",
          status: 404,
          issues: ["path: no route for GET /api/public/nothing-here"]
        })
      })
    )

    it.effect("a known route with the wrong method is 405 method_not_allowed", () =>
      Effect.gen(function* () {
        const response = yield* postJson("/api/public/requests/capabilities", {})
        expect(response.status).toBe(405)
        expect(response.body).toEqual({
          ok: false,
          error: "method_not_allowed",
          status: 405,
          issues: ["method: POST is not allowed here; use GET"]
        })
      })
    )

    it.effect("a body over 1 MB is 413 payload_too_large", () =>
      Effect.gen(function* () {
        const response = yield* postJson("/probe/echo", {
          name: "x".repeat(1024 * 1024),
          location: { postcode: "111 22" }
        })
        expect(response.status).toBe(413)
        expect(response.body).toEqual({
          ok: false,
          error: "payload_too_large",
          status: 413,
          issues: ["body: must be at most 1048576 bytes"]
        })
      })
    )

    it.effect("a non-JSON content type on a JSON endpoint is 415 unsupported_media_type", () =>
      Effect.gen(function* () {
        const response = yield* postRaw("/probe/echo", "name=Anna", "application/x-www-form-urlencoded")
        expect(response.status).toBe(415)
        expect(response.body).toEqual({
          ok: false,
          error: "unsupported_media_type",
          status: 415,
          issues: ["content-type: must be application/json, got application/x-www-form-urlencoded"]
        })
      })
    )

    it.effect("a defect is 500 internal_error with no internal detail in the body", () =>
      Effect.gen(function* () {
        const response = yield* get("/probe/defect")
        expect(response.status).toBe(500)
        expect(response.body).toEqual({
          ok: false,
          error: "internal_error",
          status: 500,
          safe_next_step: "Retry later; if it persists, contact the operator."
        })
        expect(JSON.stringify(response.body)).not.toMatch(/secret|stack/)
      })
    )

    it.effect("the platform's request keeps its own body readers: a route beside the Api reads any body", () =>
      Effect.gen(function* () {
        const response = yield* postRaw("/probe/raw-text", "plain words", "text/plain")
        expect(response.status).toBe(200)
        expect(response.body).toEqual({ text: "plain words" })
      })
    )

    it.effect("every domain error class carries its own status to the wire", () =>
      Effect.gen(function* () {
        const seen = new Set<number>()
        for (const [code, cls] of Object.entries(errorClasses)) {
          const response = yield* get(`/probe/fail/${code}`)
          const status = Errors.errorStatus(cls)
          seen.add(status)
          expect(response.status, code).toBe(status)
          expect(response.body, code).toEqual({ ok: false, error: code, status, safe_next_step: "probe" })
        }
        expect([...seen].sort()).toEqual([400, 401, 404, 405, 409, 413, 415, 422, 429, 500, 503])
      })
    )
  })
})
