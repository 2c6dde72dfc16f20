import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { vi } from "vitest"
import { addressOf, freezableProxy, makeDatabase } from "../support/Database.js"
import { finalStatusOf, postHead, rawConnect, searchBodyFor } from "../support/Http.js"
import { servingPort, spawnServer } from "../support/Server.js"

/**
 * Short database timeouts, so a frozen call is given up in a few seconds rather than the default five
 * and a half; the statement timeout stays long enough for the start's statements on a loaded
 * 2-core machine (at 1 s one was cut there now and then, and the server exited before serving).
 */
const timeouts = { DATABASE_CONNECT_TIMEOUT_MS: "1000", DATABASE_STATEMENT_TIMEOUT_MS: "2500" }

const timed = async (call: () => Promise<Response>) => {
  const started = performance.now()
  const response = await call()
  await response.arrayBuffer()
  return { status: response.status, ms: Math.round(performance.now() - started) }
}

describe("a database that freezes under a running server", () => {
  it.live(
    "answers 503 while frozen instead of hanging, recovers without a restart, and stops with exit 0 mid-freeze",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const proxy = yield* freezableProxy(addressOf(url))
        const dataDir = mkdtempSync(join(tmpdir(), "booking-outage-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
        yield* Effect.promise(async () => {
          const server = spawnServer({ ...timeouts, DATABASE_URL: proxy.urlFor(url), DATA_DIR: dataDir, PORT: "0" })
          const port = await servingPort(server)
          const base = `http://127.0.0.1:${port}`
          const post = (path: string, body: unknown) => () =>
            fetch(`${base}${path}`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(body)
            })
          const found = await fetch(`${base}/api/public/booking-options`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(searchBodyFor("nästa vecka"))
          }).then((response) => response.json() as Promise<any>)
          const option = found.options[0]
          const confirmBody = (key: string) => ({
            booking_option_id: option.booking_option_id,
            customer: { name: "Karin Berg", phone: "0701234567", email: "karin@example.se" },
            service_location: { country_code: "SE", address: "Sveavägen 44", postcode: "111 22" },
            user_consent_confirmed: true,
            booking_terms_accepted: true,
            booking_terms_version: option.terms.version,
            booking_terms_accepted_at: new Date().toISOString(),
            idempotency_key: key
          })
          const confirm = (key: string) => post("/api/public/bookings", confirmBody(key))
          const status = () => fetch(`${base}/api/public/bookings/${randomUUID()}`)

          proxy.freeze()
          const ready = await timed(() => fetch(`${base}/readyz`))
          const lookup = await timed(status)
          const confirmed = await timed(confirm("outage-1"))
          // Each call is answered (a hung one fails the test by its timeout); the times are reported below.
          expect(ready.status).toBe(503)
          for (const answer of [lookup, confirmed]) expect(answer.status).toBeGreaterThanOrEqual(500)

          proxy.thaw()
          const thawed = performance.now()
          await vi.waitFor(async () => expect((await fetch(`${base}/readyz`)).status).toBe(200), {
            timeout: 30_000,
            interval: 50
          })
          const recoveryMs = Math.round(performance.now() - thawed)
          expect((await status()).status).toBeLessThan(500)

          proxy.freeze()
          const confirmation = Buffer.from(JSON.stringify(confirmBody("outage-2")))
          const inFlight = await rawConnect(port)
          inFlight.socket.write(postHead("/api/public/bookings", confirmation.length))
          await vi.waitFor(() => expect(inFlight.received()).toMatch(/^HTTP\/1\.1 100 Continue/))
          inFlight.socket.write(confirmation)
          const signalled = performance.now()
          server.child.kill("SIGTERM")
          expect(await server.exited).toBe(0)
          const stopMs = Math.round(performance.now() - signalled)
          await inFlight.closed
          expect(finalStatusOf(inFlight.received())).toBeGreaterThanOrEqual(500)
          proxy.thaw()
          console.info(
            `frozen database: /readyz ${ready.status} in ${ready.ms} ms, status lookup ${lookup.status} in ${lookup.ms} ms, ` +
              `confirm ${confirmed.status} in ${confirmed.ms} ms; ready again ${recoveryMs} ms after the thaw; ` +
              `SIGTERM to exit during a freeze with a confirm in flight: ${stopMs} ms`
          )
        })
      }).pipe(Effect.scoped),
    90_000
  )
})
