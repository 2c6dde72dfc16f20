import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http"
import { request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import type { CheckedAddress } from "../Shared/Destination.js"
import type { WebhookHeaders } from "./Signing.js"

export interface Delivery {
  /** Checked by `checkDestination`; its host names the TLS certificate and the Host header. */
  readonly url: URL
  /** One of the addresses `checkDestination` returned for the URL's host: the only one connected to. */
  readonly address: CheckedAddress
  readonly headers: WebhookHeaders
  /** The exact text that was signed. */
  readonly body: string
  /** For the whole attempt: connecting, sending and reading the answer. */
  readonly timeoutMs?: number
  /** Roots trusted beside the system's (a test's self-signed receiver, a private CA). */
  readonly ca?: string
  /** The delivery's span, as W3C trace context, when tracing is on: the receiver can join the trace. */
  readonly traceparent?: string
}

export interface AttemptResult {
  /** A 2xx answer; nothing else counts as delivered, a redirect included. */
  readonly ok: boolean
  readonly status?: number
  /** 410: the receiver says the endpoint is gone, so the caller stops sending to it. */
  readonly gone: boolean
  readonly error?: string
  readonly durationMs: number
}

export const defaultTimeoutMs = 10_000
/** Enough to say why a receiver refused; whatever a receiver sends, no more of it is kept or waited for. */
export const maxResponseBytes = 4 * 1024
const maxQuotedChars = 200

/**
 * Answers every lookup with the checked address, so the connection goes where the SSRF check
 * looked even if the name's DNS answer changes in between. Node asks for `all` when it races
 * address families.
 */
const pinnedLookup =
  (address: CheckedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }])
    else callback(null, address.address, address.family)
  }

const quote = (text: string) => {
  const printable = text.replace(/\p{Cc}+/gu, " ").trim()
  return printable.length > maxQuotedChars ? `${printable.slice(0, maxQuotedChars)}…` : printable
}

const outcome = (response: IncomingMessage, excerpt: string): Omit<AttemptResult, "durationMs"> => {
  const status = response.statusCode ?? 0
  const gone = status === 410
  if (status >= 200 && status < 300) return { ok: true, status, gone }
  if (status >= 300 && status < 400) {
    const location = response.headers.location
    return {
      ok: false,
      status,
      gone,
      error: `redirect ${status} not followed${location ? ` (to ${quote(location)})` : ""}`
    }
  }
  const said = quote(excerpt)
  return { ok: false, status, gone, error: `answered ${status}${said ? `: ${said}` : ""}` }
}

const describeError = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  const text = typeof message === "string" ? message : String(error)
  return typeof code === "string" && !text.includes(code) ? `${code}: ${text}` : text
}

const requestOptions = (delivery: Delivery): RequestOptions & { readonly ca?: string } => ({
  method: "POST",
  headers: {
    ...delivery.headers,
    ...(delivery.traceparent === undefined ? {} : { traceparent: delivery.traceparent }),
    "content-type": "application/json",
    "content-length": Buffer.byteLength(delivery.body)
  },
  lookup: pinnedLookup(delivery.address),
  // A pooled socket could be one opened to another address of the host; each attempt opens its own.
  agent: false,
  ...(delivery.ca === undefined ? {} : { ca: delivery.ca })
})

/**
 * One POST of one delivery. Never throws: every way it can go wrong is in the result. Once the
 * status is in, it is the answer: the body is read only for a failure's wording, and a body cut
 * short, or still coming when the time is up, changes nothing.
 */
export const sendAttempt = (delivery: Delivery): Promise<AttemptResult> =>
  new Promise((resolve) => {
    const started = performance.now()
    const timeoutMs = delivery.timeoutMs ?? defaultTimeoutMs
    const options = requestOptions(delivery)
    const request =
      delivery.url.protocol === "https:" ? httpsRequest(delivery.url, options) : httpRequest(delivery.url, options)

    let answered: (() => Omit<AttemptResult, "durationMs">) | undefined
    let settled = false
    const settle = (result: Omit<AttemptResult, "durationMs">) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ ...result, durationMs: Math.round(performance.now() - started) })
      request.destroy()
    }
    const timer = setTimeout(
      () => settle(answered ? answered() : { ok: false, gone: false, error: `no answer within ${timeoutMs} ms` }),
      timeoutMs
    )

    request.on("error", (error) => settle({ ok: false, gone: false, error: describeError(error) }))
    request.on("response", (response) => {
      const kept: Array<Buffer> = []
      let keptBytes = 0
      answered = () => outcome(response, Buffer.concat(kept).toString("utf8"))
      const done = () => settle(answered!())
      response.on("data", (chunk: Buffer) => {
        const part = chunk.subarray(0, maxResponseBytes - keptBytes)
        kept.push(part)
        keptBytes += part.length
        if (keptBytes >= maxResponseBytes) done()
      })
      response.on("end", done)
      response.on("error", done)
      response.on("close", done)
    })
    request.end(delivery.body)
  })
