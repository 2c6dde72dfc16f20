import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClientRequest } from "effect/http"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Holds } from "../../src/Holds/Holds.js"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import { clearBookings, importedBusyTime } from "../support/Fixtures.js"
import { call, customer, get, postJson, searchBodyFor, searchOptions } from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const tokenA = "partner-a-token-0123456789"
const tokenB = "partner-b-token-9876543210"
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

let keys = 0
const holdBody = (option: any, extra: Record<string, unknown> = {}) => ({
  booking_option_id: option.booking_option_id,
  idempotency_key: `hold-${++keys}`,
  ...extra
})
const hold = (option: any, token = tokenA, extra: Record<string, unknown> = {}) =>
  postJson("/api/public/holds", holdBody(option, extra), bearer(token))
const holdStatus = (holdId: string, token = tokenA) => get(`/api/public/holds/${holdId}`, bearer(token))
const release = (holdId: string, token = tokenA) =>
  call(HttpClientRequest.delete(`/api/public/holds/${holdId}`).pipe(HttpClientRequest.setHeaders(bearer(token))))

const confirmBody = (option: any, extra: Record<string, unknown> = {}) => ({
  booking_option_id: option.booking_option_id,
  customer,
  service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "11122" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: `confirm-${++keys}`,
  ...extra
})
const confirm = (option: any, token = tokenA, extra: Record<string, unknown> = {}) =>
  postJson("/api/public/bookings", confirmBody(option, extra), bearer(token))

const searchBody = searchBodyFor("nästa vecka")
const search = (token = tokenA) => searchOptions(searchBody, token)
const slotKey = (o: any) => `${o.provider.id}/${o.service.service_id}/${Date.parse(o.slot.start_at)}`

const calendarRowsOf = (holdId: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ releasedAt: Date | null }>`SELECT released_at FROM calendar_bookings WHERE id = ${holdId}::uuid`
  )

const env = {
  SERVICE_REQUESTS_API_TOKENS: `${tokenA},${tokenB}`,
  HOLD_MAX_ACTIVE_PER_PARTNER: "3"
}

/**
 * One server for the file; each test starts on an empty calendar (no holds, bookings, blocks or
 * busy times, no idempotency keys), so what one test holds never hides a slot from the next.
 */
