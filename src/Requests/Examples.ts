import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of this folder's operations in the OpenAPI document: the README's "Try it" flow as the server answered it (test/Client.test.ts runs the same flow; long lists are cut to their first entries). */

/** A created request, as creation and the lookup show it. */
export const requestExample = {
  id: "00577a56-5746-487b-84d4-f43c3757e092",
  session_id: "req_eMTkx7r7cFBixfh4294J",
  status: "ready_to_send",
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  taxonomy_confidence: "medium",
  customer_next_step: "contact_me",
  booking_mode: "request_only",
  candidate_provider_count: 3,
  provider_candidates: [
    {
      id: "ekstrom-ror-sthlm",
      name: "Rörmokare Ekström & Son AB",
      can_receive_request: false,
      direct_booking: false
    },
    {
      id: "norrmalms-ror-sthlm",
      name: "Norrmalms Rör & Värme AB",
      can_receive_request: false,
      direct_booking: false
    },
    {
      id: "soderlunds-vvs-sthlm",
      name: "Söderlunds VVS AB",
      can_receive_request: false,
      direct_booking: false
    }
  ],
  persistence_status: "stored",
  persistence_backend: "postgresql",
  handoff: {
    status: "not_sent",
    providers_reached: 0,
    providers_pending: 0,
    reason: "no_reachable_candidates"
  }
}

/** What both answers say of the request: nothing booked. */
const requestAnswer = {
  ok: true,
  spec_version: "public_requests_api_v1",
  request: requestExample,
  booking_created: false,
  availability_checked: false,
  provider_selected: false
}

const unforwardedStep =
  "Tell the user plainly: nothing is booked, and no time, provider or price is confirmed. Nobody has received this request: the providers found for this area cannot receive requests through this service right now. The request is stored but will not be forwarded, and nobody will contact the user about it. Suggest the user contacts a local provider directly. Keep request.id (00577a56-5746-487b-84d4-f43c3757e092) to look the request up later with GET /api/public/requests/00577a56-5746-487b-84d4-f43c3757e092."

export const createExample: OperationExample = {
  request: {
    vertical_id: "vvs",
    job_type_id: "leak_hidden",
    description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
    user_consent_confirmed: true,
    customer: {
      name: "Karin Berg",
      phone: "+46 70 765 43 21",
      email: "karin.berg@example.se"
    },
    location: {
      address: "Sveavägen 44",
      postcode: "111 34"
    },
    timing: {
      preferred_time_text: "så snart som möjligt"
    }
  },
  response: {
    ...requestAnswer,
    idempotent_replay: false,
    safe_next_step: unforwardedStep
  }
}

export const statusExample: OperationExample = {
  response: {
    ...requestAnswer,
    safe_next_step: unforwardedStep
  }
}

export const listExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "public_requests_api_v1",
    requests: [statusExample.response],
    next_cursor: null
  }
}

export const withdrawExample: OperationExample = {
  request: { idempotency_key: "chat-4711-withdraw", reason: "Kunden har löst det själv" },
  response: {
    ...requestAnswer,
    request: {
      ...requestExample,
      status: "withdrawn",
      withdrawal: {
        withdrawn_at: "2026-11-23T10:15:00+01:00",
        reason: "Kunden har löst det själv",
        providers_told: { status: "not_needed", providers_reached: 0, providers_pending: 0 }
      }
    },
    idempotent_replay: false,
    safe_next_step:
      "Tell the user plainly: nothing is booked, and the follow-up request (request.id 00577a56-5746-487b-84d4-f43c3757e092) is withdrawn since 2026-11-23T10:15:00+01:00. No provider had received it, so nobody had to be told, and nobody will contact the user about it."
  }
}
