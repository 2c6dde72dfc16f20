import { randomUUID } from "node:crypto"
import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../AppConfig.js"
import { Catalog } from "../Catalog.js"
import { customerNameOf } from "../Domain/Booking.js"
import { requestsSpecVersion } from "../Domain/Capabilities.js"
import type { JobType, Vertical } from "../Domain/Catalog.js"
import { InvalidRequest } from "../Domain/Errors.js"
import { requestForProvider } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import type { CreatedRequest, Handoff, ServiceRequestCreate, ServiceRequestResponse } from "../Domain/Request.js"
import type { HandoffPlan, NewRequest, StoredRequest } from "../Domain/RequestRecord.js"
import { EmergencyNotSupported, emergencyStep, isEmergency } from "../Domain/Safety.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import { Idempotency, idempotencyKeyOf, type OutageSteps, persistenceUnavailable, requestHash } from "../Idempotency.js"
import { type ChannelChoice, type DeliveryState, Notifier, statesOrUnknown } from "../Notifier.js"
import { randomReference } from "../References.js"
import { Supply } from "../Supply.js"
import { RequestsRepo } from "./RequestsRepo.js"

/** At most this many providers receive one request. */
export const maxCandidates = 10

/** A Swedish postcode anywhere in the location: the postcode field first, then the free text. */
export const postcodeIn = (location: ServiceRequestCreate["location"]): number | undefined => {
  for (const text of [location.postcode, location.address, location.input]) {
    const match = text?.match(/(?<!\d)([1-9]\d{2}) ?(\d{2})(?!\d)/)
    if (match) return Number(`${match[1]}${match[2]}`)
  }
  return undefined
}

/**
 * How well the catalog's job type describes the job: standardized job types are well defined,
 * needs_clarification ones need a provider's questions, specialist and emergency ones are broad.
 */
export const taxonomyConfidence = (jobType: JobType): CreatedRequest["taxonomy_confidence"] =>
  jobType.routing_mode === "standardized" ? "high" : jobType.routing_mode === "needs_clarification" ? "medium" : "low"

const providers = (n: number) => (n === 1 ? "1 provider" : `${n} providers`)

/** What happened to the hand-off, from the plan stored with the request and the outbox states. */
export const handoffOf = (
  plan: HandoffPlan,
  hasPostcode: boolean,
  states: Option.Option<ReadonlyArray<Pick<DeliveryState, "status">>>
): Handoff => {
  if (plan !== "queued") {
    const reason = plan === "no_candidates" && !hasPostcode ? "no_postcode" : plan
    return { status: "not_sent", providers_reached: 0, providers_pending: 0, reason }
  }
  if (Option.isNone(states)) return { status: "unknown", providers_reached: 0, providers_pending: 0 }
  const reached = states.value.filter((state) => state.status === "sent").length
  const pending = states.value.filter((state) => state.status === "pending").length
  return {
    status: reached > 0 ? "sent" : pending > 0 ? "queued" : "not_sent",
    providers_reached: reached,
    providers_pending: pending
  }
}

/** Never "has been sent" unless it was: the words follow the hand-off. */
export const nextStepFor = (handoff: Handoff, giveUpHours: number): string => {
  const nothingBooked = "Tell the user plainly: nothing is booked, and no time, provider or price is confirmed."
  switch (handoff.status) {
    case "sent":
      return `${nothingBooked} The request was delivered to ${providers(handoff.providers_reached)} in the area${handoff.providers_pending > 0 ? ` (delivery to ${providers(handoff.providers_pending)} more is being retried)` : ""}; a provider who can take the job may contact the user to agree on a time and price. Nobody has promised to.`
    case "queued":
      return `${nothingBooked} No provider has received the request yet: delivery to ${providers(handoff.providers_pending)} is queued and retried for up to ${giveUpHours} hours. If none can be reached, nobody will contact the user about it.`
    case "unknown":
      return `${nothingBooked} The request is stored, but whether providers have received it could not be read right now. Do not tell the user it was sent; look again later by repeating the request with the same idempotency key.`
    case "not_sent":
      return handoff.reason === "no_postcode"
        ? `${nothingBooked} Nobody has received this request: the location has no Swedish postcode we could read, so no provider was found. The request is stored but will not be sent. Ask the user for the postcode and create a new request with location.postcode.`
        : handoff.reason === "no_reachable_candidates"
          ? `${nothingBooked} Nobody has received this request: the providers found for this area cannot receive requests through this service right now. The request is stored but will not be forwarded, and nobody will contact the user about it. Suggest the user contacts a local provider directly.`
          : `${nothingBooked} Nobody has received this request: no provider in this service covers this job at this location. The request is stored but will not be sent, and nobody will contact the user about it. Suggest the user contacts a local provider directly.`
  }
}

