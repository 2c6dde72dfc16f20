import { request as httpRequest, type IncomingMessage } from "node:http"
import { request as httpsRequest } from "node:https"
import type { LookupFunction } from "node:net"
import type { CheckedAddress } from "../Shared/Destination.js"

export interface CalendarFetch {
  /** Checked by `checkDestination`; its host names the TLS certificate and the Host header. */
  readonly url: URL
  /** The only address connected to: the one the SSRF check looked at. */
  readonly address: CheckedAddress
  readonly etag: string | null
  readonly lastModified: string | null
  readonly maxBytes: number
  /** Aborts the request (the caller's time bound). */
  readonly signal: AbortSignal
  /** Roots trusted beside the system's (a test's self-signed server). */
  readonly ca?: string
}

export type FetchResult =
  | { readonly _tag: "NotModified" }
  | {
      readonly _tag: "Fetched"
      readonly text: string
      readonly etag: string | null
      readonly lastModified: string | null
    }
  | { readonly _tag: "Failed"; readonly error: string }

const pinnedLookup =
  (address: CheckedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }])
    else callback(null, address.address, address.family)
  }

const header = (response: IncomingMessage, name: string) => {
  const value = response.headers[name]
  return typeof value === "string" && value.length <= 500 ? value : null
}

/**
 * One conditional GET of a provider's calendar. Never throws: every way it can fail is in the
 * result. Redirects are not followed (the next address would not have been checked), and a body
 * over `maxBytes` is cut off and refused, never read on.
 */
export const fetchCalendar = (input: CalendarFetch): Promise<FetchResult> =>
  new Promise((resolve) => {
    let settled = false
    const settle = (result: FetchResult) => {
      if (settled) return
      settled = true
      resolve(result)
      request.destroy()
    }
    const options = {
      method: "GET",
      headers: {
        accept: "text/calendar, */*;q=0.5",
        "user-agent": "home-service-booking-api calendar import",
        ...(input.etag === null ? {} : { "if-none-match": input.etag }),
        ...(input.lastModified === null ? {} : { "if-modified-since": input.lastModified })
      },
      lookup: pinnedLookup(input.address),
      agent: false as const,
      signal: input.signal,
      ...(input.ca === undefined ? {} : { ca: input.ca })
    }
    const request = input.url.protocol === "https:" ? httpsRequest(input.url, options) : httpRequest(input.url, options)
    request.on("error", (error) =>
      settle({
        _tag: "Failed",
        error: input.signal.aborted
          ? "the calendar did not answer in time"
          : `the calendar could not be fetched (${(error as NodeJS.ErrnoException).code ?? error.message})`
      })
    )
    request.on("response", (response) => {
      const status = response.statusCode ?? 0
      if (status === 304) return settle({ _tag: "NotModified" })
      if (status < 200 || status >= 300) {
        return settle({
          _tag: "Failed",
          error:
            status >= 300 && status < 400
              ? `the calendar answered with a redirect (${status}), which is not followed: register the address it points to`
              : `the calendar answered ${status}`
        })
      }
      const chunks: Array<Buffer> = []
      let bytes = 0
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length
        if (bytes > input.maxBytes) {
          return settle({ _tag: "Failed", error: `the calendar is larger than ${input.maxBytes} bytes` })
        }
        chunks.push(chunk)
      })
      response.on("end", () =>
        settle({
          _tag: "Fetched",
          text: Buffer.concat(chunks).toString("utf8"),
          etag: header(response, "etag"),
          lastModified: header(response, "last-modified")
        })
      )
      response.on("error", () => settle({ _tag: "Failed", error: "the calendar's answer broke off" }))
    })
    request.end()
  })
