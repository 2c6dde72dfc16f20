import { type HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Runtime, TestClock } from "effect"
import { confirmBody, paths, requestBody, searchBody } from "./support/Bodies.js"
import { fc, propSettings } from "./support/FastCheck.js"
import { call, postJson, TestServerLive, testNow } from "./support/TestServer.js"

// 10,000 hostile bodies on every npm test (about 30 s at 3 ms a request; the timeout allows 40 ms, for a machine under load): the truth of every error is the point.
const settings = propSettings("no request gets a 5xx", { quick: 10_000, deep: 20_000 }, 40)

const token = "partner-fuzz-token-0123456789"

const nest = (levels: number): unknown => (levels === 0 ? "x" : { a: nest(levels - 1) })

const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc
    .tuple(fc.string(), fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff"), fc.string())
    .map((parts) => parts.join("")),
  fc.constantFrom(
    "",
    " ".repeat(12),
    "\t\n\u00a0\u3000",
    "🚰".repeat(2600),
    "🚰".repeat(5001),
    "x".repeat(24_001),
    "2026-02-30T05:59:00Z",
    "2026-11-23T24:00:00+01:00",
    "1",
    "Mars/Phobos",
    "111 22",
    "vvs",
    "moving"
  )
)

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 1e-320, 10_000_001, -1, 0, true, false, null, [], {}),
  fc.double(),
  fc.integer({ min: 1, max: 300 }).map(nest),
  fc.anything({ maxDepth: 3 }),
  fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })
)

type Json = Record<string, unknown>

/** The paths of every field and object of a body: what a mutation can replace, drop or add to. */
const fieldPaths = (value: unknown, path: ReadonlyArray<string> = []): Array<ReadonlyArray<string>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? [path, ...Object.entries(value).flatMap(([key, child]) => fieldPaths(child, [...path, key]))]
    : [path]

const mutate = (
  body: Json,
  path: ReadonlyArray<string>,
  change: "replace" | "drop" | "add",
  value: unknown,
  key: string
) => {
  const copy: Json = structuredClone(body)
  if (path.length === 0) return change === "add" ? { ...copy, [key]: value } : value
  let parent: Json = copy
  for (const step of path.slice(0, -1)) parent = parent[step] as Json
  const last = path[path.length - 1]!
  if (change === "drop") delete parent[last]
  else if (change === "add" && typeof parent[last] === "object" && parent[last] !== null)
    (parent[last] as Json)[key] = value
  else parent[last] = value
  return copy
}

/** A valid body broken at one field: replaced by a nasty value, dropped, or given a stray key. */
const nearValid = (valid: Json) =>
  fc
    .record({
      path: fc.constantFrom(...fieldPaths(valid)),
      change: fc.constantFrom("replace" as const, "replace" as const, "drop" as const, "add" as const),
      value: nastyValue,
      key: nastyString
    })
    .map(({ path, change, value, key }) => mutate(valid, path, change, value, key))

const fullSearch: Json = {
  ...searchBody,
  spec_version: "public_bookings_api_v1",
  location: { ...searchBody.location, city: "Stockholm" },
  details: { area_sqm: 40 },
  locale: "sv-SE",
  timezone: "Europe/Stockholm"
}

// Built once: a confirm's body is built anew for every idempotency key, and building these is not cheap.
const anything = fc.anything()
const jsonValue = fc.jsonValue()

const anyBody = (valid: ReadonlyArray<Json>) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...valid).chain(nearValid) },
    { weight: 1, arbitrary: fc.constantFrom(...valid) },
    { weight: 1, arbitrary: anything },
    { weight: 1, arbitrary: jsonValue }
  )

interface Probe {
  readonly method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH"
  readonly path: string
  readonly body?: { readonly text: string; readonly contentType: string }
  readonly headers: Readonly<Record<string, string>>
}

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant("application/json") },
  fc.constantFrom(
    "application/json; charset=utf-8",
    "text/plain",
    "multipart/form-data; boundary=nope",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
    "application/octet-stream"
  )
)

const rawText = fc.oneof(
  fc.string(),
  fc.constantFrom("", "{", '{"a":', "[".repeat(5000), "--nope\r\n\r\nx\r\n--nope--", "a=b&c=%ZZ")
)

const headers = fc.record(
  {
    authorization: fc.oneof(
      { weight: 18, arbitrary: fc.constant(`Bearer ${token}`) },
      fc.constant("Bearer wrong-token-0123456789"),
      fc.constant("Basic eDp5")
    ),
    "idempotency-key": fc.oneof(
      fc.string({ unit: "binary-ascii", maxLength: 220 }).map((s) => s.replace(/[^\x21-\x7e]/g, "k")),
      fc.constant("x".repeat(201))
    )
  },
  { requiredKeys: ["authorization"] }
)

