import { execFile } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.js"
import { openApiDocument } from "../../src/Http/OpenApiDocument.js"

const run = promisify(execFile)
const bin = (name: string) => join(process.cwd(), "node_modules", ".bin", name)

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

/**
 * Inside the project, so the flow file resolves openapi-fetch from its node_modules; kept between
 * runs with tsc's incremental record, so a run where the document did not change checks nothing again.
 */
const dir = join(process.cwd(), ".cache", "generated-client")
mkdirSync(dir, { recursive: true })

/** The README's flow, written as a partner would against types generated from /openapi.json. */
const flow = `import createClient from "openapi-fetch"
import type { paths } from "./api.js"

const client = createClient<paths>({ baseUrl: "https://booking.partner-api.se" })
const auth = { Authorization: "Bearer partner-token" }

export const flow = async () => {
  const capabilities = await client.GET("/api/public/requests/capabilities")
  const verticals: ReadonlyArray<string> = capabilities.data?.supported_verticals.map((v) => v.vertical_id) ?? []
  const search = await client.POST("/api/public/booking-options", {
    body: {
      vertical_id: "vvs",
      job_type_id: "install_faucet",
      description: "Byta köksblandaren, den nya finns på plats",
      location: { country_code: "SE", postcode: "111 22" },
      timing: { preferred_time_text: "nästa vecka förmiddag" }
    }
  })
  if (search.error !== undefined) return search.error.error
  const option = search.data.options[0]
  if (option === undefined) return "no option"
  const booked = await client.POST("/api/public/bookings", {
    headers: { ...auth, "idempotency-key": "chat-4711-confirm" },
    body: {
      booking_option_id: option.booking_option_id,
      customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" },
      service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
      user_consent_confirmed: true,
      booking_terms_accepted: true,
      booking_terms_version: option.terms.version,
      booking_terms_accepted_at: new Date().toISOString()
    }
  })
  if (booked.error !== undefined) return booked.error.safe_next_step
  const created: true = booked.data.booking_created
  const status = await client.GET("/api/public/bookings/{booking_id}", {
    params: { path: { booking_id: booked.data.request_id } },
    headers: auth
  })
  const request = await client.POST("/api/public/requests", {
    headers: { ...auth, "idempotency-key": "chat-4711-request" },
    body: {
      vertical_id: "vvs",
      job_type_id: "leak_hidden",
      description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
      user_consent_confirmed: true,
      customer: { name: "Karin Berg", phone: "+46 70 765 43 21", email: "karin.berg@example.se" },
      location: { address: "Sveavägen 44", postcode: "111 34" },
      timing: { preferred_time_text: "så snart som möjligt" }
    }
  })
  return [verticals, created, status.data?.ok, request.data?.booking_created]
}
`

/** The same call with a key the contract does not have: the generated types must refuse it. */
const wrong = `import createClient from "openapi-fetch"
import type { paths } from "./api.js"

const client = createClient<paths>({ baseUrl: "https://booking.partner-api.se" })
export const wrong = () =>
  client.POST("/api/public/booking-options", {
    body: { vertical_id: "vvs", job_type_id: "install_faucet", location: { postcode: "111 22", street: "x" } }
  })
`

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
    incremental: true,
    tsBuildInfoFile: "tsbuildinfo.json"
  }
}

const typecheck = (file: string) =>
  run(bin("tsc"), ["-p", join(dir, file)], { cwd: dir }).then(
    () => "",
    (error: { stdout: string }) => error.stdout
  )

describe("a client generated from the served document (openapi-typescript + openapi-fetch)", () => {
  it("type-checks the README flow, and refuses a body the contract does not allow", async () => {
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(openApiDocument(Api, "https://booking.partner-api.se")))
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }))
    await run(bin("openapi-typescript"), [join(dir, "openapi.json"), "-o", join(dir, "api.d.ts")], { cwd: dir })
    writeFileSync(join(dir, "flow.ts"), flow)
    writeFileSync(join(dir, "wrong.ts"), wrong)
    // One tsc program for both modules: one compiler start and one read of the generated types
    // instead of two; its report is split by the file each error names.
    writeFileSync(join(dir, "tsconfig.programs.json"), JSON.stringify({ ...tsconfig, files: ["flow.ts", "wrong.ts"] }))
    const report = await typecheck("tsconfig.programs.json")
    const [flowErrors, wrongErrors] = [errorsOf(report, "flow.ts"), errorsOf(report, "wrong.ts")]
    expect(flowErrors).toBe("")
    expect(wrongErrors).toMatch(/error TS/)
  }, 60_000)
})
