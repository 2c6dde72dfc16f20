import { describe, expect, it } from "@effect/vitest"
import { addressRange, checkDestination, checkUrl, type Lookup, resolvePublic } from "../../src/Shared/Destination.js"

const production = { production: true }
const development = { production: false }

/** A resolver that answers every name with these addresses, as node:dns would with `all: true`. */
const answering =
  (...addresses: Array<string>): Lookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))

const unreachable: Lookup = async (hostname) => {
  throw new Error(`an IP literal was looked up: ${hostname}`)
}

describe("checkUrl", () => {
  it.each([
    ["not a url", production, "invalid_url"],
    ["hooks.example.com/booking", production, "invalid_url"],
    ["ftp://hooks.example.com/booking", production, "unsupported_scheme"],
    ["file:///etc/passwd", development, "unsupported_scheme"],
    ["gopher://127.0.0.1:6379/_INFO", development, "unsupported_scheme"],
    ["javascript:alert(1)", development, "unsupported_scheme"],
    ["https://user:secret@hooks.example.com/", production, "credentials_in_url"],
    ["https://user@hooks.example.com/", production, "credentials_in_url"],
    ["https://:secret@hooks.example.com/", production, "credentials_in_url"],
    ["http://hooks.example.com/booking", production, "https_required"],
    ["http://127.0.0.1:8080/booking", production, "https_required"],
    ["http://localhost:8080/booking", production, "https_required"],
    ["http://hooks.example.com/booking", development, "http_only_to_loopback"],
    ["http://10.0.0.5/booking", development, "http_only_to_loopback"],
    ["http://169.254.169.254/latest/meta-data", development, "http_only_to_loopback"],
    ["http://localhost.example.com/", development, "http_only_to_loopback"]
  ])("refuses %s (%o) as %s", async (url, options, reason) => {
    expect(checkUrl(url, options)).toMatchObject({ ok: false, reason })
  })

  it.each([
    ["https://hooks.example.com/booking?partner=1", production],
    ["https://hooks.example.com:8443/booking", production],
    ["https://hooks.example.com/booking", development],
    ["http://127.0.0.1:3000/hooks", development],
    ["http://127.1.2.3:3000/hooks", development],
    ["http://localhost:3000/hooks", development],
    ["http://receiver.localhost:3000/hooks", development],
    ["http://[::1]:3000/hooks", development],
    ["http://[::ffff:127.0.0.1]:3000/hooks", development],
    // The URL parser reads these as 127.0.0.1 before any rule sees them.
    ["http://2130706433:3000/hooks", development],
    ["http://0x7f.1:3000/hooks", development]
  ])("accepts %s (%o)", async (url, options) => {
    expect(checkUrl(url, options)).toMatchObject({ ok: true })
  })
})