const badPercent = fc.constantFrom("%ZZ", "%E0%A4%A", "%00", "%ED%A0%80", "%", "%%", "%C3", "%2F%00", "%F4%90%80%80")

const safeEncode = (s: string) => {
  try {
    return encodeURIComponent(s)
  } catch {
    return "%ED%A0%80"
  }
}

const probes = (option: { readonly id: string; readonly terms: string }): fc.Arbitrary<Probe> => {
  const post = (path: string, valid: ReadonlyArray<Json>) =>
    fc
      .record({
        json: anyBody(valid),
        raw: fc.oneof({ weight: 1, arbitrary: rawText }, { weight: 9, arbitrary: fc.constant(undefined) }),
        contentType,
        headers
      })
      .map(
        ({ json, raw, contentType, headers }): Probe => ({
          method: "POST",
          path,
          headers,
          body: { text: raw ?? JSON.stringify(json) ?? "", contentType }
        })
      )
  const keyed = fc.string({ minLength: 1, maxLength: 12 }).map((key) => confirmBody(option.id, option.terms, key))
  return fc.oneof(
    post(paths.search, [searchBody, fullSearch]),
    keyed.chain((confirm) => post(paths.confirm, [confirm, { ...confirm, spec_version: "public_bookings_api_v1" }])),
    post(paths.requests, [requestBody, { ...requestBody, timezone: "Europe/Stockholm", locale: "sv-SE" }]),
    fc
      .record({
        id: fc.oneof(nastyString.map(safeEncode), badPercent, fc.constant(option.id.slice(0, 40))),
        headers
      })
      .map(({ id, headers }): Probe => ({ method: "GET", path: paths.status(id), headers })),
    fc
      .record({
        query: fc.oneof(
          fc.constant(""),
          badPercent.map((bad) => `?q=${bad}`)
        ),
        headers
      })
      .map(({ query, headers }): Probe => ({ method: "GET", path: `${paths.capabilities}${query}`, headers })),
    fc
      .record({
        method: fc.constantFrom("GET" as const, "PUT" as const, "DELETE" as const, "PATCH" as const),
        path: fc.constantFrom(paths.search, paths.confirm, paths.requests, paths.capabilities, paths.status("x")),
        headers
      })
      .map((probe): Probe => probe)
  )
}

const send = (probe: Probe) =>
  call(
    HttpClientRequest.make(probe.method)(probe.path).pipe(
      HttpClientRequest.setHeaders(probe.headers),
      probe.body === undefined
        ? (request) => request
        : HttpClientRequest.bodyText(probe.body.text, probe.body.contentType)
    )
  )

const keepAliveClient = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: true }))
)

describe("fuzzing every endpoint", () => {
  it.layer(TestServerLive({ SERVICE_REQUESTS_API_TOKENS: token }))((it) => {
    it.effect(
      "no request gets a 5xx; every error has the contract's body with its own status, every 400 its issues",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const search = yield* postJson(paths.search, searchBody)
          const option = { id: search.body.options[0].booking_option_id, terms: search.body.options[0].terms.version }
          // Connections kept alive: a new TCP connection per body cost more than most bodies' answers.
          const client = yield* Layer.build(keepAliveClient)
          const run = Runtime.runPromise(yield* Effect.runtime<HttpClient.HttpClient>().pipe(Effect.provide(client)))
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(probes(option), (probe) =>
                run(
                  Effect.map(send(probe), (response) => {
                    const seen = `${probe.method} ${probe.path} -> ${response.status} ${JSON.stringify(response.body)}`
                    expect(response.status, seen).toBeLessThan(500)
                    if (response.status < 300) return
                    expect(response.body, seen).toMatchObject({ ok: false, status: response.status })
                    expect(response.body.error, seen).toMatch(/^[a-z_]+$/)
                    if (response.status === 400) expect(response.body.issues, seen).not.toHaveLength(0)
                    if (response.status === 401) expect(response.headers["www-authenticate"], seen).toBeDefined()
                    if (response.status === 405) expect(response.headers.allow, seen).toBeDefined()
                  })
                )
              ),
              settings.parameters
            )
          )
        }).pipe(Effect.scoped),
      // A stuck request fails the test rather than waiting out the harness's generous default.
      settings.timeout
    )
  })
})
