import { Effect, Layer, Schema } from "effect"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import { BookingStatusPath, BookingsApi } from "../Bookings/Api.js"
import { Bookings } from "../Bookings/Bookings.js"
import { Changes } from "../Bookings/Changes.js"
import { CapabilitiesApi } from "../Capabilities/Api.js"
import { CapabilitiesDocument } from "../Capabilities/Document.js"
import { BookingStatusResponse } from "../Domain/Booking.js"
import { CancelBookingArguments, RescheduleBookingArguments } from "../Domain/BookingChange.js"
import { VerticalId } from "../Domain/Catalog.js"
import { HoldPath } from "../Domain/Hold.js"
import { optional, strictInput, text } from "../Domain/Input.js"
import { Partner } from "../Domain/Partner.js"
import { RequestStatusPath } from "../Domain/Request.js"
import { HoldsApi } from "../Holds/Api.js"
import { Holds } from "../Holds/Holds.js"
import { RateLimiter } from "../Http/RateLimiter.js"
import { Authenticator } from "../Partners/Authentication.js"
import { RequestsApi } from "../Requests/Api.js"
import { Requests } from "../Requests/Requests.js"
import { SearchApi } from "../Search/Api.js"
import { BookingSearch } from "../Search/Search.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar } from "../Shared/Calendar.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { capabilitiesOf, presentOverview, presentVertical } from "./CapabilitiesView.js"
import { optionDetail } from "./OptionDetail.js"
import {
  presentAsIs,
  presentCancel,
  presentConfirmation,
  presentOption,
  presentReschedule,
  presentSearch,
  presentStatus
} from "./Present.js"
import { presentHold, presentRelease } from "./PresentHold.js"
import { defineTool, holding, McpCaller, now, payloadOf, readOnly, releasing, type Tool, write } from "./ToolKit.js"

const encodeStatus = Schema.encodeEffect(BookingStatusResponse)

/**
 * The tools, in the order tools/list gives them: each one entry (its schema, description,
 * annotations, what it runs and how its result reads). The REST operations' Schemas in, the same
 * services behind; the results shaped for a model (Present.ts).
 */
