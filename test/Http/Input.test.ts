import { connect } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, Stream } from "effect"
import { HttpClientRequest, HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { call, confirmBody, customer, get, paths, postJson, postRaw, requestBody, searchBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "partner-input-token-0123456789"
const auth = { authorization: `Bearer ${token}` }
const unstorable = "must not contain NUL or unpaired surrogate characters"

/** Every log line the app writes, as the JSON logger would print it. */
const lines: Array<string> = []
const collector = Logger.layer([
  Logger.map(Logger.formatJson, (line) => {
    lines.push(line)
  })
])

const rowCounts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ requests: number; bookings: number; keys: number }>`
    SELECT (SELECT count(*)::int FROM service_requests) AS requests, (SELECT count(*)::int FROM bookings) AS bookings,
      (SELECT count(*)::int FROM idempotency_keys) AS keys`
  return row!
})

const searchOption = Effect.gen(function* () {
  yield* TestClock.setTime(testNow)
  const response = yield* postJson(paths.search, searchBody)
  expect(response.status).toBe(200)
  const option = response.body.options[0]
  return { id: option.booking_option_id as string, terms: option.terms.version as string }
})

let keys = 0
const validConfirm = Effect.map(searchOption, (option) => confirmBody(option.id, option.terms, `input-${++keys}`))

const expectRefused = (response: { status: number; body: any }, status: number, error: string, issue: RegExp) => {
  expect(response.status, JSON.stringify(response.body)).toBe(status)
  expect(response.body).toMatchObject({ ok: false, error, status })
  expect(response.body.issues).toContainEqual(expect.stringMatching(issue))
}

const expectInvalid = (response: { status: number; body: any }, issue: RegExp) =>
  expectRefused(response, 400, "invalid_request", issue)

/** Writes raw bytes on one connection and reads until it closes or `responses` answers have come. */
const rawExchange = (bytes: ReadonlyArray<Buffer | string>, responses: number) =>
  Effect.flatMap(
    Effect.map(HttpServer.HttpServer, (server) => server.address),
    (address) =>
      Effect.callback<string>((resume) => {
        const port = address._tag === "UnixPathAddress" ? 0 : address.port
        const socket = connect(port, "127.0.0.1")
        let received = ""
        const done = () => {
          socket.destroy()
          resume(Effect.succeed(received))
        }
        socket.on("data", (chunk) => {
          received += chunk.toString("utf8")
          if ((received.match(/HTTP\/1\.1 \d{3} /g) ?? []).length >= responses && received.endsWith("}")) done()
        })
        socket.on("close", done)
        socket.on("error", (error) => resume(Effect.succeed(`${received}\nsocket error: ${error.message}`)))
        for (const chunk of bytes) socket.write(chunk)
      })
  )

