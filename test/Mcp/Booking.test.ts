import { describe, expect, it } from "@effect/vitest"
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { get, postJson, searchBodyFor } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { type Connected, callTool, connect, initializeMessage, overMcp, postMcp, stepOf } from "./McpClient.js"

const token = "partner-mcp-a-token-0123456789"
const otherToken = "partner-mcp-b-token-9876543210"
const auth = { authorization: `Bearer ${token}` }

const searchArgs = (overrides: Record<string, unknown> = {}) => ({ ...searchBodyFor("nästa vecka"), ...overrides })

const customer = { name: "Sven Ek", phone: "+46 70 222 33 44", email: "sven.ek@example.se" }

const at = (postcode: string) => ({ location: { country_code: "SE", postcode } })

let keys = 0
/** Consent and terms as a user gives them, for an option searched at `postcode`. */
const confirmArgs = (option: any, postcode = "111 22", overrides: Record<string, unknown> = {}) => ({
  booking_option_id: option.booking_option_id,
  customer,
  service_location: { country_code: "SE", address: "Götgatan 9", postcode },
  user_consent_confirmed: true,
  user_consent_statement: "Jag godkänner att mina uppgifter skickas till hantverkaren.",
  consent_collected_at: "2026-11-23T08:58:00+01:00",
  consent_source: "chat",
  booking_terms_accepted: true,
  booking_terms_version: option.terms_version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: `mcp-key-${++keys}`,
  ...overrides
})

const requestArgs = (overrides: Record<string, unknown> = {}) => ({
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
  user_consent_confirmed: true,
  user_consent_statement: "Användaren godkände att uppgifterna skickas till hantverkare.",
  consent_source: "chat",
  customer: { first_name: "Karin", last_name: "Berg", phone: "+46 70 765 43 21", email: "karin.berg@example.se" },
  location: { address: "Sveavägen 44", postcode: "111 34" },
  timing: { preferred_time_text: "så snart som möjligt" },
  idempotency_key: `mcp-request-${++keys}`,
  ...overrides
})

const search = ({ client }: Connected, args: Record<string, unknown> = searchArgs()) =>
  Effect.gen(function* () {
    const result = yield* callTool(client, "search_booking_options", args)
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy()
    expect(result.structuredContent.direct_booking_available).toBe(true)
    return result.structuredContent.options as Array<any>
  })

const counts = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql<{ bookings: number; requests: number; keys: number }>`
    SELECT (SELECT count(*)::int FROM bookings) AS bookings, (SELECT count(*)::int FROM service_requests) AS requests,
      (SELECT count(*)::int FROM idempotency_keys) AS keys`
  return row!
})

/** The REST operation each tool is the MCP form of (get_booking_option has none). */
const restTwins: Record<string, string> = {
  get_capabilities: "GET /api/public/requests/capabilities",
  search_booking_options: "POST /api/public/booking-options",
  hold_booking_option: "POST /api/public/holds",
  release_hold: "DELETE /api/public/holds/{hold_id}",
  confirm_booking: "POST /api/public/bookings",
  get_booking_status: "GET /api/public/bookings/{booking_id}",
  cancel_booking: "POST /api/public/bookings/{booking_id}/cancel",
  reschedule_booking: "POST /api/public/bookings/{booking_id}/reschedule",
  create_follow_up_request: "POST /api/public/requests",
  get_follow_up_request: "GET /api/public/requests/{request_id}"
}

/** A JSON Schema with every `$ref` into `document` inlined (its siblings refine it) and Effect's `$id`s dropped. */
const resolved = (schema: unknown, document: any): unknown => {
  if (Array.isArray(schema)) return schema.map((item) => resolved(item, document))
  if (schema === null || typeof schema !== "object") return schema
  const { $ref, $id: _id, $defs: _defs, ...rest } = schema as Record<string, unknown>
  const target =
    typeof $ref === "string"
      ? (resolved(
          $ref
            .replace(/^#\//, "")
            .split("/")
            .reduce((node: any, key) => node?.[key], document),
          document
        ) as Record<string, unknown>)
      : {}
  return {
    ...target,
    ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, resolved(value, document)]))
  }
}

