import { describe, expect, it } from "@effect/vitest"
import { Webhook, WebhookVerificationError } from "standardwebhooks"
import { isSecret, newSecret, signedHeaders, type WebhookHeaders } from "../../src/Delivery/Signing.js"
import { binaryString, fc, propSettings } from "../support/Props.js"

const signed = (input: Parameters<typeof signedHeaders>[0]): WebhookHeaders => {
  const result = signedHeaders(input)
  if (!result.ok) throw new Error(`signing failed: ${result.reason}`)
  return result.headers
}

const verify = (secret: string, body: string, headers: WebhookHeaders) =>
  new Webhook(secret).verify(body, { ...headers }, { jsonParse: false })

describe("newSecret", () => {
  it("is whsec_ and the base64 of 32 random bytes, different every time", async () => {
    const secrets = Array.from({ length: 20 }, newSecret)
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32)
      expect(isSecret(secret)).toBe(true)
    }
    expect(new Set(secrets).size).toBe(secrets.length)
  })
})

describe("isSecret", () => {
  it.each([
    ["no prefix", Buffer.alloc(32, 1).toString("base64")],
    ["another prefix", `whsk_${Buffer.alloc(32, 1).toString("base64")}`],
    ["23 bytes, fewer than the standard's 24", `whsec_${Buffer.alloc(23, 1).toString("base64")}`],
    ["not base64", `whsec_${"!".repeat(44)}`],
    ["base64url", `whsec_${Buffer.alloc(32, 0xfb).toString("base64url")}`],
    ["empty", "whsec_"]
  ])("refuses %s", async (_, value) => {
    expect(isSecret(value)).toBe(false)
  })

  it("accepts 24 bytes, the standard's least", async () => {
    expect(isSecret(`whsec_${Buffer.alloc(24, 7).toString("base64")}`)).toBe(true)
  })
})

describe("signedHeaders", () => {
  const body = JSON.stringify({ type: "webhook.test", timestamp: "2025-01-01T00:00:00.000Z", data: {} })

  it("gives the id, the time in whole seconds and a v1 signature the reference library verifies", async () => {
    const secret = newSecret()
    const at = new Date()
    const headers = signed({ id: "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", at, body, secrets: [secret] })
    expect(headers["webhook-id"]).toBe("msg_2KWPBgLlAfxdpx2AI54pPJ85f4W")
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)))
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(() => verify(secret, body, headers)).not.toThrow()
  })

  it("signs once per secret during a rotation, the new secret first, and either secret verifies", async () => {
    const [current, previous, stranger] = [newSecret(), newSecret(), newSecret()]
    const at = new Date()
    const headers = signed({ id: "evt_1", at, body, secrets: [current, previous] })
    expect(headers["webhook-signature"].split(" ")).toEqual([
      new Webhook(current).sign("evt_1", at, body),
      new Webhook(previous).sign("evt_1", at, body)
    ])
    expect(() => verify(current, body, headers)).not.toThrow()
    expect(() => verify(previous, body, headers)).not.toThrow()
    expect(() => verify(stranger, body, headers)).toThrow(WebhookVerificationError)
  })

  it("keeps the id and re-signs the time on a retry of the same event", async () => {
    const secret = newSecret()
    const now = Date.now()
    const first = signed({ id: "evt_retried", at: new Date(now - 60_000), body, secrets: [secret] })
    const retry = signed({ id: "evt_retried", at: new Date(now), body, secrets: [secret] })
    expect(retry["webhook-id"]).toBe(first["webhook-id"])
    expect(retry["webhook-timestamp"]).not.toBe(first["webhook-timestamp"])
    expect(retry["webhook-signature"]).not.toBe(first["webhook-signature"])
    expect(() => verify(secret, body, first)).not.toThrow()
    expect(() => verify(secret, body, retry)).not.toThrow()
  })

  it("signs the exact body: a changed byte no longer verifies", async () => {
    const secret = newSecret()
    const headers = signed({ id: "evt_2", at: new Date(), body, secrets: [secret] })
    expect(() => verify(secret, body.replace("webhook.test", "webhook.tesT"), headers)).toThrow(
      WebhookVerificationError
    )
  })

  it.each([
    ["no secret", { secrets: [] as Array<string> }, { ok: false, reason: "no_secret" }],
    [
      "a malformed second secret",
      { secrets: [newSecret(), "whsec_short"] },
      { ok: false, reason: "invalid_secret", index: 1 }
    ],
    ["an empty id", { id: "" }, { ok: false, reason: "invalid_id" }],
    ["an id with a space", { id: "evt 1" }, { ok: false, reason: "invalid_id" }],
    ["an id with a line break", { id: "evt_1\r\nx-injected: 1" }, { ok: false, reason: "invalid_id" }]
  ])("refuses %s and says why, without throwing", async (_, change, expected) => {
    expect(signedHeaders({ id: "evt_1", at: new Date(), body, secrets: [newSecret()], ...change })).toEqual(expected)
  })

  it("any body and id, signed with one to three secrets, verifies with each of them and with no other", async () => {
    const { parameters } = propSettings("signatures verify with each active secret", { quick: 50, deep: 1000 })
    fc.assert(
      fc.property(
        fc.stringMatching(/^[\x21-\x7e]{1,64}$/),
        binaryString({ maxLength: 200 }),
        fc.integer({ min: 1, max: 3 }),
        (id, payload, count) => {
          const secrets = Array.from({ length: count }, newSecret)
          const headers = signed({ id, at: new Date(), body: payload, secrets })
          for (const secret of secrets) verify(secret, payload, headers)
          expect(() => verify(newSecret(), payload, headers)).toThrow(WebhookVerificationError)
        }
      ),
      parameters
    )
  })
})
