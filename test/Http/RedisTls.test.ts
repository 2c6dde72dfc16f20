import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Context, Duration, Effect, Layer, Logger } from "effect"
import * as Limiter from "effect/persistence/RateLimiter"
import { generate } from "selfsigned"
import { appConfigFrom } from "../../src/AppConfig.js"
import { rateLimitStoreWith } from "../../src/Http/RateLimiter.js"
import { redisServer } from "../support/Receivers.js"
import { testEnv } from "../support/Server.js"

/** Characters a URL must escape, so the test also shows they are decoded as the client library does. */
const password = "s3cr@t:pass/word-4711"
const userPassword = "another#secret?9876"

/** A certificate for 127.0.0.1 that is its own CA, as an operator's private CA would be. */
const certificate = async (name: string) => {
  const pems = await generate([{ name: "commonName", value: name }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" }
        ]
      }
    ]
  })
  return { cert: pems.cert, key: pems.private }
}

describe("TLS and credentials to Redis", () => {
  const lines: Array<string> = []
  const collector = Logger.layer([
    Logger.map(Logger.formatLogFmt, (line) => {
      lines.push(line)
    })
  ])

  /** The store as the server builds it from these variables, and one count through it. */
  const countWith = (env: Record<string, string>) =>
    Effect.gen(function* () {
      const store = yield* Layer.build(
        rateLimitStoreWith("booking-api-tls:").pipe(Layer.provide(appConfigFrom({ ...testEnv, ...env })))
      ).pipe(Effect.map(Context.get(Limiter.RateLimiterStore)))
      return yield* Effect.result(
        store.fixedWindow({ key: "confirm:partner:p", tokens: 1, refillRate: Duration.seconds(2), limit: 30 })
      )
    }).pipe(Effect.scoped)

  it.live(
    "rediss:// with a user and password connects, verifying the server against REDIS_TLS_CA_FILE; an unknown CA, a wrong password or plain redis:// is refused, and no password reaches a log line",
    () =>
      Effect.gen(function* () {
        const tls = yield* Effect.promise(() => certificate("redis.test"))
        const stranger = yield* Effect.promise(() => certificate("someone-else.test"))
        const redis = yield* redisServer({ tls, password, user: { name: "booking", password: userPassword } })
        const dir = mkdtempSync(join(tmpdir(), "booking-redis-ca-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dir, { recursive: true, force: true })))
        const [ca, otherCa] = [join(dir, "ca.pem"), join(dir, "other.pem")]
        writeFileSync(ca, tls.cert)
        writeFileSync(otherCa, stranger.cert)
        const at = (credentials: string, scheme = "rediss") => `${scheme}://${credentials}@127.0.0.1:${redis.port}/0`
        const asUser = at(`booking:${encodeURIComponent(userPassword)}`)
        const asDefault = at(`:${encodeURIComponent(password)}`)

        lines.length = 0
        const counts = [
          yield* countWith({ REDIS_URL: asUser, REDIS_TLS_CA_FILE: ca }),
          yield* countWith({ REDIS_URL: asDefault, REDIS_TLS_CA_FILE: ca })
        ]
        expect(counts.map((count) => (count._tag === "Success" ? count.success[0] : count.failure.message))).toEqual([
          1, 2
        ])
        expect(lines.filter((line) => line.includes("level=WARN"))).toEqual([])

        const refused = [
          // The system's CAs do not know this server's certificate, nor does another CA.
          { REDIS_URL: asUser },
          { REDIS_URL: asUser, REDIS_TLS_CA_FILE: otherCa },
          { REDIS_URL: at(`booking:${encodeURIComponent(password)}`), REDIS_TLS_CA_FILE: ca },
          { REDIS_URL: at(`booking:${encodeURIComponent(userPassword)}`, "redis") }
        ]
        for (const env of refused) {
          lines.length = 0
          const outcome = yield* countWith(env)
          expect(outcome._tag).toBe("Failure")
          expect(lines).toEqual([expect.stringContaining(`Redis at 127.0.0.1:${redis.port} does not answer`)])
          const failure = outcome._tag === "Failure" ? outcome.failure : undefined
          for (const secret of [
            password,
            userPassword,
            encodeURIComponent(password),
            encodeURIComponent(userPassword)
          ]) {
            expect(lines.join("\n")).not.toContain(secret)
            expect(String(failure?.message)).not.toContain(secret)
          }
        }
      }).pipe(Effect.scoped, Effect.provide(collector)),
    30_000
  )
})
