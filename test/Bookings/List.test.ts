import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { copyBooking } from "../support/Fixtures.js"
import {
  apiClient,
  cancelAnswer,
  confirmAnswer,
  get,
  searchBodyFor,
  searchOptions,
  shortConfirmBody
} from "../support/Http.js"
import { TestServer, testNow } from "../support/Server.js"

const token = "partner-list-a-0123456789"
const otherToken = "partner-list-b-0123456789"
const auth = { authorization: `Bearer ${token}` }

let keys = 0
const book = Effect.gen(function* () {
  const [option] = yield* searchOptions(searchBodyFor("nästa vecka"), token)
  const booked = yield* confirmAnswer(shortConfirmBody(option, `list-${++keys}`), token)
  expect(booked.status).toBe(201)
  return booked.body.booking.id as string
})

/** A listed booking's id: a confirmed one names it in `booking`, a cancelled one in `booking_id`. */
const idOf = (item: {
  readonly found: boolean
  readonly booking?: { readonly id: string }
  readonly booking_id?: string
}) => (item.found ? item.booking!.id : item.booking_id!)

interface Query {
  readonly limit?: number
  readonly status?: "confirmed" | "cancelled"
  readonly updated_since?: string
}

/** Every page of one walk, in order; `afterPage` runs between pages (the changes made meanwhile). */
const walk = <R = never>(
  query: Query,
  afterPage: (ids: ReadonlyArray<string>) => Effect.Effect<void, never, R> = () => Effect.void
) =>
  Effect.gen(function* () {
    const client = yield* apiClient(token)
    const seen: Array<string> = []
    let cursor: string | undefined
    let pages = 0
    do {
      const page = yield* client.bookings.list({ query: { ...query, ...(cursor === undefined ? {} : { cursor }) } })
      expect(page.bookings.length).toBeLessThanOrEqual(query.limit ?? 50)
      seen.push(...page.bookings.map(idOf))
      pages++
      cursor = page.next_cursor ?? undefined
      if (cursor !== undefined) yield* afterPage(seen)
    } while (cursor !== undefined)
    return { seen, pages }
  })

const cancel = (id: string) =>
  Effect.gen(function* () {
    yield* TestClock.adjust("1 second")
    const done = yield* cancelAnswer(id, { idempotency_key: `cancel-${id}` }, token)
    expect(done.status).toBe(200)
  })

