import { describe, expect, it } from "@effect/vitest"
import { parseTrustProxy, type TrustProxy } from "../../src/Domain/TrustProxy.js"
import { clientAddressOf } from "../../src/Http/ClientAddress.js"

const trust = (raw: string): TrustProxy => {
  const parsed = parseTrustProxy(raw)
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.trust
}

describe("TRUST_PROXY", () => {
  it("reads none, a hop count, or addresses and ranges; refuses the old boolean with what to write instead", () => {
    for (const none of [undefined, "", " ", "false", "FALSE", "none"]) {
      expect(parseTrustProxy(none)).toEqual({ ok: true, trust: { _tag: "None" } })
    }
    expect(parseTrustProxy("2")).toEqual({ ok: true, trust: { _tag: "Hops", hops: 2 } })
    expect(parseTrustProxy("loopback, 10.0.0.0/8,192.168.0.10 ,::1")).toEqual({
      ok: true,
      trust: { _tag: "Addresses", addresses: ["loopback", "10.0.0.0/8", "192.168.0.10", "::1"] }
    })
    const refused = parseTrustProxy("true")
    expect(refused.ok).toBe(false)
    if (!refused.ok) {
      expect(refused.message).toMatch(/^TRUST_PROXY=true is no longer accepted/)
      expect(refused.message).toContain("TRUST_PROXY=loopback")
      expect(refused.message).toContain("TRUST_PROXY=1")
    }
    for (const bad of ["0", "11", "10.0.0.0/99", "proxy.example.se", "loopback,nonsense"]) {
      expect(parseTrustProxy(bad).ok, bad).toBe(false)
    }
  })
})

describe("the client's address", () => {
  it("without trusted proxies is the socket's, whatever X-Forwarded-For says", () => {
    const address = clientAddressOf(trust(""))
    expect(address("203.0.113.7", "198.51.100.1")).toBe("203.0.113.7")
    expect(address(undefined, "198.51.100.1")).toBe("unknown")
  })

  it("behind a trusted proxy that appends, is the rightmost hop it did not vouch for: a forged leftmost hop is ignored", () => {
    // nginx on 127.0.0.1 appends the client's address to what the client sent ($proxy_add_x_forwarded_for).
    for (const address of [clientAddressOf(trust("loopback")), clientAddressOf(trust("1"))]) {
      expect(address("127.0.0.1", "203.0.113.7")).toBe("203.0.113.7")
      expect(address("127.0.0.1", "6.6.6.6, 203.0.113.7")).toBe("203.0.113.7")
      expect(address("127.0.0.1", "1.1.1.1, 2.2.2.2, 203.0.113.7")).toBe("203.0.113.7")
      expect(address("::ffff:127.0.0.1", "203.0.113.7")).toBe("203.0.113.7")
    }
    // A request that did not come through the proxy is its own client, whatever it claims.
    expect(clientAddressOf(trust("loopback"))("203.0.113.9", "10.0.0.1")).toBe("203.0.113.9")
  })

  it("behind two proxies, two hops (or both named) are trusted and no more", () => {
    const byCount = clientAddressOf(trust("2"))
    const byName = clientAddressOf(trust("10.0.0.0/8,127.0.0.1"))
    for (const address of [byCount, byName]) {
      // client → load balancer 10.0.0.5 → nginx on loopback → us
      expect(address("127.0.0.1", "6.6.6.6, 203.0.113.7, 10.0.0.5")).toBe("203.0.113.7")
    }
    expect(byName("127.0.0.1", "10.9.9.9, 10.0.0.5")).toBe("10.9.9.9")
  })
})