const outageSteps: OutageSteps = {
  beforeWriting:
    "The request could not be checked or stored because the database does not answer. This attempt stored nothing and sent nothing; if an earlier attempt with the same idempotency key succeeded, that request stands. Retry the same request (same idempotency key) in a moment.",
  notWritten:
    "Nothing was stored or sent by this attempt: the database failed before the request was saved. Retry the same request in a moment.",
  commitUnknown:
    "The outcome is unknown: the database stopped answering while the request was being saved, so it may or may not exist. Do not tell the user it was sent. Retry the same request with the same idempotency key (safe: it returns the stored request if it was saved).",
  replayUnreadable:
    "A request was already stored with this idempotency key, but it cannot be read right now because the database does not answer. Do not create another. Retry the same request in a moment."
}

interface Candidate extends ChannelChoice {
  readonly provider: { readonly id: string; readonly name: string; readonly directBooking: boolean }
}

const handoffPlan = (candidates: ReadonlyArray<Candidate>): HandoffPlan =>
  candidates.length === 0
    ? "no_candidates"
    : candidates.some(({ channel }) => channel !== "none")
      ? "queued"
      : "no_reachable_candidates"

/** The stored decisions about a new request: what the response and every replay tell. */
const storedRequest = (input: {
  readonly id: string
  readonly request: ServiceRequestCreate
  readonly vertical: Vertical
  readonly jobType: JobType
  readonly candidates: ReadonlyArray<Candidate>
  readonly hasPostcode: boolean
  readonly sandbox: boolean
}): StoredRequest => ({
  id: input.id,
  sessionId: randomReference("req"),
  verticalId: input.vertical.vertical_id,
  jobTypeId: input.jobType.job_type_id,
  taxonomyConfidence: taxonomyConfidence(input.jobType),
  customerNextStep: input.request.customer_next_step ?? "contact_me",
  bookingMode: input.jobType.fixed_price_seed?.booking_mode_when_qualified ?? "request_only",
  candidates: input.candidates.map(({ provider, channel }) => ({
    id: provider.id,
    name: provider.name,
    can_receive_request: channel !== "none",
    direct_booking: provider.directBooking
  })),
  handoff: handoffPlan(input.candidates),
  hasPostcode: input.hasPostcode,
  sandbox: input.sandbox
})

/** The row: the stored decisions, the body as sent and the consent record. */
const requestRecord = (
  { hasPostcode: _, ...stored }: StoredRequest,
  request: ServiceRequestCreate,
  partnerId: string,
  now: Date
): NewRequest => ({
  ...stored,
  partnerId,
  body: request,
  consent: {
    user_consent_confirmed: true,
    statement: request.user_consent_statement ?? null,
    collected_at: request.consent_collected_at ?? null,
    source: request.consent_source ?? null,
    recorded_at: now.toISOString()
  },
  createdAt: now
})

/** One outbox row per provider that can receive the request. */
const handoffOutbox = (input: {
  readonly stored: StoredRequest
  readonly request: ServiceRequestCreate
  readonly vertical: Vertical
  readonly jobType: JobType
  readonly candidates: ReadonlyArray<Candidate>
  readonly postcode: number | undefined
}): ReadonlyArray<Notification> => {
  const { request, postcode } = input
  const customerName = customerNameOf(request.customer)
  return input.candidates
    .filter(({ channel }) => channel !== "none")
    .map(({ provider, channel, address }) => {
      const message = requestForProvider({
        requestId: input.stored.sessionId,
        verticalLabelSv: input.vertical.label_sv,
        jobTypeLabelSv: input.jobType.label_sv,
        description: request.description,
        ...(postcode === undefined ? {} : { postcode: String(postcode).replace(/^(\d{3})/, "$1 ") }),
        ...((request.timing.preferred_time_text ?? request.timing.urgency)
          ? { preferredTime: request.timing.preferred_time_text ?? request.timing.urgency ?? "" }
          : {}),
        customerName,
        customerPhone: request.customer.phone,
        customerEmail: request.customer.email
      })
      return {
        id: randomUUID(),
        topic: "request_created",
        subjectId: input.stored.id,
        recipientRole: "provider",
        providerId: provider.id,
        channel,
        address,
        subject: message.subject,
        body: message.body,
        payload: message.payload
      } as const
    })
}

const sandboxNote =
  "Sandbox: this request is a test. No provider received it: the hand-off below was recorded in the sandbox instead of sent, and nobody will contact the user. "

