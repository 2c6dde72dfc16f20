import type { PersonalDataResponse } from "../Domain/Retention.js"
import type { OperationExample } from "../Http/OperationDocs.js"

/** The documented bodies of the personal-data endpoints: one booking's data, stored, then erased on request. */

const bookingId = "37139717-8780-4eec-be4e-9dafc536edbf"
const requestId = "bkg_XElF0uX8k_aVvxcQsnoB"

const storedExample: PersonalDataResponse = {
  ok: true,
  subject: "booking",
  id: bookingId,
  request_id: requestId,
  status: "stored",
  stored: [
    { field: "customer.name", value: "Astrid Lindqvist" },
    { field: "customer.phone", value: "+46 70 123 45 67" },
    { field: "customer.email", value: "astrid.lindqvist@example.se" },
    { field: "service_location.address", value: "Drottninggatan 12, 3 tr" }
  ],
  recipients: [
    {
      role: "provider",
      provider_id: "norrmalms-ror-sthlm",
      provider_name: "Norrmalms Rör & Värme AB",
      channel: "email",
      delivery_status: "sent"
    }
  ],
  retention: { days: 180, counted_from: "slot_end", erase_after: "2027-05-29T10:00:00+02:00" },
  erased_at: null,
  erased_by: null,
  safe_next_step: `stored lists every value kept about the customer, and recipients who received it. It is erased automatically after 2027-05-29T10:00:00+02:00; to erase it now (GDPR art. 17), send DELETE /api/public/bookings/${bookingId}/personal-data with an idempotency_key: the provider is told.`
}

export const personalDataExample: OperationExample = { response: storedExample }

export const erasePersonalDataExample: OperationExample = {
  request: { idempotency_key: "erase-7f3c2a" },
  response: {
    ...storedExample,
    status: "erased",
    stored: [],
    retention: { days: 180, counted_from: "slot_end", erase_after: null },
    erased_at: "2026-12-01T09:00:00+01:00",
    erased_by: "request",
    provider_notices: [{ status: "sent", channel: "email", attempts: 1, will_retry: false }],
    idempotent_replay: false,
    safe_next_step:
      "The customer's personal data for this booking was erased at 2026-12-01T09:00:00+01:00 (on request (GDPR art. 17); the provider was told). Nothing personal about the customer is stored here any more: stored is empty, and the booking keeps only its provider, service, time, price and status. Tell the user exactly this."
  } satisfies PersonalDataResponse
}

const followUpId = "00577a56-5746-487b-84d4-f43c3757e092"

const requestStoredExample: PersonalDataResponse = {
  ok: true,
  subject: "request",
  id: followUpId,
  request_id: "req_eMTkx7r7cFBixfh4294J",
  status: "stored",
  stored: [
    { field: "customer.name", value: "Astrid Lindqvist" },
    { field: "customer.phone", value: "+46 70 123 45 67" },
    { field: "customer.email", value: "astrid.lindqvist@example.se" },
    { field: "location.address", value: "Drottninggatan 12, 3 tr" },
    { field: "description", value: "Det droppar från taket i badrummet, troligen ett dolt läckage." }
  ],
  recipients: [
    {
      role: "provider",
      provider_id: "ekstrom-ror-sthlm",
      provider_name: "Rörmokare Ekström & Son AB",
      channel: "email",
      delivery_status: "sent"
    }
  ],
  retention: { days: 180, counted_from: "last_change", erase_after: "2027-05-22T09:00:00+02:00" },
  erased_at: null,
  erased_by: null,
  safe_next_step: `The follow-up request is open, so providers may still contact the customer about it: its personal data is erased automatically after 2027-05-22T09:00:00+02:00 (180 days after its last change). To erase it sooner, withdraw it first (POST /api/public/requests/${followUpId}/withdraw), then send DELETE /api/public/requests/${followUpId}/personal-data.`
}

export const requestDataExample: OperationExample = { response: requestStoredExample }

export const eraseRequestDataExample: OperationExample = {
  request: { idempotency_key: "erase-req-91b0" },
  response: {
    ...requestStoredExample,
    status: "erased",
    stored: [],
    retention: { days: 180, counted_from: "last_change", erase_after: null },
    erased_at: "2026-12-01T09:00:00+01:00",
    erased_by: "request",
    provider_notices: [{ status: "sent", channel: "email", attempts: 1, will_retry: false }],
    idempotent_replay: false,
    safe_next_step:
      "The customer's personal data for this follow-up request was erased at 2026-12-01T09:00:00+01:00 (on request (GDPR art. 17); the providers who received it were told). Nothing personal about the customer is stored here any more: stored is empty, and the follow-up request keeps only its job type, postcode, the providers it was sent to and its status. Tell the user exactly this."
  } satisfies PersonalDataResponse
}
