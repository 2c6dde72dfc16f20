import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { get, postJson, searchBodyFor } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"
import { type Connected, callTool, connect, stepOf } from "./McpClient.js"

const tokenA = "partner-mcp-hold-a-0123456789"
const tokenB = "partner-mcp-hold-b-9876543210"
const authA = { authorization: `Bearer ${tokenA}` }
const authB = { authorization: `Bearer ${tokenB}` }
const sandboxToken = "sandbox-mcp-hold-0123456789ab"

let keys = 0
const key = (what: string) => `mcp-hold-${what}-${++keys}`

const slotOf = (option: any) => `${option.provider} ${option.slot.start_at}`

const search = ({ client }: Connected) =>
  Effect.gen(function* () {
    const result = yield* callTool(client, "search_booking_options", searchBodyFor("nästa vecka"))
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy()
    return result.structuredContent.options as Array<any>
  })

const confirmArgs = (option: any, holdId: string) => ({
  booking_option_id: option.booking_option_id,
  hold_id: holdId,
  customer: { name: "Sven Ek", phone: "+46 70 222 33 44", email: "sven.ek@example.se" },
  service_location: { country_code: "SE", address: "Götgatan 9", postcode: "111 22" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms_version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: key("confirm")
})

describe("holds over MCP, driven by the official SDK client", () => {
  it.layer(
    TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${tokenA},${tokenB}`, SANDBOX_API_TOKENS: sandboxToken } })
  )((it) => {
    it.effect("the hold tools say what they change, and every argument a hold needs is required", () =>
      Effect.gen(function* () {
        const { client } = yield* connect(authA)
        const { tools } = yield* Effect.promise(() => client.listTools())
        const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
        expect(byName.hold_booking_option!.inputSchema.required).toEqual(["booking_option_id", "idempotency_key"])
        expect(byName.release_hold!.inputSchema.required).toEqual(["hold_id"])
        expect(byName.confirm_booking!.inputSchema.properties).toHaveProperty("hold_id")
        for (const name of ["hold_booking_option", "release_hold"])
          expect(byName[name]!.annotations, name).toEqual({
            readOnlyHint: false,
            destructiveHint: false,
            idempotentHint: true,
            openWorldHint: false
          })
        expect(client.getInstructions()).toContain("hold_booking_option before asking for personal data")
      })
    )

    it.effect("every option's line states the 14-day withdrawal right; the form's URL is said once per search", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* connect(authA)
        const searched = yield* callTool(client, "search_booking_options", searchBodyFor("nästa vecka"))
        const rest = (yield* postJson("/api/public/booking-options", searchBodyFor("nästa vecka"), authA)).body
        const sections = rest.options.map((option: any) =>
          option.terms.sections.find((section: any) => section.id === "consumer_information")
        )
        const [form] = sections.map((section: any) => section.withdrawal_form_url)
        expect(form).toMatch(/\/withdrawal-form$/)
        expect(searched.structuredContent.withdrawal_form_url).toBe(form)
        const text = searched.content[0]!.text!
        const optionLines = text.split("\n").filter((line) => /^\d+\. /.test(line))
        expect(optionLines).toHaveLength(rest.options.length)
        for (const line of optionLines)
          expect(line).toContain("14-day right of withdrawal from the day of booking (free before the start)")
        expect(text.split(form).length - 1).toBe(1)
        const detail = yield* callTool(client, "get_booking_option", {
          booking_option_id: searched.structuredContent.options[0].booking_option_id
        })
        expect(detail.content[0]!.text).toContain(`Withdrawal: ${sections[0].summary_en}`)
      })
    )

    it.effect(
      "a held time is offered to no other partner; release_hold frees it and their search offers it again",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const a = yield* connect(authA)
          const b = yield* connect(authB)
          const [option] = yield* search(a)
          expect(yield* search(b)).toEqual(
            expect.arrayContaining([expect.objectContaining({ slot: option.slot, provider: option.provider })])
          )

          const args = { booking_option_id: option.booking_option_id, idempotency_key: key("hold") }
          const held = yield* callTool(a.client, "hold_booking_option", args)
          expect(held.isError, JSON.stringify(held.structuredContent)).toBeFalsy()
          const hold = held.structuredContent.hold
          expect(held.structuredContent).toMatchObject({ ok: true, booking_created: false, idempotent_replay: false })
          expect(hold).toMatchObject({ status: "active", booking_option_id: option.booking_option_id })
          expect(held.content[0]!.text).toContain("nothing is booked yet")
          expect(held.content[0]!.text).toContain(`held until ${hold.expires_at.slice(11, 16)}`)
          expect(stepOf(held)).toContain(`confirm_booking with hold_id "${hold.hold_id}"`)
          expect(stepOf(held)).toContain(`release_hold with hold_id "${hold.hold_id}"`)

          const again = yield* callTool(a.client, "hold_booking_option", args)
          expect(again.structuredContent).toMatchObject({ idempotent_replay: true, hold: { hold_id: hold.hold_id } })
          expect((yield* search(b)).map(slotOf)).not.toContain(slotOf(option))

          const released = yield* callTool(b.client, "release_hold", { hold_id: hold.hold_id })
          expect(released).toMatchObject({ isError: true, structuredContent: { error: "hold_not_found" } })
          const freed = yield* callTool(a.client, "release_hold", { hold_id: hold.hold_id })
          expect(freed.structuredContent).toMatchObject({ released: true, hold: { status: "released" } })
          expect(stepOf(freed)).toContain("search_booking_options")
          expect((yield* search(b)).map(slotOf)).toContain(slotOf(option))
          const twice = yield* callTool(a.client, "release_hold", { hold_id: hold.hold_id })
          expect(twice.structuredContent).toMatchObject({ released: false, hold: { status: "released" } })
        })
    )

    it.effect("a sandbox partner's hold says it is in the sandbox calendar only", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const sandbox = yield* connect({ authorization: `Bearer ${sandboxToken}` })
        const [option] = yield* search(sandbox)
        const held = yield* callTool(sandbox.client, "hold_booking_option", {
          booking_option_id: option.booking_option_id,
          idempotency_key: key("sandbox-hold")
        })
        expect(held.isError, JSON.stringify(held.structuredContent)).toBeFalsy()
        expect(stepOf(held)).toMatch(
          /^Sandbox: this hold is in the sandbox calendar only\. Held until \d\d:\d\d; nothing is booked yet/
        )
      })
    )

    it.effect("books through a hold: hold_booking_option, then confirm_booking with its hold_id", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const a = yield* connect(authA)
        const [option] = yield* search(a)
        const unkeyed = yield* callTool(a.client, "hold_booking_option", {
          booking_option_id: option.booking_option_id
        })
        expect(unkeyed).toMatchObject({ isError: true, structuredContent: { error: "invalid_request" } })
        const held = yield* callTool(a.client, "hold_booking_option", {
          booking_option_id: option.booking_option_id,
          idempotency_key: key("hold"),
          hold_seconds: 1800
        })
        const holdId = held.structuredContent.hold.hold_id
        // The option's own life has passed; the hold still carries the confirm.
        yield* TestClock.setTime(Date.parse(option.expires_at) + 1000)
        const confirmed = yield* callTool(a.client, "confirm_booking", confirmArgs(option, holdId))
        expect(confirmed.isError, JSON.stringify(confirmed.structuredContent)).toBeFalsy()
        expect(confirmed.structuredContent).toMatchObject({
          booking_created: true,
          availability_checked: true,
          provider_selected: true,
          booking: { status: "confirmed", slot: option.slot }
        })
        const status = yield* get(`/api/public/holds/${holdId}`, authA)
        expect(status.body.hold).toMatchObject({
          status: "confirmed",
          booking_id: confirmed.structuredContent.booking.id
        })
        const after = yield* callTool(a.client, "release_hold", { hold_id: holdId })
        expect(after.structuredContent).toMatchObject({ released: false, hold: { status: "confirmed" } })
        expect(yield* get(`/api/public/bookings/${confirmed.structuredContent.request_id}`, authA)).toMatchObject({
          body: { found: true, booking: { status: "confirmed" } }
        })
      })
    )
  })
})
