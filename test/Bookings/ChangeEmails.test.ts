import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { type ReceivedMail, smtpServer } from "../support/Receivers.js"
import { postJson, TestServer, testNow } from "../support/TestServer.js"

const token = "partner-mail-token-0123456789"
const sandboxToken = "sandbox-mail-token-0123456789"

const searchBody = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE", postcode: "111 22" },
  timing: { preferred_time_text: "nästa vecka" }
}

const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }
const providerEmail = "order@provider.example"

let keys = 0

/** The Swedish part of a message and the English part below its heading. */
const halves = (mail: ReceivedMail) => {
  const at = mail.text.indexOf("In English")
  expect(at).toBeGreaterThan(0)
  return { sv: mail.text.slice(0, at), en: mail.text.slice(at) }
}

describe("the customer's and the provider's e-mails of a booking's life, through a real SMTP server", () => {
  it.effect(
    "confirm states the terms and the policy in words; a cancel and a move are told in Swedish and English; a sandbox change tells nobody",
    () =>
      Effect.gen(function* () {
        const smtp = yield* smtpServer()
        const context = yield* Layer.build(
          TestServer({
            env: {
              SERVICE_REQUESTS_API_TOKENS: token,
              SANDBOX_API_TOKENS: sandboxToken,
              SMTP_URL: `smtp://127.0.0.1:${smtp.port}`
            }
          })
        )
        const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
        const as = (t: string) => ({ authorization: `Bearer ${t}` })
        yield* TestClock.setTime(testNow)
        const search = (t: string) =>
          run(postJson("/api/public/booking-options", searchBody, as(t))).pipe(
            Effect.map((response) => response.body.options as Array<any>)
          )
        const confirm = (option: any, t: string) =>
          run(
            postJson(
              "/api/public/bookings",
              {
                booking_option_id: option.booking_option_id,
                customer,
                service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
                user_consent_confirmed: true,
                booking_terms_accepted: true,
                booking_terms_version: option.terms.version,
                booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
                idempotency_key: `mail-${++keys}`
              },
              as(t)
            )
          ).pipe(
            Effect.map((response) => {
              expect(response.status, JSON.stringify(response.body)).toBe(201)
              return response.body
            })
          )
        const otherTime = (options: Array<any>, booking: any) =>
          options.find(
            (o) =>
              o.provider.id === booking.provider_id &&
              o.service.service_id === booking.service_id &&
              Date.parse(o.slot.start_at) >= Date.parse(booking.slot_end_at)
          )

        // A provider with a late fee, told by e-mail, so both sides' messages pass the SMTP server.
        const options = yield* search(token)
        const option = options.find((o) => o.cancellation_policy.late_fee_sek > 0)
        expect(option).toBeDefined()
        const sql = yield* run(SqlClient.SqlClient)
        yield* run(
          sql`UPDATE providers SET notify_email = ${providerEmail}, notify_webhook_url = NULL WHERE id = ${option.provider.id}`
        )

        const created = yield* confirm(option, token)
        const policy = option.cancellation_policy
        const confirmation = smtp.messages.find((mail) => mail.to.includes(customer.email))!
        expect(confirmation).toBeDefined()
        const confirmed = halves(confirmation)
        // The terms in a durable form: the version, and the policy in the words the option gave.
        expect(confirmed.sv).toContain(option.terms.version)
        expect(confirmed.sv).toContain(policy.summary_sv)
        expect(confirmed.en).toContain(option.terms.version)
        expect(confirmed.en).toContain(policy.summary_en)
        for (const text of [confirmed.sv, confirmed.en]) expect(text).not.toMatch(/du är skyldig|you owe|must pay/i)

        // A move: the customer's new confirmation names both times and the new policy; the provider is told.
        const target = otherTime(yield* search(token), created.booking)
        const before = smtp.messages.length
        const moved = yield* run(
          postJson(
            `/api/public/bookings/${created.booking.id}/reschedule`,
            {
              booking_option_id: target.booking_option_id,
              booking_terms_accepted: true,
              booking_terms_version: target.terms.version,
              booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
              idempotency_key: `mail-move-${++keys}`
            },
            as(token)
          )
        )
        expect(moved.status, JSON.stringify(moved.body)).toBe(200)
        expect(moved.body.confirmation_delivery).toMatchObject({
          customer: { status: "sent", channel: "email" },
          provider: { status: "sent", channel: "email" }
        })
        const moveMails = smtp.messages.slice(before)
        const toCustomer = moveMails.find((mail) => mail.to.includes(customer.email))!
        const toProvider = moveMails.find((mail) => mail.to.includes(providerEmail))!
        expect(toCustomer.subject).toMatch(/^Din bokning är flyttad: .*\(Booking moved\)$/)
        const movedText = halves(toCustomer)
        expect(movedText.sv).toContain("är flyttad till en ny tid och bekräftad")
        expect(movedText.sv).toContain(created.request_id)
        expect(movedText.sv).toContain(`Avbokning och ändring: ${target.cancellation_policy.summary_sv}`)
        expect(movedText.en).toContain("has been moved to a new time and is confirmed")
        expect(movedText.en).toContain(`Cancelling and changing: ${target.cancellation_policy.summary_en}`)
        expect(movedText.en).toMatch(/New time: .*\nEarlier time: /)
        expect(toProvider.subject).toMatch(/^Flyttad bokning: /)
        expect(halves(toProvider).sv).toContain("den tidigare är frigjord")
        expect(halves(toProvider).en).toContain("the earlier one released")

        // A late cancel: the fee as what the provider may charge under its terms, never as owed.
        yield* TestClock.setTime(Date.parse(moved.body.cancellation_policy.free_until) + 60_000)
        const beforeCancel = smtp.messages.length
        const cancelled = yield* run(
          postJson(
            `/api/public/bookings/${created.booking.id}/cancel`,
            { idempotency_key: `mail-cancel-${++keys}`, reason: "Kunden är bortrest hela veckan" },
            as(token)
          )
        )
        expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
        const fee = cancelled.body.cancellation.fee_sek
        expect(fee).toBe(policy.late_fee_sek)
        const cancelMails = smtp.messages.slice(beforeCancel)
        const cancelToCustomer = cancelMails.find((mail) => mail.to.includes(customer.email))!
        const cancelToProvider = cancelMails.find((mail) => mail.to.includes(providerEmail))!
        expect(cancelToCustomer.subject).toMatch(/^Din bokning är avbokad: .*\(Booking cancelled\)$/)
        const cancelText = halves(cancelToCustomer)
        expect(cancelText.sv).toContain("är avbokad av kunden. Ingenting är längre bokat under den.")
        expect(cancelText.sv).toContain(`får utföraren ta ut en avgift på ${fee} kr inkl. moms`)
        expect(cancelText.en).toContain("was cancelled by the customer. Nothing is booked under it any more.")
        expect(cancelText.en).toContain(`the provider may charge a fee of SEK ${fee} incl. VAT`)
        expect(cancelToProvider.subject).toMatch(/^Avbokad: /)
        expect(halves(cancelToProvider).en).toContain(`you may charge SEK ${fee} incl. VAT`)
        // The reason is the partner's free text: told to no one.
        for (const mail of [cancelToCustomer, cancelToProvider]) {
          expect(mail.text).not.toContain("bortrest")
          expect(mail.text).not.toMatch(/du är skyldig|you owe|must pay/i)
        }

        // Sandbox: the same changes, and not one message leaves.
        yield* TestClock.setTime(testNow)
        const sandboxOptions = yield* search(sandboxToken)
        const sandboxBooked = yield* confirm(sandboxOptions[0], sandboxToken)
        const sandboxTarget = otherTime(yield* search(sandboxToken), sandboxBooked.booking)
        const beforeSandbox = smtp.messages.length
        const sandboxMoved = yield* run(
          postJson(
            `/api/public/bookings/${sandboxBooked.booking.id}/reschedule`,
            {
              booking_option_id: sandboxTarget.booking_option_id,
              booking_terms_accepted: true,
              booking_terms_version: sandboxTarget.terms.version,
              booking_terms_accepted_at: "2026-11-23T09:00:00+01:00",
              idempotency_key: `mail-sandbox-move-${++keys}`
            },
            as(sandboxToken)
          )
        )
        expect(sandboxMoved.status, JSON.stringify(sandboxMoved.body)).toBe(200)
        expect(sandboxMoved.body.safe_next_step).toMatch(/^Sandbox: .*no provider or customer was told/)
        const sandboxCancelled = yield* run(
          postJson(
            `/api/public/bookings/${sandboxBooked.booking.id}/cancel`,
            { idempotency_key: `mail-sandbox-cancel-${++keys}` },
            as(sandboxToken)
          )
        )
        expect(sandboxCancelled.status, JSON.stringify(sandboxCancelled.body)).toBe(200)
        expect(sandboxCancelled.body).toMatchObject({ cancelled: true, sandbox: true })
        expect(sandboxCancelled.body.safe_next_step).toMatch(/^Sandbox: .*no provider or customer was told/)
        for (const body of [sandboxMoved.body, sandboxCancelled.body]) {
          expect(body.confirmation_delivery.customer.channel).not.toBe("email")
          expect(body.confirmation_delivery.provider.channel).not.toMatch(/email|webhook/)
        }
        // Whatever a background delivery would do, it has no real recipient to do it to.
        const [counted] = yield* run(
          sql<{ real: number }>`SELECT count(*)::int AS real FROM notification_outbox n
            JOIN bookings b ON n.subject_id = b.id OR n.subject_id IN (SELECT id FROM booking_changes WHERE booking_id = b.id)
            WHERE b.sandbox AND n.channel IN ('email', 'webhook')`
        )
        expect(counted?.real).toBe(0)
        expect(smtp.messages.slice(beforeSandbox)).toEqual([])
      }).pipe(Effect.scoped),
    30_000
  )
})
