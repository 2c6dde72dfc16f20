import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpServer } from "effect/http"
import { TestClock } from "effect/testing"
import { buildPromiseEntry, promiseEntry } from "../scripts/clientPromiseEntry.js"
import { partnerProgram } from "../scripts/clientPromiseProgram.js"
import type * as ClientPromise from "../src/ClientPromise.js"
import { confirmBody, searchBodyFor } from "./support/Http.js"
import { TestServer, testNow } from "./support/Server.js"

const token = "partner-promise-token-0123456789"

/** The errors tsc reported for `file` (its lines and their indented continuations), "" for none. */
const errorsOf = (report: string, file: string) => {
  let current = false
  return report
    .split("\n")
    .filter((line) => {
      if (!/^\s/.test(line)) current = line.includes(`${file}(`)
      return current && line.length > 0
    })
    .join("\n")
}

/** The entry as the pack builds it (the bundle and its declarations), in a folder of its own. */
const dir = mkdtempSync(join(tmpdir(), "booking-client-promise-"))
/** Where a partner's programs are type-checked: one folder per checkout, kept between runs. */
const typecheckDir = join(
  tmpdir(),
  `booking-client-promise-typecheck-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12)}`
)
let entry: typeof ClientPromise
beforeAll(async () => {
  await buildPromiseEntry(dir)
  entry = await import(pathToFileURL(join(dir, promiseEntry.js)).href)
}, 60_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The test server's address, with the test's clock where the server's stands. */
const origin = Effect.gen(function* () {
  yield* TestClock.setTime(testNow)
  const { address } = yield* HttpServer.HttpServer
  if (address._tag === "UnixPathAddress") return yield* Effect.die(new Error("the server has no TCP address"))
  return `http://127.0.0.1:${address.port}`
})

/** The answer's JSON as a plain fetch sees it, to hold the client's answer against. */
const raw = (url: string) =>
  Effect.promise(() =>
    fetch(url, { headers: { authorization: `Bearer ${token}` } }).then(async (response) => ({
      status: response.status,
      body: await response.json()
    }))
  )

const rejection = (call: () => Promise<unknown>) =>
  Effect.promise(() =>
    call().then(
      () => undefined,
      (error: unknown) => error
    )
  )

describe("the client's /promise entry, bundled as the pack bundles it", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }), { timeout: 60_000 })((it) => {
    it.effect("searches, confirms, replays and looks up a booking, answering the wire JSON", () =>
      Effect.gen(function* () {
        const base = yield* origin
        const client = entry.createBookingClient({ baseUrl: `${base}/`, token })
        const found = yield* Effect.promise(() => client.search(searchBodyFor("nästa vecka förmiddag")))
        const option = found.options[0]!
        expect(option.booking_option_id.length).toBeGreaterThan(20)
        /** The shared body, its literal fields (widened by the helper) spelled as the types want them. */
        const body = {
          ...confirmBody(option.booking_option_id, option.terms.version, "promise-confirm-1"),
          service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "111 22" },
          user_consent_confirmed: true,
          consent_source: "chat",
          booking_terms_accepted: true
        } as const
        const confirmed = yield* Effect.promise(() => client.confirm(body, { idempotencyKey: "promise-confirm-1" }))
        expect(confirmed).toMatchObject({ ok: true, booking_created: true, idempotent_replay: false })
        const replayed = yield* Effect.promise(() => client.confirm(body, { idempotencyKey: "promise-confirm-1" }))
        expect(replayed).toMatchObject({ booking_created: true, idempotent_replay: true })
        expect(replayed.booking.id).toBe(confirmed.booking.id)
        const status = yield* Effect.promise(() => client.status(confirmed.request_id))
        expect(status).toEqual((yield* raw(`${base}/api/public/bookings/${confirmed.request_id}`)).body)
        expect(status.found && status.booking.id).toBe(confirmed.booking.id)
      })
    )

    it.effect("rejects a refusal with BookingApiError: the status and the contract's error body as sent", () =>
      Effect.gen(function* () {
        const base = yield* origin
        const client = entry.createBookingClient({ baseUrl: base, token })
        const missing = yield* rejection(() => client.requestStatus("req_no_such_request"))
        expect(missing).toBeInstanceOf(entry.BookingApiError)
        const refusal = missing as ClientPromise.BookingApiError
        const answer = yield* raw(`${base}/api/public/requests/req_no_such_request`)
        expect(answer.status).toBe(404)
        expect({ status: refusal.status, body: refusal.body }).toEqual(answer)
        expect(refusal.body).toMatchObject({ ok: false, error: "request_not_found", status: 404 })

        const unauthenticated = yield* rejection(() =>
          entry.createBookingClient({ baseUrl: base }).status("bkg_anything")
        )
        expect(unauthenticated).toMatchObject({ name: "BookingApiError", status: 401 })
        expect((unauthenticated as ClientPromise.BookingApiError).body.error).toBe("unauthorized")
      })
    )
  })

  it("rejects an answer the endpoint's schema refuses with UnexpectedAnswerError, keeping its text", async () => {
    const server = createServer((_, response) => response.end(JSON.stringify({ ok: true, options: "none" })))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const client = entry.createBookingClient({ baseUrl: `http://127.0.0.1:${port}` })
      const error = await client.search(searchBodyFor("nästa vecka")).then(
        () => undefined,
        (error: unknown) => error
      )
      expect(error).toBeInstanceOf(entry.UnexpectedAnswerError)
      expect(error).toMatchObject({ status: 200, text: '{"ok":true,"options":"none"}' })
    } finally {
      server.close()
    }
  })

  it("type-checks a partner's program against its declarations with no effect installed, and refuses a wrong one", async () => {
    const wrong = `import { BookingApiError, createBookingClient } from "./promise.js"

const client = createBookingClient({ baseUrl: "https://api.example.se" })
export const wrong = async (error: unknown) => {
  await client.search({ vertical_id: "vvs", job_type_id: "install_faucet", location: { postcode: "111 22", street: "x" } })
  if (error instanceof BookingApiError && error.body.error === "no_such_code") return 1
  return client.status(42)
}
`
    // One tsc program for both files (each a module of its own): one compiler start and one read of
    // the declarations instead of two; its report is split by the file each error names.
    // In a folder kept between runs, with tsc's incremental record: a run where the entry's
    // declarations did not change checks nothing again. Outside the project, so no `effect` is found.
    const typecheck = (sources: Readonly<Record<string, string>>) => {
      mkdirSync(typecheckDir, { recursive: true })
      for (const file of Object.values(promiseEntry)) copyFileSync(join(dir, file), join(typecheckDir, file))
      for (const [name, source] of Object.entries(sources)) writeFileSync(join(typecheckDir, `${name}.ts`), source)
      const tsconfig = {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noEmit: true,
          types: [],
          incremental: true,
          tsBuildInfoFile: "tsbuildinfo.json"
        },
        files: Object.keys(sources).map((name) => `${name}.ts`)
      }
      writeFileSync(join(typecheckDir, "tsconfig.programs.json"), JSON.stringify(tsconfig))
      const tsc = join(process.cwd(), "node_modules", "typescript", "bin", "tsc")
      return promisify(execFile)(process.execPath, [tsc, "-p", join(typecheckDir, "tsconfig.programs.json")]).then(
        () => "",
        (error: { stdout: string }) => error.stdout
      )
    }
    mkdirSync(typecheckDir, { recursive: true })
    writeFileSync(join(typecheckDir, "package.json"), JSON.stringify({ type: "module" }))
    const report = await typecheck({ flow: partnerProgram("./promise.js"), wrong })
    const [flowErrors, wrongErrors] = [errorsOf(report, "flow.ts"), errorsOf(report, "wrong.ts")]
    expect(flowErrors).toBe("")
    expect(wrongErrors).toMatch(/'street' does not exist/)
    expect(wrongErrors).toMatch(/"no_such_code"' have no overlap/)
    expect(wrongErrors).toMatch(/'number' is not assignable to parameter of type 'string'/)
  }, 60_000)
})
