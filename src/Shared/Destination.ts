import { lookup as dnsLookup } from "node:dns/promises"
import { isIP } from "node:net"
import ipaddr from "ipaddr.js"

export interface DestinationOptions {
  /** Production refuses plain http and loopback; development allows both, to loopback only, for local receivers. */
  readonly production: boolean
}

export type UrlRefusal =
  | "invalid_url"
  | "unsupported_scheme"
  | "credentials_in_url"
  | "https_required"
  | "http_only_to_loopback"

export type UrlCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly reason: UrlRefusal; readonly message: string }

/** An address the host resolved to and that passed the rules: the sender connects to exactly this. */
export interface CheckedAddress {
  readonly address: string
  readonly family: 4 | 6
}

export type Lookup = (hostname: string) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

export type ResolveRefusal = "unresolvable" | "refused_address" | "http_only_to_loopback"

export type Resolution =
  | { readonly ok: true; readonly addresses: ReadonlyArray<CheckedAddress> }
  | {
      readonly ok: false
      readonly reason: ResolveRefusal
      readonly message: string
      /** The first address refused, with its range, when one was. */
      readonly address?: string
      readonly range?: AddressRange
    }

/** IPv6 forms that carry an IPv4 address, which is then judged as itself. */
export type Embedding = "ipv4Mapped" | "ipv4Compatible" | "rfc6145" | "rfc6052" | "6to4"

/**
 * ipaddr.js's name of the address's special range, `"unicast"` for none (a public address), or
 * `"notGlobalUnicast"` for IPv6 outside 2000::/3, where nothing public is assigned. Of an IPv4
 * address carried in IPv6 (`embeddedIn`), the range is the IPv4 address's.
 */
export interface AddressRange {
  readonly range: string
  readonly embeddedIn?: Embedding
}

const localHostname = /(^|\.)localhost\.?$/i

const ipv4At = (parts: ReadonlyArray<number>, index: number) =>
  new ipaddr.IPv4([parts[index]! >> 8, parts[index]! & 0xff, parts[index + 1]! >> 8, parts[index + 1]! & 0xff])

const embeddedIpv4 = (address: ipaddr.IPv6, range: string): { ipv4: ipaddr.IPv4; via: Embedding } | undefined => {
  const parts = address.parts
  switch (range) {
    case "ipv4Mapped":
    case "rfc6145":
      return { ipv4: ipv4At(parts, 6), via: range }
    case "6to4":
      return { ipv4: ipv4At(parts, 1), via: "6to4" }
    case "rfc6052":
      // Only the well-known NAT64 prefix 64:ff9b::/96 (what DNS64 synthesises for IPv4-only hosts)
      // has the address in its last 32 bits; the local-use 64:ff9b:1::/48 is private by definition.
      return parts.slice(0, 6).every((part, index) => part === [0x64, 0xff9b, 0, 0, 0, 0][index])
        ? { ipv4: ipv4At(parts, 6), via: "rfc6052" }
        : undefined
    case "unicast":
      // ::a.b.c.d, the deprecated IPv4-compatible form, which ipaddr.js puts in no range.
      return parts.slice(0, 6).every((part) => part === 0)
        ? { ipv4: ipv4At(parts, 6), via: "ipv4Compatible" }
        : undefined
    default:
      return undefined
  }
}

const globalUnicast = ipaddr.IPv6.parse("2000::")

/** The range of an IP address in any textual form Node accepts, or undefined when it is not one. */
export const addressRange = (address: string): AddressRange | undefined => {
  const literal = address.replace(/^\[(.*)\]$/, "$1").split("%")[0]!
  const family = isIP(literal)
  if (family === 0) return undefined
  if (family === 4) return { range: ipaddr.IPv4.parse(literal).range() }
  // ipaddr.js reads ::a.b.c.d as ::ffff:a.b.c.d; the URL parser's canonical form (::102:304) it reads right.
  const ipv6 = ipaddr.IPv6.parse(new URL(`http://[${literal}]/`).hostname.slice(1, -1))
  const range = ipv6.range()
  const embedded = embeddedIpv4(ipv6, range)
  if (embedded) return { range: embedded.ipv4.range(), embeddedIn: embedded.via }
  if (range === "unicast" && !ipv6.match(globalUnicast, 3)) return { range: "notGlobalUnicast" }
  return { range }
}

const rangeName = (range: AddressRange) => (range.embeddedIn ? `${range.range} in ${range.embeddedIn}` : range.range)