/** Every address that must never be called in production, with the range it must be refused as. */
const refused: Array<[string, string]> = [
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["169.254.169.254", "linkLocal"], // AWS, GCP and Azure instance metadata
  ["169.254.170.2", "linkLocal"], // ECS task metadata
  ["169.254.0.1", "linkLocal"],
  ["100.64.0.1", "carrierGradeNat"],
  ["100.127.255.255", "carrierGradeNat"],
  ["100.100.100.200", "carrierGradeNat"], // Alibaba Cloud metadata
  ["192.0.0.192", "reserved"], // Oracle Cloud metadata
  ["192.0.2.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["198.18.0.1", "reserved"],
  ["192.88.99.1", "reserved"],
  ["240.0.0.1", "reserved"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["fe80::1", "linkLocal"],
  ["fe80::1%eth0", "linkLocal"],
  ["fc00::1", "uniqueLocal"],
  ["fd00::1", "uniqueLocal"],
  ["fd00:ec2::254", "uniqueLocal"], // AWS instance metadata over IPv6
  ["fd00:ec2::23", "uniqueLocal"], // AWS DNS resolver over IPv6
  ["ff02::1", "multicast"],
  ["ff05::1:3", "multicast"],
  ["2001:db8::1", "reserved"],
  ["3fff::1", "reserved"],
  ["100::1", "discard"],
  ["fec0::1", "deprecatedSiteLocal"],
  ["2001::1", "teredo"],
  ["64:ff9b:1::a00:1", "rfc6052"],
  ["4000::1", "notGlobalUnicast"],
  ["::ffff:127.0.0.1", "loopback in ipv4Mapped"],
  ["::ffff:7f00:1", "loopback in ipv4Mapped"],
  ["::ffff:10.0.0.1", "private in ipv4Mapped"],
  ["::ffff:192.168.0.1", "private in ipv4Mapped"],
  ["::ffff:169.254.169.254", "linkLocal in ipv4Mapped"],
  ["::ffff:a9fe:a9fe", "linkLocal in ipv4Mapped"],
  ["::ffff:100.64.0.1", "carrierGradeNat in ipv4Mapped"],
  ["::ffff:0.0.0.0", "unspecified in ipv4Mapped"],
  ["::127.0.0.1", "loopback in ipv4Compatible"],
  ["::7f00:1", "loopback in ipv4Compatible"],
  ["::10.0.0.1", "private in ipv4Compatible"],
  ["::ffff:0:10.0.0.1", "private in rfc6145"],
  ["64:ff9b::10.0.0.1", "private in rfc6052"],
  ["64:ff9b::169.254.169.254", "linkLocal in rfc6052"],
  ["2002:a9fe:a9fe::1", "linkLocal in 6to4"],
  ["2002:7f00:1::1", "loopback in 6to4"],
  ["2002:c0a8:101::", "private in 6to4"]
]

/** Public addresses, several just outside a refused range. */
const allowed = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "11.0.0.1",
  "100.63.255.255",
  "100.128.0.0",
  "169.253.255.255",
  "172.15.255.255",
  "172.32.0.1",
  "192.169.0.1",
  "198.20.0.1",
  "223.255.255.254",
  "2001:4860:4860::8888",
  "2606:4700:4700::1111",
  "2a00:1450:4001:80e::200e",
  "::ffff:8.8.8.8",
  "64:ff9b::8.8.8.8",
  "2002:808:808::1"
]

const described = (address: string) => {
  const range = addressRange(address)
  return range?.embeddedIn ? `${range.range} in ${range.embeddedIn}` : range?.range
}

describe("addressRange", () => {
  it.each(refused)("puts %s in %s", async (address, range) => {
    expect(described(address)).toBe(range)
  })

  it.each(allowed)("finds %s in no special range", async (address) => {
    expect(addressRange(address)?.range).toBe("unicast")
  })

  it.each(["hooks.example.com", "", "0x7f.1", "2130706433", "1.2.3", "::ffff:1.2.3.256"])(
    "says %j is not an address",
    async (text) => {
      expect(addressRange(text)).toBeUndefined()
    }
  )
})

describe("resolvePublic", () => {
  it.each(refused)("refuses a name that resolves to %s (%s) in production", async (address) => {
    const resolution = await resolvePublic("hooks.example.com", { ...production, lookup: answering(address) })
    expect(resolution).toMatchObject({ ok: false, reason: "refused_address", address })
  })

  it.each(refused.filter(([, range]) => !range.startsWith("loopback")))(
    "refuses a name that resolves to %s (%s) in development too",
    async (address) => {
      const resolution = await resolvePublic("hooks.example.com", { ...development, lookup: answering(address) })
      expect(resolution).toMatchObject({ ok: false, reason: "refused_address", address })
    }
  )

  it.each(["127.0.0.1", "127.0.0.53", "::1", "::ffff:127.0.0.1"])(
    "allows loopback %s in development, for receivers on this machine",
    async (address) => {
      const resolution = await resolvePublic("localhost", { ...development, lookup: answering(address) })
      expect(resolution).toMatchObject({ ok: true, addresses: [{ address }] })
    }
  )

  it.each(allowed)("allows %s in production", async (address) => {
    const resolution = await resolvePublic("hooks.example.com", { ...production, lookup: answering(address) })
    expect(resolution).toEqual({
      ok: true,
      addresses: [{ address, family: address.includes(":") ? 6 : 4 }]
    })
  })

  it("refuses a public-looking name whose answer holds one private address among public ones", async () => {
    const lookup = answering("93.184.215.14", "2606:4700:4700::1111", "10.20.30.40")
    expect(await resolvePublic("api.partner.example", { ...production, lookup })).toEqual({
      ok: false,
      reason: "refused_address",
      address: "10.20.30.40",
      range: { range: "private" },
      message: "the webhook host api.partner.example resolves to 10.20.30.40 (private), which is not a public address"
    })
  })

  it("returns every address of an all-public answer, both families, in the resolver's order", async () => {
    const lookup = answering("2606:4700:4700::1111", "93.184.215.14")
    expect(await resolvePublic("api.partner.example", { ...production, lookup })).toEqual({
      ok: true,
      addresses: [
        { address: "2606:4700:4700::1111", family: 6 },
        { address: "93.184.215.14", family: 4 }
      ]
    })
  })

  it("judges an IP literal as itself, without a lookup", async () => {
    expect(await resolvePublic("[::1]", { ...production, lookup: unreachable })).toMatchObject({
      ok: false,
      address: "::1",
      range: { range: "loopback" }
    })
    expect(await resolvePublic("8.8.4.4", { ...production, lookup: unreachable })).toEqual({
      ok: true,
      addresses: [{ address: "8.8.4.4", family: 4 }]
    })
  })

  it("says a name that does not resolve is unresolvable, with the resolver's code", async () => {
    const lookup: Lookup = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.example"), { code: "ENOTFOUND" })
    }
    expect(await resolvePublic("nowhere.example", { ...production, lookup })).toEqual({
      ok: false,
      reason: "unresolvable",
      message: "the webhook host nowhere.example could not be resolved (ENOTFOUND)"
    })
    expect(await resolvePublic("empty.example", { ...production, lookup: answering() })).toMatchObject({
      ok: false,
      reason: "unresolvable"
    })
  })

  it("looks a name up with the system resolver when none is given", async () => {
    expect(await resolvePublic("localhost", development)).toMatchObject({ ok: true })
    expect(await resolvePublic("localhost", production)).toMatchObject({ ok: false, reason: "refused_address" })
  })
})