const toolNames = [
  "get_capabilities",
  "search_booking_options",
  "get_booking_option",
  "hold_booking_option",
  "release_hold",
  "confirm_booking",
  "get_booking_status",
  "cancel_booking",
  "reschedule_booking",
  "create_follow_up_request",
  "get_follow_up_request"
]

describe("MCP at /mcp, driven by the official SDK client", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` } }))((it) => {
    it.effect(
      "a client asking for 2025-11-25, 2025-06-18 or 2025-03-26 gets that version; another gets the newest",
      () =>
        Effect.gen(function* () {
          for (const [asked, answered] of [
            ["2025-11-25", "2025-11-25"],
            ["2025-06-18", "2025-06-18"],
            ["2025-03-26", "2025-03-26"],
            ["2031-01-01", "2025-11-25"]
          ] as const) {
            const opened = yield* postMcp(
              { ...initializeMessage, params: { ...initializeMessage.params, protocolVersion: asked } },
              auth
            )
            expect(opened.status, asked).toBe(200)
            expect(opened.body.result.protocolVersion, asked).toBe(answered)
          }
        })
    )

    it.effect(
      "initialize answers the newest version the SDK asks for and lists the eleven tools with the REST Schemas",
      () =>
        Effect.gen(function* () {
          const { client, transport } = yield* connect(auth)
          expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION)
          expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25")
          expect(transport.sessionId).toMatch(/^[\x21-\x7e]{32,}$/)
          expect(client.getServerVersion()?.name).toBe("home-service-booking-api")
          expect(client.getInstructions()).toContain("booking_created, availability_checked and provider_selected")

          const { tools } = yield* Effect.promise(() => client.listTools())
          expect(tools.map((tool) => tool.name)).toEqual(toolNames)
          const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
          for (const name of [
            "get_capabilities",
            "search_booking_options",
            "get_booking_status",
            "get_follow_up_request"
          ]) {
            expect(byName[name]!.annotations, name).toMatchObject({ readOnlyHint: true })
          }
          for (const name of ["confirm_booking", "create_follow_up_request"]) {
            expect(byName[name]!.annotations, name).toMatchObject({
              readOnlyHint: false,
              destructiveHint: false,
              idempotentHint: false
            })
            expect(byName[name]!.description, name).toContain("idempotency_key")
            expect(byName[name]!.description, name).toContain("consent")
          }
          expect(byName.search_booking_options!.description).toContain("direct_booking_available true")
          expect(byName.confirm_booking!.description).toContain("booking.status confirmed")
          for (const tool of tools) expect(tool.outputSchema, tool.name).toBeUndefined()
          const capabilities = (yield* get("/api/public/requests/capabilities")).body
          const operations = Object.values<any>(capabilities.endpoints).map(({ method, path }) => `${method} ${path}`)
          const prompt = yield* Effect.promise(() => client.getPrompt({ name: "agent_contract" }))
          const contract = prompt.messages[0]!.content
          for (const tool of tools) {
            expect(client.getInstructions(), tool.name).toContain(tool.name)
            const twin = restTwins[tool.name]
            if (twin === undefined) continue
            expect(operations, tool.name).toContain(twin)
            expect(contract.type === "text" ? contract.text : "", tool.name).toContain(`${twin} is ${tool.name}`)
          }

          // Every bound and rule of a tool's arguments is the REST request's, as /openapi.json documents it;
          // the idempotency key, which REST also takes as a header, is required of a tool call.
          const openapi = (yield* get("/openapi.json")).body
          const requestBody = (path: string, keyed = true) => {
            const schema = resolved(
              openapi.paths[path].post.requestBody.content["application/json"].schema,
              openapi
            ) as any
            return keyed ? { ...schema, required: [...schema.required, "idempotency_key"] } : schema
          }
          expect(
            resolved(byName.search_booking_options!.inputSchema, byName.search_booking_options!.inputSchema)
          ).toEqual(requestBody("/api/public/booking-options", false))
          expect(resolved(byName.confirm_booking!.inputSchema, byName.confirm_booking!.inputSchema)).toEqual(
            requestBody("/api/public/bookings")
          )
          expect(
            resolved(byName.create_follow_up_request!.inputSchema, byName.create_follow_up_request!.inputSchema)
          ).toEqual(requestBody("/api/public/requests"))
          const [bookingId] = openapi.paths["/api/public/bookings/{booking_id}"].get.parameters
          expect(byName.get_booking_status!.inputSchema.properties!.booking_id).toEqual(bookingId.schema)
          const [requestId] = openapi.paths["/api/public/requests/{request_id}"].get.parameters
          expect(byName.get_follow_up_request!.inputSchema.properties!.request_id).toEqual(requestId.schema)
        })
    )

    it.effect("the capabilities document is a resource and the assistant rules a prompt", () =>
      Effect.gen(function* () {
        const { client } = yield* connect()
        const { resources } = yield* Effect.promise(() => client.listResources())
        expect(resources).toMatchObject([{ uri: "booking://capabilities", mimeType: "application/json" }])
        const read = yield* Effect.promise(() => client.readResource({ uri: "booking://capabilities" }))
        const rest = yield* get("/api/public/requests/capabilities")
        const [contents] = read.contents
        expect(contents).toMatchObject({ uri: "booking://capabilities", mimeType: "application/json" })
        expect(JSON.parse(contents && "text" in contents ? contents.text : "")).toEqual(rest.body)
        const tool = yield* callTool(client, "get_capabilities")
        expect(tool.structuredContent.verticals.map((vertical: any) => vertical.vertical_id)).toEqual(
          rest.body.supported_verticals.map((vertical: any) => vertical.vertical_id)
        )

        const { prompts } = yield* Effect.promise(() => client.listPrompts())
        expect(prompts.map((prompt) => prompt.name)).toEqual(["agent_contract"])
        const prompt = yield* Effect.promise(() => client.getPrompt({ name: "agent_contract" }))
        const content = prompt.messages[0]!.content
        const text = content.type === "text" ? content.text : ""
        for (const rule of rest.body.agent_contract.truth_rules) expect(text).toContain(rule)
        for (const claim of rest.body.agent_contract.forbidden_claims) expect(text).toContain(claim)
        expect(text).toContain("explicitly agreed to share name, phone, e-mail and address")
        expect(text).toContain(rest.body.agent_contract.emergencies.advice_sv)
      })
    )

    it.effect(
      "a booking over MCP: search, option detail, confirm, status, each the REST facts, every truth flag set",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const mcp = yield* connect(auth)
          const restSearch = yield* postJson("/api/public/booking-options", searchArgs())
          const searched = yield* callTool(mcp.client, "search_booking_options", searchArgs())
          // REST's options, each said by what a program acts on; the signed ids' nonces differ per search.
          expect(searched.structuredContent).toMatchObject({
            ok: true,
            availability_checked: true,
            provider_selected: false,
            booking_created: false,
            direct_booking_available: true,
            options: restSearch.body.options.map((option: any) => ({
              booking_option_id: expect.any(String),
              expires_at: option.expires_at,
              provider: option.provider.name,
              slot: { start_at: option.slot.start_at, end_at: option.slot.end_at },
              price_sek: option.price.amount_sek,
              terms_version: option.terms.version,
              terms_url: option.terms.url
            }))
          })
          // The text renders each option in a line: what the model says, and the id it passes on.
          const text = searched.content[0]!.text!
          expect(() => JSON.parse(text)).toThrow()
          for (const [index, option] of restSearch.body.options.entries()) {
            const line = text.split("\n").find((each) => each.startsWith(`${index + 1}. `)) ?? ""
            expect(line).toContain(option.provider.name)
            expect(line).toContain(option.slot.label)
            expect(line).toContain(option.terms.version)
            expect(line).toContain(searched.structuredContent.options[index].booking_option_id)
            expect(line).toContain(option.cancellation_policy.summary_en.split(" The time can")[0])
          }

          const option = searched.structuredContent.options[0]
          // The full detail on demand: the option as REST's search words it, for the id MCP's gave.
          const detail = yield* callTool(mcp.client, "get_booking_option", {
            booking_option_id: option.booking_option_id
          })
          expect(detail.isError, JSON.stringify(detail.structuredContent)).toBeFalsy()
          expect(detail.structuredContent).toEqual({
            ...restSearch.body.options[0],
            booking_option_id: option.booking_option_id
          })
          expect(stepOf(detail)).toContain("hold_booking_option with this booking_option_id")
          const altered = `${option.booking_option_id.slice(0, -2)}xx`
          const refused = yield* callTool(mcp.client, "get_booking_option", { booking_option_id: altered })
          expect(refused).toMatchObject({ isError: true, structuredContent: { error: "option_invalid" } })

          const before = yield* counts
          const confirmed = yield* callTool(mcp.client, "confirm_booking", confirmArgs(option))
          expect(confirmed.isError, JSON.stringify(confirmed.structuredContent)).toBeFalsy()
          const body = confirmed.structuredContent
          expect(body).toMatchObject({
            ok: true,
            booking_created: true,
            availability_checked: true,
            provider_selected: true,
            idempotent_replay: false,
            booking: {
              status: "confirmed",
              provider: option.provider,
              slot: option.slot,
              price_sek: option.price_sek,
              terms_version: option.terms_version
            }
          })
          expect(JSON.stringify(confirmed)).not.toMatch(/Sven|222 33 44|example\.se|Götgatan/)
          expect(yield* counts).toMatchObject({ bookings: before.bookings + 1 })

          for (const id of [body.booking.id, body.request_id]) {
            const status = yield* callTool(mcp.client, "get_booking_status", { booking_id: id })
            const rest = (yield* get(`/api/public/bookings/${id}`, auth)).body
            expect(status.structuredContent).toMatchObject({
              found: true,
              booking_created: true,
              availability_checked: true,
              provider_selected: true,
              request_id: rest.request_id,
              booking: {
                id: rest.booking.id,
                status: "confirmed",
                version: rest.booking.version,
                provider: rest.booking.provider_name,
                slot: { start_at: rest.booking.slot_start_at, end_at: rest.booking.slot_end_at },
                price_sek: rest.booking.price_sek,
                terms_version: rest.booking.terms_version
              }
            })
            expect(stepOf(status)).toContain(`get_booking_status with booking_id "${rest.request_id}"`)
          }
          const other = yield* connect({ authorization: `Bearer ${otherToken}` })
          const foreign = yield* callTool(other.client, "get_booking_status", { booking_id: body.booking.id })
          expect(foreign.structuredContent).toMatchObject({ found: false })

          // Cancel over MCP: the preview changes nothing, the cancel says cancelled true, the status found false.
          const preview = yield* callTool(mcp.client, "cancel_booking", {
            booking_id: body.request_id,
            idempotency_key: "mcp-cancel-1",
            dry_run: true
          })
          expect(preview.isError, JSON.stringify(preview.structuredContent)).toBeFalsy()
          expect(preview.structuredContent).toMatchObject({ cancelled: false, booking_active: true, dry_run: true })
          expect(stepOf(preview)).toContain("the cancel_booking tool")
          const cancelled = yield* callTool(mcp.client, "cancel_booking", {
            booking_id: body.request_id,
            idempotency_key: "mcp-cancel-1"
          })
          expect(cancelled.structuredContent).toMatchObject({ cancelled: true, booking_active: false })
          const after = yield* callTool(mcp.client, "get_booking_status", { booking_id: body.booking.id })
          expect(after.structuredContent).toMatchObject({ found: false, cancellation: { cancelled_by: "customer" } })
          const again = yield* callTool(mcp.client, "reschedule_booking", {
            booking_id: body.booking.id,
            booking_option_id: option.booking_option_id,
            booking_terms_accepted: true,
            booking_terms_version: option.terms_version,
            booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
            idempotency_key: "mcp-move-1"
          })
          expect(again.isError).toBe(true)
          expect(again.structuredContent).toMatchObject({ ok: false, error: "booking_already_cancelled" })
        })
    )

    it.effect("options for a time that could not be searched as given say so first, as REST's step does", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* connect(auth)
        const said = (text: string) =>
          Effect.map(
            callTool(client, "search_booking_options", searchArgs({ timing: { preferred_time_text: text } })),
            stepOf
          )
        expect(yield* said("sportlovet")).toMatch(/^The time the user gave could not be searched as given/)
        const understood = yield* said("nästa vecka")
        expect(understood).not.toContain("could not be searched")
        expect(understood).toMatch(/^Nothing is booked yet\./)
      })
    )

    it.effect("a follow-up request over MCP is never a booking, and an emergency is refused with the 112 advice", () =>
      Effect.gen(function* () {
        const { client } = yield* connect(auth)
        const created = yield* callTool(client, "create_follow_up_request", requestArgs())
        expect(created.isError, JSON.stringify(created.structuredContent)).toBeFalsy()
        expect(created.structuredContent).toMatchObject({
          ok: true,
          booking_created: false,
          availability_checked: false,
          provider_selected: false,
          idempotent_replay: false,
          request: { status: "ready_to_send", vertical_id: "vvs", job_type_id: "leak_hidden" }
        })

        const emergencyArgs = requestArgs({ vertical_id: "electrician", job_type_id: "electrical_emergency" })
        const emergency = yield* callTool(client, "create_follow_up_request", emergencyArgs)
        const rest = yield* postJson("/api/public/requests", emergencyArgs, auth)
        expect(emergency).toMatchObject({ isError: true, structuredContent: overMcp(rest.body) })
        expect(rest.body).toMatchObject({ error: "emergency_not_supported", status: 400 })
      })
    )

    it.effect("an expired option is 409 option_expired with option_refresh_required, as a tool error", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const mcp = yield* connect(auth)
        const [option] = yield* search(mcp, searchArgs({ job_type_id: "install_toilet" }))
        yield* TestClock.setTime(Date.parse(option.expires_at))
        const before = yield* counts
        const args = confirmArgs(option)
        const expired = yield* callTool(mcp.client, "confirm_booking", args)
        expect(expired.isError).toBe(true)
        expect(expired.structuredContent).toMatchObject({
          ok: false,
          error: "option_expired",
          status: 409,
          option_refresh_required: true,
          safe_next_step: expect.any(String)
        })
        // The text renders the error body: its code, status and step, not the JSON again.
        expect(expired.content[0]!.text).toContain("error option_expired, status 409")
        expect(expired.content[0]!.text).toContain(`Next: ${stepOf(expired)}`)
        const rest = yield* postJson("/api/public/bookings", { ...args, idempotency_key: "rest-expired" }, auth)
        expect(rest.status).toBe(409)
        expect(expired.structuredContent).toEqual(overMcp(rest.body))
        expect(yield* counts).toEqual(before)
      })
    )

    it.effect("without a token: capabilities and search answer; confirm, status and requests are REST's 401", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const anonymous = yield* connect()
        expect((yield* callTool(anonymous.client, "get_capabilities")).isError).toBeFalsy()
        const [option] = yield* search(anonymous, searchArgs(at("113 51")))
        const before = yield* counts
        const attempts = [
          ["confirm_booking", confirmArgs(option, "113 51"), "/api/public/bookings"],
          ["create_follow_up_request", requestArgs(), "/api/public/requests"]
        ] as const
        for (const [tool, args, path] of attempts) {
          const refused = yield* callTool(anonymous.client, tool, args)
          const rest = yield* postJson(path, args)
          expect(rest.status).toBe(401)
          expect(refused, tool).toMatchObject({ isError: true, structuredContent: overMcp(rest.body) })
        }
        const status = yield* callTool(anonymous.client, "get_booking_status", { booking_id: "bkg_anything" })
        expect(status).toMatchObject({ isError: true, structuredContent: (yield* get("/api/public/bookings/x")).body })
        expect(yield* counts).toEqual(before)

        // A token that does not authenticate is refused before any session opens.
        const wrong = yield* Effect.exit(connect({ authorization: "Bearer not-a-partner-token-000" }))
        expect(Exit.isFailure(wrong) && (Cause.squash(wrong.cause) as { code?: number }).code).toBe(401)
      })
    )

    it.effect("a replayed idempotency key returns the same booking; another request with it is refused", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const mcp = yield* connect(auth)
        const options = yield* search(mcp, searchArgs(at("114 32")))
        const args = confirmArgs(options[0], "114 32")
        const first = yield* callTool(mcp.client, "confirm_booking", args)
        expect(first.structuredContent).toMatchObject({ booking_created: true, idempotent_replay: false })
        const before = yield* counts

        const again = yield* callTool(mcp.client, "confirm_booking", args)
        expect(again.structuredContent).toMatchObject({
          idempotent_replay: true,
          request_id: first.structuredContent.request_id
        })
        expect(again.structuredContent.booking).toEqual(first.structuredContent.booking)
        // The key belongs to the partner, not to the transport: REST replays what MCP booked.
        const overRest = yield* postJson("/api/public/bookings", args, auth)
        expect(overRest.status).toBe(200)
        expect(overRest.body.booking.id).toBe(first.structuredContent.booking.id)

        const reused = yield* callTool(
          mcp.client,
          "confirm_booking",
          confirmArgs(options[1], "114 32", { idempotency_key: args.idempotency_key })
        )
        expect(reused).toMatchObject({
          isError: true,
          structuredContent: { ok: false, error: "idempotency_key_reused", status: 409 }
        })
        expect(yield* counts).toEqual(before)

        const other = yield* connect({ authorization: `Bearer ${otherToken}` })
        const otherPartner = yield* callTool(
          other.client,
          "confirm_booking",
          confirmArgs(options[1], "114 32", { idempotency_key: args.idempotency_key })
        )
        expect(otherPartner.structuredContent).toMatchObject({ booking_created: true, idempotent_replay: false })

        const request = requestArgs()
        const stored = yield* callTool(mcp.client, "create_follow_up_request", request)
        const replayed = yield* callTool(mcp.client, "create_follow_up_request", request)
        expect(replayed.structuredContent).toMatchObject({
          idempotent_replay: true,
          request: { id: stored.structuredContent.request.id }
        })
      })
    )

    it.effect("arguments are decoded as REST bodies: consent, bounds and unknown fields give REST's 400 body", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const mcp = yield* connect(auth)
        const [option] = yield* search(mcp, searchArgs(at("116 20")))
        const before = yield* counts
        const cases = [
          ["confirm_booking", "/api/public/bookings", confirmArgs(option, "116 20", { user_consent_confirmed: false })],
          ["confirm_booking", "/api/public/bookings", confirmArgs(option, "116 20", { idempotency_key: undefined })],
          ["create_follow_up_request", "/api/public/requests", requestArgs({ user_consent_confirmed: false })],
          [
            "search_booking_options",
            "/api/public/booking-options",
            searchArgs({ location: { country_code: "NO", postcode: "0150" }, colour: "red" })
          ],
          [
            "search_booking_options",
            "/api/public/booking-options",
            searchArgs({ description: "Ring mig på 070-123 45 67 om köksblandaren" })
          ]
        ] as const
        for (const [tool, path, args] of cases) {
          const refused = yield* callTool(mcp.client, tool, JSON.parse(JSON.stringify(args)))
          const rest = yield* postJson(path, args, auth)
          expect(rest.status, JSON.stringify(rest.body)).toBe(400)
          expect(refused, `${tool} ${JSON.stringify(rest.body)}`).toMatchObject({
            isError: true,
            structuredContent: overMcp(rest.body)
          })
        }
        const consent = yield* callTool(
          mcp.client,
          "confirm_booking",
          confirmArgs(option, "116 20", { user_consent_confirmed: false })
        )
        expect(consent.structuredContent).toMatchObject({
          error: "invalid_request",
          consent_required_before_create: true,
          issues: [expect.stringMatching(/^user_consent_confirmed: must be true/)]
        })
        expect(yield* counts).toEqual(before)
      })
    )
  })
})
