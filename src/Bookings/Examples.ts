import { Struct } from "effect"
import type { CancelPreview, ReschedulePreview } from "../Domain/BookingChange.js"
import { policyTerms } from "../Domain/CancellationPolicy.js"
import { cancellationWords } from "../Domain/CancellationWords.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import { withdrawalUntil } from "../Domain/Withdrawal.js"
import { formatInZone } from "../Domain/Zone.js"
import type { OperationExample } from "../Http/OperationDocs.js"
import { policyExample, taxDeductionExample } from "../Search/Examples.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

const confirmedAtExample = Date.parse("2026-11-23T09:00:00+01:00")
const withdrawalUntilExample = withdrawalUntil(confirmedAtExample)

export const cancellationExample = {
  cancelled_at: "2026-11-24T10:15:00+01:00",
  cancelled_by: "customer",
  reason: "Kunden har redan fått hjälp",
  fee_sek: 0,
  within_free_period: true,
  free_until: policyExample.free_until,
  legal_basis: "withdrawal_right",
  withdrawal_until: formatInZone(withdrawalUntilExample, "Europe/Stockholm")
} as const

/** The README flow's cancel within the withdrawal period, in the words a cancel and its dry run use. */
const withdrawalFacts = {
  cancelledBy: "customer",
  feeSek: 0,
  freeUntil: new Date(policyExample.free_until),
  withdrawalUntil: new Date(withdrawalUntilExample),
  legalBasis: "withdrawal_right"
} as const

/** The README flow's booking was made without an early-start request, for a slot within the withdrawal period. */
export const earlyStartExample = earlyStartOf({
  earlyStartRequested: null,
  earlyStartStatement: null,
  slotStart: new Date("2026-11-30T08:00:00+01:00"),
  confirmedAt: new Date(confirmedAtExample),
  timeZone: "Europe/Stockholm"
})

/** The README flow's booking, as confirm and the status lookup both show it. */
export const bookingExample = {
  id: "37139717-8780-4eec-be4e-9dafc536edbf",
  status: "confirmed",
  provider_id: "norrmalms-ror-sthlm",
  provider_name: "Norrmalms Rör & Värme AB",
  service_id: "vvs_install_faucet_standard",
  slot_start_at: "2026-11-30T08:00:00+01:00",
  slot_end_at: "2026-11-30T10:00:00+01:00",
  slot_label: "måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm",
  price_sek: 2190,
  currency: "SEK",
  pricing_model: "flat",
  price_type: "avg_fixed",
  confirmed_at: "2026-11-23T09:00:00+01:00",
  terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-12-01.v3-rot90pct+ki-c6cde0ce",
  version: 1,
  customer_confirmation_status: "skipped",
  provider_confirmation_status: "skipped"
}

export const deliveryExample = {
  customer: {
    status: "skipped",
    channel: "none",
    attempts: 0,
    will_retry: false
  },
  provider: {
    status: "skipped",
    channel: "none",
    attempts: 0,
    will_retry: false
  }
}

/** What confirm and the status lookup both say of the README flow's booking. */
export const bookingFactsExample = {
  request_id: "bkg_XElF0uX8k_aVvxcQsnoB",
  booking: bookingExample,
  provider_selected: true,
  availability_checked: true,
  booking_created: true,
  confirmation_delivery: deliveryExample,
  tax_deduction: taxDeductionExample,
  tax_deduction_requested: true,
  cancellation_policy: policyExample,
  early_start: earlyStartExample
}

export const confirmedStepExample = `The booking is confirmed: Norrmalms Rör & Värme AB, måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm, a fixed price of SEK 2,190 incl. VAT (terms norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-12-01.v3-rot90pct+ki-c6cde0ce). Tell the user exactly this. price_sek is the price before any deduction. Say the ROT deduction as tax_deduction.conditions_en words it ("X SEK, or Y SEK after ROT if you are eligible and have room under this year's cap; the provider deducts it on the invoice"), never the lower figure alone or as certain. The user asked for it: the provider will collect the identity details it needs; do not ask for them. Withdrawal: ${earlyStartExample.summary_en} The user withdraws by cancelling here before the start, or by telling the provider (the standard withdrawal form is linked in the terms). Confirmation messages are reported separately and do not change the booking.`

