import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { errorsPage } from "../../scripts/errorsPage.js"
import { Api } from "../../src/Api.js"
import { listenerErrors } from "../../src/Domain/Errors.js"
import { ErrorCatalogue } from "../../src/Errors/Api.js"
import { errorCatalogue } from "../../src/Errors/Catalogue.js"
import { openApiDocument } from "../../src/Http/OpenApiDocument.js"
import { mcpErrorCodes } from "../../src/Mcp/Errors.js"
import { get } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const catalogue = errorCatalogue()
const codes = catalogue.map((entry) => entry.error)

/** Every `error` value an error body of the OpenAPI document can carry. */
const documentedCodes = () => {
  const spec = openApiDocument(Api, "https://api.example.se") as any
  return Object.values<any>(spec.components.schemas).flatMap((schema) =>
    schema.properties?.ok?.enum?.[0] === false ? (schema.properties.error?.enum ?? []) : []
  )
}

describe("the error catalogue", () => {
  it("names every error of the OpenAPI document, the router's, the listener's and /mcp's, once each", () => {
    expect(new Set(codes).size).toBe(codes.length)
    expect(documentedCodes().length).toBeGreaterThanOrEqual(40)
    expect(new Set(codes)).toEqual(
      new Set([
        ...documentedCodes(),
        "not_found",
        "method_not_allowed",
        ...listenerErrors.map((error) => error.identifier),
        ...mcpErrorCodes
      ])
    )
  })

  it("gives every code its status, meaning and a recovery step", () => {
    for (const entry of catalogue) {
      expect(entry.status, entry.error).toBeGreaterThanOrEqual(400)
      expect(entry.meaning.length, entry.error).toBeGreaterThan(10)
      expect(entry.recovery.length, entry.error).toBeGreaterThan(10)
    }
    const retrySafe = catalogue.filter((entry) => entry.retry_safe).map((entry) => entry.error)
    expect(retrySafe).toEqual(
      expect.arrayContaining(["rate_limited", "database_unavailable", "booking_unavailable", "internal_error"])
    )
    expect(retrySafe).not.toContain("slot_taken")
    expect(retrySafe).not.toContain("idempotency_key_reused")
  })

  it("docs/errors.md is what `npm run docs:errors` writes", () => {
    expect(readFileSync("docs/errors.md", "utf8")).toBe(errorsPage(catalogue))
  })
})

describe("GET /api/public/errors", () => {
  it.effect("is the catalogue, without a token in production, cacheable with an ETag", () =>
    Effect.gen(function* () {
      const first = yield* get("/api/public/errors")
      expect(first.status).toBe(200)
      expect(first.body).toEqual({ ok: true, errors: catalogue })
      expect(() => Schema.decodeUnknownSync(ErrorCatalogue)(first.body)).not.toThrow()
      expect(first.headers["cache-control"]).toMatch(/^public, max-age=\d+$/)
      const again = yield* get("/api/public/errors", { "if-none-match": first.headers.etag! })
      expect(again.status).toBe(304)
    }).pipe(
      Effect.provide(
        TestServer({
          env: {
            APP_ENV: "production",
            DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
            PUBLIC_BASE_URL: "https://api.example.se",
            SERVICE_REQUESTS_API_TOKENS: "a-production-partner-token-0123456789"
          }
        })
      )
    )
  )
})
