import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import type { TLSSocket } from "node:tls"
import { onTestFinished } from "@effect/vitest"
import { Webhook } from "standardwebhooks"
import type { CheckedAddress } from "../../src/Shared/Destination.js"

/** Real local webhook receivers on 127.0.0.1 and port 0, closed when their test finishes. */

export interface ReceivedDelivery {
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string
  /** The TLS server name the sender asked for (https receivers only). */
  readonly servername?: string
}

/** How a receiver answers a delivery it has read whole; one that does nothing makes the sender wait. */
export type Answer = (request: IncomingMessage, response: ServerResponse) => void

export interface Receiver {
  readonly port: number
  readonly received: Array<ReceivedDelivery>
  /** What the sender pins the receiver's name to. */
  readonly address: CheckedAddress
  readonly url: (host?: string, path?: string) => URL
}

export const answerStatus =
  (status: number, body = "ok"): Answer =>
  (_request, response) => {
    response.statusCode = status
    response.end(body)
  }

const flatHeaders = (request: IncomingMessage) =>
  Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(", ") : (value ?? "")
    ])
  )

export const startReceiver = async (
  answer: Answer = answerStatus(200),
  tls?: { readonly key: string; readonly cert: string }
): Promise<Receiver> => {
  const received: Array<ReceivedDelivery> = []
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const servername = (request.socket as Partial<TLSSocket>).servername
      received.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: flatHeaders(request),
        body: Buffer.concat(chunks).toString("utf8"),
        ...(typeof servername === "string" ? { servername } : {})
      })
      answer(request, response)
    })
  }
  const server = tls ? createHttpsServer(tls, handle) : createHttpServer(handle)
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  onTestFinished(
    () =>
      new Promise<void>((closed) => {
        server.closeAllConnections()
        server.close(() => closed())
      })
  )
  const port = (server.address() as AddressInfo).port
  return {
    port,
    received,
    address: { address: "127.0.0.1", family: 4 },
    url: (host = "127.0.0.1", path = "/hooks/booking") => new URL(`${tls ? "https" : "http"}://${host}:${port}${path}`)
  }
}

/** What a partner's receiver does with the reference library: the parsed event, or the library's error. */
export const verifyWith = (secret: string, delivery: ReceivedDelivery): unknown =>
  new Webhook(secret).verify(delivery.body, delivery.headers)

/**
 * `verifyWith` as a receiver whose clock reads `atMs` would run it (the library reads Date.now for
 * its 5-minute tolerance): for deliveries signed at the test clock's time. A raw-format secret
 * (a provider's own, not `whsec_`) is read as its bytes.
 */
export const verifyAt = (
  secret: string,
  delivery: Pick<ReceivedDelivery, "body" | "headers">,
  atMs: number,
  options: { readonly raw?: boolean } = {}
): unknown => {
  const realNow = Date.now
  Date.now = () => atMs
  try {
    const webhook = options.raw ? new Webhook(secret, { format: "raw" }) : new Webhook(secret)
    return webhook.verify(delivery.body, delivery.headers)
  } finally {
    Date.now = realNow
  }
}
