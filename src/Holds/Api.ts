import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as OpenApi from "effect/http-api/OpenApi"
import { BookingUnavailable, PriceChanged, ProviderUnavailable, SlotTaken, TermsChanged } from "../Domain/Booking.js"
import { OptionExpired, OptionInvalid } from "../Domain/BookingOption.js"
import { errorBody, IdempotencyKeyReused, RateLimited } from "../Domain/Errors.js"
import {
  HoldNotFound,
  HoldPath,
  HoldReleaseResponse,
  HoldRequest,
  HoldResponse,
  HoldStatusResponse,
  TooManyHolds
} from "../Domain/Hold.js"
import { IdempotencyKeyHeader } from "../Domain/Request.js"
import { madeOrReplayed } from "../Http/Idempotent.js"
import { documented } from "../Http/OperationDocs.js"
import { RateLimitClass } from "../Http/RateLimitClass.js"
import { Authentication } from "../Partners/AuthApi.js"
import { holdReleaseExample, holdRequestExample, holdStatusExample } from "./Examples.js"

/** A hold made by this request (201), or a retry's hold again (200). */
const [HoldMade, HoldReplayed] = madeOrReplayed(HoldResponse)

export class HoldsApi extends HttpApiGroup.make("holds")
  .add(
    HttpApiEndpoint.post("hold", "/api/public/holds", {
      payload: HoldRequest,
      headers: IdempotencyKeyHeader,
      success: [HoldMade, HoldReplayed],
      error: [
        errorBody(OptionExpired),
        errorBody(OptionInvalid),
        errorBody(PriceChanged),
        errorBody(TermsChanged),
        errorBody(ProviderUnavailable),
        errorBody(SlotTaken),
        errorBody(IdempotencyKeyReused),
        errorBody(TooManyHolds),
        errorBody(RateLimited),
        errorBody(BookingUnavailable)
      ]
    })
      .annotateMerge(
        documented("Hold an option's time while the user gives their details and consent (nothing is booked)", {
          example: holdRequestExample,
          description:
            "Holds the time of one option from a search for `hold_seconds` (60 to 1800, default 600) so no other partner can take it while the assistant asks the user for their details and consent. Nothing is booked: confirm (`POST /api/public/bookings`) with the same `booking_option_id` before `expires_at`; while the hold lives the confirm succeeds even after the option's own expiry. The option is checked as at confirm (an expired option is 409 `option_expired` with `option_refresh_required`); a time booked, blocked or held by someone else is 409 `slot_taken`. At most `HOLD_MAX_ACTIVE_PER_PARTNER` (default 20) live holds per partner and one per slot, else 429 `too_many_holds`; holds count against the confirm rate limit. Idempotent per key: a retry answers 200 with the same hold. No personal data is sent or kept with a hold.",
          requestName: "HoldRequest",
          responseName: "HoldResponse"
        })
      )
      .annotate(RateLimitClass, "confirm")
  )
  .add(
    HttpApiEndpoint.get("status", "/api/public/holds/:hold_id", {
      params: HoldPath,
      success: HoldStatusResponse,
      error: [errorBody(HoldNotFound), errorBody(BookingUnavailable)]
    }).annotateMerge(
      documented("Look up a hold: active, expired, released, or confirmed with its booking", {
        example: holdStatusExample,
        description:
          "A hold as it stands on the service's clock: `active` until `expires_at`, then `expired`; `released` after a DELETE; `confirmed` with `booking_id` once booked. Another partner's hold is 404 `hold_not_found`.",
        responseName: "HoldStatusResponse"
      })
    )
  )
  .add(
    HttpApiEndpoint.delete("release", "/api/public/holds/:hold_id", {
      params: HoldPath,
      success: HoldReleaseResponse,
      error: [errorBody(HoldNotFound), errorBody(BookingUnavailable)]
    }).annotateMerge(
      documented("Release a hold: the time is free for others at once", {
        example: holdReleaseExample,
        description:
          "Frees the held time at once (`released: true`). Idempotent: a hold already released, expired or confirmed answers as it stands with `released: false`. Another partner's hold is 404 `hold_not_found`.",
        responseName: "HoldReleaseResponse"
      })
    )
  )
  .middleware(Authentication)
  .annotate(OpenApi.Title, "Holds")
  .annotate(
    OpenApi.Description,
    "Hold a searched time for a few minutes while the user gives their details and consent; nothing is booked until confirm."
  ) {}
