import { createHash } from "node:crypto"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"

/** Below this many bytes a document is always sent as it is: compressing it would gain nothing. */
export const compressionThresholdBytes = 1024

export type Coding = "br" | "gzip" | "identity"

/**
 * A document served many times and changed rarely (the OpenAPI document, the docs page,
 * capabilities): encoded and compressed once, with one strong ETag per representation.
 */
export interface Document {
  readonly contentType: string
  readonly etag: string
  readonly bodies: Readonly<Partial<Record<Coding, Uint8Array>>> & { readonly identity: Uint8Array }
}

/** The first 27 characters of the body's SHA-256 in base64url, quoted. */
export const etagOf = (body: Uint8Array) => `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`

/** Every coding of a body has its own ETag (RFC 9110 8.8.3): the identity's, with the coding appended. */
const etagFor = (etag: string, coding: Coding) => (coding === "identity" ? etag : `${etag.slice(0, -1)}-${coding}"`)

/**
 * Documents already made, by ETag and type: a process that builds its server more than once (the
 * tests build one per file or case) compresses each body once; maximum brotli costs ~70 ms each.
 * The few bodies there are vary only with configuration, and the map is emptied when it holds 32.
 */
const made = new Map<string, Document>()

export const makeDocument = (body: string | Uint8Array, contentType: string): Document => {
  const identity = typeof body === "string" ? new TextEncoder().encode(body) : body
  const etag = etagOf(identity)
  const key = `${etag} ${contentType}`
  const known = made.get(key)
  if (known !== undefined) return known
  if (made.size >= 32) made.clear()
  const document = compressed(identity, etag, contentType)
  made.set(key, document)
  return document
}

const compressed = (identity: Uint8Array, etag: string, contentType: string): Document => {
  if (identity.byteLength < compressionThresholdBytes) return { contentType, etag, bodies: { identity } }
  const brotli = brotliCompressSync(identity, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength
    }
  })
  const gzip = gzipSync(identity, { level: constants.Z_BEST_COMPRESSION })
  return {
    contentType,
    etag,
    bodies: { identity, br: new Uint8Array(brotli), gzip: new Uint8Array(gzip) }
  }
}

/**
 * The coding to send for an Accept-Encoding header: the acceptable one with the highest q (brotli
 * before gzip on a tie), identity when none is. `*` stands for every coding not named.
 */
export const chooseCoding = (acceptEncoding: string | undefined, available: ReadonlyArray<Coding>): Coding => {
  const weights = new Map<string, number>()
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase())
    if (name === "") continue
    const q = parameters.find((parameter) => parameter.startsWith("q="))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    weights.set(name === "x-gzip" ? "gzip" : name, Number.isFinite(weight) ? weight : 0)
  }
  let best: Coding = "identity"
  let bestWeight = 0
  for (const coding of ["br", "gzip"] as const) {
    if (!available.includes(coding)) continue
    const weight = weights.get(coding) ?? weights.get("*") ?? 0
    if (weight > bestWeight) {
      best = coding
      bestWeight = weight
    }
  }
  return best
}

/** The ETags of an If-None-Match header (weak ones compared weakly, as RFC 9110 13.1.2 says). */
const requestedTags = (ifNoneMatch: string) => ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, ""))

/**
 * The document in the coding the client accepts, with `Vary: Accept-Encoding`; 304 when the client
 * already holds any representation of it (the content is the same whatever its coding).
 */
export const serveDocument = (document: Document, headers: Readonly<Record<string, string>> = {}) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const available = Object.keys(document.bodies) as Array<Coding>
    const coding = chooseCoding(request.headers["accept-encoding"], available)
    const ifNoneMatch = request.headers["if-none-match"]
    const common = { ...headers, vary: "Accept-Encoding" }
    if (ifNoneMatch !== undefined) {
      const held = available.map((each) => etagFor(document.etag, each))
      const matched = requestedTags(ifNoneMatch).find((tag) => tag === "*" || held.includes(tag))
      if (matched !== undefined) {
        const etag = matched === "*" ? etagFor(document.etag, coding) : matched
        return HttpServerResponse.empty({ status: 304, headers: { ...common, etag } })
      }
    }
    return HttpServerResponse.uint8Array(document.bodies[coding] ?? document.bodies.identity, {
      contentType: document.contentType,
      headers: {
        ...common,
        etag: etagFor(document.etag, coding),
        ...(coding === "identity" ? {} : { "content-encoding": coding })
      }
    })
  })
