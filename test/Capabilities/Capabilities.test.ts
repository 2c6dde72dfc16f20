import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import { Api } from "../../src/Api.js"
import { publicEndpointsOf } from "../../src/Capabilities/Endpoints.js"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import { Capabilities, capabilityEndpoints } from "../../src/Domain/Capabilities.js"
import { openApiDocument } from "../../src/Http/OpenApiDocument.js"
import { apiClient, get, getText, wire } from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const path = "/api/public/requests/capabilities"

/** Section 2.1's endpoints, in its order. */
const contractEndpoints = {
  search_booking_options: { method: "POST", path: "/api/public/booking-options" },
  confirm_booking: { method: "POST", path: "/api/public/bookings" },
  booking_status: { method: "GET", path: "/api/public/bookings/{booking_id}" },
  create_request: { method: "POST", path: "/api/public/requests" },
  capabilities: { method: "GET", path: "/api/public/requests/capabilities" }
}

/** Names published beside the contract's, which callers may already read. */
const publishedEndpoints = {
  cancel_booking: { method: "POST", path: "/api/public/bookings/{booking_id}/cancel" },
  reschedule_booking: { method: "POST", path: "/api/public/bookings/{booking_id}/reschedule" },
  request_status: { method: "GET", path: "/api/public/requests/{request_id}" }
}

