import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { inject } from "vitest"
import { pgClientLayer } from "../../src/Database/Database.js"
import { tokenLookupsPerSecond } from "../../src/Partners/Authentication.js"
import { Partners, tokenDigest } from "../../src/Partners/Partners.js"
import { makeDatabase } from "../support/Database.js"
import { get, postJson } from "../support/Http.js"
import { TestServer } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const whoami = (headers: Record<string, string> = {}) => get("/probe/whoami", headers)
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

const unauthorized = {
  ok: false,
  error: "unauthorized",
  status: 401,
  safe_next_step:
    "Send the partner API token as 'Authorization: Bearer <token>' or 'X-Service-Requests-Token: <token>'."
}

const notConfigured = {
  ok: false,
  error: "auth_not_configured",
  status: 503,
  safe_next_step:
    "The service has no API token configured; the operator must set SERVICE_REQUESTS_API_TOKENS or issue a partner token (npm run partner)."
}

const anonymous = { partner_id: "anonymous", sandbox: false }

/** A database of the test's own with the Partners service on its own connection, as the CLI would use it. */
const partnersDatabase = Effect.gen(function* () {
  const { url } = yield* makeDatabase()
  const layer = Partners.Default.pipe(Layer.provideMerge(pgClientLayer(Redacted.make(url))))
  const context = yield* Layer.build(layer)
  return { url, partners: Context.get(context, Partners), sql: Context.get(context, SqlClient.SqlClient) }
})

/** A partner token with a chosen prefix, so a test can refer to it before it exists. */
const tokenWithPrefix = (prefix: string) => `hsb_${prefix}_${randomBytes(32).toString("base64url")}`

