import { Option } from "effect"
import { requestsSpecVersion } from "../Domain/Capabilities.js"
import { anonymousPartnerId, type Partner } from "../Domain/Partner.js"
import {
  type CreatedRequest,
  type Handoff,
  RequestNotFound,
  type RequestWithdrawal,
  type ServiceRequestStatusResponse
} from "../Domain/Request.js"
import type { HandoffPlan, StoredRequest } from "../Domain/RequestRecord.js"
import { sandboxHandoffWords, sandboxPrefix, sandboxRequestNote } from "../Domain/Sandbox.js"
import type { Surface } from "../Domain/Surface.js"
import { formatInZone, providerTimeZone } from "../Domain/Zone.js"
import type { DeliveryState, SubjectDeliveryState } from "../Notifications/DeliveryState.js"

export const providers = (n: number) => (n === 1 ? "1 provider" : `${n} providers`)

/** What happened to the hand-off, from the plan stored with the request and the outbox states. */
export const handoffOf = (
  plan: HandoffPlan,
  hasPostcode: boolean,
  states: Option.Option<ReadonlyArray<Pick<DeliveryState, "status">>>,
  sandbox: boolean
): Handoff => {
  if (plan !== "queued") {
    const reason = plan === "no_candidates" && !hasPostcode ? "no_postcode" : plan
    return { status: "not_sent", providers_reached: 0, providers_pending: 0, reason }
  }
  // Whatever status its rows hold: no sandbox message is ever sent, so nobody received it.
  if (sandbox) return { status: "not_sent", providers_reached: 0, providers_pending: 0, reason: "sandbox" }
  if (Option.isNone(states)) return { status: "unknown", providers_reached: 0, providers_pending: 0 }
  const reached = states.value.filter((state) => state.status === "sent").length
  const pending = states.value.filter((state) => state.status === "pending").length
  return {
    status: reached > 0 ? "sent" : pending > 0 ? "queued" : "not_sent",
    providers_reached: reached,
    providers_pending: pending
  }
}

/** Never "has been sent" unless it was: the words follow the hand-off. `lookUp` names how to read it again. */
export const nextStepFor = (handoff: Handoff, giveUpHours: number, lookUp?: string): string => {
  const nothingBooked = "Tell the user plainly: nothing is booked, and no time, provider or price is confirmed."
  switch (handoff.status) {
    case "sent":
      return `${nothingBooked} The request was delivered to ${providers(handoff.providers_reached)} in the area${handoff.providers_pending > 0 ? ` (delivery to ${providers(handoff.providers_pending)} more is being retried)` : ""}; a provider who can take the job may contact the user to agree on a time and price. Nobody has promised to.`
    case "queued":
      return `${nothingBooked} No provider has received the request yet: delivery to ${providers(handoff.providers_pending)} is queued and retried for up to ${giveUpHours} hours. If none can be reached, nobody will contact the user about it.`
    case "unknown":
      return `${nothingBooked} The request is stored, but whether providers have received it could not be read right now. Do not tell the user it was sent; look again later${lookUp === undefined ? " by repeating the request with the same idempotency key" : ` with ${lookUp}`}.`
    case "not_sent":
      if (handoff.reason === "sandbox") return `${nothingBooked} ${sandboxHandoffWords}`
      return handoff.reason === "no_postcode"
        ? `${nothingBooked} Nobody has received this request: the location has no Swedish postcode we could read, so no provider was found. The request is stored but will not be sent. Ask the user for the postcode and create a new request with location.postcode.`
        : handoff.reason === "no_reachable_candidates"
          ? `${nothingBooked} Nobody has received this request: the providers found for this area cannot receive requests through this service right now. The request is stored but will not be forwarded, and nobody will contact the user about it. Suggest the user contacts a local provider directly.`
          : `${nothingBooked} Nobody has received this request: no provider in this service covers this job at this location. The request is stored but will not be sent, and nobody will contact the user about it. Suggest the user contacts a local provider directly.`
  }
}

const keepId = (surface: Surface, id: string) =>
  `Keep request.id (${id}) to look the request up later with ${surface.requestStatus(id)}.`

/** Whether the providers who had the request were told of its withdrawal, from its notices' states. */
export const noticeOf = (
  notices: Option.Option<ReadonlyArray<Pick<DeliveryState, "status">>>
): RequestWithdrawal["providers_told"] => {
  if (Option.isNone(notices)) return { status: "unknown", providers_reached: 0, providers_pending: 0 }
  const reached = notices.value.filter((state) => state.status === "sent").length
  const pending = notices.value.filter((state) => state.status === "pending").length
  return {
    status: notices.value.length === 0 ? "not_needed" : reached > 0 ? "sent" : pending > 0 ? "queued" : "not_sent",
    providers_reached: reached,
    providers_pending: pending
  }
}

const withdrawalOf = (
  stored: StoredRequest,
  notices: Option.Option<ReadonlyArray<Pick<DeliveryState, "status">>>
): RequestWithdrawal | undefined =>
  stored.withdrawnAt === null
    ? undefined
    : {
        withdrawn_at: formatInZone(stored.withdrawnAt, providerTimeZone),
        ...(stored.withdrawReason === null ? {} : { reason: stored.withdrawReason }),
        providers_told: stored.sandbox
          ? { status: "not_needed", providers_reached: 0, providers_pending: 0 }
          : noticeOf(notices)
      }

