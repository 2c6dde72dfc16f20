import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { chromium } from "playwright-core"
import { TestServer } from "../support/Server.js"

/** Debian's package; CHROMIUM_PATH points elsewhere. */
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

const loopback = new Set(["127.0.0.1", "localhost", "[::1]"])

const screenshotPath = join(import.meta.dirname, "..", "..", "test-results", "docs.png")

describe("/docs in a real Chromium", () => {
  it.layer(TestServer())((it) => {
    it.effect("loads nothing from outside the server, and renders the API reference", () =>
      Effect.gen(function* () {
        expect(existsSync(executablePath), `no Chromium at ${executablePath} (apt-get install chromium)`).toBe(true)
        const address = (yield* HttpServer.HttpServer).address
        if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("the server has no TCP address"))
        const origin = `http://127.0.0.1:${address.port}`
        const profile = mkdtempSync(join(tmpdir(), "docs-chromium-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(profile, { recursive: true, force: true })))
        const context = yield* Effect.acquireRelease(
          Effect.promise(() =>
            chromium.launchPersistentContext(profile, {
              executablePath,
              headless: true,
              args: [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync"
              ]
            })
          ),
          (context) => Effect.promise(() => context.close())
        )
        const requested: Array<string> = []
        const complaints: Array<string> = []
        context.on("request", (request) => requested.push(request.url()))
        const page = context.pages()[0] ?? (yield* Effect.promise(() => context.newPage()))
        page.on("console", (message) => {
          if (message.type() === "error" || message.type() === "warning") complaints.push(message.text())
        })
        page.on("pageerror", (error) => complaints.push(error.message))
        const response = yield* Effect.promise(() => page.goto(`${origin}/docs`, { waitUntil: "networkidle" }))
        expect(response?.status()).toBe(200)
        expect(yield* Effect.promise(() => page.title())).toBe("Home-service booking API (Sweden)")
        expect(yield* Effect.promise(() => page.locator("h1").innerText())).toBe("Home-service booking API (Sweden)")
        const operations = yield* Effect.promise(() => page.locator("section.operation").count())
        expect(operations).toBeGreaterThanOrEqual(8)
        expect(
          yield* Effect.promise(() => page.getByText("/api/public/bookings/{booking_id}").first().isVisible())
        ).toBe(true)
        mkdirSync(join(screenshotPath, ".."), { recursive: true })
        const png = yield* Effect.promise(() => page.screenshot({ path: screenshotPath, fullPage: false }))
        expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")

        expect(requested.length).toBeGreaterThanOrEqual(1)
        expect(requested.filter((url) => !loopback.has(new URL(url).hostname))).toEqual([])
        expect(complaints).toEqual([])
      }).pipe(Effect.scoped)
    )
  })
})
