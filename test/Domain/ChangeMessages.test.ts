import { describe, expect, it } from "@effect/vitest"
import { policyTerms } from "../../src/Domain/CancellationPolicy.js"
import { bookingCancelled, bookingRescheduled } from "../../src/Domain/ChangeMessages.js"
import { bookingConfirmation } from "../../src/Domain/Messages.js"

const slotStart = new Date("2026-11-30T08:00:00+01:00")
const slotEnd = new Date("2026-11-30T10:00:00+01:00")
const booking = {
  bookingId: "37139717-8780-4eec-be4e-9dafc536edbf",
  requestId: "bkg_XElF0uX8k_aVvxcQsnoB",
  providerId: "norrmalms-ror-sthlm",
  providerName: "Norrmalms Rör & Värme AB",
  serviceLabelSv: "Byte av blandare",
  slotStart,
  slotEnd,
  timeZone: "Europe/Stockholm",
  termsVersion: "norrmalms/faucet/2026-11-01.v3",
  termsUrl: "https://villkor.example/faucet",
  serviceAddress: "Drottninggatan 12, 111 22",
  customerName: "Astrid Lindqvist"
}
const policy = policyTerms(
  { freeCancellationHours: 12, lateFeeSek: 495, changeHours: 6 },
  slotStart.getTime(),
  "Europe/Stockholm",
  Date.parse("2026-11-23T09:00:00+01:00")
)

describe("messages of a booking's life", () => {
  it("the confirmation states the booking, the terms version and the policy in both languages", () => {
    const { customer } = bookingConfirmation({
      ...booking,
      price: { amountSek: 2190, pricingModel: "flat", priceType: "avg_fixed" },
      cancellationPolicy: policy
    })
    expect(customer.body).toContain("Villkor: version norrmalms/faucet/2026-11-01.v3")
    expect(customer.body).toContain(`Avbokning och ändring: ${policy.summary_sv}`)
    expect(customer.body).toContain(`Cancelling and changing: ${policy.summary_en}`)
    expect(customer.body).toContain("Ångerrätt gäller till och med")
  })

  it("a late cancel after the withdrawal period (konsumenttjänstlagen 42–43 §§) tells the fee as the provider's term that must be reasonable; the provider's payload has no personal data", () => {
    const late = bookingCancelled(booking, {
      cancelledBy: "customer",
      feeSek: 495,
      freeUntil: new Date(policy.free_until),
      withdrawalUntil: new Date("2026-11-20T00:00:00+01:00"),
      legalBasis: "provider_terms"
    })
    expect(late.customer.body).toContain("får utföraren ta ut en avgift på 495 kr")
    expect(late.customer.body).toContain("the provider may charge a fee of SEK 495")
    expect(late.customer.body).toContain("applies only if it is reasonable")
    expect(late.provider.payload).toMatchObject({ legal_basis: "provider_terms", late_fee_sek: 495 })
    expect(late.customer.body).not.toMatch(/you owe|du är skyldig/i)
    expect(JSON.stringify(late.provider.payload)).not.toMatch(/Astrid|Drottninggatan|111 22/)
    const withdrawn = bookingCancelled(booking, {
      cancelledBy: "partner",
      feeSek: 0,
      freeUntil: new Date(policy.free_until),
      withdrawalUntil: new Date("2026-12-08T00:00:00+01:00"),
      legalBasis: "withdrawal_right"
    })
    expect(withdrawn.customer.body).toContain("no fee may be charged, whatever the provider's terms say")
    expect(withdrawn.customer.body).toContain("ingen avgift får tas ut")
    expect(withdrawn.provider.payload).toMatchObject({ legal_basis: "withdrawal_right", late_fee_sek: 0 })
  })

  it("a move names the new and the earlier time and the new policy", () => {
    const moved = bookingRescheduled(
      { ...booking, slotStart: new Date("2026-12-01T08:00:00+01:00"), slotEnd: new Date("2026-12-01T10:00:00+01:00") },
      { slotStart, slotEnd },
      policy,
      2
    )
    expect(moved.customer.body).toContain("Ny tid: tisdag 1 december 2026 kl. 08:00–10:00")
    expect(moved.customer.body).toContain("Tidigare tid: måndag 30 november 2026 kl. 08:00–10:00")
    expect(moved.provider.payload).toMatchObject({ event: "booking.rescheduled", version: 2 })
    expect(JSON.stringify(moved.provider.payload)).not.toMatch(/Astrid|Drottninggatan/)
  })
})