/** Structured provider follow-up requests: stored after consent, handed to providers, never bookings. */
export class Requests extends Context.Service<Requests>()("Booking/Requests", {
  make: Effect.gen(function* () {
    const catalog = yield* Catalog
    const supply = yield* Supply
    const notifier = yield* Notifier
    const idempotency = yield* Idempotency
    const requests = yield* RequestsRepo
    const config = yield* AppConfig

    const respond = (
      stored: StoredRequest,
      states: Option.Option<ReadonlyArray<DeliveryState>>,
      replay: boolean
    ): ServiceRequestResponse => {
      const handoff = handoffOf(stored.handoff, stored.hasPostcode, states)
      return {
        ok: true,
        spec_version: requestsSpecVersion,
        request: {
          id: stored.id,
          session_id: stored.sessionId,
          status: "ready_to_send",
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
          ...(stored.sandbox ? { sandbox: true as const } : {})
        },
        booking_created: false,
        availability_checked: false,
        provider_selected: false,
        idempotent_replay: replay,
        safe_next_step: `${stored.sandbox ? sandboxNote : ""}${nextStepFor(handoff, config.notifyGiveUpHours)}`
      }
    }

    const validate = (request: ServiceRequestCreate, headerKey: string | undefined, now: Date) =>
      Effect.gen(function* () {
        const key = yield* idempotencyKeyOf(request.idempotency_key, headerKey)
        const { vertical, jobType } = yield* catalog.resolve(request.vertical_id, request.job_type_id, {
          vertical: (details) =>
            new InvalidRequest({
              ...details,
              safe_next_step: "Do not submit this job: tell the user it is not supported through this service yet."
            }),
          jobType: (details) =>
            new InvalidRequest({
              ...details,
              safe_next_step: "Pick the closest job_type_id from accepted_job_type_ids and send again."
            })
        })
        if (isEmergency(jobType)) {
          return yield* new EmergencyNotSupported({
            issues: [`job_type_id: ${request.job_type_id} is an emergency; this service takes no emergency requests`],
            safe_next_step: emergencyStep
          })
        }
        const stampIssues = futureStampIssues([["consent_collected_at", request.consent_collected_at]], now)
        if (stampIssues.length > 0) return yield* new InvalidRequest({ issues: stampIssues })
        return { vertical, jobType, key }
      })

    /** Who can take the request, and what each is sent: read before the writing transaction. */
    const plan = (
      request: ServiceRequestCreate,
      vertical: Vertical,
      jobType: JobType,
      partner: Partner["Service"],
      id: string
    ) =>
      Effect.gen(function* () {
        const postcode = postcodeIn(request.location)
        const providers =
          postcode === undefined
            ? []
            : yield* supply
                .candidates({
                  verticalId: vertical.vertical_id,
                  jobTypeId: jobType.job_type_id,
                  postcode,
                  limit: maxCandidates
                })
                .pipe(Effect.catch(persistenceUnavailable("request", outageSteps.beforeWriting)))
        const candidates = providers.map((provider) => ({
          provider,
          ...notifier.channelFor(
            "provider",
            { email: provider.notifyEmail, webhookUrl: provider.notifyWebhookUrl },
            partner.sandbox
          )
        }))
        const stored = storedRequest({
          id,
          request,
          vertical,
          jobType,
          candidates,
          hasPostcode: postcode !== undefined,
          sandbox: partner.sandbox
        })
        const outbox = handoffOutbox({ stored, request, vertical, jobType, candidates, postcode })
        return { stored, outbox }
      })

    const create = Effect.fn("Requests.create")(function* (
      request: ServiceRequestCreate,
      headerKey: string | undefined,
      partner: Partner["Service"],
      now: Date
    ) {
      const { vertical, jobType, key } = yield* validate(request, headerKey, now)
      const id = randomUUID()
      const outcome = yield* idempotency.write({
        scope: "request",
        keyReusedStep: "Use a new idempotency key for a different request.",
        steps: outageSteps,
        partnerId: partner.id,
        key,
        hash: requestHash({ ...request, idempotency_key: key }),
        resourceId: id,
        load: (resourceId) => requests.findById(partner.id, resourceId),
        prepare: plan(request, vertical, jobType, partner, id),
        write: ({ stored, outbox }) =>
          Effect.succeed({
            statements: [
              requests.insertion(requestRecord(stored, request, partner.id, now)),
              ...notifier.outboxInsert(outbox, now)
            ],
            result: undefined
          })
      })
      if (outcome._tag === "Replayed") {
        const states = yield* statesOrUnknown(notifier.statesOf([outcome.stored.id]))
        return { status: 200 as const, body: respond(outcome.stored, states, true) }
      }
      const { stored, outbox } = outcome.prepared
      // The hand-off is tried within the bounded wait; the dispatcher retries what is left.
      const states = yield* statesOrUnknown(notifier.deliverNow(outbox.map((row) => row.id)))
      return { status: 201 as const, body: respond(stored, states, false) }
    })

    return { create } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([Catalog.Default, Supply.Default, Notifier.Default, Idempotency.Default, RequestsRepo.Default])
  )
}
