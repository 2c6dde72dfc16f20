import { createServer } from "node:net"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { generate } from "selfsigned"
import { WebhookVerificationError } from "standardwebhooks"
import { type Delivery, maxResponseBytes, sendAttempt } from "../../src/Delivery/Send.js"
import { newSecret, signedHeaders } from "../../src/Delivery/Signing.js"
import { eventBody, webhookTest } from "../../src/Domain/WebhookEvents.js"
import { type CheckedAddress, checkDestination, type Lookup } from "../../src/Shared/Destination.js"
import { answerStatus, hang, type Receiver, startReceiver, verifyWith } from "../support/Receivers.js"

const secret = newSecret()
const event = webhookTest({ id: "ep_1", sandbox: false }, new Date())
const body = eventBody(event)

const signed = (id: string, secrets: ReadonlyArray<string> = [secret], at = new Date()) => {
  const result = signedHeaders({ id, at, body, secrets })
  if (!result.ok) throw new Error(`signing failed: ${result.reason}`)
  return result.headers
}

const deliveryTo = (receiver: Receiver, change: Partial<Delivery> = {}): Delivery => ({
  url: receiver.urlAt(),
  address: receiver.address,
  headers: signed("msg_1"),
  body,
  ...change
})

/** A port that nothing listens on: taken from the system, then let go. */
const closedPort = async () => {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const { port } = server.address() as { port: number }
  await new Promise<void>((closed) => server.close(() => closed()))
  return port
}

describe("sendAttempt", () => {
  it("POSTs the JSON body with headers the reference library verifies", async () => {
    const receiver = await startReceiver()
    const result = await sendAttempt(deliveryTo(receiver))
    expect(result).toMatchObject({ ok: true, status: 200, gone: false })
    expect(result.error).toBeUndefined()
    const [delivery] = receiver.received
    expect(delivery).toMatchObject({ method: "POST", path: "/hooks/booking", body })
    expect(delivery!.headers["content-type"]).toBe("application/json")
    expect(verifyWith(secret, delivery!)).toEqual(event)
  })

  it("during a rotation, one delivery verifies with the old secret and with the new", async () => {
    const [current, previous] = [newSecret(), newSecret()]
    const receiver = await startReceiver()
    await sendAttempt(deliveryTo(receiver, { headers: signed("msg_rotation", [current, previous]) }))
    const [delivery] = receiver.received
    expect(verifyWith(current, delivery!)).toEqual(event)
    expect(verifyWith(previous, delivery!)).toEqual(event)
    expect(() => verifyWith(newSecret(), delivery!)).toThrow(WebhookVerificationError)
  })

  it("sends a retried event under the same webhook-id, each attempt signed at its own time", async () => {
    const statuses = [503, 200]
    const receiver = await startReceiver((request, response) => answerStatus(statuses.shift()!)(request, response))
    const first = await sendAttempt(
      deliveryTo(receiver, { headers: signed("msg_retried", [secret], new Date(Date.now() - 5_000)) })
    )
    const retry = await sendAttempt(deliveryTo(receiver, { headers: signed("msg_retried") }))
    expect(first).toMatchObject({ ok: false, status: 503 })
    expect(retry).toMatchObject({ ok: true, status: 200 })
    const [once, again] = receiver.received
    expect(again!.headers["webhook-id"]).toBe(once!.headers["webhook-id"])
    expect(again!.headers["webhook-timestamp"]).not.toBe(once!.headers["webhook-timestamp"])
    expect(verifyWith(secret, once!)).toEqual(event)
    expect(verifyWith(secret, again!)).toEqual(event)
  })

  it("gives up on a receiver that never answers when its timeout is up", async () => {
    const receiver = await startReceiver(hang)
    const result = await sendAttempt(deliveryTo(receiver, { timeoutMs: 100 }))
    expect(result).toMatchObject({ ok: false, gone: false, error: "no answer within 100 ms" })
    expect(result.status).toBeUndefined()
    expect(receiver.received).toHaveLength(1)
  })

  it("takes a 2xx as delivered when its body stalls past the timeout: the status is the answer", async () => {
    const receiver = await startReceiver((_request, response) => {
      response.writeHead(202)
      response.write("accepted, still writing")
    })
    expect(await sendAttempt(deliveryTo(receiver, { timeoutMs: 100 }))).toMatchObject({ ok: true, status: 202 })
  })

  it("counts a 500 as a failure and quotes what the receiver said", async () => {
    const receiver = await startReceiver(answerStatus(500, "database\nunavailable"))
    expect(await sendAttempt(deliveryTo(receiver))).toMatchObject({
      ok: false,
      status: 500,
      gone: false,
      error: "answered 500: database unavailable"
    })
  })

  it("says gone on 410, so the caller can stop sending to the endpoint", async () => {
    const receiver = await startReceiver(answerStatus(410))
    expect(await sendAttempt(deliveryTo(receiver))).toMatchObject({ ok: false, status: 410, gone: true })
  })

  it("does not follow a redirect, and names it", async () => {
    const elsewhere = await startReceiver()
    const receiver = await startReceiver((_request, response) => {
      response.writeHead(301, { location: elsewhere.url })
      response.end()
    })
    const result = await sendAttempt(deliveryTo(receiver))
    expect(result).toMatchObject({
      ok: false,
      status: 301,
      gone: false,
      error: `redirect 301 not followed (to ${elsewhere.url})`
    })
    expect(elsewhere.received).toHaveLength(0)
  })

  it("reads no more than 4 KB of a 10 MB answer that never ends, and does not wait for the rest", async () => {
    const tenMegabytes = Buffer.alloc(10 * 1024 * 1024, "x")
    const receiver = await startReceiver((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" })
      response.write(tenMegabytes)
    })
    const timeoutMs = 20_000
    const result = await sendAttempt(deliveryTo(receiver, { timeoutMs }))
    expect(result).toMatchObject({ ok: true, status: 200 })
    expect(result.durationMs).toBeLessThan(timeoutMs)
  })

  it("quotes no more than a short excerpt of a huge error body", async () => {
    const receiver = await startReceiver(answerStatus(502, "y".repeat(10 * 1024 * 1024)))
    const result = await sendAttempt(deliveryTo(receiver))
    expect(result).toMatchObject({ ok: false, status: 502 })
    expect(result.error!.length).toBeLessThan(maxResponseBytes)
    expect(result.error).toMatch(/^answered 502: y{200}…$/)
  })

  it("fails, without a status, when the receiver closes the connection", async () => {
    const receiver = await startReceiver((request) => request.socket.destroy())
    const result = await sendAttempt(deliveryTo(receiver))
    expect(result.ok).toBe(false)
    expect(result.status).toBeUndefined()
    expect(result.error).toMatch(/socket hang up|ECONNRESET/)
  })

  it("fails, without a status, when nothing listens", async () => {
    const port = await closedPort()
    const result = await sendAttempt({
      url: new URL(`http://127.0.0.1:${port}/hooks`),
      address: { address: "127.0.0.1", family: 4 },
      headers: signed("msg_refused"),
      body
    })
    expect(result).toMatchObject({ ok: false, gone: false })
    expect(result.error).toMatch(/ECONNREFUSED/)
  })

  it("connects to the address it is given, keeping the URL's name in the Host header", async () => {
    const receiver = await startReceiver()
    // .test names never resolve (RFC 2606): only the pinned address can lead to the receiver.
    const result = await sendAttempt(deliveryTo(receiver, { url: receiver.urlAt("hooks.partner.test") }))
    expect(result).toMatchObject({ ok: true, status: 200 })
    expect(receiver.received[0]!.headers.host).toBe(`hooks.partner.test:${receiver.port}`)
  })
})

