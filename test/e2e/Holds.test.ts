import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeDatabase } from "../support/Database.js"
import { searchBodyFor } from "../support/Http.js"
import { serverInstance as instance } from "../support/Server.js"

const tokens = ["holds-instance-token-a-0123456789", "holds-instance-token-b-0123456789"] as const

const send = (base: string, method: string, path: string, token: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as any }
  })

describe("holds across instances on one PostgreSQL", () => {
  it.live(
    "holds racing at two instances give one hold per slot; the holder confirms at the other instance, others get slot_taken",
    () =>
      Effect.gen(function* () {
        const { url } = yield* makeDatabase({ empty: true })
        const env = {
          APP_ENV: "development",
          DATABASE_URL: url,
          SERVICE_REQUESTS_API_TOKENS: tokens.join(","),
          BOOKING_OPTION_SIGNING_KEYS: "shared:shared-secret-0123456789abcdef0123456789",
          LOG_FORMAT: "json"
        }
        const [a, b] = yield* Effect.all([instance(env), instance(env)], { concurrency: 2 })
        const bases = [a.base, b.base]
        const found = yield* send(
          a.base,
          "POST",
          "/api/public/booking-options",
          tokens[0],
          searchBodyFor("nästa vecka")
        )
        const option = found.body.options[0]
        const holds = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, i) => i),
          (i) =>
            send(bases[i % 2]!, "POST", "/api/public/holds", tokens[Math.floor(i / 2) % 2]!, {
              booking_option_id: option.booking_option_id,
              idempotency_key: `instance-hold-${i}`
            }),
          { concurrency: "unbounded" }
        )
        const won = holds.findIndex((h) => h.status === 201)
        expect(
          holds.filter((h) => h.status === 201),
          JSON.stringify(holds.map((h) => h.body.error))
        ).toHaveLength(1)
        for (const h of holds.filter((h) => h.status !== 201)) {
          expect(["slot_taken", "too_many_holds"]).toContain(h.body.error)
        }
        const holder = tokens[Math.floor(won / 2) % 2]!
        const other = tokens.find((t) => t !== holder)!
        const holdId = holds[won]!.body.hold.hold_id
        const confirmBody = (key: string) => ({
          booking_option_id: option.booking_option_id,
          customer: { name: "Karin Berg", phone: "0701234567", email: "karin@example.se" },
          service_location: { country_code: "SE", address: "Sveavägen 44", postcode: "111 22" },
          user_consent_confirmed: true,
          booking_terms_accepted: true,
          booking_terms_version: option.terms.version,
          booking_terms_accepted_at: new Date().toISOString(),
          idempotency_key: key
        })
        for (const base of bases) {
          const taken = yield* send(base, "POST", "/api/public/bookings", other, confirmBody(`other-${base}`))
          expect(taken.body.error).toBe("slot_taken")
        }
        // The hold was made at one instance; the holder confirms at the other.
        const atOther = bases[(won % 2) ^ 1]!
        const booked = yield* send(atOther, "POST", "/api/public/bookings", holder, confirmBody("holder-confirm"))
        expect(booked.status, JSON.stringify(booked.body)).toBe(201)
        const status = yield* send(bases[won % 2]!, "GET", `/api/public/holds/${holdId}`, holder)
        expect(status.body.hold).toMatchObject({ status: "confirmed", booking_id: booked.body.booking.id })
      }),
    120_000
  )
})