export const bookingTools: Readonly<Record<string, Tool>> = {
  get_capabilities: defineTool({
    title: "What this service books",
    endpoint: CapabilitiesApi.endpoints.capabilities,
    description:
      "What this service books. Without vertical_id: the trades (vertical_id), what is not bookable, the emergency rule. With vertical_id: that trade's job types (job_type_id), how each is booked (search, follow_up_request, emergency) and the details keys a per-unit price needs. Call it first. It never says what is free now. Read-only; no token.",
    input: strictInput(Schema.Struct({ vertical_id: optional(VerticalId) })),
    annotations: readOnly,
    run: ({ vertical_id }) =>
      Effect.gen(function* () {
        const capabilities = yield* capabilitiesOf(yield* CapabilitiesDocument)
        return { capabilities, vertical_id }
      }),
    present: ({ capabilities, vertical_id }) =>
      (vertical_id === undefined ? undefined : presentVertical(capabilities, vertical_id)) ??
      presentOverview(capabilities)
  }),
  search_booking_options: defineTool({
    title: "Search bookable options (no personal data)",
    endpoint: SearchApi.endpoints.search,
    description:
      "Search bookable options for a home-service job in Sweden: vertical_id, job_type_id, description, location (country_code SE, postcode NNN NN), timing in the user's words and, for a per-unit price, the quantity in details. Never personal data (names, phone, e-mail, street address are refused). Each option: booking_option_id (until expires_at), provider, service, slot, one price line, one policy line, terms_version. Only direct_booking_available true proves availability; a search books nothing. Follow safe_next_step. Emergencies get only the 112 advice. Read-only; no token.",
    input: payloadOf(SearchApi.endpoints.search),
    annotations: readOnly,
    run: (request) =>
      Effect.gen(function* () {
        const { request: http } = yield* McpCaller
        const limiter = yield* RateLimiter
        const authenticator = yield* Authenticator
        yield* limiter.byClient("search").pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, http))
        const searcher = yield* authenticator.optionalCaller(http.headers)
        return yield* (yield* BookingSearch).search(request, yield* now, searcher)
      }),
    present: presentSearch
  }),
  get_booking_option: defineTool({
    title: "An option's full terms and scope",
    description:
      "One option's full detail by its booking_option_id: terms sections, scope (included, excluded, what the customer provides, what changes the price), deduction and cancellation policy in Swedish and English. Call it when the user asks what is included or for the terms. Read-only; holds and books nothing; no token.",
    input: strictInput(Schema.Struct({ booking_option_id: text(20, 24000) })),
    annotations: readOnly,
    run: ({ booking_option_id }) => Effect.flatMap(now, (at) => optionDetail(booking_option_id, at)),
    present: presentOption
  }),
  hold_booking_option: defineTool({
    title: "Hold an option's time (books nothing)",
    endpoint: HoldsApi.endpoints.hold,
    description:
      "Hold the picked option's time before asking for personal data: no other partner can take it until expires_at (hold_seconds 60-1800, default 600). idempotency_key: the same on a retry returns the same hold. Books nothing, tells no provider: say so. Then consent, then confirm_booking with the hold_id. Partner token.",
    input: payloadOf(HoldsApi.endpoints.hold),
    alsoRequired: ["idempotency_key"],
    annotations: holding,
    run: (request) =>
      // The service counts the hold against the partner's confirm limit, as REST's does.
      Effect.flatMap(Effect.all([Holds, Partner]), ([holds, partner]) => holds.hold(request, partner)),
    present: presentHold
  }),
  release_hold: defineTool({
    title: "Release a hold (the time is free again)",
    endpoint: HoldsApi.endpoints.release,
    description:
      "Release a hold by hold_id when the user does not want the time: free for others at once. Books and cancels nothing; released false: it had already ended. Partner token.",
    input: HoldPath,
    annotations: releasing,
    run: ({ hold_id }) =>
      Effect.flatMap(Effect.all([Holds, Partner]), ([holds, partner]) => holds.release(hold_id, partner)),
    present: presentRelease
  }),
  confirm_booking: defineTool({
    title: "Book a searched option (after consent)",
    endpoint: BookingsApi.endpoints.confirm,
    description:
      "Book one option only after the user picked it (hold it first: hold_booking_option), accepted its terms and explicitly agreed that their name, phone, e-mail and address go to the provider: no personal data before that consent. Send booking_option_id, customer, service_location, user_consent_confirmed true, booking_terms_accepted true, booking_terms_version (the option's terms_version), booking_terms_accepted_at, the hold_id when you hold it, and an idempotency_key, new per booking and the same on a retry (which returns the same booking). A booking exists only when booking_created, availability_checked and provider_selected are true and booking.status confirmed. tax_deduction_requested true asks the provider for RUT/ROT; never ask for an identity number. option_refresh_required: nothing booked, search again. Partner token.",
    input: payloadOf(BookingsApi.endpoints.confirm),
    alsoRequired: ["idempotency_key"],
    annotations: write,
    run: (request) =>
      Effect.flatMap(Effect.all([RateLimiter, Bookings]), ([limiter, bookings]) =>
        limiter.forPartner("confirm", (partner, now) => bookings.confirm(request, undefined, partner, now))
      ),
    present: presentConfirmation
  }),
  get_booking_status: defineTool({
    title: "Look up a booking",
    endpoint: BookingsApi.endpoints.status,
    description:
      "Look up a booking by its booking.id or request_id. It exists only when found is true, the three flags are true and booking.status is confirmed; found false: no booking under that id for your token. No customer details. Read-only; partner token.",
    input: BookingStatusPath,
    annotations: readOnly,
    run: ({ booking_id }) =>
      Effect.gen(function* () {
        const status = yield* (yield* Bookings).status(booking_id, yield* Partner)
        return yield* Effect.orDie(encodeStatus(status))
      }),
    present: presentStatus
  }),
  cancel_booking: defineTool({
    title: "Cancel a booking (dry_run first)",
    endpoint: BookingsApi.endpoints.cancel,
    description:
      "Cancel a booking by booking.id or request_id. First dry_run true: changes nothing, gives the fee now and the free-cancellation deadline. Tell the user (a fee is what the provider may charge under its terms); call again without dry_run only on their yes. Cancelled only when a result has cancelled true. idempotency_key: the same on a retry. Partner token.",
    input: CancelBookingArguments,
    alsoRequired: ["idempotency_key"],
    annotations: { ...write, destructiveHint: true },
    run: ({ booking_id, ...request }) =>
      Effect.flatMap(Effect.all([RateLimiter, Changes]), ([limiter, changes]) =>
        limiter.forPartner("confirm", (partner, now) => changes.cancel(booking_id, request, undefined, partner, now))
      ),
    present: presentCancel
  }),
  reschedule_booking: defineTool({
    title: "Move a booking (dry_run first)",
    endpoint: BookingsApi.endpoints.reschedule,
    description:
      "Move a booking to another time of the same provider and service; its ids stay. Search again, let the user pick such a time, send booking_id, its booking_option_id, booking_terms_accepted true, booking_terms_version, booking_terms_accepted_at and an idempotency_key (same on a retry). dry_run true first shows new time, price and policy; move only on the user's yes. Moved only when booking.slot_start_at is the new time. Partner token.",
    input: RescheduleBookingArguments,
    alsoRequired: ["idempotency_key"],
    annotations: write,
    run: ({ booking_id, ...request }) =>
      Effect.flatMap(Effect.all([RateLimiter, Changes]), ([limiter, changes]) =>
        limiter.forPartner("confirm", (partner, now) =>
          changes.reschedule(booking_id, request, undefined, partner, now)
        )
      ),
    present: presentReschedule
  }),
  create_follow_up_request: defineTool({
    title: "Hand the job to providers (not a booking)",
    endpoint: RequestsApi.endpoints.create,
    description:
      "Hand the job to providers when no direct booking suits or the user prefers contact. Never a booking: tell the user nothing is booked, and who received it as safe_next_step says. Only after the user's explicit consent send name, phone, e-mail and address, with user_consent_confirmed true. idempotency_key: the same on a retry. Keep request.id for get_follow_up_request. Emergencies are refused (112). Partner token.",
    input: payloadOf(RequestsApi.endpoints.create),
    alsoRequired: ["idempotency_key"],
    annotations: write,
    run: (request) =>
      Effect.flatMap(Effect.all([RateLimiter, Requests]), ([limiter, requests]) =>
        limiter.forPartner("requests", (partner, now) => requests.create(request, undefined, partner, now))
      ),
    present: (body) => presentAsIs(body as unknown as Record<string, unknown>)
  }),
  get_follow_up_request: defineTool({
    title: "Look up a follow-up request",
    endpoint: RequestsApi.endpoints.status,
    description:
      "Look up a follow-up request by request.id: whether providers received it (request.handoff). Never a booking. Read-only; partner token.",
    input: RequestStatusPath,
    annotations: readOnly,
    run: ({ request_id }) =>
      Effect.flatMap(Effect.all([Requests, Partner]), ([requests, partner]) => requests.status(request_id, partner)),
    present: (body) => presentAsIs(body as unknown as Record<string, unknown>)
  })
}

/**
 * The services the tools run on, the app's own shared with REST: the layers every REST group is
 * built with, so confirm, cancel and holds share one instance of each (and one rate limit).
 */
export const ToolServicesLive = Layer.mergeAll(
  Changes.Default,
  Holds.Default,
  Calendar.Default,
  OptionSigner.Default,
  BookingOptions.Default,
  Authenticator.Default,
  CapabilitiesDocument.Default,
  BookingSearch.Default,
  Bookings.Default,
  Requests.Default,
  RateLimiter.Default
)