describe("sendAttempt over https", () => {
  let certificate: { readonly key: string; readonly cert: string }
  let otherName: { readonly key: string; readonly cert: string }
  const certificateFor = async (name: string) => {
    const pems = await generate([{ name: "commonName", value: name }], {
      keyType: "ec",
      algorithm: "sha256",
      extensions: [
        { name: "basicConstraints", cA: true },
        { name: "subjectAltName", altNames: [{ type: 2, value: name }] }
      ]
    })
    return { key: pems.private, cert: pems.cert }
  }

  beforeAll(async () => {
    certificate = await certificateFor("hooks.partner.test")
    otherName = await certificateFor("other.partner.test")
  })

  it("sends to the checked address even when the name's answer changes between check and send", async () => {
    const receiver = await startReceiver(answerStatus(200), { tls: certificate })
    const answers: Array<CheckedAddress> = [receiver.address, { address: "203.0.113.50", family: 4 }]
    let lookups = 0
    const lookup: Lookup = async () => [answers[Math.min(lookups++, answers.length - 1)]!]
    const url = receiver.urlAt("hooks.partner.test")

    const checked = await checkDestination(url, { production: false, lookup })
    if (!checked.ok) throw new Error(checked.message)
    const result = await sendAttempt({
      url: checked.url,
      address: checked.addresses[0]!,
      headers: signed("msg_pinned"),
      body,
      ca: certificate.cert
    })

    expect(result).toMatchObject({ ok: true, status: 200 })
    expect(lookups).toBe(1)
    const [delivery] = receiver.received
    expect(delivery!.servername).toBe("hooks.partner.test")
    expect(delivery!.headers.host).toBe(`hooks.partner.test:${receiver.port}`)
    expect(verifyWith(secret, delivery!)).toEqual(event)
  })

  it("checks the certificate against the URL's name, not the address connected to", async () => {
    const receiver = await startReceiver(answerStatus(200), { tls: otherName })
    const result = await sendAttempt(
      deliveryTo(receiver, { url: receiver.urlAt("hooks.partner.test"), ca: otherName.cert })
    )
    expect(result).toMatchObject({ ok: false, gone: false })
    expect(result.error).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/)
    expect(receiver.received).toHaveLength(0)
  })

  it("refuses a certificate nobody vouches for", async () => {
    const receiver = await startReceiver(answerStatus(200), { tls: certificate })
    const result = await sendAttempt(deliveryTo(receiver, { url: receiver.urlAt("hooks.partner.test") }))
    expect(result).toMatchObject({ ok: false, gone: false })
    expect(result.error).toMatch(/self.signed|unable to verify/i)
    expect(receiver.received).toHaveLength(0)
  })
})
