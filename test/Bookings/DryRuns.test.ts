import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  cancelAnswer,
  confirmAnswer,
  postJson,
  rescheduleAnswer,
  searchOptions,
  shortConfirmBody
} from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const token = "partner-dry-runs-token-0123456789"
const auth = { authorization: `Bearer ${token}` }

/** A deep clean priced per m²: the same provider and service cost more for a larger home. */
const cleaning = (area_sqm: number) => ({
  vertical_id: "cleaning",
  job_type_id: "cleaning_home_deep",
  description: "Storstädning av lägenheten innan vi flyttar in",
  location: { country_code: "SE" as const, postcode: "111 22" },
  timing: { preferred_time_text: "nästa vecka" },
  details: { area_sqm }
})

describe("dry runs show what would happen", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token }, loops: "none" }))((it) => {
    it.effect(
      "a reschedule preview carries the new time's price, its deduction and the difference, and the move takes that price",
      () =>
        Effect.gen(function* () {
          const [option] = yield* searchOptions(cleaning(60), token)
          const booked = yield* confirmAnswer(shortConfirmBody(option, "dry-confirm"), token)
          expect(booked.status, JSON.stringify(booked.body)).toBe(201)
          const bigger = yield* searchOptions(cleaning(80), token)
          const target = bigger.find(
            (o: any) =>
              o.provider.id === option.provider.id &&
              o.service.service_id === option.service.service_id &&
              Date.parse(o.slot.start_at) >= Date.parse(booked.body.booking.slot_end_at)
          )
          expect(target).toBeDefined()
          expect(target.price.amount_sek).not.toBe(option.price.amount_sek)
          const move = {
            booking_option_id: target.booking_option_id,
            booking_terms_accepted: true,
            booking_terms_version: target.terms.version,
            booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
            idempotency_key: "dry-move"
          }
          const preview = yield* rescheduleAnswer(booked.body.booking.id, { ...move, dry_run: true }, token)
          expect(preview.status, JSON.stringify(preview.body)).toBe(200)
          const difference = target.price.amount_sek - option.price.amount_sek
          expect(preview.body).toMatchObject({
            dry_run: true,
            rescheduled: false,
            current_price_sek: option.price.amount_sek,
            new_price: target.price,
            price_difference_sek: difference,
            new_cancellation_policy: target.cancellation_policy
          })
          expect(preview.body.new_price.tax_deduction).toEqual(target.price.tax_deduction)
          expect(preview.body.safe_next_step).toContain(
            `SEK ${Math.abs(difference).toLocaleString("en-GB")} ${difference > 0 ? "more" : "less"} than the SEK`
          )

          const moved = yield* rescheduleAnswer(booked.body.booking.id, move, token)
          expect(moved.status, JSON.stringify(moved.body)).toBe(200)
          expect(moved.body.booking.price_sek).toBe(preview.body.new_price.amount_sek)
          expect(moved.body.tax_deduction).toEqual(preview.body.new_price.tax_deduction)
        })
    )

    it.effect("a cancel preview carries the fee and the deadlines, and no cancelled_at: nothing was cancelled", () =>
      Effect.gen(function* () {
        const [option] = yield* searchOptions(cleaning(60), token)
        const booked = yield* confirmAnswer(shortConfirmBody(option, "dry-confirm-2"), token)
        const id = booked.body.booking.id
        // Raw: a field that must be absent is read from the wire, not from a decoded answer.
        const preview = yield* postJson(
          `/api/public/bookings/${id}/cancel`,
          { idempotency_key: "dry-c", dry_run: true },
          auth
        )
        expect(preview.status).toBe(200)
        expect(preview.body.cancellation).not.toHaveProperty("cancelled_at")
        expect(preview.body).toMatchObject({
          dry_run: true,
          cancelled: false,
          booking_active: true,
          cancellation: {
            cancelled_by: "customer",
            fee_sek: 0,
            within_free_period: true,
            free_until: option.cancellation_policy.free_until
          },
          cancellation_policy: option.cancellation_policy,
          confirmation_delivery: {
            customer: { status: "skipped", reason: "dry_run" },
            provider: { status: "skipped", reason: "dry_run" }
          }
        })
        const cancelled = yield* cancelAnswer(id, { idempotency_key: "dry-c" }, token)
        expect(cancelled.body).toMatchObject({ cancelled: true, cancellation: { cancelled_at: expect.any(String) } })
      })
    )
  })
})
