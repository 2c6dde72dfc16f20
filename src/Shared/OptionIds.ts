import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto"
import { drawRandom } from "./References.js"

/**
 * A short booking_option_id: `o2` and the base64url of 33 bytes, 46 characters in all. The bytes
 * are the option's expiry (epoch milliseconds, 6 bytes), a random handle (12 bytes) naming the
 * stored option, and the first 15 bytes of an HMAC-SHA256 over `o2`, expiry and handle. 33 bytes
 * are 44 characters exactly, so no two texts decode to the same bytes (no unused low bits to vary).
 */
const PREFIX = "o2"
const EXPIRY_BYTES = 6
const HANDLE_BYTES = 12
const TAG_BYTES = 15
const SIGNED_BYTES = EXPIRY_BYTES + HANDLE_BYTES
const BODY_BYTES = SIGNED_BYTES + TAG_BYTES
const idPattern = /^o2[A-Za-z0-9_-]{44}$/

/** Every short id is this long: at most 64, as the contract's assistants need. */
export const shortIdLength = PREFIX.length + (BODY_BYTES / 3) * 4

/** What the HMAC key of short ids is derived for, from each signing key (OptionSigner.derivedSecrets). */
export const shortIdKeyLabel = "booking-option-id"

const tagOf = (key: KeyObject, body: Buffer) =>
  createHmac("sha256", key).update(PREFIX, "utf8").update(body.subarray(0, SIGNED_BYTES)).digest()

export interface ShortId {
  readonly id: string
  /** The stored option's key: the handle's 16 base64url characters. */
  readonly handle: string
}

/** A fresh id for an option expiring at `expiresAt` (epoch ms), tagged with `key`. */
export const mintShortId = (key: KeyObject, expiresAt: number): ShortId => {
  const body = Buffer.allocUnsafe(BODY_BYTES)
  body.writeUIntBE(expiresAt, 0, EXPIRY_BYTES)
  drawRandom(HANDLE_BYTES, (handle) => handle.copy(body, EXPIRY_BYTES))
  tagOf(key, body).copy(body, SIGNED_BYTES, 0, TAG_BYTES)
  return {
    id: `${PREFIX}${body.toString("base64url")}`,
    handle: body.toString("base64url", EXPIRY_BYTES, SIGNED_BYTES)
  }
}

export type ShortIdCheck =
  | { readonly _tag: "Malformed" }
  | { readonly _tag: "Altered" }
  | { readonly _tag: "Genuine"; readonly handle: string; readonly expiresAt: number }

const malformed: ShortIdCheck = { _tag: "Malformed" }
const altered: ShortIdCheck = { _tag: "Altered" }

/** Whether a text is a short id, to be read by `checkShortId` rather than as a long one. */
export const isShortIdForm = (id: string) => id.startsWith(PREFIX)

/**
 * Whether `id` is a short id tagged with one of `keys` (the signing key's first, then the keys a
 * rotation keeps), each tag compared in constant time. Nothing but the text is read.
 */
export const checkShortId = (id: string, keys: ReadonlyArray<KeyObject>): ShortIdCheck => {
  if (id.length !== shortIdLength || !idPattern.test(id)) return malformed
  const body = Buffer.from(id.slice(PREFIX.length), "base64url")
  const presented = body.subarray(SIGNED_BYTES)
  for (const key of keys) {
    if (timingSafeEqual(tagOf(key, body).subarray(0, TAG_BYTES), presented)) {
      return {
        _tag: "Genuine",
        handle: body.toString("base64url", EXPIRY_BYTES, SIGNED_BYTES),
        expiresAt: body.readUIntBE(0, EXPIRY_BYTES)
      }
    }
  }
  return altered
}
