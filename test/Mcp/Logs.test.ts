import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger } from "effect"
import { TestClock } from "effect/testing"
import { searchBodyFor } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { callTool, connect } from "./McpClient.js"

const token = "partner-logged-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

const searchArgs = searchBodyFor("nästa vecka", "118 25")

const customer = { name: "Greta Gustafsson", phone: "+46 70 555 12 34", email: "greta.gustafsson@example.se" }
const street = "Hornsgatan 128"

const confirmArgs = (option: any, idempotencyKey: string) => ({
  booking_option_id: option.booking_option_id,
  customer,
  service_location: { country_code: "SE", address: street, postcode: "118 25" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms_version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: idempotencyKey
})

/** Every log line the app writes, as the JSON logger would print it. */
const lines: Array<string> = []
const collector = Logger.layer([
  Logger.map(Logger.formatJson, (line) => {
    lines.push(line)
  })
])

describe("MCP logs", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }).pipe(Layer.provide(collector)))((it) => {
    it.effect("a booking, a refused confirm and a follow-up request over MCP log no personal data", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        lines.length = 0
        const { client } = yield* connect(auth)
        const searched = yield* callTool(client, "search_booking_options", searchArgs)
        const option = searched.structuredContent.options[0]
        const booked = yield* callTool(client, "confirm_booking", confirmArgs(option, "logged-1"))
        expect(booked.structuredContent.booking_created).toBe(true)
        const taken = yield* callTool(client, "confirm_booking", confirmArgs(option, "logged-2"))
        expect(taken.structuredContent.error).toBe("option_already_booked")
        const refused = yield* callTool(client, "confirm_booking", {
          ...confirmArgs(option, "logged-3"),
          user_consent_confirmed: false
        })
        expect(refused.structuredContent.error).toBe("invalid_request")
        const request = yield* callTool(client, "create_follow_up_request", {
          vertical_id: "vvs",
          job_type_id: "leak_hidden",
          description: "Fuktfläck i taket under badrummet.",
          user_consent_confirmed: true,
          customer,
          location: { address: street, postcode: "118 25" },
          timing: { urgency: "snarast" }
        })
        expect(request.structuredContent.ok).toBe(true)

        const log = lines.join("\n")
        expect(log).toContain('"route":"/mcp"')
        for (const secret of ["Greta", "Gustafsson", "555 12 34", "greta.gustafsson@example.se", "Hornsgatan"]) {
          expect(log).not.toContain(secret)
        }
      })
    )
  })
})
