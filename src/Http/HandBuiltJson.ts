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

const handBuilt = (body: unknown, status: number) =>
  HttpServerResponse.uint8Array(jsonUtf8(body), { status, contentType: "application/json" })

/*
 * A JSON API handler returns its value and the Api encodes it. A handler builds its answer by hand
 * only for one of two reasons, and says which by the helper it calls:
 */

/**
 * Measured speed: a benchmark showed the Api's encoding costs more than it checks. The body must
 * already be typed as the endpoint's success schema; it is stringified as it is, skipping the
 * schema's second walk (search, the hottest endpoint).
 */
export const jsonForSpeed = (body: unknown) => handBuilt(body, 200)

/**
 * The contract's byte order: the answer's fields in the order the contract has always written them
 * (the Api's encoder would reorder them to the schema's), with the status the handler decides
 * (confirm's 201 for a booking made, 200 for a replay).
 */
export const jsonInContractOrder = (body: unknown, status: number) => handBuilt(body, status)
