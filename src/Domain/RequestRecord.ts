import { Schema, Struct } from "effect"
import { VerticalId } from "./Catalog.js"
import { CreatedRequest, CustomerNextStep, ProviderCandidate } from "./Request.js"

/** What became of the hand-off when the request was stored; the outbox tells the rest. */
export const HandoffPlan = Schema.Literals(["queued", "no_candidates", "no_reachable_candidates"])
export type HandoffPlan = typeof HandoffPlan.Type

/** A follow-up request as it is written: the decisions, the body as sent and the consent record. */
export const NewRequest = Schema.Struct({
  id: Schema.String.check(Schema.isUUID()),
  sessionId: Schema.String,
  partnerId: Schema.String,
  verticalId: VerticalId,
  jobTypeId: Schema.String,
  taxonomyConfidence: CreatedRequest.fields.taxonomy_confidence,
  customerNextStep: CustomerNextStep,
  bookingMode: Schema.String,
  body: Schema.Unknown,
  consent: Schema.Unknown,
  candidates: Schema.Array(ProviderCandidate),
  handoff: HandoffPlan,
  createdAt: Schema.Date,
  sandbox: Schema.Boolean
})
export type NewRequest = typeof NewRequest.Type

/** A request as it is read back for its partner: what the response tells, never the customer's details. */
export const StoredRequest = Schema.Struct({
  ...Struct.pick(NewRequest.fields, [
    "id",
    "sessionId",
    "verticalId",
    "jobTypeId",
    "taxonomyConfidence",
    "customerNextStep",
    "bookingMode",
    "candidates",
    "handoff",
    "sandbox"
  ]),
  hasPostcode: Schema.Boolean,
  status: Schema.Literals(["ready_to_send", "withdrawn"]),
  withdrawnAt: Schema.NullOr(Schema.Date),
  withdrawReason: Schema.NullOr(Schema.String),
  /** The subject of the withdrawal's notices to providers. */
  withdrawalId: Schema.NullOr(Schema.String)
})
export type StoredRequest = typeof StoredRequest.Type
