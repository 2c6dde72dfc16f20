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
 * The UTF-8 bytes of shared, frozen values (a service's scope and terms sections, a deduction's or
 * a cancellation policy's wording), encoded the first time an answer carries them: most of a
 * search's answer is these, the same for every search of a service. Keyed by the value itself, so
 * an entry lives as long as the cache that holds the value and can never answer for another.
 */
const encoded = new WeakMap<object, Buffer>()

const bytesOf = (value: object): Buffer => {
  let bytes = encoded.get(value)
  if (bytes === undefined) {
    // A buffer of its own: a small Buffer.from is a slice of a shared 8 KB slab, and a kept slice
    // keeps its whole slab alive as long as the value lives in its cache.
    const text = JSON.stringify(value)
    bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, "utf8"))
    bytes.write(text, "utf8")
    encoded.set(value, bytes)
  }
  return bytes
}

/** A key as JSON with its colon; an answer's keys are a few dozen names. */
const keys = new Map<string, string>()
const keyOf = (key: string) => {
  let text = keys.get(key)
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`
    if (keys.size < 1000) keys.set(key, text)
  }
  return text
}

/** The answer's bytes so far: the pieces encoded once, and the text written since the last of them. */
class Chunks {
  readonly parts: Array<Buffer> = []
  text = ""
  size = 0
  push(bytes: Buffer) {
    if (this.text !== "") this.flushText()
    this.parts.push(bytes)
    this.size += bytes.length
  }
  flushText() {
    const bytes = Buffer.from(this.text, "utf8")
    this.text = ""
    this.parts.push(bytes)
    this.size += bytes.length
  }
}

const write = (chunks: Chunks, value: unknown): void => {
  if (typeof value !== "object" || value === null) {
    chunks.text += JSON.stringify(value)
    return
  }
  if (Object.isFrozen(value)) {
    chunks.push(bytesOf(value))
    return
  }
  if (Array.isArray(value)) {
    chunks.text += "["
    for (let i = 0; i < value.length; i++) {
      if (i > 0) chunks.text += ","
      const item = value[i]
      // As JSON.stringify writes them: what has no JSON form is null in an array.
      if (item === undefined || typeof item === "function" || typeof item === "symbol") chunks.text += "null"
      else write(chunks, item)
    }
    chunks.text += "]"
    return
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    chunks.text += JSON.stringify(value)
    return
  }
  chunks.text += "{"
  let first = true
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue
    if (!first) chunks.text += ","
    chunks.text += keyOf(key)
    first = false
    write(chunks, item)
  }
  chunks.text += "}"
}

/**
 * The bytes of `JSON.stringify(body)`, written with the frozen values inside it encoded once and
 * copied in: the same bytes, for a fraction of the encoding of an answer made mostly of them.
 */
export const fragmentJsonUtf8 = (body: unknown): Buffer => {
  const chunks = new Chunks()
  write(chunks, body)
  if (chunks.text !== "") chunks.flushText()
  return chunks.parts.length === 1 ? chunks.parts[0]! : Buffer.concat(chunks.parts, chunks.size)
}

/**
 * A JSON API handler returns its value and the Api encodes it. Search alone builds its answer by
 * hand, for measured speed: a benchmark showed the Api's encoding costs more than it checks. The
 * body must already be typed as the endpoint's success schema; it is stringified as it is,
 * skipping the schema's second walk (search, the hottest endpoint), with its frozen values' bytes
 * encoded once (`fragmentJsonUtf8`).
 */
export const jsonForSpeed = (body: unknown) =>
  HttpServerResponse.uint8Array(fragmentJsonUtf8(body), { status: 200, contentType: "application/json" })