/** Every operation a partner can call, as the OpenAPI document lists them. */
const publicOperations = () =>
  Object.entries<Record<string, unknown>>(openApiDocument(Api, "https://api.example.se").paths)
    .filter(([route]) => route.startsWith("/api/public/"))
    .flatMap(([route, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${route}`))
    .sort()

describe("GET /api/public/requests/capabilities", () => {
  it.layer(TestServer())((it) => {
    it.effect("is the complete capabilities document of section 2.1", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const { status, headers, body } = yield* wire(Capabilities)(
          client.capabilities.capabilities({ responseMode: "decoded-and-response" })
        )
        expect(status).toBe(200)
        expect(headers["content-type"]).toBe("application/json")
        expect(() => Schema.decodeUnknownSync(Capabilities)(body)).not.toThrow()
        expect(body).toMatchObject({ ok: true, spec_version: "public_requests_api_v1" })
        expect(Object.entries(body.endpoints).slice(0, 5)).toEqual(Object.entries(contractEndpoints))
        expect(body.endpoints).toMatchObject(publishedEndpoints)
        const listed = Object.values<{ method: string; path: string }>(body.endpoints).map(
          ({ method, path }) => `${method} ${path}`
        )
        expect(listed.sort()).toEqual(publicOperations())
        expect(body.lifecycle).toMatchObject({
          creates: "network_visit_request",
          request_status: "ready_to_send",
          booking_created: false,
          availability_checked: false,
          provider_selected: false
        })
        expect(body.booking_lifecycle.confirmed_contract).toEqual({
          booking_created: true,
          availability_checked: true,
          provider_selected: true,
          booking_status: "confirmed"
        })
        for (const key of ["search", "hold", "confirm", "fallback", "availability_truth"]) {
          expect(typeof body.booking_lifecycle[key]).toBe("string")
        }
        expect(body.booking_lifecycle.hold).toContain("nothing is booked until confirm")
        expect(body.endpoints.holds_hold).toEqual({ method: "POST", path: "/api/public/holds" })
        expect(body.endpoints.holds_release).toEqual({ method: "DELETE", path: "/api/public/holds/{hold_id}" })
        expect(body.geographic_scope).toMatchObject({ country_code: "SE", bookable_only_in_country: true })
        expect(body.agent_contract.consent_required_before_pii_submission).toBe(true)
        expect(body.agent_contract.required_fields).toEqual(body.required_fields)
        const changes: string = body.agent_contract.booking_changes.join("\n")
        for (const rule of ["dry_run", "explicit yes", "may charge", "idempotency_key", "found false"]) {
          expect(changes).toContain(rule)
        }
        expect(body.auth).toHaveProperty("production")
        expect(body.auth).toHaveProperty("development")
        expect(body.idempotency).toMatchObject({ retention_hours: 168 })
      })
    )

    // The document's content, decoded by its schema (test/contract/golden.json holds its exact bytes).
    it.effect("lists the four supported verticals with every job type exactly as the catalog says", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const body = yield* client.capabilities.capabilities()
        expect(body.supported_verticals.map((v: any) => v.vertical_id)).toEqual([
          "vvs",
          "electrician",
          "moving",
          "cleaning"
        ])
        for (const vertical of body.supported_verticals) {
          const source = catalogData.verticals.find((v) => v.vertical_id === vertical.vertical_id)!
          expect(vertical).toMatchObject({
            label_sv: source.label_sv,
            label_en: source.label_en,
            agent_status: "booking_and_request_supported",
            provider_supply: "indexed",
            direct_booking_supply: "search_required"
          })
          expect(
            vertical.job_types.map(({ fixed_price_seed, ...jobType }: any) => {
              const { quantity_detail_keys: _, ...seed } = fixed_price_seed ?? {}
              return fixed_price_seed ? { ...jobType, fixed_price_seed: seed } : jobType
            })
          ).toEqual(source.job_types)
        }
      })
    )

    it.effect(
      "counts the distinct fixed-price services of the supply: vvs 9, electrician 6, moving 4, cleaning 9",
      () =>
        Effect.gen(function* () {
          const client = yield* apiClient()
          const body = yield* client.capabilities.capabilities()
          const counts = Object.fromEntries(
            body.supported_verticals.map((v: any) => [v.vertical_id, v.fixed_price_service_count])
          )
          expect(counts).toEqual({ vvs: 9, electrician: 6, moving: 4, cleaning: 9 })
        })
    )

    it.effect("names the emergency job types with the 112 advice, the price kinds and the quantity bounds", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const body = yield* client.capabilities.capabilities()
        const { emergencies, price_types, quantity_bounds } = body.agent_contract
        expect(emergencies.job_type_ids).toEqual(["electrical_emergency"])
        expect(emergencies.advice_sv).toContain("ring 112")
        expect(emergencies.advice_en).toContain("call 112")
        expect(price_types.starting).toMatch(/final price is set on site/)
        expect(quantity_bounds.area_sqm).toEqual({ min: 5, max: 1000, integer: false, unit: "m²" })
      })
    )

    it.effect("tells agents to say a RUT or ROT deduction as an if, and never to ask for an identity number", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const body = yield* client.capabilities.capabilities()
        const rules = body.agent_contract.tax_deduction
        expect(rules.how_to_say).toContain(
          "X SEK, or Y SEK after RUT if you are eligible and have room under this year's cap; the provider applies it on the invoice"
        )
        expect(rules.how_to_say).toContain("Never give price_after_deduction_sek alone or as certain")
        expect(rules.figures).toContain("amount_sek (price_sek in a booking) is the price before any deduction")
        expect(rules.request).toContain("tax_deduction_requested: true")
        expect(rules.request).toContain("Never ask for, send or store a personal identity number")
      })
    )

    it.effect("tells agents which details key each unit-priced seed reads its quantity from", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const body = yield* client.capabilities.capabilities()
        const seeds = body.supported_verticals.flatMap((v: any) =>
          v.job_types.flatMap((jt: any) => (jt.fixed_price_seed ? [jt.fixed_price_seed] : []))
        )
        const keysOf = (id: string) => seeds.find((seed: any) => seed.service_id === id)?.quantity_detail_keys
        expect(keysOf("cleaning_move_out_per_sqm")).toEqual(["area_sqm", "home_size_sqm"])
        expect(keysOf("cleaning_window_per_window")).toEqual(["window_count"])
        expect(keysOf("moving_packing_two_packers_2h")).toEqual(["hours"])
        expect(keysOf("electrician_install_spotlights_per_item")).toEqual(["item_count"])
        expect(keysOf("vvs_install_faucet_standard")).toBeUndefined()
      })
    )

    it.effect("lists painting, carpentry and gardening as not bookable yet", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const body = yield* client.capabilities.capabilities()
        expect(body.unavailable_verticals.map((v: any) => v.vertical_id)).toEqual([
          "painting",
          "carpentry",
          "gardening"
        ])
        for (const vertical of body.unavailable_verticals) {
          expect(vertical).toMatchObject({ agent_status: "not_bookable_yet", reason: "not_bookable_yet" })
          expect(vertical.safe_next_step.length).toBeGreaterThan(10)
        }
      })
    )

    it.effect("draws forbidden_claims from the truth rules of section 1", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        const body = yield* client.capabilities.capabilities()
        const claims: string = body.agent_contract.forbidden_claims.join("\n")
        expect(claims).toMatch(/booking_created, availability_checked and provider_selected are all true/)
        expect(claims).toMatch(/notification/i)
        expect(claims).toMatch(/direct_booking_available true/)
        expect(claims).toMatch(/exact price in the confirmed booking response/)
        expect(claims).toMatch(/emergencies/)
      })
    )

    it.effect("is served from one encoding with an ETag, and a matching If-None-Match gets 304", () =>
      Effect.gen(function* () {
        const first = yield* get(path)
        const second = yield* get(path)
        expect(first.headers.etag).toMatch(/^"[\w-]+"$/)
        expect(second.headers.etag).toBe(first.headers.etag)
        expect(first.headers["cache-control"]).toBe("public, max-age=60")
        const revalidated = yield* get(path, { "if-none-match": first.headers.etag! })
        expect(revalidated.status).toBe(304)
        expect(revalidated.body).toBeUndefined()
      })
    )

    it.effect("health: /healthz says the process is up and /readyz that the database answers", () =>
      Effect.gen(function* () {
        const client = yield* apiClient()
        expect(yield* client.health.healthz()).toEqual({ ok: true })
        expect(yield* client.health.readyz()).toMatchObject({ ok: true, database: "up" })
      })
    )

    it.effect("/openapi.json is generated from the Api and /docs renders it", () =>
      Effect.gen(function* () {
        const openapi = yield* get("/openapi.json")
        expect(openapi.status).toBe(200)
        expect(openapi.body.openapi).toMatch(/^3\./)
        expect(Object.keys(openapi.body.paths)).toEqual(
          expect.arrayContaining([
            "/api/public/requests/capabilities",
            "/api/public/booking-options",
            "/api/public/bookings",
            "/api/public/bookings/{booking_id}",
            "/api/public/requests",
            "/healthz",
            "/readyz"
          ])
        )
        expect(JSON.stringify(openapi.body)).not.toContain("HttpApiDecodeError")
        const badRequest =
          openapi.body.paths["/api/public/booking-options"].post.responses["400"].content["application/json"]
        const component = (ref: { $ref: string }) => openapi.body.components.schemas[ref.$ref.split("/").pop()!]
        expect(badRequest.schema.anyOf.map((ref: any) => component(ref).properties.error.enum[0]).sort()).toEqual([
          "invalid_request",
          "malformed_json"
        ])
        const docs = yield* getText("/docs")
        expect(docs.status).toBe(200)
        expect(docs.headers["content-type"]).toMatch(/^text\/html/)
        expect(docs.text).toContain("/api/public/requests/capabilities")
      })
    )
  })
})

describe("capabilities.endpoints", () => {
  it("lists the Api's public operations, the named ones first", () => {
    const endpoints = publicEndpointsOf(Api)
    expect(Object.keys(endpoints).slice(0, Object.keys(capabilityEndpoints).length)).toEqual(
      Object.keys(capabilityEndpoints)
    )
    expect(endpoints.confirm_booking).toEqual({ method: "POST", path: "/api/public/bookings" })
  })

  it("refuses, when the server loads, an Api that does not serve a named endpoint at its method and path", () => {
    const searchOnly = HttpApi.make("searchOnly").add(
      HttpApiGroup.make("search").add(HttpApiEndpoint.post("search", "/api/public/booking-options"))
    )
    expect(() => publicEndpointsOf(searchOnly)).toThrow(/confirm_booking/)
  })
})
