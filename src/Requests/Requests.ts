import { randomUUID } from "node:crypto"
import { Context, Effect, Layer, Option } from "effect"
import { AppConfig } from "../AppConfig.js"
import { NotifierLive } from "../Bookings/NotifierLive.js"
import { Catalog } from "../Catalog/Catalog.js"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import { customerIdentity, customerNameOf } from "../Domain/Booking.js"
import type { JobType, Vertical } from "../Domain/Catalog.js"
import { type ExistingRequest, IdempotencyKeyReused, InvalidRequest } from "../Domain/Errors.js"
import { sameText } from "../Domain/Input.js"
import { requestForProvider } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import type { CreatedRequest, ServiceRequestCreate, ServiceRequestResponse } from "../Domain/Request.js"
import type { HandoffPlan, NewRequest, StoredRequest } from "../Domain/RequestRecord.js"
import { EmergencyNotSupported, emergencyStep, isEmergency } from "../Domain/Safety.js"
import { sandboxPrefix } from "../Domain/Sandbox.js"
import { futureStampIssues } from "../Domain/Stamps.js"
import { CurrentSurface, type Surface } from "../Domain/Surface.js"
import { requestCreated } from "../Domain/WebhookEvents.js"
import { type ChannelChoice, type DeliveryState, statesOrUnknown } from "../Notifications/DeliveryState.js"
import { Notifier } from "../Notifications/Notifier.js"
import {
  fingerprintHash,
  Idempotency,
  idempotencyKeyOf,
  type OutageSteps,
  persistenceUnavailable,
  requestHash
} from "../Shared/Idempotency.js"
import { ListCursor } from "../Shared/ListCursor.js"
import { randomReference } from "../Shared/References.js"
import { Supply } from "../Supply/Supply.js"
import { answerWithStates, handoffOf, requestAnswer, requestNotFound, subjectsOf } from "./Answers.js"
import { requestList } from "./List.js"
import { RequestsRepo } from "./RequestsRepo.js"

/** At most this many providers receive one request. */
const maxCandidates = 10

