import { describe, expect, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import type { OptionClaims } from "../../src/Domain/BookingOption.js"
import { ProviderId, ServiceId } from "../../src/Domain/Ids.js"
import { BookingOptions, keptAfterExpiry, mintOptions, shortIdKeys } from "../../src/Shared/BookingOptions.js"
import { OptionSigner } from "../../src/Shared/OptionSigner.js"
import { TestDatabaseLive } from "../support/Database.js"

const secretA = "alpha-secret-alpha-secret-alpha-secret"
const secretB = "bravo-secret-bravo-secret-bravo-secret"
const MINUTE = 60_000
const now = new Date("2026-03-02T08:00:00Z")

const claims: OptionClaims = {
  providerId: ProviderId.make("rormokarna-sthlm"),
  serviceId: ServiceId.make("vvs_byte_blandare"),
  verticalId: "vvs",
  jobTypeId: "byte_blandare",
  amountSek: 2490,
  pricingModel: "flat",
  priceType: "avg_fixed",
  slotStart: now.getTime() + 24 * 60 * MINUTE,
  slotEnd: now.getTime() + 26 * 60 * MINUTE,
  termsVersion: "2026-01-15-standard",
  originPostcode: 11122,
  timeZone: "Europe/Stockholm"
}

/** An instance of its own over the suite's database: shares nothing with another but the tables. */
const instance = (keys: string, ttlSeconds = 900) =>
  Effect.provide(
    BookingOptions,
    Layer.fresh(BookingOptions.Default).pipe(
      Layer.provide(
        appConfigFrom({ BOOKING_OPTION_SIGNING_KEYS: keys, BOOKING_OPTION_TTL_SECONDS: String(ttlSeconds) })
      )
    )
  )

const issueOne = (options: BookingOptions["Service"], at: Date = now) =>
  Effect.map(options.issue([claims], at), (tokens) => tokens[0]!)

const issueOf = (
  result: Result.Result<unknown, { readonly _tag: string; readonly issues?: ReadonlyArray<string> | undefined }>
) => (Result.isFailure(result) ? { tag: result.failure._tag, issue: result.failure.issues?.[0] ?? "" } : "opened")

const rowCount = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(sql<{ n: number }>`SELECT count(*)::int AS n FROM booking_options`, ([row]) => row!.n)
)

