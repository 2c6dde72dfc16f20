import proxyAddr from "proxy-addr"

/**
 * Which proxies in front of the service may say who the client is: none (the socket's address
 * is the client), the last N hops, or named addresses and ranges (`loopback`, `linklocal`,
 * `uniquelocal`, IPs and CIDRs, as proxy-addr reads them).
 */
export type TrustProxy =
  | { readonly _tag: "None" }
  | { readonly _tag: "Hops"; readonly hops: number }
  | { readonly _tag: "Addresses"; readonly addresses: ReadonlyArray<string> }

export type TrustProxyParse =
  | { readonly ok: true; readonly trust: TrustProxy }
  | { readonly ok: false; readonly message: string }

const whatToWrite =
  "name the proxies in front of this service: their addresses or CIDRs (TRUST_PROXY=10.0.0.0/8,192.168.0.10), loopback for a proxy on this machine (TRUST_PROXY=loopback), or how many proxies there are (TRUST_PROXY=1)"

/**
 * TRUST_PROXY as an operator writes it. `true` is refused: it meant "take the leftmost
 * X-Forwarded-For hop", which behind a proxy that appends is whatever the client sent.
 */
export const parseTrustProxy = (raw: string | undefined): TrustProxyParse => {
  const text = (raw ?? "").trim()
  if (text === "" || text.toLowerCase() === "false" || text.toLowerCase() === "none") {
    return { ok: true, trust: { _tag: "None" } }
  }
  if (text.toLowerCase() === "true") {
    return {
      ok: false,
      message: `TRUST_PROXY=true is no longer accepted: it let a client choose its own address through X-Forwarded-For; ${whatToWrite}`
    }
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text)
    return hops >= 1 && hops <= 10
      ? { ok: true, trust: { _tag: "Hops", hops } }
      : { ok: false, message: `TRUST_PROXY=${text}: a hop count must be from 1 to 10; or ${whatToWrite}` }
  }
  const addresses = text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  for (const address of addresses) {
    try {
      proxyAddr.compile(address)
    } catch {
      return { ok: false, message: `TRUST_PROXY: ${address} is not an address, a CIDR or loopback; ${whatToWrite}` }
    }
  }
  return { ok: true, trust: { _tag: "Addresses", addresses } }
}
