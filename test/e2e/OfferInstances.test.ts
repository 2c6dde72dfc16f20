import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { bookingClient } from "../../src/Client.js"
import { ServiceEditRequest } from "../../src/Domain/Offer.js"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { makeDatabase } from "../support/Database.js"
import { apiClient, payloadOf, searchBodyFor } from "../support/Http.js"
import { serverInstance, TestServer } from "../support/Server.js"

const partnerToken = "offer-instances-token-0123456789"
const providerA = "soderlunds-vvs-sthlm"
const faucet = "vvs_install_faucet_standard"

describe("a provider's change on one instance", () => {
  it.live("the next search on another instance sharing the database shows it: no copy of the supply per instance", () =>
    Effect.gen(function* () {
      const { url } = yield* makeDatabase()
      // The other instance: a real process on the same database, with the demo supply as every development start.
      const other = yield* serverInstance({
        APP_ENV: "development",
        DATABASE_URL: url,
        SERVICE_REQUESTS_API_TOKENS: partnerToken,
        BOOKING_OPTION_SIGNING_KEYS: "shared:shared-secret-0123456789abcdef0123456789",
        LOG_FORMAT: "json"
      })
      const partner = bookingClient({ baseUrl: other.base, token: partnerToken })
      const searchThere = Effect.flatMap(partner, (client) => client.search(searchBodyFor("nästa vecka"))).pipe(
        Effect.map((answer) => (answer.options as Array<any>).filter((o) => o.provider.id === providerA))
      )
      const before = yield* searchThere
      expect(before.length).toBeGreaterThan(0)
      expect(before[0].price.amount_sek).toBe(1990)

      yield* Effect.gen(function* () {
        const { token } = yield* Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(providerA)).pipe(
          Effect.provide(ProviderTokens.Default),
          Effect.orDie
        )
        const client = yield* apiClient(token)
        const service = (yield* client.provider.services()).services.find((s) => s.service_id === faucet)!
        const { service_id: _id, edited_by_provider_at: _at, terms, ...rest } = service
        yield* client.provider.editService({
          params: { service_id: faucet },
          payload: payloadOf(ServiceEditRequest)({
            ...rest,
            amount_sek: 2490,
            terms: { url: terms.url, sections: terms.sections, source_urls: terms.source_urls }
          })
        })
      }).pipe(
        Effect.provide(TestServer({ database: url, now: false, env: { SERVICE_REQUESTS_API_TOKENS: partnerToken } }))
      )

      const after = yield* searchThere
      expect(after.length).toBeGreaterThan(0)
      expect(after.every((o) => o.price.amount_sek === 2490)).toBe(true)
      expect(after[0].terms.version).not.toBe(before[0].terms.version)
    })
  )
})
