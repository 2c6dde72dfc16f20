import { policyTerms } from "../Domain/CancellationPolicy.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import { withdrawalUntil } from "../Domain/Withdrawal.js"
import { formatInZone } from "../Domain/Zone.js"
import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

const providerBookingExample = {
  id: "6f1c2a9e-4b7d-4c1e-9a55-2f3b8d0e7a41",
  request_id: "bk_2026_11_23_7KQ9",
  status: "confirmed",
  service_id: "vvs_install_faucet_standard",
  service_label_sv: "Byte av blandare",
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  slot_start_at: "2026-11-23T11:00:00+01:00",
  slot_end_at: "2026-11-23T12:30:00+01:00",
  slot_label: "måndag 23 november 11:00–12:30",
  price_sek: 1950,
  currency: "SEK",
  pricing_model: "fixed",
  price_type: "fixed",
  terms_version: "soderlunds-vvs-2026-11",
  terms_url: "https://example.se/villkor",
  scope: {},
  customer: { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" },
  service_location: { address: "Drottninggatan 12, 3 tr", postcode: "111 22", country_code: "SE" },
  confirmed_at: "2026-11-23T09:00:00+01:00",
  version: 1,
  cancellation_policy: policyTerms(
    { freeCancellationHours: 24, lateFeeSek: 395, changeHours: 24 },
    Date.parse("2026-11-23T11:00:00+01:00"),
    "Europe/Stockholm",
    Date.parse("2026-11-23T09:00:00+01:00"),
    Date.parse("2026-11-23T09:00:00+01:00")
  ),
  early_start: earlyStartOf({
    confirmedAt: new Date("2026-11-23T09:00:00+01:00"),
    slotStart: new Date("2026-11-23T11:00:00+01:00"),
    earlyStartRequested: null,
    earlyStartStatement: null,
    timeZone: "Europe/Stockholm"
  }),
  conflicts_with_busy_time: false
}

const blockExample = {
  id: "0b7c4f7e-2d2a-4d8e-8f3e-5c8a1e6f9b10",
  start_at: "2026-11-25T12:00:00+01:00",
  end_at: "2026-11-25T15:00:00+01:00",
  note: "Tandläkare",
  created_at: "2026-11-23T09:00:00+01:00"
}

const deletedExample = (step: string): OperationExample => ({
  response: { ok: true, spec_version: "provider_api_v1", deleted: true, safe_next_step: step }
})

const hoursExample = {
  ok: true,
  spec_version: "provider_api_v1",
  time_zone: "Europe/Stockholm",
  weekly_hours: [1, 2, 3, 4, 5].map((day) => ({ iso_weekday: day, opens: "08:00", closes: "17:00" })),
  dates_off: ["2026-12-24", "2026-12-31"],
  safe_next_step:
    "Saved: searches and confirms use these hours and dates off from now on. Bookings already made stand; a later supply import no longer changes your hours."
}

/** Asking for the feed and rotating it answer alike. */
export const calendarFeedExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    feed_url: "https://booking.partner-api.se/calendar-feeds/q3J0mYfV1xk8c2Wn5d7RZbLhE4tPaUo9sGiK6yN1wQe.ics",
    created_at: "2026-11-23T09:00:00+01:00",
    last_fetched_at: null,
    safe_next_step:
      "Subscribe to feed_url in your calendar app. Keep it secret: anyone with it sees your jobs' times. Rotate it (POST /api/provider/calendar-feed/rotate) if it leaks."
  }
}

export const calendarImportExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    url: "https://calendar.example.com/private-3f9a/basic.ics",
    last_synced_at: "2026-11-23T09:00:00+01:00",
    last_error: null,
    busy_intervals: 12,
    next_fetch_at: "2026-11-23T09:10:00+01:00",
    fetch_status: "synced",
    safe_next_step:
      "Imported: 12 busy interval(s) from your calendar, as of 2026-11-23T09:00:00+01:00; searches and confirms treat them as taken. It is fetched again every 10 minutes. A booking one of them overlaps is flagged (conflicts_with_busy_time in GET /api/provider/bookings) and you are told of it once."
  }
}

/** A registration answers at once; the first fetch runs in the background. */
export const setCalendarImportExample: OperationExample = {
  request: { url: "https://calendar.example.com/private-3f9a/basic.ics" },
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    url: "https://calendar.example.com/private-3f9a/basic.ics",
    last_synced_at: null,
    last_error: null,
    busy_intervals: 0,
    next_fetch_at: "2026-11-23T09:10:00+01:00",
    fetch_status: "pending",
    safe_next_step:
      "Registered: the first fetch of this address is under way, and until it succeeds no busy time is imported. GET /api/provider/calendar-import shows how it went (fetch_status, last_synced_at, last_error)."
  }
}

export const bookingsExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    provider_id: "soderlunds-vvs-sthlm",
    from: "2026-11-23T09:00:00+01:00",
    to: "2026-12-23T09:00:00+01:00",
    bookings: [providerBookingExample]
  }
}

export const cancelBookingExample: OperationExample = {
  request: { reason: "Sjuk, kan inte ta jobbet", idempotency_key: "prov-cancel-6f1c2a9e" },
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    booking_id: providerBookingExample.id,
    request_id: providerBookingExample.request_id,
    cancelled: true,
    cancellation: {
      cancelled_at: "2026-11-23T09:30:00+01:00",
      cancelled_by: "provider",
      fee_sek: 0,
      within_free_period: false,
      free_until: "2026-11-22T11:00:00+01:00",
      legal_basis: "provider_cancelled",
      withdrawal_until: formatInZone(withdrawalUntil(Date.parse("2026-11-23T09:00:00+01:00")), "Europe/Stockholm")
    },
    confirmation_delivery: {
      customer: { status: "sent", channel: "email", attempts: 1, will_retry: false },
      provider: { status: "sent", channel: "email", attempts: 1, will_retry: false }
    },
    idempotent_replay: false,
    safe_next_step: `The booking is cancelled (request_id ${providerBookingExample.request_id}). The customer is told (confirmation_delivery.customer shows how far that got; it is retried) and pays no cancellation fee; the partner who booked it sees it cancelled by you. Its time is free again, so searches may offer it to other customers: if you cannot work then, block the time (POST /api/provider/blocks).`
  }
}

export const createBlockExample: OperationExample = {
  request: { start_at: "2026-11-25T12:00:00+01:00", end_at: "2026-11-25T15:00:00+01:00", note: "Tandläkare" },
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    block: blockExample,
    safe_next_step:
      "The time from 2026-11-25T12:00:00+01:00 to 2026-11-25T15:00:00+01:00 is blocked: searches no longer offer it and no booking can take it. Delete the block to free it."
  }
}

export const blocksExample: OperationExample = {
  response: { ok: true, spec_version: "provider_api_v1", blocks: [blockExample] }
}

export const deleteBlockExample = deletedExample(
  "The block is deleted: its time is free again within your working hours."
)

export const workingHoursExample: OperationExample = { response: hoursExample }

export const setWorkingHoursExample: OperationExample = {
  request: { weekly_hours: hoursExample.weekly_hours, dates_off: hoursExample.dates_off },
  response: hoursExample
}

export const revokeCalendarFeedExample = deletedExample(
  "The feed address no longer works. Ask for the feed again (GET /api/provider/calendar-feed) for a new address."
)

export const removeCalendarImportExample = deletedExample(
  "Your calendar is no longer imported, and the busy times read from it no longer block searches."
)
