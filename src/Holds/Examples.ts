import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of the hold operations in the OpenAPI document. */

const holdExample = {
  hold_id: "5b0f4f0e-1c1e-4f7a-9a55-2f6d3c1b8e21",
  status: "active",
  booking_option_id: "o1.dev.eyJwcm92aWRlcklkIjoibm9ycm1hbG1zLXJvci1zdGhsbSJ9.tag",
  expires_at: "2026-11-23T09:10:00+01:00",
  slot: {
    start_at: "2026-11-30T08:00:00+01:00",
    end_at: "2026-11-30T10:00:00+01:00",
    label: "måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm"
  },
  provider_id: "norrmalms-ror-sthlm",
  service_id: "vvs_install_faucet_standard",
  price_sek: 2190
}

const heldStep =
  "The time måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm is held for you until 09:10 (2026-11-23T09:10:00+01:00). Nothing is booked yet: do not tell the user it is booked. Now ask the user for their name, phone, e-mail and address and for their consent, then confirm (POST /api/public/bookings) with this booking_option_id before 09:10; until then no other partner can take the time. If the user does not want it, release the hold (DELETE /api/public/holds/5b0f4f0e-1c1e-4f7a-9a55-2f6d3c1b8e21)."

export const holdRequestExample: OperationExample = {
  request: {
    booking_option_id: holdExample.booking_option_id,
    idempotency_key: "hold-7f3c2a",
    hold_seconds: 600
  },
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    hold: holdExample,
    booking_created: false,
    availability_checked: true,
    provider_selected: false,
    idempotent_replay: false,
    safe_next_step: heldStep
  }
}

export const holdStatusExample: OperationExample = {
  response: { ok: true, spec_version: "public_bookings_api_v1", hold: holdExample, safe_next_step: heldStep }
}

export const holdReleaseExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    hold: { ...holdExample, status: "released" },
    released: true,
    safe_next_step:
      "The hold is released: the time is free for others again and nothing was booked. Tell the user nothing is booked."
  }
}
