import { Effect, Schema } from "effect"
import { Customer } from "./Booking.js"
import { requestsSpecVersion } from "./Capabilities.js"
import { ContractError, ExistingRequest } from "./Errors.js"
import { DateTimeString, optional, strictInput, TimeZoneInput, text } from "./Input.js"
import { describedJob, FreeFormDetails, Timing } from "./Search.js"
import { providerTimeZone } from "./Zone.js"

export const RequestLocation = Schema.Struct({
  input: optional(text(2, 500)),
  address: optional(text(2, 500)),
  postcode: optional(text(3, 40))
}).check(
  Schema.makeFilter(
    (location) =>
      location.input !== undefined ||
      location.address !== undefined ||
      location.postcode !== undefined ||
      "must have input, address or postcode"
  )
)

export const CustomerNextStep = Schema.Literals(["home_visit", "price_info", "contact_me", "direct_booking"])

export const ServiceRequestCreate = strictInput(
  Schema.Struct({
    spec_version: optional(Schema.Literal(requestsSpecVersion)),
    ...describedJob,
    user_consent_confirmed: Schema.Literal(true).annotate({
      message: "must be true: ask the user for consent before sending personal data"
    }),
    user_consent_statement: optional(text(8, 500)),
    consent_collected_at: optional(DateTimeString),
    consent_source: optional(text(1, 120)),
    customer: Customer,
    location: RequestLocation,
    timing: Timing,
    budget_sek: optional(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 10_000_000 }))),
    details: optional(FreeFormDetails),
    customer_next_step: optional(CustomerNextStep),
    source: text(1, 80).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("external_model"))),
    external_reference: optional(text(1, 160)),
    idempotency_key: optional(text(1, 200)),
    locale: text(2, 32).pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed("sv-SE"))),
    timezone: TimeZoneInput.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed(providerTimeZone)))
  })
)
export type ServiceRequestCreate = typeof ServiceRequestCreate.Type

export const IdempotencyKeyHeader = Schema.Struct({
  "idempotency-key": optional(text(1, 200))
})

export const ProviderCandidate = Schema.Struct({
  id: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String),
  can_receive_request: Schema.optional(Schema.Boolean),
  direct_booking: Schema.optional(Schema.Boolean)
})

/**
 * What became of the hand-off, beside the spec's fields: `sent` (delivered to at least one
 * provider), `queued` (reachable providers, none delivered yet; retried), `not_sent` (nobody
 * can receive it, or, reason `sandbox`, a sandbox partner's request that is sent to no one: see
 * `reason`), `unknown` (the delivery state could not be read).
 */
export const Handoff = Schema.Struct({
  status: Schema.Literals(["sent", "queued", "not_sent", "unknown"]),
  providers_reached: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  providers_pending: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  reason: Schema.optional(Schema.Literals(["no_postcode", "no_candidates", "no_reachable_candidates", "sandbox"]))
})
export type Handoff = typeof Handoff.Type

/** A withdrawn request's withdrawal, and whether the providers who had it were told. */
export const RequestWithdrawal = Schema.Struct({
  withdrawn_at: Schema.String,
  /** As the partner sent it; never passed to providers or webhooks. */
  reason: Schema.optional(Schema.String),
  /**
   * The providers who had received (or were being sent) the request, told of the withdrawal:
   * `sent` (told at least one), `queued` (retried), `not_sent` (could not be told), `not_needed`
   * (nobody had it: none reachable, or a sandbox request), `unknown` (could not be read).
   */
  providers_told: Schema.Struct({
    status: Schema.Literals(["sent", "queued", "not_sent", "not_needed", "unknown"]),
    providers_reached: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
    providers_pending: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
  })
}).annotate({ identifier: "RequestWithdrawal" })
export type RequestWithdrawal = typeof RequestWithdrawal.Type

export const CreatedRequest = Schema.Struct({
  ...ExistingRequest.fields,
  taxonomy_confidence: Schema.Literals(["high", "medium", "low"]),
  customer_next_step: CustomerNextStep,
  booking_mode: Schema.optional(Schema.String),
  candidate_provider_count: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  provider_candidates: Schema.Array(ProviderCandidate),
  persistence_status: Schema.optional(Schema.Literal("stored")),
  persistence_backend: Schema.optional(Schema.Literal("postgresql")),
  handoff: Handoff,
  /** Only once the request is withdrawn (`status: "withdrawn"`). */
  withdrawal: Schema.optional(RequestWithdrawal),
  /** Only on a sandbox partner's requests: the hand-off was recorded, and no provider received it. */
  sandbox: Schema.optional(Schema.Literal(true))
}).annotate({ identifier: "FollowUpRequest" })
export type CreatedRequest = typeof CreatedRequest.Type

/** What every answer naming a follow-up request says first: the request, and that nothing was booked. */
const requestAnswer = {
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(requestsSpecVersion),
  request: CreatedRequest,
  booking_created: Schema.Literal(false),
  availability_checked: Schema.Literal(false),
  provider_selected: Schema.Literal(false)
}

export const ServiceRequestResponse = Schema.Struct({
  ...requestAnswer,
  idempotent_replay: Schema.Boolean,
  safe_next_step: Schema.String
})
export type ServiceRequestResponse = typeof ServiceRequestResponse.Type

/** A follow-up request looked up by its partner: what creation answered, redacted as it is, never a booking. */
export const ServiceRequestStatusResponse = Schema.Struct({
  ...requestAnswer,
  safe_next_step: Schema.String
}).annotate({ identifier: "ServiceRequestStatusResponse" })
export type ServiceRequestStatusResponse = typeof ServiceRequestStatusResponse.Type

export const RequestStatusPath = Schema.Struct({ request_id: Schema.String.check(Schema.isMinLength(1)) })

/** No follow-up request of the caller's has this id (another partner's is not told apart from none). */
export class RequestNotFound extends ContractError<RequestNotFound>()(
  "request_not_found",
  404,
  "No follow-up request of this partner has this id",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery: "Check the request id (the request.id of the create answer) and that the same partner token is used."
  }
) {}

export const WithdrawRequest = strictInput(
  Schema.Struct({
    /** Required unless the Idempotency-Key header carries it (the service checks one is present). */
    idempotency_key: optional(text(1, 200)),
    reason: optional(text(1, 500))
  })
).annotate({ identifier: "WithdrawRequest" })
export type WithdrawRequest = typeof WithdrawRequest.Type

/** The request was withdrawn before, by a call with another key: this one changed nothing. */
export class RequestAlreadyWithdrawn extends ContractError<RequestAlreadyWithdrawn>()(
  "request_already_withdrawn",
  409,
  "The follow-up request was already withdrawn by an earlier call with another idempotency key",
  {
    carries: ["issues", "request_id"],
    retrySafe: false,
    recovery:
      "Nothing to do: the request is already withdrawn and this call changed nothing. Look it up (GET /api/public/requests/{request_id}) for the standing withdrawal; do not withdraw it again."
  }
) {}
