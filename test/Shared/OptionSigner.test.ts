import { createHmac } from "node:crypto"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit, Layer, Result } from "effect"
import { appConfigFrom } from "../../src/AppConfig.js"
import type { OptionClaims } from "../../src/Domain/BookingOption.js"
import { parseSigningKeys } from "../../src/Domain/BookingOption.js"
import { ProviderId, ServiceId } from "../../src/Domain/Ids.js"
import { developmentKeyFile, OptionSigner } from "../../src/Shared/OptionSigner.js"

const secretA = "alpha-secret-alpha-secret-alpha-secret"
const secretB = "bravo-secret-bravo-secret-bravo-secret"
const production = {
  APP_ENV: "production",
  PUBLIC_BASE_URL: "https://api.example.se",
  DATABASE_URL: "postgres://u@localhost/db"
}

const signerLayer = (env: Record<string, string>) => OptionSigner.Default.pipe(Layer.provide(appConfigFrom(env)))

const signerWith = (env: Record<string, string>) => Effect.provide(OptionSigner, signerLayer(env))

const constructionFailure = (env: Record<string, string>) =>
  Effect.map(Effect.result(signerWith(env)), (result) =>
    Result.isFailure(result) ? String(result.failure) : "constructed"
  )

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
  originPostcode: 11122
}

const tempDirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "option-signer-"))
  tempDirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true })
})