describe("BookingOptions", () => {
  it.layer(TestDatabaseLive)((it) => {
    it.effect("ids are 46 URL-safe characters, one row each, written before they are answered", () =>
      Effect.gen(function* () {
        const options = yield* instance(`A:${secretA}`)
        const before = yield* rowCount
        const many = Array.from({ length: 10 }, (_, n) => ({
          ...claims,
          slotStart: claims.slotStart + n * 60 * MINUTE,
          slotEnd: claims.slotEnd + n * 60 * MINUTE
        }))
        const tokens = yield* options.issue(many, now)
        expect(yield* rowCount).toBe(before + 10)
        expect(new Set(tokens.map((t) => t.token)).size).toBe(10)
        for (const [n, { token, expiresAt }] of tokens.entries()) {
          expect(token).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
          expect(token).toHaveLength(46)
          expect(expiresAt.getTime()).toBe(now.getTime() + 900_000)
          const opened = yield* options.open(token, now)
          expect(Result.getOrThrow(opened)).toMatchObject({ ...many[n], expiresAt: expiresAt.getTime() })
        }
        expect(yield* options.issue([], now)).toEqual([])
      })
    )

    it.effect("a second instance on the same database opens what the first issued", () =>
      Effect.gen(function* () {
        const first = yield* instance(`A:${secretA}`)
        const second = yield* instance(`A:${secretA}`)
        const { token } = yield* issueOne(first)
        expect(Result.getOrThrow(yield* second.open(token, now)).providerId).toBe(claims.providerId)
      })
    )

    it.effect("every one-character change, and a cut, is option_invalid saying it was altered or mistyped", () =>
      Effect.gen(function* () {
        const options = yield* instance(`A:${secretA}`)
        const { token } = yield* issueOne(options)
        for (let at = 0; at < token.length; at++) {
          const swapped = token[at] === "x" ? "y" : "x"
          const changed = `${token.slice(0, at)}${swapped}${token.slice(at + 1)}`
          const refused = issueOf(yield* options.open(changed, now))
          expect(refused, changed).toMatchObject({ tag: "option_invalid" })
          expect((refused as { issue: string }).issue, changed).toMatch(/mistyped/)
        }
        for (const cut of [token.slice(0, -1), token.slice(1), `${token}A`, token.replace(/.$/, "="), ""]) {
          const refused = issueOf(yield* options.open(cut, now))
          expect(refused, cut).toMatchObject({ tag: "option_invalid" })
          expect((refused as { issue: string }).issue, cut).toMatch(/malformed, mistyped or cut short/)
        }
        const changed = `${token.slice(0, 20)}${token[20] === "A" ? "B" : "A"}${token.slice(21)}`
        expect(issueOf(yield* options.open(changed, now))).toEqual({
          tag: "option_invalid",
          issue:
            "booking_option_id: does not match its signature: it was altered or mistyped (or it comes from another server, or from a key since retired)"
        })
      })
    )

    it.effect("a rotated key keeps its ids opening until it is removed; the first key issues", () =>
      Effect.gen(function* () {
        const before = yield* instance(`A:${secretA}`)
        const during = yield* instance(`B:${secretB},A:${secretA}`)
        const after = yield* instance(`B:${secretB}`)
        const old = yield* issueOne(before)
        const fresh = yield* issueOne(during)
        expect(Result.isSuccess(yield* during.open(old.token, now))).toBe(true)
        expect(Result.isSuccess(yield* after.open(fresh.token, now))).toBe(true)
        expect(issueOf(yield* after.open(old.token, now))).toMatchObject({ tag: "option_invalid" })
        expect(issueOf(yield* before.open(fresh.token, now))).toMatchObject({ tag: "option_invalid" })
      })
    )

    it.effect("a genuine id whose option is not on record says so, and is option_expired once it has expired", () =>
      Effect.gen(function* () {
        const options = yield* instance(`A:${secretA}`)
        const signer = yield* Effect.provide(
          OptionSigner,
          OptionSigner.Default.pipe(Layer.provide(appConfigFrom({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })))
        )
        // Minted as the service mints, but never written: another environment's, or a lost row.
        const minted = Result.getOrThrow(mintOptions(signer.seal, shortIdKeys(signer)[0]!, [claims], now))
        const [{ token, expiresAt }] = minted.tokens as [{ token: string; expiresAt: Date }]
        expect(issueOf(yield* options.open(token, now))).toEqual({
          tag: "option_invalid",
          issue:
            "booking_option_id: is signed by this service but its option is not on record: it comes from another environment, or the record was lost"
        })
        expect(issueOf(yield* options.open(token, expiresAt))).toMatchObject({ tag: "option_expired" })
      })
    )

    it.effect("long o1 ids, which carry their option, still open until they expire", () =>
      Effect.gen(function* () {
        const options = yield* instance(`A:${secretA}`)
        const signer = yield* Effect.provide(
          OptionSigner,
          OptionSigner.Default.pipe(Layer.provide(appConfigFrom({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })))
        )
        const { token, expiresAt } = yield* signer.sign(claims, now)
        expect(token.startsWith("o1.A.")).toBe(true)
        const opened = Result.getOrThrow(yield* options.open(token, now))
        expect(opened).toMatchObject({ ...claims, expiresAt: expiresAt.getTime() })
        const altered = `${token.slice(0, -3)}${token.at(-3) === "A" ? "B" : "A"}${token.slice(-2)}`
        expect(issueOf(yield* options.open(altered, now))).toMatchObject({
          tag: "option_invalid",
          issue: expect.stringMatching(/altered or mistyped/)
        })
      })
    )

    it.effect("the sweep deletes options an hour past their expiry, on the service's clock, and no others", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const options = yield* instance(`A:${secretA}`, 60)
        yield* sql`DELETE FROM booking_options`
        yield* TestClock.setTime(now.getTime())
        const early = yield* issueOne(options, now)
        const later = yield* issueOne(options, new Date(now.getTime() + 30 * MINUTE))
        yield* TestClock.setTime(early.expiresAt.getTime() + Duration.toMillis(keptAfterExpiry) + 1)
        yield* options.sweep
        expect(yield* rowCount).toBe(1)
        expect(
          issueOf(yield* options.open(early.token, new Date(early.expiresAt.getTime() + 61 * MINUTE)))
        ).toMatchObject({ tag: "option_expired" })
        expect(Result.isSuccess(yield* options.open(later.token, now))).toBe(true)
      })
    )

    it.effect(
      "searches that arrive while a batch is written share the next statement, each answered once its rows are on record; one that gave up is left out",
      () =>
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const options = yield* instance(`A:${secretA}`)
          const before = yield* rowCount
          const at = (n: number): OptionClaims => ({
            ...claims,
            slotStart: claims.slotStart + n * 60 * MINUTE,
            slotEnd: claims.slotEnd + n * 60 * MINUTE
          })
          // The id's handle (bytes 6 to 18 of its body) is the row's key.
          const handleOf = (token: string) => token.slice(10, 26)
          const transactionsOf = (tokens: ReadonlyArray<{ token: string }>) =>
            Effect.map(
              sql<{ x: string }>`SELECT DISTINCT xmin::text AS x FROM booking_options
                WHERE id IN ${sql.in(tokens.map((t) => handleOf(t.token)))}`,
              (rows) => rows.map((row) => row.x)
            )
          const locked = yield* Deferred.make<void>()
          const unlock = yield* Deferred.make<void>()
          // Another session holds the table: the first search's statement waits on it.
          const holder = yield* Effect.forkChild(
            sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`LOCK TABLE booking_options IN SHARE MODE`
                yield* Deferred.succeed(locked, undefined)
                yield* Deferred.await(unlock)
              })
            )
          )
          yield* Deferred.await(locked)
          const first = yield* Effect.forkChild(options.issue([at(0), at(1)], now))
          const waitingOnLock = Effect.map(
            sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_locks
              WHERE relation = 'booking_options'::regclass AND NOT granted`,
            ([row]) => row!.n > 0
          )
          while (!(yield* waitingOnLock)) yield* TestClock.withLive(Effect.sleep("5 millis"))
          const second = yield* Effect.forkChild(options.issue([at(2)], now))
          const third = yield* Effect.forkChild(options.issue([at(3), at(4)], now))
          const gaveUp = yield* Effect.forkChild(options.issue([at(5)], now))
          yield* Effect.yieldNow
          yield* Fiber.interrupt(gaveUp)
          expect(first.pollUnsafe()).toBeUndefined()
          expect(second.pollUnsafe()).toBeUndefined()
          yield* Deferred.succeed(unlock, undefined)
          yield* Fiber.join(holder)
          const firstTokens = yield* Fiber.join(first)
          const laterTokens = [...(yield* Fiber.join(second)), ...(yield* Fiber.join(third))]
          const [firstTransaction] = yield* transactionsOf(firstTokens)
          const later = yield* transactionsOf(laterTokens)
          expect(later).toHaveLength(1)
          expect(later[0]).not.toBe(firstTransaction)
          for (const { token } of [...firstTokens, ...laterTokens])
            expect(Result.isSuccess(yield* options.open(token, now))).toBe(true)
          // The search that gave up while waiting had its row left out of the batch.
          expect(yield* rowCount).toBe(before + 5)
        })
    )
  })
})
