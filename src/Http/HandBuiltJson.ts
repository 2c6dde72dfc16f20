import { transcode } from "node:buffer"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

/**
 * The UTF-8 bytes of `JSON.stringify(body)`, the bytes `HttpServerResponse.jsonUnsafe` sends.
 * The slot labels' en dash makes the text two-byte, which TextEncoder (and Buffer.from) convert
 * about three times slower than ICU's transcoder; JSON.stringify escapes lone surrogates, so the
 * text is always well-formed UTF-16 and both give the same bytes.
 */
export const jsonUtf8 = (body: unknown): Uint8Array =>
  transcode(Buffer.from(JSON.stringify(body), "utf16le"), "utf16le", "utf8")

/**
 * A JSON API handler returns its value and the Api encodes it. Search alone builds its answer by
 * hand, for measured speed: a benchmark showed the Api's encoding costs more than it checks. The
 * body must already be typed as the endpoint's success schema; it is stringified as it is,
 * skipping the schema's second walk (search, the hottest endpoint).
 */
export const jsonForSpeed = (body: unknown) =>
  HttpServerResponse.uint8Array(jsonUtf8(body), { status: 200, contentType: "application/json" })
