import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import { pgClientLayer } from "../../src/Database/Database.js"
import { keepTokensFresh, makeAuthenticate, tokenRefreshInterval } from "../../src/Partners/Authentication.js"
import { Partners, tokenPattern } from "../../src/Partners/Partners.js"
import { makeDatabase, TestDatabaseLive } from "../support/Database.js"
import { get } from "../support/Http.js"
import { TestServer } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const whoami = (token: string) => get("/probe/whoami", { authorization: `Bearer ${token}` })

describe("partners and their tokens", () => {
  it.layer(Partners.Default.pipe(Layer.provideMerge(TestDatabaseLive)))((it) => {
    it.effect("a token is shown once and stored only as a SHA-256 with its public prefix", () =>
      Effect.gen(function* () {
        const partners = yield* Partners
        yield* partners.create("acme-assistant", "Acme Assistant AB")
        const { token, prefix } = yield* partners.issueToken("acme-assistant")
        expect(token).toMatch(tokenPattern)
        expect(token.slice(4, 16)).toBe(prefix)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql`SELECT * FROM partner_tokens WHERE prefix = ${prefix}`
        expect(JSON.stringify(rows)).not.toContain(token.slice(17))
        expect((yield* Effect.flip(partners.create("acme-assistant", "Again"))).message).toContain("already exists")
        expect((yield* Effect.flip(partners.issueToken("nobody"))).message).toContain("no active partner")
        expect((yield* Effect.flip(partners.create("Bad Id", "x"))).message).toContain("partner id must match")
      })
    )

    it.effect("a sandbox partner's tokens carry the flag; tokens of an ordinary partner do not", () =>
      Effect.gen(function* () {
        const partners = yield* Partners
        yield* partners.create("acme-sandbox", "Acme Assistant AB (sandbox)", { sandbox: true })
        yield* partners.create("acme-live", "Acme Assistant AB")
        const sandbox = yield* partners.issueToken("acme-sandbox")
        const live = yield* partners.issueToken("acme-live")
        const byPrefix = new Map((yield* partners.liveTokens).map((entry) => [entry.prefix, entry]))
        expect(byPrefix.get(sandbox.prefix)).toMatchObject({ partnerId: "acme-sandbox", sandbox: true })
        expect(byPrefix.get(live.prefix)).toMatchObject({ partnerId: "acme-live", sandbox: false })
        expect(Option.getOrThrow(yield* partners.liveToken(sandbox.prefix))).toMatchObject({ sandbox: true })
        yield* partners.revokeToken(sandbox.prefix)
        expect(Option.isNone(yield* partners.liveToken(sandbox.prefix))).toBe(true)
      })
    )

    it.effect("the service's clock drives the token refresh, and stamps revocations and last use", () =>
      Effect.gen(function* () {
        const t0 = Date.parse("2026-11-23T08:00:00Z")
        yield* TestClock.setTime(t0)
        const partners = yield* Partners
        const sql = yield* SqlClient.SqlClient
        yield* partners.create("clockwork", "Clockwork AB")
        const revoked = yield* partners.issueToken("clockwork")
        const kept = yield* partners.issueToken("clockwork")
        const { authenticate, tokenUpkeep } = yield* makeAuthenticate.pipe(
          Effect.provide(appConfigFrom({ AUTH_MODE: "tokens" })),
          Effect.provideService(Partners, partners)
        )
        yield* keepTokensFresh(tokenUpkeep)
        const check = (token: string) => Effect.exit(authenticate(Option.some(token), "unconfigured"))
        yield* partners.revokeToken(revoked.prefix)
        // Known tokens are re-read by the refresh, so the revocation is not seen before it.
        expect((yield* check(revoked.token))._tag).toBe("Success")
        yield* TestClock.adjust(tokenRefreshInterval)
        yield* waitFor(check(revoked.token), (exit) => expect(exit._tag).toBe("Failure"))
        expect((yield* check(kept.token))._tag).toBe("Success")
        yield* TestClock.adjust("28 seconds")
        const stamps = sql<{ prefix: string; revokedAt: Date | null; lastUsedAt: Date | null }>`
          SELECT prefix, revoked_at, last_used_at FROM partner_tokens WHERE prefix IN (${revoked.prefix}, ${kept.prefix})`
        yield* waitFor(stamps, (rows) =>
          expect(
            new Map(rows.map((row) => [row.prefix, [row.revokedAt?.getTime(), row.lastUsedAt?.getTime()]]))
          ).toEqual(
            new Map([
              [revoked.prefix, [t0, t0 + 30_000]],
              [kept.prefix, [undefined, t0 + 30_000]]
            ])
          )
        )
      }).pipe(Effect.scoped)
    )
  })

  it.live(
    "issued tokens work at once as their partner, two at once allow rotation, and a revocation reaches the server by its refresh",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const partners = yield* Layer.build(
          Partners.Default.pipe(Layer.provide(pgClientLayer(Redacted.make(url))))
        ).pipe(Effect.map(Context.get(Partners)))
        yield* partners.create("nordic-ai", "Nordic AI")
        const first = yield* partners.issueToken("nordic-ai")
        yield* Effect.gen(function* () {
          const nordic = { partner_id: "nordic-ai", sandbox: false }
          expect((yield* whoami(first.token)).body).toEqual(nordic)
          const second = yield* partners.issueToken("nordic-ai")
          expect((yield* whoami(second.token)).body).toEqual(nordic)
          yield* partners.revokeToken(first.prefix)
          yield* waitFor(whoami(first.token), (response) => expect(response.status).toBe(401))
          expect((yield* whoami(second.token)).status).toBe(200)
          const almost = `${second.token.slice(0, -1)}${second.token.endsWith("A") ? "B" : "A"}`
          expect((yield* whoami(almost)).status).toBe(401)
          expect((yield* whoami("alpha-token-0123456789")).body).toEqual({
            partner_id: expect.stringMatching(/^token-/),
            sandbox: false
          })
        }).pipe(
          Effect.provide(
            TestServer({
              probe: true,
              env: {
                APP_ENV: "production",
                PUBLIC_BASE_URL: "https://api.example.se",
                DATABASE_URL: url,
                SERVICE_REQUESTS_API_TOKENS: "alpha-token-0123456789"
              },
              database: url
            })
          )
        )
      }).pipe(Effect.scoped),
    30_000
  )
})