/** A Swedish postcode anywhere in the location: the postcode field first, then the free text. */
const postcodeIn = (location: ServiceRequestCreate["location"]): number | undefined => {
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

const textOrNull = (text: string | undefined) => (text === undefined ? null : sameText(text))

/** What makes two creations the same request: what is asked, for whom, where and when; not consent stamps or source. */
const requestFingerprint = (request: ServiceRequestCreate) =>
  fingerprintHash({
    vertical_id: request.vertical_id,
    job_type_id: request.job_type_id,
    description: sameText(request.description),
    customer: customerIdentity(request.customer),
    location: {
      input: textOrNull(request.location.input),
      address: textOrNull(request.location.address),
      postcode: textOrNull(request.location.postcode)
    },
    timing: {
      preferred_time_text: textOrNull(request.timing.preferred_time_text),
      urgency: textOrNull(request.timing.urgency)
    },
    timezone: request.timezone,
    budget_sek: request.budget_sek ?? null,
    details: request.details ?? null,
    customer_next_step: request.customer_next_step ?? "contact_me"
  })

const existingRequest = (stored: StoredRequest): ExistingRequest => ({
  id: stored.id,
  session_id: stored.sessionId,
  status: stored.status,
  vertical_id: stored.verticalId,
  job_type_id: stored.jobTypeId
})

/** The key holds another follow-up request: name it, and never send the caller to create one again for it. */
const keyHolds = (surface: Surface) => (stored: StoredRequest) =>
  new IdempotencyKeyReused({
    issues: ["idempotency_key: already holds a follow-up request made with other details"],
    request_id: stored.id,
    existing_request: existingRequest(stored),
    safe_next_step: `${stored.sandbox ? sandboxPrefix : ""}This idempotency key already holds a follow-up request (request.id ${stored.id}, ${stored.verticalId} / ${stored.jobTypeId}); this call created and sent nothing new. Look it up with ${surface.requestStatus(stored.id)} and tell the user about it: it is not a booking. Only if the user wants a second, separate request, send it with a new idempotency key.`
  })

const statusUnreadable =
  "The request cannot be read right now because the database does not answer. This says nothing about whether it exists or was sent: do not tell the user either, and do not create another. Retry this lookup in a moment."

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
  sandbox: input.sandbox,
  status: "ready_to_send",
  withdrawnAt: null,
  withdrawReason: null,
  withdrawalId: null
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
  // A sandbox candidate gets its row too, written skipped: the message is kept in the sandbox.
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

/** Structured provider follow-up requests: stored after consent, handed to providers, never bookings. */
export class Requests extends Context.Service<Requests>()("Booking/Requests", {
  make: Effect.gen(function* () {
    const catalog = yield* Catalog
    const supply = yield* Supply
    const notifier = yield* Notifier
    const idempotency = yield* Idempotency
    const requests = yield* RequestsRepo
    const config = yield* AppConfig
    const webhookOutbox = yield* WebhookOutbox
    const cursors = yield* ListCursor

    const respond = (
      stored: StoredRequest,
      states: Option.Option<ReadonlyArray<DeliveryState>>,
      replay: boolean,
      surface: Surface
    ): ServiceRequestResponse => {
      const { safe_next_step, ...answer } = requestAnswer(stored, states, surface, config.notifyGiveUpHours)
      return { ...answer, idempotent_replay: replay, safe_next_step }
    }

    const validate = (request: ServiceRequestCreate, headerKey: string | undefined, now: Date, surface: Surface) =>
      Effect.gen(function* () {
        const key = yield* idempotencyKeyOf(request.idempotency_key, headerKey)
        const again = `send the request again (${surface.createRequest})`
        const { vertical, jobType } = yield* catalog.resolve(request.vertical_id, request.job_type_id, again, {
          vertical: (details) => new InvalidRequest(details),
          jobType: (details) => new InvalidRequest(details)
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
      const surface = yield* CurrentSurface
      const { vertical, jobType, key } = yield* validate(request, headerKey, now, surface)
      const id = randomUUID()
      const outcome = yield* idempotency.write({
        scope: "request",
        keyReused: keyHolds(surface),
        steps: outageSteps,
        partnerId: partner.id,
        key,
        hash: requestFingerprint(request),
        // Keys stored before the fingerprint held the hash of the whole body.
        sameAsStored: (stored) => stored === requestHash({ ...request, idempotency_key: key }),
        resourceId: id,
        load: (resourceId) => requests.findById(partner.id, resourceId),
        prepare: plan(request, vertical, jobType, partner, id),
        write: ({ stored, outbox }) =>
          Effect.succeed({
            statements: [
              requests.insertion(requestRecord(stored, request, partner.id, now)),
              ...notifier.outboxInsert(outbox, now),
              webhookOutbox.insertion(
                { partnerId: partner.id, sandbox: partner.sandbox },
                requestCreated(
                  stored,
                  handoffOf(
                    stored.handoff,
                    stored.hasPostcode,
                    Option.some(outbox.map(() => ({ status: "pending" as const }))),
                    stored.sandbox
                  ),
                  now
                ),
                now
              )
            ],
            result: undefined
          })
      })
      if (outcome._tag === "Replayed") {
        const states = yield* statesOrUnknown(notifier.statesOf([outcome.stored.id]))
        return respond(outcome.stored, states, true, surface)
      }
      const { stored, outbox } = outcome.prepared
      // The hand-off is tried within the bounded wait; the dispatcher retries what is left.
      const states = yield* statesOrUnknown(notifier.deliverNow(outbox.map((row) => row.id)))
      return respond(stored, states, false, surface)
    })

    /** A request of this partner by its `request.id` or `session_id`, redacted; another's is not found. */
    const status = Effect.fn("Requests.status")(function* (requestId: string, partner: Partner["Service"]) {
      const surface = yield* CurrentSurface
      const found = yield* requests
        .find(partner.id, requestId)
        .pipe(Effect.catch(persistenceUnavailable("request", statusUnreadable)))
      if (Option.isNone(found)) return yield* requestNotFound(partner, requestId)
      const states = yield* statesOrUnknown(notifier.statesOf(subjectsOf(found.value)))
      return answerWithStates(found.value, states, surface, config.notifyGiveUpHours)
    })

    const list = requestList(
      requests,
      cursors,
      (ids) => statesOrUnknown(notifier.statesOf(ids)),
      config.notifyGiveUpHours
    )

    return { create, status, list } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([
      Catalog.Default,
      Supply.Default,
      NotifierLive,
      Idempotency.Default,
      RequestsRepo.Default,
      WebhookOutbox.Default,
      ListCursor.Default
    ])
  )
}
