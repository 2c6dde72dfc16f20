import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import { afterAll, describe, expect, it } from "vitest"
import { Api } from "../../src/Api.js"
import { openApiDocument } from "../../src/Http/OpenApiDocument.js"

const run = promisify(execFile)
const bin = (name: string) => join(process.cwd(), "node_modules", ".bin", name)
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

/** The document exactly as `/openapi.json` serves it (src/Docs/Http.ts calls the same function). */
const spec = openApiDocument(Api, "https://booking.partner-api.se")
const dir = mkdtempSync(join(tmpdir(), "openapi-"))
const file = join(dir, "openapi.json")
writeFileSync(file, JSON.stringify(spec, null, 2))
writeFileSync(join(dir, ".spectral.yaml"), 'extends: ["spectral:oas"]\n')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every schema of the document with its example, if any: request bodies and responses. */
const mediaOf = (document: any) =>
  Object.entries<any>(document.paths).flatMap(([path, operations]) =>
    Object.entries<any>(operations).flatMap(([method, operation]) => [
      ...Object.entries<any>(operation.requestBody?.content ?? {}).map(([type, media]) => ({
        where: `${method} ${path} request ${type}`,
        media
      })),
      ...Object.entries<any>(operation.responses).flatMap(([status, response]) =>
        Object.entries<any>(response.content ?? {}).map(([type, media]) => ({
          where: `${method} ${path} ${status} ${type}`,
          media
        }))
      )
    ])
  )

describe("the OpenAPI document", () => {
  it("passes Redocly's recommended ruleset without an error or warning", async () => {
    const { stdout, stderr } = await run(bin("redocly"), ["lint", file, "--format", "json"], {
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
    }).catch((error) => error)
    const report = JSON.parse(stdout)
    expect(report.problems, stderr).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  })

  it("passes Spectral's spectral:oas ruleset without an error, warning or hint", async () => {
    const output = join(dir, "spectral.json")
    const { stderr } = await run(
      bin("spectral"),
      ["lint", file, "--ruleset", join(dir, ".spectral.yaml"), "-f", "json", "-o", output, "--fail-severity", "hint"],
      { cwd: dir }
    ).catch((error) => error)
    expect(JSON.parse(readFileSync(output, "utf8")), stderr).toEqual([])
  })

  it("compiles every schema with Ajv (JSON Schema 2020-12, formats checked) and every example matches its schema", () => {
    const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }))
    const local = (schema: unknown) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components.json#/$defs/'))
    ajv.addSchema({ $id: "components.json", $defs: local(spec.components.schemas) })
    const failures: Array<string> = []
    for (const { where, media } of mediaOf(spec)) {
      const validate = ajv.compile(local(media.schema))
      if (media.example !== undefined && !validate(media.example))
        failures.push(`${where}: ${ajv.errorsText(validate.errors)}`)
    }
    expect(failures).toEqual([])
  })

  it("has an example for every request and success body, and documents the headers a partner relies on", () => {
    const text = JSON.stringify(spec)
    expect(text.match(/"\$id"|lessThanOrEqualTo|character\(s\)|"nonNegative"/)?.[0]).toBeUndefined()
    for (const { where, media } of mediaOf(spec)) {
      if (/ (2\d\d) | request /.test(where)) expect(media.example, where).toBeDefined()
    }
    const operations = Object.values<any>(spec.paths).flatMap((each) => Object.values<any>(each))
    for (const operation of operations) {
      for (const response of Object.values<any>(operation.responses))
        expect(response.headers?.["X-Request-Id"], operation.operationId).toBeDefined()
      if (operation.requestBody === undefined) {
        const codes = JSON.stringify(operation.responses)
        expect(codes, operation.operationId).not.toMatch(/MalformedJson|PayloadTooLarge|UnsupportedMediaType/)
      }
    }
    const confirm = spec.paths["/api/public/bookings"].post.responses
    expect(confirm["429"].headers).toHaveProperty("Retry-After")
    expect(confirm["201"].headers).toHaveProperty("RateLimit")
    expect(spec.paths["/api/public/requests/capabilities"].get.responses["304"].headers).toHaveProperty("ETag")
    expect(spec.servers).toEqual([{ url: "https://booking.partner-api.se", description: "This service" }])
    // The document grows with its operations, not with repeated schemas: shared components keep an
    // operation's share under 8,000 characters (32 operations: ~6,900 each).
    expect(JSON.stringify(spec).length / operations.length).toBeLessThan(8_000)
  })
})
