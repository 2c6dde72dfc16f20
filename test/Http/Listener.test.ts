import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Scope } from "effect"
import { HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { TestClock } from "effect/testing"
import { vi } from "vitest"
import { addressShareOf, type ListenerOptions, listen } from "../../src/Http/Listener.js"
import { connectOutcome, rawConnect, statusOf } from "../support/Http.js"

const defaults: ListenerOptions = {
  host: "127.0.0.1",
  port: 0,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1000,
  maxConnectionsPerAddress: 1000,
  shutdownGraceMs: 10_000
}

const portOf = (context: Context.Context<HttpServer.HttpServer>) => {
  const address = Context.get(context, HttpServer.HttpServer).address
  return address._tag === "UnixPathAddress" ? 0 : address.port
}

/** A listener serving a tiny app, built in `scope` so the test decides when it stops. */
const serving = (options: Partial<ListenerOptions>, scope: Scope.Scope) =>
  Effect.gen(function* () {
    const entered = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    const app = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      if (request.method === "GET" && request.url === "/") return Effect.succeed(HttpServerResponse.text("ok"))
      if (request.method === "GET" && request.url === "/slow") {
        return Deferred.succeed(entered, undefined).pipe(
          Effect.andThen(Deferred.await(release)),
          Effect.as(HttpServerResponse.text("done"))
        )
      }
      if (request.method === "POST" && request.url === "/upload") {
        return request.text.pipe(Effect.as(HttpServerResponse.text("stored")), Effect.orDie)
      }
      return Effect.succeed(HttpServerResponse.empty({ status: 404 }))
    })
    const context = yield* Layer.buildWithScope(
      HttpServer.serve(app).pipe(Layer.provideMerge(listen({ ...defaults, ...options }))),
      scope
    )
    return { port: portOf(context), entered, release }
  })

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`

describe("HTTP listener", () => {
  it.effect("before the app is attached, a request is answered 503 starting and its connection closed", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(listen(defaults))
      const connection = yield* Effect.promise(() => rawConnect(portOf(context)))
      connection.socket.write(get("/readyz"))
      yield* Effect.promise(() => connection.closed)
      const response = connection.received()
      expect(statusOf(response)).toBe(503)
      expect(response).toMatch(/\r\nretry-after: 1\r\n/i)
      expect(response).toMatch(/\r\nconnection: close\r\n/i)
      expect(response).toMatch(/\r\ncache-control: no-store\r\n/i)
      expect(response).toMatch(/\r\nx-content-type-options: nosniff\r\n/i)
      expect(JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4))).toMatchObject({
        ok: false,
        error: "starting",
        status: 503
      })
    }).pipe(Effect.scoped)
  )

  it.effect("a client that sends nothing, half a header or half a body is answered 408 and cut off", () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const { port } = yield* serving({ headersTimeoutMs: 200, requestTimeoutMs: 400 }, scope)
      const silent = yield* Effect.promise(() => rawConnect(port))
      const halfHeader = yield* Effect.promise(() => rawConnect(port))
      halfHeader.socket.write("GET / HTTP/1.1\r\nHost: test\r\n")
      const halfBody = yield* Effect.promise(() => rawConnect(port))
      halfBody.socket.write("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n{")
      yield* Effect.promise(() => Promise.all([silent.closed, halfHeader.closed, halfBody.closed]))
      expect([silent, halfHeader, halfBody].map((c) => statusOf(c.received()))).toEqual([408, 408, 408])
      for (const connection of [silent, halfHeader, halfBody]) {
        expect(connection.received()).toMatch(/\r\ncache-control: no-store\r\nx-content-type-options: nosniff\r\n/i)
      }
    }).pipe(Effect.scoped)
  )

  it.effect("an idle keep-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS", () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const { port } = yield* serving({ keepAliveTimeoutMs: 200 }, scope)
      const connection = yield* Effect.promise(() => rawConnect(port))
      connection.socket.write(get("/"))
      yield* Effect.promise(() => connection.closed)
      expect(statusOf(connection.received())).toBe(200)
    }).pipe(Effect.scoped)
  )

  it.effect("connections beyond HTTP_MAX_CONNECTIONS are dropped at once while the others are served", () =>
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const { port } = yield* serving({ maxConnections: 2 }, scope)
      const held = yield* Effect.promise(() => Promise.all([rawConnect(port), rawConnect(port)]))
      const extra = yield* Effect.promise(() => rawConnect(port))
      yield* Effect.promise(() => extra.closed)
      expect(extra.received()).toBe("")
      const [first] = held
      first!.socket.write(get("/"))
      yield* Effect.promise(() => vi.waitFor(() => expect(statusOf(first!.received())).toBe(200)))
    }).pipe(Effect.scoped)
  )

  it.effect(
    "one address holding its share of the connections cannot keep another address out; a trusted proxy has no share",
    () =>
      Effect.gen(function* () {
        const scope = yield* Effect.scope
        const { port } = yield* serving(
          { maxConnections: 10, maxConnectionsPerAddress: 3, trustedProxy: (address) => address === "127.0.0.4" },
          scope
        )
        const from = (address: string) => Effect.promise(() => rawConnect(port, "127.0.0.1", address))
        // Slow clients that send nothing, as a slowloris does until the headers timeout.
        const held = [yield* from("127.0.0.2"), yield* from("127.0.0.2"), yield* from("127.0.0.2")]
        const beyond = yield* from("127.0.0.2")
        yield* Effect.promise(() => beyond.closed)
        expect(statusOf(beyond.received())).toBe(503)
        expect(JSON.parse(beyond.received().slice(beyond.received().indexOf("\r\n\r\n") + 4))).toEqual({
          ok: false,
          error: "too_many_connections",
          status: 503,
          issues: ["connections: at most 3 may be open at once from one address"],
          safe_next_step: "Close idle connections from this address, or retry in a second."
        })

        const others = [yield* from("127.0.0.3"), yield* from("127.0.0.3")]
        for (const other of others) other.socket.write(get("/"))
        yield* Effect.promise(() =>
          vi.waitFor(() => expect(others.map((c) => statusOf(c.received()))).toEqual([200, 200]))
        )
        const proxied = yield* Effect.forEach([1, 2, 3, 4, 5], () => from("127.0.0.4"))
        for (const connection of proxied) connection.socket.write(get("/"))
        yield* Effect.promise(() =>
          vi.waitFor(() => expect(proxied.map((c) => statusOf(c.received()))).toEqual([200, 200, 200, 200, 200]))
        )

        // A closed connection gives its place back.
        held[0]!.socket.destroy()
        yield* Effect.promise(() => held[0]!.closed)
        const again = yield* Effect.promise(() =>
          vi.waitFor(async () => {
            const connection = await rawConnect(port, "127.0.0.1", "127.0.0.2")
            connection.socket.write(get("/"))
            await vi.waitFor(() => expect(connection.received()).toMatch(/\r\n\r\n/))
            return connection
          })
        )
        expect(statusOf(again.received())).toBe(200)
      })
  )

  it("a connection counts against its IPv4 address, or its IPv6 /64", () => {
    expect(addressShareOf("203.0.113.7")).toBe("203.0.113.7")
    expect(addressShareOf("::ffff:203.0.113.7")).toBe("203.0.113.7")
    expect(addressShareOf("2001:db8:1:2:aaaa::1")).toBe(addressShareOf("2001:db8:1:2:bbbb:cccc:dddd:eeee"))
    expect(addressShareOf("2001:db8:1:2::1")).not.toBe(addressShareOf("2001:db8:1:3::1"))
    expect(addressShareOf("::1")).toBe("0:0:0:0::/64")
  })

  it.effect(
    "stopping refuses new connections, lets an in-flight request finish and closes its connection, then closes a half-sent upload after the grace period",
    () =>
      Effect.gen(function* () {
        const scope = yield* Scope.make()
        const { port, entered, release } = yield* serving({ shutdownGraceMs: 10_000 }, scope)
        const inFlight = yield* Effect.promise(() => rawConnect(port))
        inFlight.socket.write(get("/slow"))
        yield* Deferred.await(entered)
        const upload = yield* Effect.promise(() => rawConnect(port))
        upload.socket.write("POST /upload HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\n{")
        const idle = yield* Effect.promise(() => rawConnect(port))

        const stopping = yield* Effect.forkChild(Scope.close(scope, Exit.void))
        yield* Effect.promise(() => vi.waitFor(() => expect(connectOutcome(port)).resolves.toBe("ECONNREFUSED")))
        yield* Effect.promise(() => idle.closed)

        yield* Deferred.succeed(release, undefined)
        yield* Effect.promise(() => inFlight.closed)
        expect(statusOf(inFlight.received())).toBe(200)
        expect(inFlight.received()).toMatch(/\r\nconnection: close\r\n/i)
        expect(inFlight.received()).toMatch(/done$/)

        expect(upload.socket.destroyed).toBe(false)
        expect(stopping.pollUnsafe()).toBeUndefined()
        yield* TestClock.adjust("10 seconds")
        yield* Fiber.join(stopping)
        yield* Effect.promise(() => upload.closed)
        expect(upload.received()).toBe("")
      })
  )
})