// Every test has its own server and database (or only reads the shared one); one waits for a real token refresh.
describe.concurrent("authentication", () => {
  it.live("development, AUTH_MODE unset, no token ever: open; a token that is sent is still checked", () =>
    Effect.gen(function* () {
      expect(yield* whoami()).toMatchObject({ status: 200, body: anonymous })
      for (const headers of [
        bearer("no-such-token-0123456789"),
        { "x-service-requests-token": "no-such-token-0123456789" },
        bearer(tokenWithPrefix("abcdefghijkl")),
        { authorization: "Basic YWxwaGE6YmV0YQ==" }
      ]) {
        const response = yield* whoami(headers)
        expect(response.status, JSON.stringify(headers)).toBe(401)
        expect(response.body).toEqual(unauthorized)
      }
    }).pipe(Effect.provide(TestServer({ probe: true, env: { APP_ENV: "development" } })))
  )

  for (const appEnv of ["development", "production"] as const) {
    const env = {
      APP_ENV: appEnv,
      SERVICE_REQUESTS_API_TOKENS: "alpha-token-0123456789, beta-token-9876543210,",
      PUBLIC_BASE_URL: "https://api.example.se",
      DATABASE_URL: inject("databaseUrl")
    }

    it.live(`${appEnv} with configured tokens: no token or a wrong token is 401 in either header`, () =>
      Effect.gen(function* () {
        for (const headers of [
          {},
          { authorization: "Bearer alpha-token-012345678" },
          { "x-service-requests-token": "alpha-token-01234567890" },
          { authorization: "Basic YWxwaGEtdG9rZW4tMDEyMzQ1Njc4OQ==" },
          { authorization: "Digest alpha-token-0123456789" },
          { authorization: "Token alpha-token-0123456789" },
          { authorization: "alpha-token-0123456789" },
          { authorization: "Bearer " }
        ]) {
          const response = yield* whoami(headers)
          expect(response.status, JSON.stringify(headers)).toBe(401)
          expect(response.body).toEqual(unauthorized)
        }
      }).pipe(Effect.provide(TestServer({ probe: true, env })))
    )

    it.live(`${appEnv} with configured tokens: a token is accepted as Bearer or as X-Service-Requests-Token`, () =>
      Effect.gen(function* () {
        const viaBearer = yield* whoami(bearer("alpha-token-0123456789"))
        for (const scheme of ["bearer", "BEARER", "BeArEr"]) {
          const response = yield* whoami({ authorization: `${scheme} alpha-token-0123456789` })
          expect(response.body, scheme).toEqual(viaBearer.body)
        }
        const header = yield* whoami({ "x-service-requests-token": "alpha-token-0123456789" })
        const other = yield* whoami({ "x-service-requests-token": "beta-token-9876543210" })
        expect(viaBearer.status).toBe(200)
        expect(header.body).toEqual(viaBearer.body)
        expect(other.status).toBe(200)
        expect(other.body.partner_id).not.toBe(viaBearer.body.partner_id)
        expect(viaBearer.body).toEqual({ partner_id: expect.stringMatching(/^token-[0-9a-f]{12}$/), sandbox: false })
      }).pipe(Effect.provide(TestServer({ probe: true, env })))
    )
  }

  it.live("SANDBOX_API_TOKENS authenticate as sandbox partners of their own, beside the live tokens", () =>
    Effect.gen(function* () {
      const live = yield* whoami(bearer("alpha-token-0123456789"))
      const sandbox = yield* whoami(bearer("sandbox-token-0123456789"))
      expect(live.body).toEqual({ partner_id: expect.stringMatching(/^token-[0-9a-f]{12}$/), sandbox: false })
      expect(sandbox.body).toEqual({ partner_id: expect.stringMatching(/^sandbox-[0-9a-f]{12}$/), sandbox: true })
      expect((yield* whoami()).status).toBe(401)
    }).pipe(
      Effect.provide(
        TestServer({
          probe: true,
          env: {
            APP_ENV: "production",
            SERVICE_REQUESTS_API_TOKENS: "alpha-token-0123456789",
            SANDBOX_API_TOKENS: "sandbox-token-0123456789",
            PUBLIC_BASE_URL: "https://api.example.se",
            DATABASE_URL: inject("databaseUrl")
          }
        })
      )
    )
  )

  const noTokenRules = Effect.gen(function* () {
    for (const headers of [{}, bearer("anything-at-all")]) {
      const whoamiResponse = yield* whoami(headers)
      expect(whoamiResponse.status).toBe(401)
      expect(whoamiResponse.body).toEqual(unauthorized)
      const status = yield* get("/api/public/bookings/bkg_0123456789abcdef", headers)
      expect(status.status).toBe(401)
      expect(status.body).toEqual(unauthorized)
      const created = yield* postJson("/api/public/requests", {}, headers)
      expect(created.status).toBe(503)
      expect(created.body).toEqual(notConfigured)
    }
    expect((yield* get("/api/public/requests/capabilities")).status).toBe(200)
  })

  it.live(
    "production without a configured token: confirm and status are 401, request creation 503, open endpoints answer",
    () =>
      noTokenRules.pipe(
        Effect.provide(
          TestServer({
            probe: true,
            env: {
              APP_ENV: "production",
              PUBLIC_BASE_URL: "https://api.example.se",
              DATABASE_URL: inject("databaseUrl")
            }
          })
        )
      )
  )

  it.live("development with AUTH_MODE=tokens and no token follows the production rules", () =>
    noTokenRules.pipe(Effect.provide(TestServer({ probe: true, env: { APP_ENV: "development", AUTH_MODE: "tokens" } })))
  )

  it.live(
    "an open development server stays open when the first partner token is issued; the token works at once, and once revoked is refused, never anonymous",
    () =>
      Effect.gen(function* () {
        const { url, partners } = yield* partnersDatabase
        yield* Effect.gen(function* () {
          expect((yield* whoami()).body).toEqual(anonymous)
          yield* partners.create("nordic-ai", "Nordic AI")
          const { token, prefix } = yield* partners.issueToken("nordic-ai")
          expect((yield* whoami(bearer(token))).body).toEqual({ partner_id: "nordic-ai", sandbox: false })
          expect((yield* whoami()).body).toEqual(anonymous)
          yield* partners.revokeToken(prefix)
          yield* waitFor(whoami(bearer(token)), (response) => expect(response.status).toBe(401))
          expect((yield* whoami(bearer(token))).body).toEqual(unauthorized)
          expect((yield* whoami()).body).toEqual(anonymous)
        }).pipe(Effect.provide(TestServer({ probe: true, env: { APP_ENV: "development" }, database: url })))
      }).pipe(Effect.scoped),
    30_000
  )

  it.live(
    "a development database that ever had a token starts in tokens mode; AUTH_MODE=open opens it, and the revoked token stays refused",
    () =>
      Effect.gen(function* () {
        const { url, partners } = yield* partnersDatabase
        yield* partners.create("nordic-ai", "Nordic AI")
        const { token, prefix } = yield* partners.issueToken("nordic-ai")
        yield* partners.revokeToken(prefix)
        yield* noTokenRules.pipe(
          Effect.provide(TestServer({ probe: true, env: { APP_ENV: "development" }, database: url }))
        )
        yield* Effect.gen(function* () {
          expect((yield* whoami()).body).toEqual(anonymous)
          expect((yield* whoami(bearer(token))).body).toEqual(unauthorized)
        }).pipe(
          Effect.provide(TestServer({ probe: true, env: { APP_ENV: "development", AUTH_MODE: "open" }, database: url }))
        )
      }).pipe(Effect.scoped),
    30_000
  )

  it.effect(
    "an unknown token prefix is looked up once per refresh interval, and at most 20 prefixes a second",
    () =>
      Effect.gen(function* () {
        const { url, sql } = yield* partnersDatabase
        yield* sql`INSERT INTO partners (id, name) VALUES ('nordic-ai', 'Nordic AI')`
        const insert = (token: string) =>
          sql`INSERT INTO partner_tokens (prefix, partner_id, token_sha256)
              VALUES (${token.slice(4, 16)}, 'nordic-ai', ${tokenDigest(token)})`
        const nordic = { partner_id: "nordic-ai", sandbox: false }
        yield* Effect.gen(function* () {
          const early = tokenWithPrefix("early-prefix")
          expect((yield* whoami(bearer(early))).status).toBe(401)
          yield* insert(early)
          // Found missing a moment ago: not asked again until the refresh interval has passed.
          expect((yield* whoami(bearer(early))).status).toBe(401)
          yield* TestClock.adjust("2 seconds")
          expect((yield* whoami(bearer(early))).body).toEqual(nordic)

          yield* TestClock.adjust("1 second")
          for (let i = 0; i < tokenLookupsPerSecond; i++) {
            const invented = tokenWithPrefix(`invented-${String(i).padStart(3, "0")}`)
            expect((yield* whoami(bearer(invented))).status).toBe(401)
          }
          const late = tokenWithPrefix("late-prefixx")
          yield* insert(late)
          expect((yield* whoami(bearer(late))).status).toBe(401)
          yield* TestClock.adjust("1 second")
          expect((yield* whoami(bearer(late))).body).toEqual(nordic)
        }).pipe(
          Effect.provide(
            // This test's own pool was built on the TestClock at 1970: moving it would replay decades of its timers.
            TestServer({ probe: true, env: { APP_ENV: "development", AUTH_MODE: "tokens" }, database: url, now: false })
          )
        )
      }).pipe(Effect.scoped),
    30_000
  )
})