describe("input PostgreSQL cannot store, and HTTP edges, are the client's 4xx", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }).pipe(Layer.provide(collector)))((it) => {
    it.effect("NUL or an unpaired surrogate anywhere in a body is 400 naming the field, and nothing is stored", () =>
      Effect.gen(function* () {
        const before = yield* rowCounts
        const confirm = yield* validConfirm
        const cases: ReadonlyArray<readonly [string, unknown, RegExp]> = [
          [paths.search, { ...searchBody, description: "Byta blandare\u0000 i köket" }, /^description: /],
          [
            paths.search,
            { ...searchBody, location: { ...searchBody.location, city: "Sto\ud800" } },
            /^location\.city: /
          ],
          [paths.search, { ...searchBody, vertical_id: "vvs\u0000" }, /^vertical_id: /],
          [paths.confirm, { ...confirm, customer: { ...customer, name: "Astrid\u0000" } }, /^customer\.name: /],
          [paths.confirm, { ...confirm, customer: { ...customer, email: "a\udc00@example.se" } }, /^customer\.email: /],
          [paths.confirm, { ...confirm, idempotency_key: "key-\u0000" }, /^idempotency_key: /],
          [
            paths.confirm,
            { ...confirm, booking_option_id: `${confirm.booking_option_id}\ud800` },
            /^booking_option_id: /
          ],
          [paths.requests, { ...requestBody, description: "Läckage under diskbänken \ud83d" }, /^description: /],
          [paths.requests, { ...requestBody, details: { "rum\u0000": "kök" } }, /^details: keys /],
          [
            paths.requests,
            { ...requestBody, details: { notes: ["ok", { text: "\udfff" }] } },
            /^details\.notes\.1\.text: /
          ],
          [paths.requests, { ...requestBody, idempotency_key: "\u0000" }, /^idempotency_key: /],
          [paths.requests, { ...requestBody, "\ud800": 1 }, /^body: keys /]
        ]
        for (const [path, body, issue] of cases) {
          const response = yield* postJson(path, body, auth)
          expectInvalid(response, new RegExp(`${issue.source}.*${unstorable}$`))
        }
        expect(yield* rowCounts).toEqual(before)
      })
    )

    it.effect("a path parameter PostgreSQL cannot store, or a path that is not percent-encoded UTF-8, is 400", () =>
      Effect.gen(function* () {
        expectInvalid(yield* get(paths.status("%00"), auth), new RegExp(`^booking_id: ${unstorable}$`))
        expectInvalid(yield* get(paths.status("bkg_%00x"), auth), /^booking_id: /)
        for (const bad of ["%ZZ", "%E0%A4%A", "%ED%A0%80", "%", "abc%C3"]) {
          const response = yield* get(paths.status(bad), auth)
          expectInvalid(response, /^path: must be valid percent-encoded UTF-8$/)
        }
        expectInvalid(yield* get("/api/public/requests/capabilities%ZZ"), /^path: /)
        const unknown = yield* get("/api/public/nothing-here/%C3%A5")
        expect(unknown.status).toBe(404)
        const found = yield* get(paths.status("bkg_%C3%A5%F0%9F%98%80"), auth)
        expect(found.body).toMatchObject({ ok: true, found: false, booking_id: "bkg_å😀" })
      })
    )

    it.effect("a header Node cannot parse (NUL in Idempotency-Key) is 400 with the contract's body", () =>
      Effect.gen(function* () {
        const body = JSON.stringify(requestBody)
        const answer = yield* rawExchange(
          [
            `POST ${paths.requests} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${token}\r\n`,
            Buffer.from([...Buffer.from("Idempotency-Key: key-"), 0, ...Buffer.from("1\r\n")]),
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
          ],
          1
        )
        expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
        const response = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))
        expect(response).toMatchObject({ ok: false, error: "invalid_request", status: 400 })
        expect(response.issues).toEqual([expect.stringMatching(/^request: is not valid HTTP\/1\.1 /)])
      })
    )

    it.effect("a query string the API does not read cannot break a request", () =>
      Effect.gen(function* () {
        expect((yield* get(`${paths.capabilities}?x=%ZZ&%00=%ED%A0%80`)).status).toBe(200)
      })
    )

    it.effect("JSON nested deeper than 32 levels is 400 naming the body; 32 levels pass to the schema", () =>
      Effect.gen(function* () {
        const nest = (levels: number): unknown => (levels === 0 ? "botten" : { level: nest(levels - 1) })
        const deep = yield* postJson(paths.requests, { ...requestBody, details: nest(32) }, auth)
        expectInvalid(deep, /^body: must not nest more than 32 levels deep$/)
        const deepest = yield* postRaw(paths.search, `${"[".repeat(3000)}${"]".repeat(3000)}`, "application/json")
        expectInvalid(deepest, /^body: must not nest more than 32 levels deep$/)
        // 32 levels pass the body check and reach the schema, whose own bound on details is tighter.
        const deepEnough = yield* postJson(paths.requests, { ...requestBody, details: nest(31) }, auth)
        expectInvalid(deepEnough, /^details: must be nested at most 4 levels deep$/)
        const withinDetails = yield* postJson(paths.requests, { ...requestBody, details: nest(4) }, auth)
        expect(withinDetails.status, JSON.stringify(withinDetails.body)).toBe(201)
      })
    )

    it.effect("a body that is not JSON is 415 by its content type or 400 malformed_json by its bytes, never 500", () =>
      Effect.gen(function* () {
        const multipart = '--nope\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--nope--\r\n'
        for (const [body, contentType] of [
          [multipart, "multipart/form-data; boundary=wrong"],
          [multipart, "multipart/form-data"],
          ["description=kort", "application/x-www-form-urlencoded"],
          [JSON.stringify(searchBody), "text/plain"],
          [JSON.stringify(searchBody), "application/octet-stream"],
          [JSON.stringify(searchBody), "application/jsonx"]
        ] as const) {
          const response = yield* postRaw(paths.search, body, contentType)
          expectRefused(response, 415, "unsupported_media_type", /^content-type: must be application\/json, got /)
        }
        const bytes = Buffer.from('{"description":"\xff\xfe"}', "latin1")
        const notUtf8 = yield* call(
          HttpClientRequest.post(paths.search).pipe(HttpClientRequest.bodyUint8Array(bytes, "application/json"))
        )
        expectRefused(notUtf8, 400, "malformed_json", /^body: is not valid UTF-8$/)
        expectRefused(yield* postRaw(paths.search, "", "application/json"), 400, "malformed_json", /^body: is empty$/)
        const confirmForm = yield* postRaw(paths.confirm, "a=b", "application/x-www-form-urlencoded", auth)
        expectRefused(confirmForm, 415, "unsupported_media_type", /^content-type: /)
      })
    )

    it.effect("a chunked body over 1 MB is 413 with the error body, and the connection stays usable", () =>
      Effect.gen(function* () {
        const chunk = new Uint8Array(64 * 1024).fill(0x20)
        const streamed = yield* call(
          HttpClientRequest.post(paths.search).pipe(
            HttpClientRequest.bodyStream(Stream.make(...Array.from({ length: 24 }, () => chunk)), {
              contentType: "application/json"
            })
          )
        )
        expectRefused(streamed, 413, "payload_too_large", /^body: must be at most 1048576 bytes$/)

        const piece = `${(64 * 1024).toString(16)}\r\n${" ".repeat(64 * 1024)}\r\n`
        const answer = yield* rawExchange(
          [
            "POST /api/public/booking-options HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            ...Array.from({ length: 24 }, () => piece),
            "0\r\n\r\n",
            "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
          ],
          2
        )
        expect(answer).toMatch(/^HTTP\/1\.1 413 /)
        expect(answer).toContain('"error":"payload_too_large"')
        expect(answer).toMatch(/HTTP\/1\.1 200 OK[\s\S]*\{"ok":true\}$/)
      })
    )

    it.effect("a client that goes away in the middle of a body leaves the server answering", () =>
      Effect.gen(function* () {
        const port = yield* Effect.flatMap(
          Effect.map(HttpServer.HttpServer, (server) => server.address),
          (address) => Effect.succeed(address._tag === "UnixPathAddress" ? 0 : address.port)
        )
        yield* Effect.callback<void>((resume) => {
          const socket = connect(port, "127.0.0.1", () => {
            socket.write(`POST ${paths.search} HTTP/1.1\r\nHost: test\r\nContent-Length: 5000\r\n\r\n{"vertical_id":`)
            setImmediate(() => {
              socket.destroy()
              resume(Effect.void)
            })
          })
        })
        expect((yield* get("/healthz")).status).toBe(200)
        expect((yield* postJson(paths.search, searchBody)).status).toBe(200)
      })
    )

    it.effect("lengths count characters (code points), and whitespace alone is blank, even in optional fields", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const emoji = yield* postJson(paths.search, { ...searchBody, description: "🚰".repeat(2600) })
        expect(emoji.status, JSON.stringify(emoji.body)).toBe(200)
        const tooMany = yield* postJson(paths.search, { ...searchBody, description: "🚰".repeat(5001) })
        expectInvalid(tooMany, /^description: Expected a string at most 5000 character\(s\) long$/)
        const blank = yield* postJson(paths.search, { ...searchBody, description: " ".repeat(12) })
        expectInvalid(blank, /^description: must not be blank$/)
        const confirm = yield* validConfirm
        const blankName = yield* postJson(
          paths.confirm,
          { ...confirm, customer: { ...customer, name: "\t \n " } },
          auth
        )
        expectInvalid(blankName, /^customer\.name: must not be blank$/)
        const blankOptional = yield* postJson(paths.requests, { ...requestBody, consent_source: "   " }, auth)
        expectInvalid(blankOptional, /^consent_source: must not be blank$/)
        const blankCity = yield* postJson(paths.search, {
          ...searchBody,
          location: { ...searchBody.location, city: "\u3000\u3000" }
        })
        expectInvalid(blankCity, /^location\.city: must not be blank$/)
      })
    )

    it.effect("every date-time input is a real calendar instant with an offset, on every endpoint", () =>
      Effect.gen(function* () {
        const confirm = yield* validConfirm
        for (const bad of [
          "1",
          "2026-02-30T05:59:00Z",
          "2026-11-23T24:00:00Z",
          "2026-11-23T08:59:00",
          "2026-13-01T00:00Z"
        ]) {
          const request = yield* postJson(paths.requests, { ...requestBody, consent_collected_at: bad }, auth)
          expectInvalid(request, /^consent_collected_at: must be a real date-time with an offset/)
          const accepted = yield* postJson(paths.confirm, { ...confirm, booking_terms_accepted_at: bad }, auth)
          expectInvalid(accepted, /^booking_terms_accepted_at: must be a real date-time with an offset/)
          const collected = yield* postJson(paths.confirm, { ...confirm, consent_collected_at: bad }, auth)
          expectInvalid(collected, /^consent_collected_at: must be a real date-time with an offset/)
        }
      })
    )

    it.effect("request creation refuses the time zones search refuses", () =>
      Effect.gen(function* () {
        for (const zone of ["Mars/Phobos", "+01:00", "  "]) {
          expectInvalid(yield* postJson(paths.search, { ...searchBody, timezone: zone }), /^timezone: /)
          expectInvalid(yield* postJson(paths.requests, { ...requestBody, timezone: zone }, auth), /^timezone: /)
        }
        const stockholm = yield* postJson(paths.requests, { ...requestBody, timezone: "Europe/Stockholm" }, auth)
        expect(stockholm.status).toBe(201)
      })
    )

    it.effect("every 405 says which methods the path allows, every 401 how to authenticate", () =>
      Effect.gen(function* () {
        const wrongMethod = yield* postJson(paths.capabilities, {})
        expect(wrongMethod.status).toBe(405)
        expect(wrongMethod.headers.allow).toBe("GET, HEAD")
        expect((yield* call(HttpClientRequest.head(paths.capabilities))).status).toBe(200)
        const deleteBookings = yield* call(HttpClientRequest.delete(paths.confirm))
        expect(deleteBookings.status).toBe(405)
        expect(deleteBookings.headers.allow).toBe("POST, GET, HEAD")
        for (const response of [
          yield* postJson(paths.confirm, {}),
          yield* get(paths.status("bkg_x"), { authorization: "Bearer wrong-token-0123456789" }),
          yield* postJson(paths.requests, requestBody, { "x-service-requests-token": "nope" })
        ]) {
          expect(response.status).toBe(401)
          expect(response.headers["www-authenticate"]).toBe('Bearer realm="booking-api"')
        }
        expect((yield* get(paths.capabilities)).headers["www-authenticate"]).toBeUndefined()
      })
    )

    it.effect("personal data with NUL or surrogates inside never reaches a log", () =>
      Effect.gen(function* () {
        lines.length = 0
        const secrets = {
          name: "Ingrid\u0000Bergman",
          phone: "+46 70 999\ud800 88 77",
          email: "ingrid.bergman\u0000@example.se",
          address: "Strandvägen\udc00 7A"
        }
        const person = { name: secrets.name, phone: secrets.phone, email: secrets.email }
        const confirm = yield* validConfirm
        const bodies: ReadonlyArray<readonly [string, unknown]> = [
          [paths.confirm, { ...confirm, customer: person }],
          [paths.confirm, { ...confirm, service_location: { ...confirm.service_location, address: secrets.address } }],
          [paths.requests, { ...requestBody, customer: person, location: { address: secrets.address } }],
          [paths.requests, { ...requestBody, details: { [secrets.name]: secrets.phone, address: secrets.address } }],
          [paths.search, { ...searchBody, description: `${secrets.name} ${secrets.phone} ${secrets.address}` }]
        ]
        for (const [path, body] of bodies) expect((yield* postJson(path, body, auth)).status).toBe(400)
        expect((yield* get(paths.status(encodeURIComponent("Ingrid Bergman\u0000")), auth)).status).toBe(400)
        const log = lines.join("\n")
        expect(log).toContain('"status":400')
        // Parts of the phone with their spaces: a bare "999" also turns up in random request ids.
        for (const part of ["Ingrid", "Bergman", "70 999", "88 77", "example.se", "Strandvägen", "7A"]) {
          expect(log).not.toContain(part)
        }
      })
    )
  })
})