/** What a withdrawn request's answer tells the user; never that a provider will not call if one may. */
export const withdrawnStep = (
  stored: StoredRequest,
  withdrawal: RequestWithdrawal,
  surface: Surface,
  giveUpHours: number
): string => {
  const head = `Tell the user plainly: nothing is booked, and the follow-up request (request.id ${stored.id}) is withdrawn since ${withdrawal.withdrawn_at}.`
  if (stored.sandbox) {
    return `${sandboxPrefix}this request is a test. ${head} No provider received it, so no provider is told of the withdrawal.`
  }
  const told = withdrawal.providers_told
  switch (told.status) {
    case "not_needed":
      return `${head} No provider had received it, so nobody had to be told, and nobody will contact the user about it.`
    case "sent":
      return `${head} ${providers(told.providers_reached)} who had received it ${told.providers_reached === 1 ? "was" : "were"} told it is withdrawn${told.providers_pending > 0 ? ` (telling ${providers(told.providers_pending)} more is being retried)` : ""}. A provider who had already contacted the user may still get in touch; the user can say the request is withdrawn.`
    case "queued":
      return `${head} Telling the ${providers(told.providers_pending)} who had received it is queued and retried for up to ${giveUpHours} hours; until then a provider may still contact the user, who can say the request is withdrawn.`
    case "not_sent":
      return `${head} The providers who had received it could not be told of the withdrawal; a provider may still contact the user, who can say the request is withdrawn.`
    case "unknown":
      return `${head} Whether the providers who had received it have been told could not be read right now; look again later with ${surface.requestStatus(stored.id)}.`
  }
}

/**
 * The request as its status tells it: what creation answered, less whether it was a replay.
 * `notices` are the states of a withdrawal's notices to the providers (none before one).
 */
export const requestAnswer = (
  stored: StoredRequest,
  states: Option.Option<ReadonlyArray<DeliveryState>>,
  surface: Surface,
  giveUpHours: number,
  notices: Option.Option<ReadonlyArray<DeliveryState>> = Option.some([])
): ServiceRequestStatusResponse => {
  const handoff = handoffOf(stored.handoff, stored.hasPostcode, states, stored.sandbox)
  const withdrawal = withdrawalOf(stored, notices)
  const request: CreatedRequest = {
    id: stored.id,
    session_id: stored.sessionId,
    status: stored.status,
    vertical_id: stored.verticalId,
    job_type_id: stored.jobTypeId,
    taxonomy_confidence: stored.taxonomyConfidence,
    customer_next_step: stored.customerNextStep,
    booking_mode: stored.bookingMode,
    candidate_provider_count: stored.candidates.length,
    provider_candidates: stored.candidates,
    persistence_status: "stored",
    persistence_backend: "postgresql",
    handoff,
    ...(withdrawal === undefined ? {} : { withdrawal }),
    ...(stored.sandbox ? { sandbox: true as const } : {})
  }
  return {
    ok: true,
    spec_version: requestsSpecVersion,
    request,
    booking_created: false,
    availability_checked: false,
    provider_selected: false,
    safe_next_step:
      withdrawal === undefined
        ? `${stored.sandbox ? sandboxRequestNote : ""}${nextStepFor(handoff, giveUpHours, surface.requestStatus(stored.id))} ${keepId(surface, stored.id)}`
        : withdrawnStep(stored, withdrawal, surface, giveUpHours)
  }
}

/** The subjects of a request's outbox rows: its hand-off, and its withdrawal's notices once withdrawn. */
export const subjectsOf = (stored: StoredRequest): ReadonlyArray<string> =>
  stored.withdrawalId === null ? [stored.id] : [stored.id, stored.withdrawalId]

/** `requestAnswer` from the states of every subject of the request, read at once. */
export const answerWithStates = (
  stored: StoredRequest,
  states: Option.Option<ReadonlyArray<SubjectDeliveryState>>,
  surface: Surface,
  giveUpHours: number
) =>
  requestAnswer(
    stored,
    Option.map(states, (all) => all.filter((state) => state.subjectId === stored.id)),
    surface,
    giveUpHours,
    Option.map(states, (all) => all.filter((state) => state.subjectId === stored.withdrawalId))
  )

/** No request of this partner has the id: another's is not told apart from none. */
export const requestNotFound = (partner: Partner["Service"], requestId: string) =>
  new RequestNotFound({
    issues: [
      `request_id: no follow-up request ${requestId} exists for ${partner.id === anonymousPartnerId ? "requests made without a token" : "your token"}`
    ],
    safe_next_step:
      partner.id === anonymousPartnerId
        ? "No token was sent, so only requests made without a token were looked up. A request made with a partner token is found only with that token: send it. Do not tell the user anything about this request on the strength of this answer."
        : "No follow-up request with this id exists for your token. Check the id (request.id or request.session_id of the creation answer). Do not tell the user anything is booked."
  })
