import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ProviderTokens } from "../../src/Providers/ProviderTokens.js"
import {
  apiClient,
  cancelAnswer,
  confirmAnswer,
  searchBodyFor,
  searchOptions,
  shortConfirmBody
} from "../support/Http.js"
import { TestServer } from "../support/Server.js"

const token = "partner-deadlines-token-0123456789"
/** Monday 30 November 2026, 19:33 in Stockholm: tomorrow's first slots are twelve and a half hours away. */
const evening = Date.parse("2026-11-30T19:33:00+01:00")

/** The words that offer a fee for cancelling. */
const offersFee = /may charge|får utföraren/

describe("a deadline that has passed", () => {
  it.layer(TestServer({ env: { SERVICE_REQUESTS_API_TOKENS: token }, now: evening, loops: "none" }))((it) => {
    it.effect(
      "a search at 19:33 for imorgon: the provider's free period has passed, yet booked now the withdrawal right (2005:59 2 kap. 10 §) makes a cancel before the start free, and options, confirm, status, cancel preview, e-mail and the provider all say so",
      () =>
        Effect.gen(function* () {
          const options = yield* searchOptions(searchBodyFor("imorgon"), token)
          expect(options.length).toBeGreaterThan(0)
          for (const option of options) {
            const policy = option.cancellation_policy
            expect(Date.parse(policy.withdrawal_until)).toBeGreaterThan(Date.parse(option.slot.start_at))
            expect(policy.free_cancellation_available).toBe(true)
            expect(policy.change_available).toBe(evening < Date.parse(policy.change_until))
            expect(policy.summary_en).toContain("so cancelling before the start is free")
            expect(offersFee.test(policy.summary_en)).toBe(false)
            expect(offersFee.test(policy.summary_sv)).toBe(false)
          }
          const late = options.find(
            (option) =>
              option.cancellation_policy.late_fee_sek > 0 &&
              evening >= Date.parse(option.cancellation_policy.free_until)
          )
          expect(late, "an option whose provider's free period ended before the search").toBeDefined()

          const booked = yield* confirmAnswer(shortConfirmBody(late, "late-1"), token)
          expect(booked.status, JSON.stringify(booked.body)).toBe(201)
          expect(booked.body.cancellation_policy).toEqual(late.cancellation_policy)
          const client = yield* apiClient(token)
          const status: any = yield* client.bookings.status({ params: { booking_id: booked.body.request_id } })
          expect(status.cancellation_policy).toEqual(late.cancellation_policy)

          const preview = yield* cancelAnswer(
            booked.body.booking.id,
            { idempotency_key: "late-c", dry_run: true },
            token
          )
          expect(preview.body).toMatchObject({
            dry_run: true,
            cancellation: { fee_sek: 0, within_free_period: false, legal_basis: "withdrawal_right" },
            cancellation_policy: late.cancellation_policy
          })
          expect(preview.body.safe_next_step).toContain("Cancelling now is free: it is a withdrawal")

          // The customer's confirmation, kept in the outbox, words the policy as it stood when sent.
          const sql = yield* SqlClient.SqlClient
          const [mail] = yield* sql<{ body: string }>`
            SELECT body FROM notification_outbox
            WHERE subject_id = ${booked.body.booking.id}::uuid AND recipient_role = 'customer'`
          expect(mail!.body).toContain(late.cancellation_policy.summary_sv)
          expect(mail!.body).toContain(late.cancellation_policy.summary_en)
          expect(mail!.body).not.toMatch(/får utföraren enligt sina villkor ta ut|may charge a fee/)

          // The provider's own view of the job states the policy as it stands too.
          const { token: providerToken } = yield* Effect.flatMap(ProviderTokens, (tokens) =>
            tokens.issue(late.provider.id)
          ).pipe(Effect.provide(ProviderTokens.Default), Effect.orDie)
          const provider = yield* apiClient(providerToken)
          const jobs = yield* provider.provider.bookings({ query: {} })
          const job = jobs.bookings.find((b: any) => b.id === booked.body.booking.id)
          expect(job?.cancellation_policy).toMatchObject({
            free_cancellation_available: true,
            summary_en: late.cancellation_policy.summary_en
          })
        })
    )
  })
})
