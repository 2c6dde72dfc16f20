import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Console, Effect, Exit } from "effect"
import { HttpClientRequest } from "effect/http"
import { TestClock } from "effect/testing"
import { offerCommand } from "../../src/bin/offerCommand.js"
import { BookingConfirmationRequest } from "../../src/Domain/Booking.js"
import { HoldRequest } from "../../src/Domain/Hold.js"
import {
  AreasRequest,
  type OfferService,
  PolicyRequest,
  ServiceEditRequest,
  ServiceNotFound
} from "../../src/Domain/Offer.js"
import { BookingSearchRequest } from "../../src/Domain/Search.js"
import { ProviderOffer } from "../../src/Providers/Offer.js"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { demoSupplyPath, Supply } from "../../src/Supply/Supply.js"
import { apiClient, call, confirmBody, payloadOf, searchBody } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const partnerToken = "offer-partner-token-0123456789"
const providerA = "soderlunds-vvs-sthlm"
const faucet = "vvs_install_faucet_standard"
/** A service of norrmalms-ror-sthlm that soderlunds-vvs-sthlm does not have. */
const othersService = "vvs_drain_jetting_single_starting"

const issue = (providerId: string) =>
  Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(providerId)).pipe(
    Effect.provide(ProviderTokens.Default),
    Effect.orDie
  )
const providerClient = Effect.flatMap(issue(providerA), ({ token, prefix }) =>
  Effect.map(apiClient(token), (client) => ({ client, token, prefix }))
)
const put = (path: string, body: unknown, token: string) =>
  call(
    HttpClientRequest.put(path).pipe(
      HttpClientRequest.setHeaders({ authorization: `Bearer ${token}` }),
      HttpClientRequest.bodyJsonUnsafe(body)
    )
  )

const search = (body: unknown = searchBody) =>
  Effect.flatMap(apiClient(partnerToken), (client) =>
    client.search.search({ payload: payloadOf(BookingSearchRequest)(body) })
  ).pipe(Effect.map((response) => (response.options as Array<any>).filter((o) => o.provider.id === providerA)))

let keys = 0
const confirm = (option: any, extra: Record<string, unknown> = {}) =>
  Effect.flatMap(apiClient(partnerToken), (client) =>
    client.bookings.confirm({
      payload: payloadOf(BookingConfirmationRequest)({
        ...confirmBody(option.booking_option_id, option.terms.version, `offer-key-${++keys}`),
        ...extra
      }),
      headers: {},
      responseMode: "decoded-and-response"
    })
  ).pipe(Effect.map(([booked, response]) => ({ status: response.status, body: booked })))

/** The service as GET answers it, as the PUT body that sends it back (with `changes` on top). */
const editOf = (service: OfferService, changes: Record<string, unknown> = {}) => {
  const { service_id: _id, edited_by_provider_at: _at, terms, ...rest } = service
  return payloadOf(ServiceEditRequest)({
    ...rest,
    terms: { url: terms.url, sections: terms.sections, source_urls: terms.source_urls },
    ...changes
  })
}

const faucetOf = (client: Effect.Success<typeof providerClient>["client"]) =>
  Effect.map(client.provider.services(), (answer) => answer.services.find((s) => s.service_id === faucet)!)

