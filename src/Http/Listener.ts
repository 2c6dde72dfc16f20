import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import type { Duplex } from "node:stream"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Deferred, Duration, Effect, Layer, Option } from "effect"
import * as HttpServer from "effect/http/HttpServer"
import ipaddr from "ipaddr.js"

export interface ListenerOptions {
  readonly host: string
  readonly port: number
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
  readonly keepAliveTimeoutMs: number
  readonly maxConnections: number
  /** One peer address's share of `maxConnections`; a trusted proxy's connections are not held to it. */
  readonly maxConnectionsPerAddress: number
  readonly trustedProxy?: ((address: string) => boolean) | undefined
  readonly shutdownGraceMs: number
}

/**
 * Headers of every answer, errors included: nothing the API says is for a shared cache (confirm
 * and status answers name provider, slot, price and request id), and no browser guesses a type.
 * The cacheable documents set their own Cache-Control, which is kept.
 */
export const securityHeaders = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const
const securityHeaderLines = "cache-control: no-store\r\nx-content-type-options: nosniff\r\n"

const startingBody = JSON.stringify({
  ok: false,
  error: "starting",
  status: 503,
  safe_next_step: "The service is starting; retry in a second."
})

/** Whoever connects between the listen and the app being attached gets an answer, never silence. */
const answerStarting = (_: IncomingMessage, response: ServerResponse) => {
  response.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(startingBody),
    "retry-after": "1",
    "x-request-id": randomUUID(),
    ...securityHeaders,
    connection: "close"
  })
  response.end(startingBody)
}

/**
 * The address a connection counts against: an IPv4 address as it is (IPv4-mapped IPv6 read as
 * IPv4), an IPv6 address by its /64, which one host or site is given whole.
 */
export const addressShareOf = (address: string): string => {
  if (!address.includes(":")) return address
  try {
    const parsed = ipaddr.parse(address)
    if (parsed.kind() === "ipv4") return parsed.toString()
    const ipv6 = parsed as ipaddr.IPv6
    if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address().toString()
    return `${ipv6.parts
      .slice(0, 4)
      .map((part) => part.toString(16))
      .join(":")}::/64`
  } catch {
    return address
  }
}

/**
 * What a connection past its address's share is told before it is closed: made before any
 * request, so it is all that can be said, and said once, here.
 */
const shareExceeded = (perAddress: number) => {
  const body = JSON.stringify({
    ok: false,
    error: "too_many_connections",
    status: 503,
    issues: [`connections: at most ${perAddress} may be open at once from one address`],
    safe_next_step: "Close idle connections from this address, or retry in a second."
  })
  return `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\n${securityHeaderLines}connection: close\r\n\r\n${body}`
}

const unparsable = (error: NodeJS.ErrnoException) => {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        error: "headers_too_large",
        issue: "headers: are larger than 16 KB"
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        error: "request_timeout",
        issue: "request: did not arrive in time"
      }
    default:
      return {
        status: 400,
        reason: "Bad Request",
        error: "invalid_request",
        issue: `request: is not valid HTTP/1.1 (${error.message})`
      }
  }
}

/**
 * Node answers what it cannot parse (a NUL or control character in a header, say) before the
 * app sees it, by default with a bare 400; here with the section 7 body, as every error is.
 */