export const confirmExample: OperationExample = {
  request: {
    booking_option_id:
      "o1.test-1.eyJwcm92aWRlcklkIjoibm9ycm1hbG1zLXJvci1zdGhsbSIsInNlcnZpY2VJZCI6InZ2c19pbnN0YWxsX2ZhdWNldF9zdGFuZGFyZCIsInZlcnRpY2FsSWQiOiJ2dnMiLCJqb2JUeXBlSWQiOiJpbnN0YWxsX2ZhdWNldCIsImFtb3VudFNlayI6MjE5MCwicHJpY2luZ01vZGVsIjoiZmxhdCIsInByaWNlVHlwZSI6ImF2Z19maXhlZCIsInNsb3RTdGFydCI6MTc5NjAyMjAwMDAwMCwic2xvdEVuZCI6MTc5NjAyOTIwMDAwMCwidGVybXNWZXJzaW9uIjoibm9ycm1hbG1zLXJvci1zdGhsbS92dnNfaW5zdGFsbF9mYXVjZXRfc3RhbmRhcmQvMjAyNi0xMC0wMS52MyIsIm9yaWdpblBvc3Rjb2RlIjoxMTEyMiwidGltZVpvbmUiOiJFdXJvcGUvU3RvY2tob2xtIiwiZXhwaXJlc0F0IjoxNzk1NDIxNzAwMDAwLCJub25jZSI6IlE2bWhSVHY1bUtJNDA5YlUifQ.84BFzHYGCs7aWzpvzSigxUwSMc16LernCjk3dx4Zyoo",
    customer: {
      name: "Astrid Lindqvist",
      phone: "+46 70 123 45 67",
      email: "astrid@example.se"
    },
    service_location: {
      country_code: "SE",
      address: "Drottninggatan 12",
      postcode: "111 22"
    },
    user_consent_confirmed: true,
    booking_terms_accepted: true,
    booking_terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-12-01.v3-rot90pct+ki-c6cde0ce",
    booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
    idempotency_key: "chat-4711-confirm",
    tax_deduction_requested: true
  },
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    ...bookingFactsExample,
    idempotent_replay: false,
    safe_next_step: confirmedStepExample
  }
}

export const cancelExample: OperationExample = {
  request: { idempotency_key: "chat-4711-cancel", reason: "Kunden har redan fått hjälp" },
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    booking_id: bookingExample.id,
    request_id: "bkg_XElF0uX8k_aVvxcQsnoB",
    cancelled: true,
    booking_active: false,
    cancellation: cancellationExample,
    confirmation_delivery: deliveryExample,
    idempotent_replay: false,
    safe_next_step: `The booking is cancelled: Norrmalms Rör & Värme AB, måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm (request_id bkg_XElF0uX8k_aVvxcQsnoB). Nothing is booked under it now and the time is released. ${cancellationWords(withdrawalFacts, "Europe/Stockholm", true).en} Tell the user exactly this. Messages to the customer and provider are reported in confirmation_delivery and do not change the cancellation.`
  }
}

/** The README flow's cancel sent first as a dry run: the fee now and the policy as it stands, nothing cancelled. */
export const cancelPreviewExample: CancelPreview = {
  ok: true,
  spec_version: "public_bookings_api_v1",
  booking_id: bookingExample.id,
  request_id: "bkg_XElF0uX8k_aVvxcQsnoB",
  cancelled: false,
  booking_active: true,
  dry_run: true,
  // A dry run's cancellation says what a cancellation now would be; it has no cancelled_at.
  cancellation: Struct.omit(cancellationExample, ["cancelled_at"]),
  cancellation_policy: policyExample,
  confirmation_delivery: {
    customer: { status: "skipped", channel: "none", attempts: 0, will_retry: false, reason: "dry_run" },
    provider: { status: "skipped", channel: "none", attempts: 0, will_retry: false, reason: "dry_run" }
  },
  idempotent_replay: false,
  safe_next_step: `Dry run: nothing was cancelled and nobody was told; the booking (Norrmalms Rör & Värme AB, måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm) stands. ${cancellationWords(withdrawalFacts, "Europe/Stockholm", false).en} Tell the user this and ask whether to cancel. Only on their yes, send this request again without dry_run (POST /api/public/bookings/bkg_XElF0uX8k_aVvxcQsnoB/cancel). Do not say the booking is cancelled until an answer has cancelled: true.`
}

