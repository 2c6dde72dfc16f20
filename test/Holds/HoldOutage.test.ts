import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { DatabaseProxy, FaultyDatabaseLive } from "../support/Database.js"
import { get, postJson, searchBodyFor, searchOptions } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "hold-outage-token-0123456789"
const auth = { authorization: `Bearer ${token}` }
const options = Effect.andThen(TestClock.setTime(testNow), searchOptions(searchBodyFor("nästa vecka"), token))
const hold = (option: any, key: string) =>
  postJson("/api/public/holds", { booking_option_id: option.booking_option_id, idempotency_key: key }, auth)

const expectUnavailable = (answer: { status: number; body: any; headers: any }) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503)
  expect(answer.body.error).toBe("booking_unavailable")
  expect(answer.body.safe_next_step).toContain("Nothing is booked")
  expect(answer.body.safe_next_step).toContain("same idempotency_key")
}

describe("holds while the database fails: 503 with a true step, and the same key holds once afterwards", () => {
  it.layer(TestServer({ database: FaultyDatabaseLive, env: { SERVICE_REQUESTS_API_TOKENS: token } }))((it) => {
    it.effect("an outage: the hold and its lookup answer 503; afterwards the same key holds the time once", () =>
      Effect.gen(function* () {
        const faults = yield* DatabaseProxy
        const [option] = yield* options
        yield* faults.outage
        expectUnavailable(yield* hold(option, "down-1"))
        const looked = yield* get("/api/public/holds/5b0f4f0e-1c1e-4f7a-9a55-2f6d3c1b8e21", auth)
        expect(looked.status).toBe(503)
        yield* faults.restore
        const made = yield* hold(option, "down-1")
        expect(made.status).toBe(201)
        const again = yield* hold(option, "down-1")
        expect(again.status).toBe(200)
        expect(again.body.hold.hold_id).toBe(made.body.hold.hold_id)
      })
    )

    it.effect("the commit's answer lost: 503, and the retry with the same key answers the one hold", () =>
      Effect.gen(function* () {
        const faults = yield* DatabaseProxy
        const [, option] = yield* options
        yield* faults.loseNextWrite("after_write", "COMMIT")
        expectUnavailable(yield* hold(option, "lost-1"))
        const retried = yield* hold(option, "lost-1")
        expect([200, 201]).toContain(retried.status)
        expect(retried.body.hold.status).toBe("active")
        const other = yield* hold(option, "lost-2")
        expect(other.status).toBe(429)
      })
    )
  })
})