const answerClientError = (error: NodeJS.ErrnoException, socket: Duplex) => {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && inFlight?.headersSent !== true && error.code !== "ECONNRESET") {
    const { status, reason, ...rest } = unparsable(error)
    const body = JSON.stringify({ ok: false, error: rest.error, status, issues: [rest.issue] })
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${securityHeaderLines}connection: close\r\n\r\n${body}`
    )
  }
  socket.destroy()
}

/** The Node server every instance and every test serves on. */
export const createHttpServer = () => createServer().on("clientError", answerClientError)

/**
 * NodeHttpServer with every wait bounded: slow or silent clients time out, connections are
 * capped, and the app's finalizer drains instead of cutting requests off. Stopping closes the
 * listener, lets in-flight requests finish within the grace period (their connections close
 * after the answer), then closes every connection still open: idle, keep-alive or half-sent.
 */
const make = (options: ListenerOptions) =>
  Effect.gen(function* () {
    const server = createServer({
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      keepAliveTimeout: options.keepAliveTimeoutMs,
      // Node checks the two timeouts above every 30 s by default, letting a slow client stay that much longer.
      connectionsCheckingInterval: Math.min(1000, options.headersTimeoutMs)
    })
    server.maxConnections = options.maxConnections
    server.on("clientError", answerClientError)

    const connections = new Set<Socket>()
    // Open connections by address share; Node has already dropped those past maxConnections.
    const openByAddress = new Map<string, number>()
    const exceeded = shareExceeded(options.maxConnectionsPerAddress)
    const trustedProxy = options.trustedProxy ?? (() => false)
    // Before Node's own listener gives the connection a parser: a connection past its share is
    // answered and closed here, so no request it may already have sent is ever read.
    server.prependListener("connection", (socket: Socket) => {
      const address = socket.remoteAddress
      if (address === undefined || trustedProxy(address)) return
      const share = addressShareOf(address)
      const open = openByAddress.get(share) ?? 0
      if (open >= options.maxConnectionsPerAddress) {
        socket.on("error", () => {})
        socket.end(exceeded)
        socket.destroy()
        return
      }
      openByAddress.set(share, open + 1)
      socket.once("close", () => {
        const left = openByAddress.get(share)! - 1
        if (left === 0) openByAddress.delete(share)
        else openByAddress.set(share, left)
      })
    })
    server.on("connection", (socket: Socket) => {
      if (socket.destroyed) return
      connections.add(socket)
      socket.once("close", () => connections.delete(socket))
    })
    const inFlight = new Set<ServerResponse>()
    let draining = false
    let onIdle = () => {}
    const track = (_: IncomingMessage, response: ServerResponse) => {
      inFlight.add(response)
      if (draining) response.setHeader("connection", "close")
      response.once("close", () => {
        inFlight.delete(response)
        if (inFlight.size === 0) onIdle()
      })
    }
    // A request that sends Expect: 100-continue arrives as checkContinue once anyone listens for it,
    // as Effect 4's server does: it is in flight all the same.
    server.on("request", track)
    server.on("checkContinue", track)
    server.on("request", answerStarting)
    server.on("checkContinue", answerStarting)

    // The platform's own graceful shutdown is off: `drain` below closes the server, ends idle
    // connections and bounds the wait by SHUTDOWN_GRACE_MS, as the contract's stop rules say.
    const listening = yield* NodeHttpServer.make(() => server, {
      host: options.host,
      port: options.port,
      disablePreemptiveShutdown: true
    })

    const grace = Duration.millis(options.shutdownGraceMs)
    const drain = Effect.gen(function* () {
      draining = true
      server.close()
      // Idle keep-alive connections and clients still sending their headers hold no request to finish.
      const busy = new Set([...inFlight].map((response) => response.socket))
      for (const socket of connections) if (!busy.has(socket)) socket.destroy()
      for (const response of inFlight) if (!response.headersSent) response.setHeader("connection", "close")
      const idle = yield* Deferred.make<void>()
      onIdle = () => Deferred.doneUnsafe(idle, Effect.void)
      if (inFlight.size === 0) onIdle()
      else {
        yield* Effect.logInfo(
          `stopped accepting connections; waiting up to ${Duration.format(grace)} for ${inFlight.size} request(s)`
        )
      }
      // Finalizers run uninterruptibly; the wait must be interruptible for the grace period to end it.
      const finished = yield* Deferred.await(idle).pipe(Effect.interruptible, Effect.timeoutOption(grace))
      if (Option.isNone(finished)) {
        yield* Effect.logWarning(`closing ${inFlight.size} request(s) still open after the grace period`)
      }
      server.closeAllConnections()
    })

    return HttpServer.make({
      address: listening.address,
      serve: (app, middleware) =>
        (middleware ? listening.serve(app, middleware) : listening.serve(app)).pipe(
          Effect.andThen(
            Effect.sync(() => {
              server.off("request", answerStarting)
              server.off("checkContinue", answerStarting)
            })
          ),
          // Added after the platform's own finalizer, so it runs first: the handler stays attached while draining.
          Effect.andThen(Effect.addFinalizer(() => drain))
        )
    })
  })

/** The HttpServer and the platform services NodeHttpServer.layer provides, with the limits above. */
export const listen = (options: ListenerOptions) =>
  Layer.mergeAll(Layer.effect(HttpServer.HttpServer, make(options)), NodeHttpServer.layerHttpServices)