const movedPolicy = policyTerms(
  { freeCancellationHours: 12, lateFeeSek: 495, changeHours: 6 },
  Date.parse("2026-12-01T08:00:00+01:00"),
  "Europe/Stockholm",
  Date.parse("2026-11-24T10:14:00+01:00")
)

/** The README flow's move sent first as a dry run: the new time, its price and the difference. */
export const reschedulePreviewExample: ReschedulePreview = {
  ok: true,
  spec_version: "public_bookings_api_v1",
  dry_run: true,
  rescheduled: false,
  booking_id: bookingExample.id,
  request_id: "bkg_XElF0uX8k_aVvxcQsnoB",
  booking_version: 1,
  current_slot: { start_at: bookingExample.slot_start_at, end_at: bookingExample.slot_end_at },
  new_slot: {
    start_at: "2026-12-01T08:00:00+01:00",
    end_at: "2026-12-01T10:00:00+01:00",
    label: "tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm"
  },
  current_price_sek: 2190,
  new_price: {
    amount_sek: 2190,
    currency: "SEK",
    pricing_model: "flat",
    price_type: "avg_fixed",
    tax_deduction: taxDeductionExample
  },
  price_difference_sek: 0,
  new_cancellation_policy: movedPolicy,
  safe_next_step: `Dry run: nothing was changed and nobody was told; the booking stands at måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm. It can be moved to tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm, at a fixed price of SEK 2,190 incl. VAT: the same price as now (prices before any RUT or ROT deduction; new_price.tax_deduction states the new one). ${movedPolicy.summary_en} Tell the user this and ask whether to move it. Only on their yes, send this request again without dry_run (POST /api/public/bookings/bkg_XElF0uX8k_aVvxcQsnoB/reschedule); the time may be taken meanwhile.`
}

export const rescheduleExample: OperationExample = {
  request: {
    booking_option_id: "o1.test-1.<a booking_option_id of the same provider and service from a new search>",
    booking_terms_accepted: true,
    booking_terms_version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-12-01.v3-rot90pct+ki-c6cde0ce",
    booking_terms_accepted_at: "2026-11-24T10:14:00+01:00",
    idempotency_key: "chat-4711-move",
    expected_version: 1
  },
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    ...bookingFactsExample,
    booking: {
      ...bookingExample,
      slot_start_at: "2026-12-01T08:00:00+01:00",
      slot_end_at: "2026-12-01T10:00:00+01:00",
      slot_label: "tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm",
      version: 2
    },
    cancellation_policy: movedPolicy,
    idempotent_replay: false,
    previous_slot: { start_at: bookingExample.slot_start_at, end_at: bookingExample.slot_end_at },
    safe_next_step:
      "The booking has been moved and is confirmed at its new time: Norrmalms Rör & Värme AB, tisdag 1 december 08:00–10:00 (Tuesday 1 December 08:00–10:00), Europe/Stockholm (terms norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-12-01.v3-rot90pct+ki-c6cde0ce, request_id bkg_XElF0uX8k_aVvxcQsnoB, version 2). The earlier time (måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm) is released. Tell the user exactly this. Messages are reported in confirmation_delivery and do not change the booking."
  }
}

export const statusExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    found: true,
    ...bookingFactsExample,
    safe_next_step: confirmedStepExample
  }
}

export const listExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    bookings: [
      {
        ok: true,
        spec_version: "public_bookings_api_v1",
        found: false,
        booking_id: bookingExample.id,
        cancellation: cancellationExample,
        safe_next_step: `This booking (Norrmalms Rör & Värme AB, ${bookingExample.slot_label}, request_id bkg_XElF0uX8k_aVvxcQsnoB) was cancelled at ${cancellationExample.cancelled_at} by the customer. Nothing is booked under it now. It was cancelled within the free period: the provider's terms allow no fee for it. Tell the user it is cancelled; to book the job again, search again (POST /api/public/booking-options).`
      }
    ],
    next_cursor:
      "c1.k1.eyJsaXN0IjoiYm9va2luZ3MiLCJvd25lciI6InBhcnRuZXItYSIsImF0IjoiMjAyNi0xMS0yNFQwOToxNTowMC4wMDAwMDBaIiwiaWQiOiIzNzEzOTcxNy04NzgwLTRlZWMtYmU0ZS05ZGFmYzUzNmVkYmYifQ.X2UJJMERJhUHUgiGcx24TU9NBp5tZq1WmCw9ERqFo5Q"
  }
}
