import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { appConfigFrom } from "../../src/AppConfig.js"
import { BookingOptions, keptAfterExpiry } from "../../src/Shared/BookingOptions.js"
import { OptionSigner } from "../../src/Shared/OptionSigner.js"
import { confirmAnswer, confirmBody, searchBodyFor, searchOptions } from "../support/Http.js"
import { TestServer, testEnv, testNow } from "../support/Server.js"
import { waitFor } from "../support/Time.js"

const token = "option-ids-token-0123456789"
let keys = 0
const freshKey = () => `option-ids-${++keys}`

const search = (phrase: string) =>
  Effect.andThen(TestClock.setTime(testNow), searchOptions(searchBodyFor(phrase), token))

const confirm = (id: string, termsVersion: string) => confirmAnswer(confirmBody(id, termsVersion, freshKey()), token)

const services = Layer.mergeAll(BookingOptions.Default, OptionSigner.Default).pipe(
  Layer.provide(appConfigFrom(testEnv))
)

const rowOf = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ n: number }>`SELECT count(*)::int AS n FROM booking_options WHERE id = ${id.slice(10, 26)}`,
      ([row]) => row!.n
    )
  )

describe("booking_option_id over REST", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect("a search's ids are at most 64 URL-safe characters, and one confirms", () =>
      Effect.gen(function* () {
        const options = yield* search("nästa vecka")
        expect(options.length).toBeGreaterThan(1)
        for (const option of options) expect(option.booking_option_id).toMatch(/^[A-Za-z0-9_-]{20,64}$/)
        const [option] = options
        const booked = yield* confirm(option.booking_option_id, option.terms.version)
        expect(booked.status, JSON.stringify(booked.body)).toBe(201)
      })
    )

    it.effect("one character changed is 409 option_invalid saying the id was altered or mistyped", () =>
      Effect.gen(function* () {
        const [, option] = yield* search("nästa vecka")
        const id: string = option.booking_option_id
        for (const at of [2, 9, 25, id.length - 1]) {
          const changed = `${id.slice(0, at)}${id[at] === "Q" ? "R" : "Q"}${id.slice(at + 1)}`
          const refused = yield* confirm(changed, option.terms.version)
          expect(refused.status).toBe(409)
          expect(refused.body).toMatchObject({ error: "option_invalid", option_refresh_required: true })
          expect(refused.body.issues).toEqual([expect.stringMatching(/^booking_option_id: .*altered or mistyped/)])
        }
        const cut = yield* confirm(id.slice(0, -1), option.terms.version)
        expect(cut.body.issues).toEqual([expect.stringMatching(/malformed, mistyped or cut short/)])
      })
    )

    it.effect("an id is option_expired at its expiry, and still after the sweep took its row", () =>
      Effect.gen(function* () {
        const [, , option] = yield* search("nästa vecka")
        const id: string = option.booking_option_id
        const expiresAt = Date.parse(option.expires_at)
        yield* TestClock.setTime(expiresAt)
        const expired = yield* confirm(id, option.terms.version)
        expect(expired.status).toBe(409)
        expect(expired.body).toMatchObject({ error: "option_expired", option_refresh_required: true })
        expect(yield* rowOf(id)).toBe(1)
        // The server's own sweep loop runs when the clock passes its next pass; a pass still running
        // when the clock moved waits for the next one, so each look moves the clock one pass on.
        yield* TestClock.setTime(expiresAt + Duration.toMillis(keptAfterExpiry))
        yield* waitFor(Effect.andThen(TestClock.adjust("10 minutes"), rowOf(id)), (n) => expect(n).toBe(0))
        const swept = yield* confirm(id, option.terms.version)
        expect(swept.body).toMatchObject({ error: "option_expired", option_refresh_required: true })
      })
    )

    it.effect("a long o1 id of the same option still confirms until it expires", () =>
      Effect.gen(function* () {
        const [, , , option] = yield* search("nästa vecka")
        const { bookingOptions, signer } = yield* Effect.provide(
          Effect.all({ bookingOptions: BookingOptions, signer: OptionSigner }),
          services
        )
        const {
          expiresAt: _expiresAt,
          nonce: _nonce,
          ...claims
        } = Result.getOrThrow(yield* bookingOptions.open(option.booking_option_id, new Date(testNow)))
        const long = yield* signer.sign(claims, new Date(testNow))
        expect(long.token).toMatch(/^o1\.test-1\./)
        expect(long.token.length).toBeGreaterThan(64)
        const booked = yield* confirm(long.token, option.terms.version)
        expect(booked.status, JSON.stringify(booked.body)).toBe(201)
        yield* TestClock.setTime(long.expiresAt.getTime())
        const late = yield* confirm(long.token, option.terms.version)
        expect(late.body).toMatchObject({ error: "option_already_booked" })
      })
    )
  })
})