describe("checkDestination", () => {
  it("refuses loopback and metadata addresses that the URL parser normalises from other spellings", async () => {
    for (const url of ["https://2130706433/hooks", "https://0x7f.0.0.1/hooks", "https://[::ffff:7f00:1]/hooks"])
      expect(await checkDestination(url, { ...production, lookup: unreachable })).toMatchObject({
        ok: false,
        reason: "refused_address",
        range: { range: "loopback" }
      })
    expect(
      await checkDestination("https://[::ffff:a9fe:a9fe]/latest/meta-data", { ...production, lookup: unreachable })
    ).toMatchObject({ ok: false, range: { range: "linkLocal", embeddedIn: "ipv4Mapped" } })
  })

  it("in development, refuses a plain http name that resolves off this machine, however local it sounds", async () => {
    expect(
      await checkDestination("http://receiver.localhost:3000/hooks", { ...development, lookup: answering("8.8.8.8") })
    ).toMatchObject({ ok: false, reason: "http_only_to_loopback", address: "8.8.8.8" })
    expect(
      await checkDestination("http://receiver.localhost:3000/hooks", {
        ...development,
        lookup: answering("127.0.0.1", "8.8.8.8")
      })
    ).toMatchObject({ ok: false, reason: "http_only_to_loopback", address: "8.8.8.8" })
  })

  it("gives the parsed URL and the checked addresses to send to", async () => {
    const checked = await checkDestination("https://hooks.partner.example/booking", {
      ...production,
      lookup: answering("93.184.215.14")
    })
    expect(checked).toMatchObject({ ok: true, addresses: [{ address: "93.184.215.14", family: 4 }] })
    expect(checked.ok && checked.url.hostname).toBe("hooks.partner.example")
  })

  it("stops at the URL's own rules before looking anything up", async () => {
    expect(
      await checkDestination("http://hooks.partner.example/", { ...production, lookup: unreachable })
    ).toMatchObject({ ok: false, reason: "https_required" })
  })
})