const isLoopbackHost = (hostname: string) => {
  if (localHostname.test(hostname)) return true
  return addressRange(hostname)?.range === "loopback"
}

/** The URL's own rules, before any lookup: http(s), no credentials, https in production. */
export const checkUrl = (url: string | URL, options: DestinationOptions): UrlCheck => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { ok: false, reason: "invalid_url", message: "the webhook url is not a valid URL" }
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return { ok: false, reason: "unsupported_scheme", message: "the webhook url must be https" }
  if (parsed.username !== "" || parsed.password !== "")
    return {
      ok: false,
      reason: "credentials_in_url",
      message: "the webhook url must not carry credentials: deliveries are signed instead"
    }
  if (parsed.protocol === "http:") {
    if (options.production) return { ok: false, reason: "https_required", message: "the webhook url must be https" }
    if (!isLoopbackHost(parsed.hostname))
      return {
        ok: false,
        reason: "http_only_to_loopback",
        message: "in development a plain http webhook url must point to this machine"
      }
  }
  return { ok: true, url: parsed }
}

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true })

/**
 * The system's resolver, given up after `timeoutMs` (as ETIMEOUT), for a check made while a
 * caller waits: a name that does not resolve in time is refused as unresolvable.
 */
export const lookupWithin =
  (timeoutMs: number): Lookup =>
  (hostname) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error("DNS lookup timed out"), { code: "ETIMEOUT" })),
        timeoutMs
      )
    })
    return Promise.race([systemLookup(hostname), timedOut]).finally(() => clearTimeout(timer))
  }

/**
 * Every address `host` resolves to, refused whole when any one is not public, so a name that
 * mixes a public and an internal address cannot be used to reach the internal one. Development
 * also allows loopback, for receivers on this machine. Connect to the addresses returned, never
 * to the name again: a second lookup could answer differently.
 */
export const resolvePublic = async (
  host: string,
  options: DestinationOptions & { readonly lookup?: Lookup }
): Promise<Resolution> => {
  const literal = host.replace(/^\[(.*)\]$/, "$1")
  let answers: ReadonlyArray<{ readonly address: string; readonly family: number }>
  if (isIP(literal) !== 0) answers = [{ address: literal, family: isIP(literal) }]
  else {
    try {
      answers = await (options.lookup ?? systemLookup)(literal)
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      return {
        ok: false,
        reason: "unresolvable",
        message: `the webhook host ${host} could not be resolved${typeof code === "string" ? ` (${code})` : ""}`
      }
    }
  }
  if (answers.length === 0)
    return { ok: false, reason: "unresolvable", message: `the webhook host ${host} has no address` }
  const addresses: Array<CheckedAddress> = []
  for (const answer of answers) {
    const range = addressRange(answer.address)
    const allowed =
      range !== undefined && (range.range === "unicast" || (!options.production && range.range === "loopback"))
    if (!allowed)
      return {
        ok: false,
        reason: "refused_address",
        message: `the webhook host ${host} resolves to ${answer.address}${range ? ` (${rangeName(range)})` : ""}, which is not a public address`,
        address: answer.address,
        ...(range ? { range } : {})
      }
    addresses.push({ address: answer.address, family: isIP(answer.address.split("%")[0]!) === 6 ? 6 : 4 })
  }
  return { ok: true, addresses }
}

/**
 * Both checks for one delivery: the URL's rules, then its host's addresses. A plain http URL
 * (development only) must also resolve to loopback alone, whatever its name says.
 */
export const checkDestination = async (
  url: string | URL,
  options: DestinationOptions & { readonly lookup?: Lookup }
): Promise<
  | { readonly ok: true; readonly url: URL; readonly addresses: ReadonlyArray<CheckedAddress> }
  | Exclude<UrlCheck, { ok: true }>
  | Exclude<Resolution, { ok: true }>
> => {
  const checked = checkUrl(url, options)
  if (!checked.ok) return checked
  const resolved = await resolvePublic(checked.url.hostname, options)
  if (!resolved.ok) return resolved
  if (checked.url.protocol === "http:") {
    const outside = resolved.addresses.find((address) => addressRange(address.address)?.range !== "loopback")
    if (outside)
      return {
        ok: false,
        reason: "http_only_to_loopback",
        message: `a plain http webhook url must resolve to this machine; ${checked.url.hostname} resolves to ${outside.address}`,
        address: outside.address
      }
  }
  return { ok: true, url: checked.url, addresses: resolved.addresses }
}
