import { Schema } from "effect"
import { bookingsSpecVersion } from "./Capabilities.js"
import { ContractError } from "./Errors.js"
import { optional, strictInput, text } from "./Input.js"

/** The bounds of `hold_seconds`: long enough to ask for consent, short enough not to hoard. */
export const holdSecondsBounds = { minimum: 60, maximum: 1800 } as const

export const HoldRequest = strictInput(
  Schema.Struct({
    booking_option_id: text(20, 24000),
    /** Required unless the Idempotency-Key header carries it (the service checks one is present). */
    idempotency_key: optional(text(1, 200)),
    hold_seconds: optional(
      Schema.Int.check(Schema.isBetween(holdSecondsBounds)).annotate({
        message: `must be a whole number of seconds from ${holdSecondsBounds.minimum} to ${holdSecondsBounds.maximum}`
      })
    )
  })
).annotate({ identifier: "HoldRequest" })
export type HoldRequest = typeof HoldRequest.Type

/** Expired is read against the service's clock, never stored. */
export const HoldStatus = Schema.Literals(["active", "expired", "released", "confirmed"])
export type HoldStatus = typeof HoldStatus.Type

export const Hold = Schema.Struct({
  hold_id: Schema.String,
  status: HoldStatus,
  booking_option_id: Schema.String,
  expires_at: Schema.String,
  slot: Schema.Struct({ start_at: Schema.String, end_at: Schema.String, label: Schema.String }),
  provider_id: Schema.String,
  service_id: Schema.String,
  price_sek: Schema.Int,
  /** The booking the hold became, once confirmed. */
  booking_id: optional(Schema.String)
}).annotate({ identifier: "Hold" })
export type Hold = typeof Hold.Type

export const HoldResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  hold: Hold,
  booking_created: Schema.Literal(false),
  availability_checked: Schema.Literal(true),
  provider_selected: Schema.Literal(false),
  idempotent_replay: Schema.Boolean,
  safe_next_step: Schema.String
}).annotate({ identifier: "HoldResponse" })
export type HoldResponse = typeof HoldResponse.Type

export const HoldStatusResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  hold: Hold,
  safe_next_step: Schema.String
}).annotate({ identifier: "HoldStatusResponse" })
export type HoldStatusResponse = typeof HoldStatusResponse.Type

export const HoldReleaseResponse = Schema.Struct({
  ok: Schema.Literal(true),
  spec_version: Schema.Literal(bookingsSpecVersion),
  hold: Hold,
  /** This call freed the time; false when the hold had already ended (released, expired or confirmed). */
  released: Schema.Boolean,
  safe_next_step: Schema.String
}).annotate({ identifier: "HoldReleaseResponse" })
export type HoldReleaseResponse = typeof HoldReleaseResponse.Type

export const HoldPath = Schema.Struct({ hold_id: Schema.String.check(Schema.isMinLength(1)) })

export class HoldNotFound extends ContractError<HoldNotFound>()(
  "hold_not_found",
  404,
  "No hold with this id exists for your token",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "Check the hold_id the hold answer returned and that the same partner token is used; another partner's hold cannot be seen or used."
  }
) {}

export class TooManyHolds extends ContractError<TooManyHolds>()(
  "too_many_holds",
  429,
  "The partner holds as many times as it may at once, or already holds this slot; the issues name the limit",
  {
    carries: ["issues"],
    retrySafe: false,
    recovery:
      "Confirm or release a hold first (DELETE /api/public/holds/{hold_id}), or wait for one to run out; for a slot already held, use the hold the issues name."
  }
) {}