describe("OptionSigner", () => {
  it.effect("sign then verify returns the claims with the expiry and a fresh nonce", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const moving: OptionClaims = {
        ...claims,
        verticalId: "moving",
        pricingModel: "per_hour",
        priceType: "avg_unit",
        unitPriceSek: 650,
        unit: "hour",
        quantity: 3.5,
        destinationPostcode: 41301
      }
      const first = yield* signer.sign(moving, now)
      const second = yield* signer.sign(moving, now)
      const verified = yield* signer.verify(first.token, now)
      expect(verified).toEqual({ ...moving, expiresAt: first.expiresAt.getTime(), nonce: verified.nonce })
      expect(verified.nonce).toMatch(/^[A-Za-z0-9_-]{16}$/)
      expect(second.token).not.toBe(first.token)
      expect((yield* signer.verify(second.token, now)).nonce).not.toBe(verified.nonce)
    })
  )

  it.effect("sign without a key fails signing_not_configured; claims outside the schema die", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const unconfigured = yield* signerWith({ ...production, DATA_DIR: tempDir() })
      expect(yield* Effect.flip(unconfigured.sign(claims, now))).toMatchObject({ _tag: "signing_not_configured" })
      const refused = yield* Effect.exit(signer.sign({ ...claims, slotEnd: claims.slotStart }, now))
      expect(Exit.isFailure(refused) && Cause.hasDies(refused.cause)).toBe(true)
    })
  )

  it.effect("the token is URL-safe, 20 to 24000 characters, and shaped o1.<kid>.<payload>.<tag>", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const { token } = yield* signer.sign(claims, now)
      expect(token).toMatch(/^[A-Za-z0-9._-]+$/)
      expect(token.length).toBeGreaterThanOrEqual(20)
      expect(token.length).toBeLessThanOrEqual(24000)
      expect(token).toMatch(/^o1\.A\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/)
      const longest = yield* signer.sign(
        {
          ...claims,
          providerId: ProviderId.make("\u0000".repeat(256)),
          serviceId: ServiceId.make("\ud800".repeat(256)),
          jobTypeId: "\u0001".repeat(256),
          pricingModel: "\u0002".repeat(256),
          priceType: "\u0003".repeat(256),
          unit: "\u0004".repeat(256),
          termsVersion: "\u0005".repeat(256),
          unitPriceSek: Number.MAX_SAFE_INTEGER,
          quantity: Number.MAX_VALUE,
          destinationPostcode: 99999
        },
        now
      )
      expect(longest.token.length).toBeLessThanOrEqual(24000)
      // One character past a claim's bound would sign a token that verify refuses: it is never signed.
      const tooLong = yield* Effect.exit(signer.sign({ ...claims, providerId: ProviderId.make("p".repeat(257)) }, now))
      expect(Exit.isFailure(tooLong) && Cause.hasDies(tooLong.cause)).toBe(true)
    })
  )

  it.effect("an option expires after the TTL or at its slot start, whichever comes first", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({
        BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}`,
        BOOKING_OPTION_TTL_SECONDS: "600"
      })
      const far = yield* signer.sign(claims, now)
      expect(far.expiresAt.getTime()).toBe(now.getTime() + 10 * MINUTE)
      const soonStart = now.getTime() + 4 * MINUTE
      const soon = yield* signer.sign({ ...claims, slotStart: soonStart, slotEnd: soonStart + 60 * MINUTE }, now)
      expect(soon.expiresAt.getTime()).toBe(soonStart)
      expect((yield* signer.verify(soon.token, now)).expiresAt).toBe(soonStart)
    })
  )

  it.effect("verify at or after the expiry is option_expired, asking for a refresh", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const { token, expiresAt } = yield* signer.sign(claims, now)
      const justBefore = new Date(expiresAt.getTime() - 1)
      expect((yield* signer.verify(token, justBefore)).providerId).toBe(claims.providerId)
      for (const at of [expiresAt, new Date(expiresAt.getTime() + 1), new Date(claims.slotEnd)]) {
        const error = yield* Effect.flip(signer.verify(token, at))
        expect(error).toMatchObject({ _tag: "option_expired", option_refresh_required: true })
      }
    })
  )

  it.effect("a rotated key keeps verifying until it is removed; the first key signs", () =>
    Effect.gen(function* () {
      const before = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const during = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `B:${secretB},A:${secretA}` })
      const after = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `B:${secretB}` })
      const old = yield* before.sign(claims, now)
      const fresh = yield* during.sign(claims, now)
      expect(fresh.token.startsWith("o1.B.")).toBe(true)
      expect((yield* during.verify(old.token, now)).nonce).toMatch(/^[A-Za-z0-9_-]{16}$/)
      expect((yield* after.verify(fresh.token, now)).providerId).toBe(claims.providerId)
      expect(yield* Effect.flip(after.verify(old.token, now))).toMatchObject({ _tag: "option_invalid" })
      expect(yield* Effect.flip(before.verify(fresh.token, now))).toMatchObject({ _tag: "option_invalid" })
    })
  )

  it.effect("a kid known to the verifier does not help a tag made with another secret", () =>
    Effect.gen(function* () {
      const genuine = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const forger = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretB}` })
      const { token } = yield* forger.sign(claims, now)
      expect(yield* Effect.flip(genuine.verify(token, now))).toMatchObject({ _tag: "option_invalid" })
    })
  )

  it.effect("a correctly tagged payload that is not a SignedOption is option_invalid", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const tagged = (json: string) => {
        const signed = `o1.A.${Buffer.from(json, "utf8").toString("base64url")}`
        return `${signed}.${createHmac("sha256", secretA).update(signed).digest("base64url")}`
      }
      const valid = yield* signer.verify(
        tagged(JSON.stringify({ ...claims, expiresAt: claims.slotStart, nonce: "AAAAAAAAAAAAAAAA" })),
        now
      )
      expect(valid.nonce).toBe("AAAAAAAAAAAAAAAA")
      for (const json of [
        "not json",
        "{}",
        JSON.stringify({ ...claims, expiresAt: claims.slotStart }),
        JSON.stringify({
          ...claims,
          expiresAt: claims.slotStart,
          nonce: "AAAAAAAAAAAAAAAA",
          slotEnd: claims.slotStart
        }),
        JSON.stringify({ ...claims, expiresAt: claims.slotStart, nonce: "AAAAAAAAAAAAAAAA", verticalId: "roofing" })
      ]) {
        expect(yield* Effect.flip(signer.verify(tagged(json), now)), json).toMatchObject({ _tag: "option_invalid" })
      }
    })
  )

  it.effect("garbage is option_invalid", () =>
    Effect.gen(function* () {
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })
      const { token } = yield* signer.sign(claims, now)
      const [, , payload, tag] = token.split(".")
      for (const garbage of [
        "",
        "o1",
        "o1...",
        `o2.A.${payload}.${tag}`,
        `o1.A.${payload}`,
        `o1.A.${payload}.${tag}.`,
        `o1.A..${tag}`,
        `o1.A.${payload}.${tag?.slice(0, -1)}`,
        `o1.Z.${payload}.${tag}`,
        `o1.A.${payload}.${tag}=`,
        `o1.A.${payload}.${"A".repeat(43)}`,
        `o1.A.${"A".repeat(24000)}.${tag}`
      ]) {
        expect(yield* Effect.flip(signer.verify(garbage, now)), garbage.slice(0, 80)).toMatchObject({
          _tag: "option_invalid",
          option_refresh_required: true
        })
      }
    })
  )

  it.effect("a secret shorter than 32 bytes fails construction, naming the variable and not the secret", () =>
    Effect.gen(function* () {
      const short = "x".repeat(31)
      const message = yield* constructionFailure({ BOOKING_OPTION_SIGNING_KEYS: `A:${short}` })
      expect(message).toContain("BOOKING_OPTION_SIGNING_KEYS")
      expect(message).toContain("32 bytes")
      expect(message).not.toContain(short)
      // Bytes, not characters: 16 two-byte letters are enough, 15 and an ASCII letter are not.
      expect(yield* constructionFailure({ BOOKING_OPTION_SIGNING_KEYS: `A:${"å".repeat(16)}` })).toBe("constructed")
      expect(yield* constructionFailure({ BOOKING_OPTION_SIGNING_KEYS: `A:${"å".repeat(15)}x` })).toContain(
        "BOOKING_OPTION_SIGNING_KEYS"
      )
    })
  )

  it.effect("malformed entries and duplicate kids fail construction; blanks are ignored", () =>
    Effect.gen(function* () {
      for (const keys of [
        secretA,
        `:${secretA}`,
        `bad kid:${secretA}`,
        `${"k".repeat(33)}:${secretA}`,
        `kid.with.dots:${secretA}`,
        `A:${secretA},B`,
        `A:${secretA},A:${secretB}`
      ]) {
        const message = yield* constructionFailure({ BOOKING_OPTION_SIGNING_KEYS: keys })
        expect(message, keys).toContain("BOOKING_OPTION_SIGNING_KEYS")
        expect(message, keys).not.toContain(secretA)
      }
      const signer = yield* signerWith({ BOOKING_OPTION_SIGNING_KEYS: ` , B:${secretB} ,, A:${secretA}:with:colons, ` })
      expect((yield* signer.sign(claims, now)).token.startsWith("o1.B.")).toBe(true)
      expect(parseSigningKeys(`A:${secretA}:with:colons`).pipe(Result.map((keys) => keys.map((k) => k.kid)))).toEqual(
        Result.succeed(["A"])
      )
    })
  )

  it.effect("the secret stays Redacted in the parsed keys", () =>
    Effect.sync(() => {
      const keys = Result.getOrThrow(parseSigningKeys(`A:${secretA}`))
      expect(String(keys[0]?.secret)).toBe("<redacted>")
      expect(JSON.stringify(keys)).not.toContain(secretA)
    })
  )

  it.effect("BOOKING_OPTION_TTL_SECONDS defaults to 900 and must be an integer from 30 to 86400", () =>
    Effect.gen(function* () {
      const keys = { BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` }
      expect((yield* signerWith(keys)).ttlSeconds).toBe(900)
      for (const ttl of ["30", "86400"]) {
        expect((yield* signerWith({ ...keys, BOOKING_OPTION_TTL_SECONDS: ttl })).ttlSeconds).toBe(Number(ttl))
      }
      for (const ttl of ["29", "86401", "0", "-900", "900.5", "soon"]) {
        expect(yield* constructionFailure({ ...keys, BOOKING_OPTION_TTL_SECONDS: ttl }), ttl).toContain(
          "BOOKING_OPTION_TTL_SECONDS"
        )
      }
    })
  )

  it.effect("development without keys keeps one under DATA_DIR (mode 0600) that survives a restart", () =>
    Effect.gen(function* () {
      const dataDir = join(tempDir(), "not-yet-there")
      const env = { APP_ENV: "development", DATA_DIR: dataDir }
      const first = yield* signerWith(env)
      const path = join(dataDir, developmentKeyFile)
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(readFileSync(path, "utf8")).toMatch(/^dev-[0-9a-f]{8}:[A-Za-z0-9_-]{43}$/)
      const { token } = yield* first.sign(claims, now)
      const restarted = yield* signerWith(env)
      expect((yield* restarted.verify(token, now)).providerId).toBe(claims.providerId)
      const elsewhere = yield* signerWith({ APP_ENV: "development", DATA_DIR: tempDir() })
      expect(yield* Effect.flip(elsewhere.verify(token, now))).toMatchObject({ _tag: "option_invalid" })
    })
  )

  it.effect("development signers starting together with an empty DATA_DIR all settle on one key", () =>
    Effect.gen(function* () {
      const env = { APP_ENV: "development", DATA_DIR: tempDir() }
      const signers = yield* Effect.all(
        Array.from({ length: 8 }, () => signerWith(env)),
        { concurrency: "unbounded" }
      )
      const tokens = yield* Effect.forEach(signers, (signer) => Effect.map(signer.sign(claims, now), (s) => s.token))
      expect(new Set(tokens.map((token) => token.split(".")[1])).size).toBe(1)
      for (const signer of signers) {
        for (const token of tokens) expect((yield* signer.verify(token, now)).providerId).toBe(claims.providerId)
      }
    })
  )

  it.effect("development with configured keys uses them and writes no key file", () =>
    Effect.gen(function* () {
      const dataDir = tempDir()
      const signer = yield* signerWith({
        APP_ENV: "development",
        DATA_DIR: dataDir,
        BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}`
      })
      expect((yield* signer.sign(claims, now)).token.startsWith("o1.A.")).toBe(true)
      expect(existsSync(join(dataDir, developmentKeyFile))).toBe(false)
    })
  )

  it.effect("production without keys constructs, but sign is signing_not_configured and nothing verifies", () =>
    Effect.gen(function* () {
      const dataDir = tempDir()
      const signer = yield* signerWith({ ...production, DATA_DIR: dataDir })
      expect(yield* Effect.flip(signer.sign(claims, now))).toMatchObject({ _tag: "signing_not_configured" })
      const signed = yield* (yield* signerWith({ ...production, BOOKING_OPTION_SIGNING_KEYS: `A:${secretA}` })).sign(
        claims,
        now
      )
      expect(yield* Effect.flip(signer.verify(signed.token, now))).toMatchObject({ _tag: "option_invalid" })
      expect(existsSync(join(dataDir, developmentKeyFile))).toBe(false)
    })
  )

  it.effect("OptionSigner.Default reads its variables from the ambient ConfigProvider", () =>
    Effect.gen(function* () {
      const env = { ...production, BOOKING_OPTION_SIGNING_KEYS: `B:${secretB}`, BOOKING_OPTION_TTL_SECONDS: "120" }
      const signer = yield* Effect.provide(
        OptionSigner,
        OptionSigner.Default.pipe(Layer.provide(appConfigFrom(env)))
      ).pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env)))
      expect(signer.ttlSeconds).toBe(120)
      expect((yield* signer.sign(claims, now)).token.startsWith("o1.B.")).toBe(true)
    })
  )
})
