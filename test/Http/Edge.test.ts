import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { type HttpClient, HttpServer } from "effect/http"
import { vi } from "vitest"
import { jsonLogger } from "../../src/Http/Logging.js"
import { getText, postHead, rawConnect, searchBodyFor, statusOf } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const search = JSON.stringify(searchBodyFor("nästa vecka", "118 25"))

const portOf = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "UnixPathAddress" ? 0 : server.address.port
)

interface RawAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
}

/** One request over its own connection, as written, and the answer's status and headers. */
const exchange = (port: number, request: string) =>
  Effect.promise(async (): Promise<RawAnswer> => {
    const connection = await rawConnect(port)
    connection.socket.write(request)
    // vi.waitFor's default second is less than a search takes on a loaded machine; the test timeout bounds it.
    await vi.waitFor(() => expect(connection.received()).toMatch(/\r\n\r\n/), { timeout: 20_000 })
    connection.socket.destroy()
    const text = connection.received()
    const head = text.slice(0, text.indexOf("\r\n\r\n")).split("\r\n").slice(1)
    const headers = Object.fromEntries(
      head.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()])
    )
    return { status: statusOf(text), headers }
  })

const searchFrom = (forwardedFor: string) =>
  `POST /api/public/booking-options HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(search)}\r\nX-Forwarded-For: ${forwardedFor}\r\nConnection: close\r\n\r\n${search}`

const get = (path: string, headers = "") => `GET ${path} HTTP/1.1\r\nHost: test\r\n${headers}Connection: close\r\n\r\n`

/** The value of one series in a /metrics text, 0 when absent (the registry is the process's). */
const seriesValue = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

describe("the client address behind a proxy on loopback (TRUST_PROXY=loopback)", () => {
  it.layer(TestServer({ env: { TRUST_PROXY: "loopback", RATE_LIMIT_SEARCH_PER_MINUTE: "3" } }))((it) => {
    it.effect("is the rightmost hop the proxy appended: a client rotating a forged leftmost hop is one client", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const rotating = yield* Effect.forEach([1, 2, 3, 4, 5], (n) =>
          exchange(port, searchFrom(`198.51.100.${n}, 203.0.113.7`))
        )
        expect(rotating.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429])
        // Another client behind the same proxy has its own budget.
        expect((yield* exchange(port, searchFrom("203.0.113.8"))).status).toBe(200)
      })
    )
  })
})

describe("without TRUST_PROXY", () => {
  it.layer(TestServer({ env: { RATE_LIMIT_SEARCH_PER_MINUTE: "2" } }))((it) => {
    it.effect("X-Forwarded-For is the client's to write and is not read: the socket's address is the client", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const answers = yield* Effect.forEach(["203.0.113.1", "203.0.113.2", "203.0.113.3"], (hop) =>
          exchange(port, searchFrom(hop))
        )
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429])
      })
    )
  })
})

describe("headers of every answer", () => {
  it.layer(TestServer())((it) => {
    it.effect(
      "API answers and errors say Cache-Control: no-store and nosniff; the cacheable documents keep their caching and ETag",
      () =>
        Effect.gen(function* () {
          const port = yield* portOf
          const answers = {
            search: yield* exchange(port, searchFrom("203.0.113.1")),
            status: yield* exchange(port, get("/api/public/bookings/00000000-0000-4000-8000-000000000000")),
            unknownRoute: yield* exchange(port, get("/nowhere")),
            malformed: yield* exchange(
              port,
              "POST /api/public/booking-options HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 1\r\nConnection: close\r\n\r\n{"
            ),
            healthz: yield* exchange(port, get("/healthz"))
          }
          expect(Object.values(answers).map((answer) => answer.status)).toEqual([200, 200, 404, 400, 200])
          for (const answer of Object.values(answers)) {
            expect(answer.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" })
          }
          for (const path of ["/api/public/requests/capabilities", "/openapi.json", "/docs"]) {
            const document = yield* exchange(port, get(path))
            expect(document.status, path).toBe(200)
            expect(document.headers, path).toMatchObject({
              "cache-control": "public, max-age=60",
              etag: expect.stringMatching(/^"/),
              "x-content-type-options": "nosniff"
            })
            const unchanged = yield* exchange(port, get(path, `If-None-Match: ${document.headers.etag}\r\n`))
            expect(unchanged.status, path).toBe(304)
            expect(unchanged.headers["cache-control"], path).toBe("public, max-age=60")
          }
        })
    )
  })
})

describe("a request the client aborts", () => {
  const lines: Array<string> = []
  const collector = Logger.layer([
    Logger.map(jsonLogger, (line) => {
      lines.push(line)
    })
  ])

  it.layer(TestServer().pipe(Layer.provide(collector)))((it) => {
    it.effect("is counted and logged as 499, never as a 500", () =>
      Effect.gen(function* () {
        const port = yield* portOf
        const context = yield* Effect.context<HttpClient.HttpClient>()
        const series = (status: number) =>
          `http_requests_total{route="/api/public/booking-options",method="POST",status="${status}"}`
        const before = (yield* getText("/metrics")).text
        lines.length = 0
        const aborted = 5
        yield* Effect.promise(() =>
          Promise.all(
            Array.from({ length: aborted }, async () => {
              const upload = await rawConnect(port)
              upload.socket.write(postHead("/api/public/booking-options", 1000))
              // The server holds the request (100 Continue) before half the body is sent and the client leaves.
              await vi.waitFor(() => expect(upload.received()).toMatch(/^HTTP\/1\.1 100 Continue/))
              upload.socket.write(search.slice(0, 40))
              upload.socket.destroy()
            })
          )
        )
        const added = (text: string, status: number) =>
          seriesValue(text, series(status)) - seriesValue(before, series(status))
        yield* Effect.promise(() =>
          vi.waitFor(
            async () => {
              const now = await Effect.runPromise(Effect.provide(getText("/metrics"), context))
              expect({ 499: added(now.text, 499), 500: added(now.text, 500) }).toEqual({ 499: aborted, 500: 0 })
            },
            { timeout: 10_000, interval: 50 }
          )
        )
        const accessLines = lines
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .filter((entry) => entry.msg === "request" && entry.route === "/api/public/booking-options")
        expect(accessLines.map((entry) => entry.status)).toEqual(Array(aborted).fill(499))
        expect(lines.filter((line) => /"level":"(error|fatal)"/.test(line))).toEqual([])
      })
    )
  })
})
