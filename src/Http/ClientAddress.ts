import type { IncomingMessage } from "node:http"
import { Option } from "effect"
import type * as HttpServerRequest from "effect/http/HttpServerRequest"
import proxyAddr from "proxy-addr"
import type { TrustProxy } from "../Domain/TrustProxy.js"

const trustOf = (trust: TrustProxy): ((address: string, hop: number) => boolean) =>
  trust._tag === "None"
    ? () => false
    : trust._tag === "Hops"
      ? (_address, hop) => hop < trust.hops
      : proxyAddr.compile([...trust.addresses])

/**
 * The client's address: the socket's, then each X-Forwarded-For hop from the right while the
 * hop before it is trusted, so the answer is the rightmost address no trusted proxy vouches
 * for. A client cannot choose it by sending the header, because the trusted proxy appends.
 */
export const clientAddressOf = (trust: TrustProxy) => {
  const trusted = trustOf(trust)
  return (socketAddress: string | undefined, forwardedFor: string | undefined): string => {
    if (socketAddress === undefined) return "unknown"
    if (trust._tag === "None" || forwardedFor === undefined) return socketAddress
    const request = {
      socket: { remoteAddress: socketAddress },
      connection: { remoteAddress: socketAddress },
      headers: { "x-forwarded-for": forwardedFor }
    } as unknown as IncomingMessage
    return proxyAddr(request, trusted)
  }
}

/** A request's client address by the same rule: what rate limits and anonymous MCP sessions are keyed by. */
export const requestClientAddressOf = (trust: TrustProxy) => {
  const addressOf = clientAddressOf(trust)
  return (request: HttpServerRequest.HttpServerRequest): string =>
    addressOf(Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"])
}

/**
 * Whether a connection from `socketAddress` comes from a trusted proxy, whose connections carry
 * many clients and so are not held to one address's share. With a hop count every peer is a
 * proxy: that setting says nothing reaches the service except through them.
 */
export const isTrustedProxy = (trust: TrustProxy): ((socketAddress: string) => boolean) => {
  const trusted = trustOf(trust)
  return (socketAddress) => trusted(socketAddress, 0)
}
