import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Redacted } from "effect"
import { pgClientLayer } from "../src/Database.js"
import { Partners, tokenPattern } from "../src/Partners.js"
import { withProbeServer } from "./support/ProbeApi.js"
import { makeDatabase, TestDatabaseLive } from "./support/TestDatabase.js"
import { get } from "./support/TestServer.js"

const whoami = (token: string) => get("/probe/whoami", { authorization: `Bearer ${token}` })

/** Polls until the answer has the status, for at most `within`; returns how long it took. */
const eventually = (token: string, status: number, within: Duration.DurationInput) =>
  Effect.gen(function* () {
    const started = Date.now()
    const deadline = started + Duration.toMillis(within)
    while (Date.now() < deadline) {
      if ((yield* whoami(token)).status === status) return Date.now() - started
      yield* Effect.sleep(Duration.millis(100))
    }
    return yield* Effect.die(new Error(`never answered ${status} within ${Duration.format(within)}`))
  })

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
  })

  it.live(
    "issued tokens authenticate as their partner, two at once allow rotation, and revocation takes effect within seconds",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const partners = yield* Layer.build(
          Partners.Default.pipe(Layer.provide(pgClientLayer(Redacted.make(url))))
        ).pipe(Effect.map(Context.get(Partners)))
        yield* partners.create("nordic-ai", "Nordic AI")
        const first = yield* partners.issueToken("nordic-ai")
        yield* Effect.gen(function* () {
          expect((yield* whoami(first.token)).body).toEqual({ partner_id: "nordic-ai" })
          const second = yield* partners.issueToken("nordic-ai")
          yield* eventually(second.token, 200, "10 seconds")
          expect((yield* whoami(second.token)).body).toEqual({ partner_id: "nordic-ai" })
          yield* partners.revokeToken(first.prefix)
          const took = yield* eventually(first.token, 401, "10 seconds")
          // The refresh runs every 2 s; the margin is for a loaded CI machine.
          expect(took).toBeLessThan(6000)
          expect((yield* whoami(second.token)).status).toBe(200)
          const almost = `${second.token.slice(0, -1)}${second.token.endsWith("A") ? "B" : "A"}`
          expect((yield* whoami(almost)).status).toBe(401)
          expect((yield* whoami("alpha-token-0123456789")).body).toEqual({
            partner_id: expect.stringMatching(/^token-/)
          })
        }).pipe(
          withProbeServer(
            {
              APP_ENV: "production",
              PUBLIC_BASE_URL: "https://api.example.se",
              DATABASE_URL: url,
              SERVICE_REQUESTS_API_TOKENS: "alpha-token-0123456789"
            },
            url
          )
        )
      }).pipe(Effect.scoped),
    30_000
  )

  it.live(
    "the CLI creates a partner, prints a new token once, lists and revokes it",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase()
        const cli = (...args: Array<string>) =>
          spawnSync(
            join(import.meta.dirname, "..", "node_modules", ".bin", "tsx"),
            [join(import.meta.dirname, "..", "src", "bin", "partner.ts"), ...args],
            { env: { ...process.env, DATABASE_URL: url, APP_ENV: "development" }, encoding: "utf8" }
          )
        const created = cli("create", "svea-bot", "Svea", "Bot", "AB")
        expect(created.status, created.stderr).toBe(0)
        expect(created.stdout).toContain("created partner svea-bot")
        const issued = cli("token:issue", "svea-bot")
        expect(issued.status, issued.stderr).toBe(0)
        const token = issued.stdout.trim()
        expect(token).toMatch(tokenPattern)
        const listed = cli("list")
        expect(listed.stdout).toMatch(new RegExp(`svea-bot\\tactive\\tSvea Bot AB\\t${token.slice(4, 16)} live`))
        expect(listed.stdout).not.toContain(token)
        const revoked = cli("token:revoke", token)
        expect(revoked.status, revoked.stderr).toBe(0)
        const sql = yield* Layer.build(pgClientLayer(Redacted.make(url))).pipe(
          Effect.map(Context.get(SqlClient.SqlClient))
        )
        const [row] = yield* sql<{ revokedAt: Date | null }>`
          SELECT revoked_at FROM partner_tokens WHERE prefix = ${token.slice(4, 16)}`
        expect(row?.revokedAt).toBeInstanceOf(Date)
      }).pipe(Effect.scoped),
    60_000
  )
})