const served = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    yield* clearBookings({ keys: true })
    yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM provider_busy_times`).pipe(Effect.orDie)
    return yield* effect
  })

describe("holds", () => {
  it.layer(TestServer({ env, loops: "none" }))((it) => {
    it.effect("a hold answers 201 with the exact shape, replays 200, and needs a key", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        const body = holdBody(option)
        const made = yield* postJson("/api/public/holds", body, bearer(tokenA))
        expect(made.status).toBe(201)
        expect(Object.keys(made.body).sort()).toEqual(
          [
            "availability_checked",
            "booking_created",
            "hold",
            "idempotent_replay",
            "ok",
            "provider_selected",
            "safe_next_step",
            "spec_version"
          ].sort()
        )
        expect(made.body).toMatchObject({
          ok: true,
          booking_created: false,
          availability_checked: true,
          provider_selected: false,
          idempotent_replay: false,
          hold: {
            status: "active",
            booking_option_id: option.booking_option_id,
            expires_at: "2026-11-23T09:10:00+01:00",
            slot: { start_at: option.slot.start_at, end_at: option.slot.end_at, label: option.slot.label },
            provider_id: option.provider.id,
            service_id: option.service.service_id,
            price_sek: option.price.amount_sek
          }
        })
        expect(made.body.safe_next_step).toContain("until 09:10")
        expect(made.body.safe_next_step).toContain("Nothing is booked yet")
        const replay = yield* postJson("/api/public/holds", body, bearer(tokenA))
        expect(replay.status).toBe(200)
        expect(replay.body.idempotent_replay).toBe(true)
        expect(replay.body.hold).toEqual(made.body.hold)
        const reused = yield* postJson("/api/public/holds", { ...body, hold_seconds: 120 }, bearer(tokenA))
        expect(reused.status).toBe(409)
        expect(reused.body.error).toBe("idempotency_key_reused")
        const keyless = yield* postJson(
          "/api/public/holds",
          { booking_option_id: option.booking_option_id },
          bearer(tokenA)
        )
        expect(keyless.status).toBe(400)
        expect(keyless.body.issues.join(" ")).toContain("idempotency_key")
        const header = yield* postJson(
          "/api/public/holds",
          { booking_option_id: option.booking_option_id },
          { ...bearer(tokenB), "idempotency-key": "header-key-1" }
        )
        // B cannot hold what A holds.
        expect(header.status).toBe(409)
        expect(header.body.error).toBe("slot_taken")
        for (const seconds of [59, 1801, 1.5]) {
          const bad = yield* hold(option, tokenA, { hold_seconds: seconds })
          expect(bad.status, String(seconds)).toBe(400)
          expect(bad.body.issues.join(" ")).toContain("hold_seconds")
        }
        const extra = yield* hold(option, tokenA, { customer })
        expect(extra.status).toBe(400)
        yield* release(made.body.hold.hold_id)
      }).pipe(served)
    )

    it.effect("a held time is not offered to others, and others' confirm and hold get slot_taken", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        const made = yield* hold(option)
        expect(made.status).toBe(201)
        expect((yield* search(tokenB)).map(slotKey)).not.toContain(slotKey(option))
        const [optionB] = (yield* searchOptions(searchBody)).filter((o) => slotKey(o) === slotKey(option))
        expect(optionB).toBeUndefined()
        const taken = yield* confirm(option, tokenB)
        expect(taken.status).toBe(409)
        expect(taken.body.error).toBe("slot_taken")
        const again = yield* hold(option, tokenB)
        expect(again.body.error).toBe("slot_taken")
        // Another partner cannot name the hold either: it does not exist for them.
        const named = yield* confirm(option, tokenB, { hold_id: made.body.hold.hold_id })
        expect(named.status).toBe(404)
        expect(named.body.error).toBe("hold_not_found")
        expect((yield* holdStatus(made.body.hold.hold_id, tokenB)).status).toBe(404)
        expect((yield* release(made.body.hold.hold_id, tokenB)).status).toBe(404)
        expect((yield* holdStatus(made.body.hold.hold_id)).body.hold.status).toBe("active")
        yield* release(made.body.hold.hold_id)
      }).pipe(served)
    )

    it.effect("the holder confirms after the option's own expiry while the hold lives; the hold is confirmed", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        const made = yield* hold(option, tokenA, { hold_seconds: 1800 })
        // The option lives 15 minutes; the hold 30.
        yield* TestClock.setTime(testNow + 20 * 60_000)
        const booked = yield* confirm(option)
        expect(booked.status, JSON.stringify(booked.body)).toBe(201)
        const status = yield* holdStatus(made.body.hold.hold_id)
        expect(status.body.hold.status).toBe("confirmed")
        expect(status.body.hold.booking_id).toBe(booked.body.booking.id)
        expect(status.body.safe_next_step).toContain(booked.body.booking.id)
        const [row] = yield* calendarRowsOf(made.body.hold.hold_id)
        expect(row?.releasedAt?.getTime()).toBe(testNow + 20 * 60_000)
        const released = yield* release(made.body.hold.hold_id)
        expect(released.status).toBe(200)
        expect(released.body.released).toBe(false)
        expect(released.body.hold.status).toBe("confirmed")
      }).pipe(served)
    )

    it.effect(
      "confirm against expiry at the exact instant: a millisecond before it is the holder's, at it anyone's",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const [first, second] = (yield* search()).filter((o, i, all) => slotKey(o) !== slotKey(all[0]) || i === 0)
          const early = yield* hold(first, tokenA, { hold_seconds: 60 })
          const expiry = testNow + 60_000
          yield* TestClock.setTime(expiry - 1)
          const blocked = yield* confirm(first, tokenB)
          expect(blocked.body.error).toBe("slot_taken")
          const mine = yield* confirm(first)
          expect(mine.status).toBe(201)
          expect((yield* holdStatus(early.body.hold.hold_id)).body.hold.status).toBe("confirmed")

          yield* TestClock.setTime(testNow)
          const late = yield* hold(second, tokenA, { hold_seconds: 60 })
          expect(late.status).toBe(201)
          yield* TestClock.setTime(expiry)
          expect((yield* holdStatus(late.body.hold.hold_id)).body.hold.status).toBe("expired")
          expect((yield* search(tokenB)).map(slotKey)).toContain(slotKey(second))
          const theirs = yield* confirm(second, tokenB)
          expect(theirs.status).toBe(201)
          // The holder's confirm after that: the time is gone, and the step says the hold had run out.
          const gone = yield* confirm(second)
          expect(gone.status).toBe(409)
          expect(gone.body.error).toBe("slot_taken")
          expect(gone.body.safe_next_step).toContain("hold on this time had run out")
          expect((yield* holdStatus(late.body.hold.hold_id)).body.hold.status).toBe("expired")
        }).pipe(served)
    )

    it.effect("release frees the time at once and is idempotent", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        const made = yield* hold(option)
        const first = yield* release(made.body.hold.hold_id)
        expect(first.status).toBe(200)
        expect(first.body.released).toBe(true)
        expect(first.body.hold.status).toBe("released")
        const second = yield* release(made.body.hold.hold_id)
        expect(second.body.released).toBe(false)
        expect(second.body.hold.status).toBe("released")
        expect((yield* search(tokenB)).map(slotKey)).toContain(slotKey(option))
        expect((yield* release("not-a-hold")).status).toBe(404)
      }).pipe(served)
    )

    it.effect("at most the cap of live holds, one per slot; 429 too_many_holds names the limit", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const options = yield* search()
        const distinct = options.filter((o, i) => options.findIndex((p) => slotKey(p) === slotKey(o)) === i)
        const made = []
        for (const option of distinct.slice(0, 3)) made.push(yield* hold(option))
        expect(
          made.map((m) => m.status),
          JSON.stringify(made.map((m) => m.body))
        ).toEqual([201, 201, 201])
        const sameSlot = yield* hold(distinct[0])
        expect(sameSlot.status).toBe(429)
        expect(sameSlot.body.error).toBe("too_many_holds")
        expect(sameSlot.body.issues.join(" ")).toContain(made[0]!.body.hold.hold_id)
        const over = yield* hold(distinct[3])
        expect(over.status).toBe(429)
        expect(over.body.issues.join(" ")).toContain("at most 3 active holds")
        // Expired holds do not count.
        yield* TestClock.setTime(testNow + 601_000)
        yield* TestClock.setTime(testNow + 601_000)
        const fresh = yield* searchOptions(searchBody, tokenA)
        expect((yield* hold(fresh[0])).status).toBe(201)
      }).pipe(served)
    )

    it.effect("an expired option cannot be held: 409 option_expired", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        yield* TestClock.setTime(testNow + 16 * 60_000)
        const refused = yield* hold(option)
        expect(refused.status).toBe(409)
        expect(refused.body.error).toBe("option_expired")
        expect(refused.body.option_refresh_required).toBe(true)
      }).pipe(served)
    )

    it.effect("a provider block over a live hold is 409 naming the hold; over an expired one it is made", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        const made = yield* hold(option, tokenA, { hold_seconds: 60 })
        const { token } = yield* Effect.flatMap(ProviderTokens, (tokens) => tokens.issue(option.provider.id)).pipe(
          Effect.provide(ProviderTokens.Default),
          Effect.orDie
        )
        const block = { start_at: option.slot.start_at, end_at: option.slot.end_at }
        const refused = yield* postJson("/api/provider/blocks", block, bearer(token))
        expect(refused.status).toBe(409)
        expect(refused.body.error).toBe("block_overlaps_hold")
        expect(refused.body.issues.join(" ")).toContain(made.body.hold.hold_id)
        yield* TestClock.setTime(testNow + 60_000)
        const blocked = yield* postJson("/api/provider/blocks", block, bearer(token))
        expect(blocked.status).toBe(201)
      }).pipe(served)
    )

    it.effect("the sweep frees the calendar rows of holds that have run out, and only those", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const options = yield* search()
        const second = options.find((o) => slotKey(o) !== slotKey(options[0]))
        const short = yield* hold(options[0], tokenA, { hold_seconds: 60 })
        const long = yield* hold(second, tokenA, { hold_seconds: 600 })
        yield* TestClock.setTime(testNow + 60_000)
        yield* Effect.flatMap(Holds, (holds) => holds.sweep).pipe(Effect.provide(Holds.Default))
        const [swept] = yield* calendarRowsOf(short.body.hold.hold_id)
        expect(swept?.releasedAt?.getTime()).toBe(testNow + 60_000)
        const [kept] = yield* calendarRowsOf(long.body.hold.hold_id)
        expect(kept?.releasedAt).toBeNull()
      }).pipe(served)
    )

    it.effect(
      "a busy time imported over a live hold: the holder's confirm is slot_taken saying so, not that the hold ran out",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const [option] = yield* search()
          const made = yield* hold(option)
          yield* importedBusyTime(option.provider.id, option.slot.start_at, option.slot.end_at)
          const refused = yield* confirm(option)
          expect(refused.status).toBe(409)
          expect(refused.body.error).toBe("slot_taken")
          expect(refused.body.safe_next_step).toContain("provider's own calendar now marks it busy")
          expect(refused.body.safe_next_step).not.toContain("run out")
          expect((yield* holdStatus(made.body.hold.hold_id)).body.hold.status).toBe("active")
        }).pipe(served)
    )

    it.effect("no personal data is stored with a hold", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(testNow)
        const [option] = yield* search()
        const made = yield* hold(option)
        const rows = yield* Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql`SELECT * FROM booking_holds WHERE id = ${made.body.hold.hold_id}::uuid`
        )
        expect(JSON.stringify(rows)).not.toMatch(/Astrid|@|\+46/)
        yield* release(made.body.hold.hold_id)
      }).pipe(served)
    )
  })
})