describe("the provider's own offer", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: partnerToken } }))((it) => {
    it.effect(
      "a new price shows in the next search; an option from before is refused with the new figures; an earlier booking keeps its price",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const { client, prefix } = yield* providerClient
          const before = yield* faucetOf(client)
          expect(before).toMatchObject({ amount_sek: 1990, active: true, edited_by_provider_at: null })
          const [booked, stale] = yield* search()
          expect(booked.price.amount_sek).toBe(1990)
          const first = yield* confirm(booked)
          expect(first.status).toBe(201)

          const edited = yield* client.provider.editService({
            params: { service_id: faucet },
            payload: editOf(before, { amount_sek: 2290 })
          })
          expect(edited.dry_run).toBe(false)
          expect(edited.changes).toContainEqual({ field: "amount_sek", before: 1990, after: 2290 })
          expect(edited.terms_version_after).not.toBe(before.terms.version)
          // The consumer information's fingerprint stays last: the version is still the provider's with it.
          expect(edited.terms_version_after).toMatch(/\+p-[0-9a-f]{10}\+ki-[0-9a-f]{8}$/)
          expect(edited.preview).toMatchObject({ offered_in_searches: true, service: { amount_sek: 2290 } })

          const [fresh] = yield* search()
          expect(fresh.price.amount_sek).toBe(2290)
          expect(fresh.terms.version).toBe(edited.terms_version_after)

          const refused = yield* Effect.flip(confirm(stale))
          expect(refused).toMatchObject({ _tag: "terms_changed", option_refresh_required: true })
          expect((refused as any).issues[0]).toContain("SEK 2,290")
          expect((refused as any).issues[0]).toContain(edited.terms_version_after)

          // The booking made before keeps its price and terms version.
          const jobs = yield* client.provider.bookings({ query: {} })
          const job = jobs.bookings.find((b) => b.id === first.body.booking.id)!
          expect(job).toMatchObject({ price_sek: 1990, terms_version: before.terms.version })

          // The trail: who (the token's prefix), what, before and after; no customer in it.
          const trail = yield* client.provider.offerChanges({ query: {} })
          expect(trail.changes[0]).toMatchObject({
            changed_by: `hsp_${prefix}`,
            subject: "service",
            service_id: faucet,
            terms_version_before: before.terms.version,
            terms_version_after: edited.terms_version_after
          })
          expect(trail.changes[0]!.changes).toContainEqual({ field: "amount_sek", before: 1990, after: 2290 })
          expect(JSON.stringify(trail)).not.toContain("Astrid")

          // Sending the same service again changes nothing and keeps the version.
          const again = yield* client.provider.editService({
            params: { service_id: faucet },
            payload: editOf(yield* faucetOf(client))
          })
          expect(again.changes).toEqual([])
          expect(again.terms_version_after).toBe(edited.terms_version_after)
        })
    )

    it.effect("a dry run shows what searches would answer and changes nothing", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* providerClient
        const before = yield* faucetOf(client)
        const trail = yield* client.provider.offerChanges({ query: {} })
        const preview = yield* client.provider.editService({
          params: { service_id: faucet },
          payload: editOf(before, { amount_sek: 9990, active: false, dry_run: true })
        })
        expect(preview).toMatchObject({
          dry_run: true,
          preview: { offered_in_searches: false, service: { amount_sek: 9990, active: false } }
        })
        expect(preview.preview.reason).toContain("not active")
        expect(yield* faucetOf(client)).toEqual(before)
        expect((yield* client.provider.offerChanges({ query: {} })).changes).toEqual(trail.changes)
        const [option] = yield* search()
        expect(option.price.amount_sek).toBe(before.amount_sek)
      })
    )

    it.effect("hostile bodies are 400s naming the field; another provider's service is 404", () =>
      Effect.gen(function* () {
        const { client, token } = yield* providerClient
        const service = yield* faucetOf(client)
        const { service_id: _id, edited_by_provider_at: _at, terms, ...rest } = service
        const body = { ...rest, terms: { url: terms.url, sections: terms.sections, source_urls: terms.source_urls } }
        const cases: ReadonlyArray<readonly [unknown, string]> = [
          [{ ...body, amount_sek: -5 }, "amount_sek"],
          [{ ...body, amount_sek: "1990" }, "amount_sek"],
          [{ ...body, colour: "red" }, "colour"],
          [{ ...body, job_type_id: "install_rocket" }, "job_type_id: install_rocket is not a job type of vvs"],
          [{ ...body, vertical_id: "electrician", job_type_id: "electrical_emergency" }, "job_type_id"],
          [{ ...body, tax_deduction: { kind: "rot", labour: { share: 2 } } }, "tax_deduction.labour.share"],
          [{ ...body, tax_deduction: undefined }, "tax_deduction is required"],
          [{ ...body, pricing_model: "per_hour" }, "unit_price_sek"],
          [{ ...body, duration_minutes: 5 }, "duration_minutes"],
          [{ ...body, terms: { ...body.terms, url: "javascript:alert(1)" } }, "terms.url"],
          [{ ...body, terms: { ...body.terms, sections: [{ id: "consumer_information" }] } }, "terms.sections.0.id"],
          [{ ...body, terms: { ...body.terms, version: "mine-v1-000" } }, "terms.version"],
          [{ ...body, scope: { included_sv: [""] } }, "scope.included_sv.0"]
        ]
        for (const [hostile, field] of cases) {
          const answer = yield* put(`/api/provider/services/${faucet}`, hostile, token)
          expect(answer.status, JSON.stringify(hostile)).toBe(400)
          expect(answer.body.error).toBe("invalid_request")
          expect(answer.body.issues.join("\n")).toContain(field)
        }
        const areas: ReadonlyArray<readonly [unknown, string]> = [
          [{ areas: [] }, "areas"],
          [{ areas: ["012 34"] }, "areas.0"],
          [{ areas: [{ from: "200 00", to: "100 00" }] }, "areas.0"],
          [{ areas: ["111 22"], postcodes: ["111 22"] }, "postcodes"]
        ]
        for (const [hostile, field] of areas) {
          const answer = yield* put("/api/provider/areas", hostile, token)
          expect(answer.status, JSON.stringify(hostile)).toBe(400)
          expect(answer.body.issues.join("\n")).toContain(field)
        }
        const policy = yield* put(
          "/api/provider/cancellation-policy",
          { cancellation_policy: { free_cancellation_hours: 24, late_fee_sek: -1, change_hours: 24 } },
          token
        )
        expect(policy.status).toBe(400)
        expect(policy.body.issues.join("\n")).toContain("cancellation_policy.late_fee_sek")
        // Nothing of the refused bodies was written.
        expect(yield* faucetOf(client)).toEqual(service)

        // Another provider's service is not this provider's: 404, and it stays as it was.
        const others = yield* Effect.flip(
          client.provider.editService({ params: { service_id: othersService }, payload: editOf(service) })
        )
        expect(others).toBeInstanceOf(ServiceNotFound)
        const othersPolicy = yield* Effect.flip(
          client.provider.setCancellationPolicy({
            payload: payloadOf(PolicyRequest)({
              cancellation_policy: { free_cancellation_hours: 1, late_fee_sek: 0, change_hours: 1 },
              service_id: othersService
            })
          })
        )
        expect(othersPolicy).toBeInstanceOf(ServiceNotFound)
      })
    )

    it.effect(
      "a new policy is a new terms version: an earlier option is refused with it, an earlier booking keeps its own",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const { client } = yield* providerClient
          const [booked, stale] = yield* search()
          const first = yield* confirm(booked)
          const oldFee = booked.cancellation_policy.late_fee_sek
          const set = yield* client.provider.setCancellationPolicy({
            payload: payloadOf(PolicyRequest)({
              cancellation_policy: { free_cancellation_hours: 48, late_fee_sek: 795, change_hours: 48 }
            })
          })
          expect(set.services.length).toBeGreaterThan(1)
          const mine = set.services.find((s) => s.service_id === faucet)!
          expect(mine.changes).toContainEqual({ field: "cancellation_policy.late_fee_sek", before: oldFee, after: 795 })
          const [fresh] = yield* search()
          expect(fresh.cancellation_policy.late_fee_sek).toBe(795)
          expect(fresh.terms.version).toBe(mine.terms_version_after)
          const refused = yield* Effect.flip(confirm(stale))
          expect(refused).toMatchObject({ _tag: "terms_changed", option_refresh_required: true })
          expect((refused as any).issues[0]).toContain("late fee SEK 795")
          const jobs = yield* client.provider.bookings({ query: {} })
          const job = jobs.bookings.find((b) => b.id === first.body.booking.id)!
          expect(job.cancellation_policy.late_fee_sek).toBe(oldFee)
        })
    )

    it.effect(
      "the postcodes served follow at once: a postcode dropped is not offered, and its option not confirmed",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const { client } = yield* providerClient
          const [stale] = yield* search()
          expect(stale).toBeDefined()
          const set = yield* client.provider.setAreas({
            payload: payloadOf(AreasRequest)({ areas: [{ from: "113 00", to: "119 99" }, "111 21", "111 23"] })
          })
          expect(set.areas).toEqual([
            { from: "111 21", to: "111 21" },
            { from: "111 23", to: "111 23" },
            { from: "113 00", to: "119 99" }
          ])
          expect(yield* search()).toEqual([])
          const inside = yield* search({ ...searchBody, location: { country_code: "SE", postcode: "114 55" } })
          expect(inside.length).toBeGreaterThan(0)
          const refused = yield* Effect.flip(confirm(stale))
          expect(refused).toMatchObject({ _tag: "provider_unavailable", option_refresh_required: true })
          const trail = yield* client.provider.offerChanges({ query: { limit: 1 } })
          expect(trail.changes[0]).toMatchObject({ subject: "areas", service_id: null })
          expect(trail.next_cursor).not.toBeNull()
          const next = yield* client.provider.offerChanges({ query: { cursor: trail.next_cursor! } })
          expect(next.changes.map((c) => c.id)).not.toContain(trail.changes[0]!.id)
          yield* client.provider.setAreas({
            payload: payloadOf(AreasRequest)({ areas: [{ from: "100 00", to: "199 99" }] })
          })
          expect((yield* search()).length).toBeGreaterThan(0)
        })
    )

    it.effect("a deactivated service is never offered and never confirmed", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* providerClient
        const [stale] = yield* search()
        const service = yield* faucetOf(client)
        const off = yield* client.provider.editService({
          params: { service_id: faucet },
          payload: editOf(service, { active: false })
        })
        expect(off.preview.offered_in_searches).toBe(false)
        // Whether it is offered is not part of its terms: the version stays.
        expect(off.terms_version_after).toBe(service.terms.version)
        expect(yield* search()).toEqual([])
        const refused = yield* Effect.flip(confirm(stale))
        expect(refused).toMatchObject({ _tag: "provider_unavailable", option_refresh_required: true })
        yield* client.provider.editService({ params: { service_id: faucet }, payload: editOf(service) })
        expect((yield* search()).length).toBeGreaterThan(0)
      })
    )

    it.effect("a live hold keeps its price until it ends; an option without one is refused", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const { client } = yield* providerClient
        const [held, unheld] = yield* search()
        const partner = yield* apiClient(partnerToken)
        const hold = yield* partner.holds.hold({
          payload: payloadOf(HoldRequest)({
            booking_option_id: held.booking_option_id,
            idempotency_key: "offer-hold-1"
          }),
          headers: {}
        })
        const service = yield* faucetOf(client)
        const priced = service.amount_sek!
        yield* client.provider.editService({
          params: { service_id: faucet },
          payload: editOf(service, { amount_sek: priced + 500 })
        })
        const booked = yield* confirm(held, { hold_id: hold.hold.hold_id })
        expect(booked.status).toBe(201)
        const jobs = yield* client.provider.bookings({ query: {} })
        expect(jobs.bookings.find((b) => b.id === booked.body.booking.id)).toMatchObject({
          price_sek: priced,
          terms_version: held.terms.version
        })
        const refused = yield* Effect.flip(confirm(unheld))
        expect(refused).toMatchObject({ _tag: "terms_changed" })
      })
    )

    it.effect(
      "the import leaves a provider's edits alone and says so; only --overwrite-provider-edits undoes them, on the trail",
      () =>
        Effect.gen(function* () {
          const { client } = yield* providerClient
          const service = yield* faucetOf(client)
          yield* client.provider.editService({
            params: { service_id: faucet },
            payload: editOf(service, { amount_sek: 3333 })
          })
          yield* client.provider.setAreas({
            payload: payloadOf(AreasRequest)({ areas: [{ from: "100 00", to: "189 99" }] })
          })
          const file = JSON.parse(readFileSync(demoSupplyPath, "utf8"))
          const importing = (options?: { readonly overwriteProviderEdits: boolean }) =>
            Effect.flatMap(Supply, (supply) => supply.importFile(file, options)).pipe(
              Effect.provide(Supply.WithoutDemo),
              Effect.orDie
            )
          const kept = yield* importing()
          expect(kept.keptProviderEdits).toContain(`${providerA}/${faucet}`)
          expect(kept.keptProviderEdits).toContain(`${providerA} areas`)
          expect((yield* faucetOf(client)).amount_sek).toBe(3333)
          const overwritten = yield* importing({ overwriteProviderEdits: true })
          expect(overwritten.keptProviderEdits).toEqual([])
          const back = yield* faucetOf(client)
          expect(back).toMatchObject({ amount_sek: 1990, edited_by_provider_at: null })
          const trail = yield* client.provider.offerChanges({ query: {} })
          const byImport = trail.changes.filter((c) => c.changed_by === "import")
          expect(byImport.map((c) => c.subject)).toContain("areas")
          // One entry per service: what the file put back, and that the service is the import's again.
          const faucetEntry = byImport.find((c) => c.service_id === faucet)!
          expect(faucetEntry.changes).toContainEqual({ field: "amount_sek", before: 3333, after: 1990 })
          expect(faucetEntry.changes).toContainEqual({
            field: "edited_by_provider_at",
            before: expect.any(String),
            after: null
          })
          expect(faucetEntry.terms_version_after).toBe(back.terms.version)
          expect(byImport.find((c) => c.subject === "areas")?.changes).toEqual([
            {
              field: "areas",
              before: [{ from: "100 00", to: "189 99" }],
              after: [{ from: "100 00", to: "199 99" }]
            },
            { field: "areas_set_by_provider", before: true, after: false }
          ])
        })
    )

    it.effect(
      "every change an import makes to an offer is on the trail by import, field by field; an unchanged import records nothing",
      () =>
        Effect.gen(function* () {
          const providerB = "ekstrom-ror-sthlm"
          const file = JSON.parse(readFileSync(demoSupplyPath, "utf8"))
          const original = file.providers.find((p: any) => p.id === providerB)
          const importing = (provider: unknown) =>
            Effect.flatMap(Supply, (supply) => supply.importFile({ ...file, providers: [provider] })).pipe(
              Effect.provide(Supply.WithoutDemo),
              Effect.orDie
            )
          const { token } = yield* issue(providerB)
          const client = yield* apiClient(token)
          const trail = Effect.map(client.provider.offerChanges({ query: { limit: 100 } }), (page) => page.changes)
          yield* importing(original)
          const settled = yield* trail

          const [priced, policed, ...rest] = original.services
          const dropped = rest.at(-1)
          const renewed = (service: any, changes: Record<string, unknown>) => ({
            ...service,
            ...changes,
            terms: { ...service.terms, version: `${service.terms.version}-next` }
          })
          const created = {
            ...priced,
            service_id: "vvs_import_new_service_check",
            terms: { ...priced.terms, version: "ekstrom-ror-sthlm/vvs_import_new_service_check/v1" }
          }
          const changed = {
            ...original,
            areas: [{ from: "100 00", to: "149 99" }],
            services: [
              renewed(priced, { amount_sek: priced.amount_sek + 100 }),
              renewed(policed, {
                cancellation_policy: { free_cancellation_hours: 48, late_fee_sek: 595, change_hours: 24 }
              }),
              ...rest.slice(0, -1),
              created
            ]
          }
          yield* importing(changed)
          const entries = (yield* trail).filter((c) => !settled.some((old) => old.id === c.id))
          expect(entries.every((c) => c.changed_by === "import")).toBe(true)
          const of = (serviceId: string | null) => entries.find((c) => c.service_id === serviceId)!
          expect(of(priced.service_id)).toMatchObject({ subject: "service" })
          expect(of(priced.service_id).changes).toContainEqual({
            field: "amount_sek",
            before: priced.amount_sek,
            after: priced.amount_sek + 100
          })
          expect(of(priced.service_id).changes.map((c) => c.field)).toContain("terms.version")
          expect(of(priced.service_id).terms_version_after).not.toBe(of(priced.service_id).terms_version_before)
          expect(of(policed.service_id)).toMatchObject({ subject: "cancellation_policy" })
          expect(of(policed.service_id).changes).toContainEqual({
            field: "cancellation_policy.late_fee_sek",
            before: 395,
            after: 595
          })
          expect(of(dropped.service_id).changes).toEqual([{ field: "active", before: true, after: false }])
          expect(of(created.service_id)).toMatchObject({ subject: "service", terms_version_before: null })
          expect(of(created.service_id).changes).toContainEqual({
            field: "label_sv",
            before: null,
            after: created.label_sv
          })
          expect(of(null)).toMatchObject({ subject: "areas" })
          expect(of(null).changes).toEqual([
            { field: "areas", before: [{ from: "100 00", to: "199 99" }], after: [{ from: "100 00", to: "149 99" }] }
          ])
          // Services the import did not change are not on it.
          expect(entries.map((c) => c.service_id).sort()).toEqual(
            [priced.service_id, policed.service_id, dropped.service_id, created.service_id, null].sort()
          )

          const before = yield* trail
          yield* importing(changed)
          expect(yield* trail).toEqual(before)
        })
    )

    it.effect("the operator's CLI reads a provider's trail", () =>
      Effect.gen(function* () {
        const { client } = yield* providerClient
        const service = yield* faucetOf(client)
        yield* client.provider.editService({
          params: { service_id: faucet },
          payload: editOf(service, { label_sv: "Byte av blandare, fast pris" })
        })
        const out: Array<string> = []
        const console: Console.Console = {
          ...(yield* Console.Console),
          log: (...parts: ReadonlyArray<unknown>) => void out.push(parts.join(" ")),
          error: (...parts: ReadonlyArray<unknown>) => void out.push(parts.join(" "))
        }
        const run = (...args: Array<string>) =>
          Effect.exit(
            offerCommand(args).pipe(
              Effect.provide(ProviderOffer.Default),
              Effect.provideService(Console.Console, console)
            )
          )
        expect(Exit.isSuccess(yield* run(providerA))).toBe(true)
        expect(out.join("\n")).toContain("label_sv")
        expect(out.join("\n")).toContain("Byte av blandare, fast pris")
        expect(Exit.isSuccess(yield* run())).toBe(false)
      })
    )
  })
})
