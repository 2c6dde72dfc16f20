import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import { confirmBody, paths, postJson, requestBody, searchBody } from "../support/Http.js"
import { binaryString, fc, propSettings } from "../support/Props.js"
import { TestServer, testNow } from "../support/Server.js"

// 2,000 hostile bodies on every npm test (about 3 s at 1.5 ms a request), drawn from a new seed each run;
// 40,000 in the deep run (`npm run test:props`); the timeout allows 40 ms a request, for a machine under load.
const settings = propSettings("no request gets a 5xx", { quick: 2000, deep: 40_000 }, 40)

const token = "partner-fuzz-token-0123456789"

const nest = (levels: number): unknown => (levels === 0 ? "x" : { a: nest(levels - 1) })

const nastyString = fc.oneof(
  fc.string(),
  binaryString({ maxLength: 30 }),
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

interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: any
}

/**
 * A bare node:http client on one kept-alive connection: per body it costs a fraction of a typed
 * client's request, and the bodies' answers are what this property measures.
 */
const sender = (port: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const send = (probe: Probe) =>
    new Promise<Answer>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...probe.headers }
      if (probe.body !== undefined) {
        headers["content-type"] = probe.body.contentType
        headers["content-length"] = Buffer.byteLength(probe.body.text)
      }
      const request = httpRequest(
        { host: "127.0.0.1", port, method: probe.method, path: probe.path, agent, headers },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("error", reject)
          response.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8")
            let body: unknown = text
            try {
              body = text === "" ? undefined : JSON.parse(text)
            } catch {}
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body })
          })
        }
      )
      request.on("error", reject)
      request.end(probe.body?.text)
    })
  return { send, close: () => agent.destroy() }
}

/** What an answer breaks of the contract, or undefined; the message is built only for a failure. */
const breach = (answer: Answer): string | undefined => {
  if (answer.status >= 500) return "a 5xx"
  if (answer.status < 300) return undefined
  const body = answer.body
  if (typeof body !== "object" || body === null || body.ok !== false || body.status !== answer.status)
    return "not the contract's error body with its own status"
  if (typeof body.error !== "string" || !/^[a-z_]+$/.test(body.error)) return "no error code"
  if (answer.status === 400 && !(Array.isArray(body.issues) && body.issues.length > 0)) return "a 400 without issues"
  if (answer.status === 401 && answer.headers["www-authenticate"] === undefined) return "a 401 without WWW-Authenticate"
  if (answer.status === 405 && answer.headers.allow === undefined) return "a 405 without Allow"
  return undefined
}

describe("fuzzing every endpoint", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect(
      "no request gets a 5xx; every error has the contract's body with its own status, every 400 its issues",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const search = yield* postJson(paths.search, searchBody)
          const option = { id: search.body.options[0].booking_option_id, terms: search.body.options[0].terms.version }
          const address = (yield* HttpServer.HttpServer).address
          if (address._tag === "UnixPathAddress") return yield* Effect.die("the test server has no TCP address")
          const client = sender(address.port)
          yield* Effect.addFinalizer(() => Effect.sync(client.close))
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(probes(option), async (probe) => {
                const answer = await client.send(probe)
                const broken = breach(answer)
                if (broken !== undefined) {
                  expect.fail(
                    `${broken}: ${probe.method} ${probe.path} -> ${answer.status} ${JSON.stringify(answer.body)}`
                  )
                }
              }),
              settings.parameters
            )
          )
        }).pipe(Effect.scoped),
      // A stuck request fails the test rather than waiting out the harness's generous default.
      settings.timeout
    )
  })
})
