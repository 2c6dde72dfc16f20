import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { chooseCoding, compressionThresholdBytes, makeDocument } from "../../src/Http/DocumentCache.js"
import { get } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

/** The bytes exactly as sent, without any decoding by the client. */
const raw = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(HttpClient.HttpClient, (client) =>
    client.execute(HttpClientRequest.get(path).pipe(HttpClientRequest.setHeaders(headers)))
  ).pipe(
    Effect.flatMap((response) =>
      Effect.map(response.arrayBuffer, (body) => ({
        status: response.status,
        headers: response.headers,
        body: Buffer.from(body)
      }))
    ),
    Effect.scoped,
    Effect.orDie
  )

const documents = ["/openapi.json", "/docs", "/api/public/requests/capabilities"]

/** Every value in a JSON document that is a schema with an untyped open index signature. */
const untypedAdditional = (value: unknown, path = "$"): Array<string> => {
  if (value === null || typeof value !== "object") return []
  const own =
    !Array.isArray(value) &&
    "additionalProperties" in value &&
    typeof value.additionalProperties === "object" &&
    value.additionalProperties !== null &&
    !("type" in value.additionalProperties) &&
    !("$ref" in value.additionalProperties) &&
    !("anyOf" in value.additionalProperties)
      ? [path]
      : []
  return [...own, ...Object.entries(value).flatMap(([key, child]) => untypedAdditional(child, `${path}.${key}`))]
}

describe("documents: /openapi.json, /docs and capabilities", () => {
  it.layer(TestServer())((it) => {
    it.effect("are compressed as the client accepts (brotli first, then gzip), and decode to the same bytes", () =>
      Effect.gen(function* () {
        for (const path of documents) {
          const plain = yield* raw(path)
          expect(plain.status).toBe(200)
          expect(plain.headers["content-encoding"], path).toBeUndefined()
          expect(plain.headers.vary).toBe("Accept-Encoding")
          expect(plain.body.byteLength).toBeGreaterThan(compressionThresholdBytes)

          const brotli = yield* raw(path, { "accept-encoding": "gzip, deflate, br" })
          expect(brotli.headers["content-encoding"], path).toBe("br")
          expect(brotli.body.byteLength).toBeLessThan(plain.body.byteLength / 4)
          expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true)

          const gzip = yield* raw(path, { "accept-encoding": "gzip;q=1, br;q=0.5" })
          expect(gzip.headers["content-encoding"], path).toBe("gzip")
          expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true)

          const refused = yield* raw(path, { "accept-encoding": "br;q=0, gzip;q=0" })
          expect(refused.headers["content-encoding"]).toBeUndefined()
          expect(refused.body.equals(plain.body)).toBe(true)

          expect(new Set([plain.headers.etag, brotli.headers.etag, gzip.headers.etag]).size, path).toBe(3)
        }
      })
    )

    it.effect("answer 304 to an If-None-Match holding any coding's ETag, and 200 to a stale one", () =>
      Effect.gen(function* () {
        for (const path of documents) {
          const plain = yield* raw(path)
          const brotli = yield* raw(path, { "accept-encoding": "br" })
          expect(plain.headers["cache-control"]).toBe("public, max-age=60")
          for (const tag of [plain.headers.etag!, brotli.headers.etag!, `W/${plain.headers.etag}`, "*"]) {
            const revalidated = yield* raw(path, { "if-none-match": `"stale", ${tag}`, "accept-encoding": "br" })
            expect(revalidated.status, `${path} ${tag}`).toBe(304)
            expect(revalidated.body.byteLength).toBe(0)
            expect(revalidated.headers.vary).toBe("Accept-Encoding")
          }
          const stale = yield* raw(path, { "if-none-match": '"not-this-one"' })
          expect(stale.status).toBe(200)
          expect(stale.body.equals(plain.body)).toBe(true)
        }
      })
    )

    it.effect("the docs page names no resource outside the server, and tells the browser to load none", () =>
      Effect.gen(function* () {
        const docs = yield* raw("/docs")
        const html = docs.body.toString("utf8")
        expect(docs.headers["content-type"]).toBe("text/html; charset=utf-8")
        expect(docs.headers["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/)
        const references = [...html.matchAll(/\b(?:src|href|action)\s*=\s*"([^"]*)"/gi)].map((match) => match[1]!)
        expect(references.length).toBeGreaterThan(10)
        expect(references.filter((reference) => !/^(#|\/(?!\/))/.test(reference))).toEqual([])
        expect(html).not.toMatch(/<script|<link|@import|url\(/i)
        expect(html).toContain("<title>Home-service booking API (Sweden)</title>")
        const openapi = yield* get("/openapi.json")
        for (const [path, operations] of Object.entries<Record<string, unknown>>(openapi.body.paths)) {
          for (const method of Object.keys(operations)) {
            expect(html, `${method} ${path}`).toContain(`${method.toUpperCase()}</span> <code>${path}</code>`)
          }
        }
        expect(docs.body.byteLength).toBeLessThan(300_000)
      })
    )

    it.effect("the OpenAPI document types every open object, so no example shows a propertyName*: null", () =>
      Effect.gen(function* () {
        const openapi = yield* get("/openapi.json")
        expect(untypedAdditional(openapi.body)).toEqual([])
        expect(JSON.stringify(openapi.body)).not.toContain("/schemas/unknown")
        const capabilities = openapi.body.components.schemas.Capabilities
        for (const key of ["lifecycle", "auth", "idempotency", "agent_contract", "geographic_scope"]) {
          expect(capabilities.properties[key].additionalProperties, key).toBe(false)
        }
      })
    )
  })

  it("chooses the coding by q-value, brotli on a tie, * for codings not named, identity when none is acceptable", () => {
    const both = ["identity", "br", "gzip"] as const
    expect(chooseCoding(undefined, both)).toBe("identity")
    expect(chooseCoding("", both)).toBe("identity")
    expect(chooseCoding("gzip, br", both)).toBe("br")
    expect(chooseCoding("GZIP;q=0.9, br;q=0.8", both)).toBe("gzip")
    expect(chooseCoding("*", both)).toBe("br")
    expect(chooseCoding("br;q=0, *;q=0.1", both)).toBe("gzip")
    expect(chooseCoding("x-gzip", both)).toBe("gzip")
    expect(chooseCoding("deflate, compress", both)).toBe("identity")
    expect(chooseCoding("br;q=0, gzip;q=0", both)).toBe("identity")
    expect(chooseCoding("gzip, br", ["identity"])).toBe("identity")
  })

  it("a document below the threshold is kept only as it is", () => {
    expect(Object.keys(makeDocument("{}", "application/json").bodies)).toEqual(["identity"])
    expect(Object.keys(makeDocument("x".repeat(compressionThresholdBytes), "text/plain").bodies).sort()).toEqual([
      "br",
      "gzip",
      "identity"
    ])
  })

  it("a body is compressed once per process: the same body and type give the same document", () => {
    const body = `{"made":"${"once ".repeat(400)}"}`
    const first = makeDocument(body, "application/json")
    expect(makeDocument(body, "application/json")).toBe(first)
    expect(makeDocument(new TextEncoder().encode(body), "application/json")).toBe(first)
    const asText = makeDocument(body, "text/plain")
    expect(asText).not.toBe(first)
    expect(asText.contentType).toBe("text/plain")
    expect(asText.bodies.br).toEqual(first.bodies.br)
  })
})