describe("GET /api/public/bookings", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: `${token},${otherToken}` }, loops: "none" }), {
    timeout: 120_000
  })((it) => {
    it.effect(
      "pages through 1,000 bookings while some are cancelled: no booking twice, every unchanged one exactly once, the changed ones on the next walk",
      () =>
        Effect.gen(function* () {
          yield* TestClock.setTime(testNow)
          const first = yield* book
          // Stamps two days back, three bookings to a second: ties the id must order.
          const copies = yield* copyBooking(
            first,
            999,
            (i) => new Date(testNow - 172_800_000 + Math.floor(i / 3) * 1000)
          )
          const all = [first, ...copies]
          const walkStartedAt = new Date(yield* Clock.currentTimeMillis).toISOString()

          // Between pages, one booking the walk has listed and one it has not reached yet are cancelled.
          const changed = new Set<string>()
          const changedBeforeListed = new Set<string>()
          const oldestFirst = [...copies]
          const { seen, pages } = yield* walk({ limit: 37 }, (listed) =>
            Effect.gen(function* () {
              const done = new Set(listed)
              const listedOne = listed.find((id) => !changed.has(id))
              const unreached = oldestFirst.find((id) => !done.has(id) && !changed.has(id))
              for (const id of [listedOne, unreached]) {
                if (id === undefined) continue
                changed.add(id)
                if (!done.has(id)) changedBeforeListed.add(id)
                yield* cancel(id)
              }
            })
          )

          // The bookings cancelled before the walk reached them are behind it: fewer pages than 1,000 / 37.
          expect(pages).toBe(Math.ceil((1000 - changedBeforeListed.size) / 37))
          expect(new Set(seen).size).toBe(seen.length)
          const listed = new Set(seen)
          const missing = all.filter((id) => !changed.has(id) && !listed.has(id))
          expect(missing).toEqual([])
          expect(changedBeforeListed.size).toBeGreaterThan(20)
          // A booking changed before the walk reached it moved to the front, behind the walk.
          expect([...changedBeforeListed].filter((id) => listed.has(id))).toEqual([])

          const again = yield* walk({ limit: 37, updated_since: walkStartedAt })
          expect(new Set(again.seen)).toEqual(changed)
          expect(again.seen.length).toBe(changed.size)

          const cancelled = yield* walk({ limit: 100, status: "cancelled" })
          expect(new Set(cancelled.seen)).toEqual(changed)
          const confirmed = yield* walk({ limit: 100, status: "confirmed" })
          expect(confirmed.seen.length).toBe(1000 - changed.size)
        })
    )

    it.effect("a page is read by the index in its order: no sort, no OFFSET, at any depth", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const plan = yield* sql.withTransaction(
          Effect.gen(function* () {
            // Planner costs on a small table favour a scan; the question is whether the index serves the order.
            yield* sql`SET LOCAL enable_seqscan = off`
            const [partner] = yield* sql<{ partnerId: string }>`SELECT partner_id FROM bookings LIMIT 1`
            return yield* sql<{ queryPlan: unknown }>`EXPLAIN (FORMAT JSON)
              SELECT id FROM bookings WHERE partner_id = ${partner!.partnerId} AND status = 'confirmed'
                AND updated_at >= now() - interval '7 days'
                AND (updated_at, id) < (now(), '00000000-0000-0000-0000-000000000000'::uuid)
              ORDER BY updated_at DESC, id DESC LIMIT 38`
          })
        )
        const text = JSON.stringify(plan)
        expect(text).toContain('"Index Name":"bookings_partner_updated"')
        expect(text).not.toContain('"Node Type":"Sort"')
      })
    )

    it.effect("each item is the status lookup's answer; newest change first", () =>
      Effect.gen(function* () {
        const page = yield* get("/api/public/bookings?limit=3", auth)
        expect(page.status).toBe(200)
        expect(page.body.bookings).toHaveLength(3)
        for (const item of page.body.bookings) {
          const lookedUp = yield* get(`/api/public/bookings/${idOf(item)}`, auth)
          expect(item).toEqual({ ...lookedUp.body })
          expect(JSON.stringify(item)).not.toContain("Drottninggatan")
          expect(JSON.stringify(item)).not.toContain("@")
        }
        expect(typeof page.body.next_cursor).toBe("string")
      })
    )

    it.effect("another partner sees none of them, and cannot continue this partner's walk", () =>
      Effect.gen(function* () {
        const theirs = yield* get("/api/public/bookings", { authorization: `Bearer ${otherToken}` })
        expect(theirs.status).toBe(200)
        expect(theirs.body.bookings).toEqual([])
        expect(theirs.body.next_cursor).toBeNull()
        const mine = yield* get("/api/public/bookings?limit=2", auth)
        const borrowed = yield* get(`/api/public/bookings?cursor=${mine.body.next_cursor}`, {
          authorization: `Bearer ${otherToken}`
        })
        expect(borrowed.status).toBe(400)
        expect(borrowed.body.error).toBe("invalid_request")
        expect(borrowed.body.issues[0]).toMatch(/^cursor: continues another list/)
      })
    )

    it.effect("an altered cursor, other filters beside it and bad query values are 400 naming the parameter", () =>
      Effect.gen(function* () {
        const mine = yield* get("/api/public/bookings?limit=2&status=confirmed", auth)
        const cursor: string = mine.body.next_cursor
        const [version, kid, payload, tag] = cursor.split(".")
        const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"))
        const moved = Buffer.from(JSON.stringify({ ...claims, at: "2000-01-01T00:00:00.000000Z" })).toString(
          "base64url"
        )
        for (const tampered of [`${version}.${kid}.${moved}.${tag}`, cursor.slice(0, -1), "not-a-cursor"]) {
          const refused = yield* get(`/api/public/bookings?cursor=${tampered}`, auth)
          expect(refused.status).toBe(400)
          expect(refused.body.error).toBe("invalid_request")
          expect(refused.body.issues).toEqual([
            "cursor: is not a cursor this service made, or it was altered or cut short"
          ])
        }
        const otherFilter = yield* get(`/api/public/bookings?status=cancelled&cursor=${cursor}`, auth)
        expect(otherFilter.status).toBe(400)
        expect(otherFilter.body.issues[0]).toMatch(/^cursor: was made with other filters/)
        const sameFilter = yield* get(`/api/public/bookings?status=confirmed&cursor=${cursor}`, auth)
        expect(sameFilter.status).toBe(200)

        for (const [query, name] of [
          ["limit=0", "limit"],
          ["limit=101", "limit"],
          ["limit=ten", "limit"],
          ["status=pending", "status"],
          ["updated_since=yesterday", "updated_since"]
        ] as const) {
          const bad = yield* get(`/api/public/bookings?${query}`, auth)
          expect(bad.status, query).toBe(400)
          expect(bad.body.error).toBe("invalid_request")
          expect(JSON.stringify(bad.body.issues)).toContain(name)
        }
      })
    )
  })
})
