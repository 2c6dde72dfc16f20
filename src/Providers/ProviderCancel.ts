import { createHash, randomUUID } from "node:crypto"
import { Clock, Context, Effect, Layer } from "effect"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { Changes } from "../Bookings/Changes.js"
import { BookingUnavailable } from "../Domain/Booking.js"
import { BookingAlreadyCancelled, BookingNotFound, BookingStarted } from "../Domain/BookingChange.js"
import type { Cancellation } from "../Domain/CancellationPolicy.js"
import { IdempotencyKeyReused } from "../Domain/Errors.js"
import { isUuid } from "../Domain/Ids.js"
import {
  type ProviderCancellation,
  type ProviderCancelRequest,
  type ProviderCancelResponse,
  providerSpecVersion
} from "../Domain/Provider.js"
import { CurrentSurface, restSurface } from "../Domain/Surface.js"
import { failLogged } from "../Shared/FailureSummary.js"
import { idempotencyKeyOf } from "../Shared/Idempotency.js"

/** The partner's reason stays the partner's: the provider reads when, by whom and the fee. */
const forProvider = (cancellation: Cancellation): typeof ProviderCancellation.Type => ({
  cancelled_at: cancellation.cancelled_at,
  cancelled_by: cancellation.cancelled_by,
  fee_sek: cancellation.fee_sek,
  within_free_period: cancellation.within_free_period,
  free_until: cancellation.free_until,
  legal_basis: cancellation.legal_basis,
  withdrawal_until: cancellation.withdrawal_until
})

const notFound = (bookingId: string) =>
  new BookingNotFound({
    safe_next_step: `Nothing was cancelled: you have no booking ${bookingId}. List your bookings (GET /api/provider/bookings) for their ids.`
  })

const unknownOutcome =
  "The database did not answer, so this call cannot confirm that the booking is cancelled; do not tell the customer it is. Look at GET /api/provider/bookings once the service answers: if the booking shows status cancelled, it is; if it still shows confirmed, send the cancel again (with the same idempotency_key if you sent one)."

/**
 * The key a provider's cancel is claimed under. Keys live in the booking partner's space, so a
 * provider's key is hashed with the provider's id there: it never meets a partner's own key, and
 * two providers' keys never meet. Without a key every call is a new attempt (a second one finds
 * the booking cancelled: 409 booking_already_cancelled).
 */
const claimedKey = (providerId: string, key: string | undefined) =>
  `provider:${
    key === undefined ? randomUUID() : createHash("sha256").update(`${providerId}\n${key}`, "utf8").digest("base64url")
  }`

/**
 * A provider cancels a job it cannot do, through the partners' cancel (Changes) with `provider` as
 * who cancelled, so both cancels keep one set of rules: one transaction that cancels the booking, releases its time, queues the customer's
 * notice and the partner's `booking.cancelled` webhook. No fee applies to the customer.
 */
export class ProviderCancellations extends Context.Service<ProviderCancellations>()("Booking/ProviderCancellations", {
  make: Effect.gen(function* () {
    const repo = yield* BookingsRepo
    const changes = yield* Changes

    const cancel = Effect.fn("ProviderCancellations.cancel")(function* (
      providerId: string,
      bookingId: string,
      request: ProviderCancelRequest,
      headerKey: string | undefined
    ) {
      const key = yield* idempotencyKeyOf(request.idempotency_key, headerKey)
      if (!isUuid(bookingId)) return yield* notFound(bookingId)
      // Sandbox bookings never reach a provider: they are not its to cancel.
      const owner = yield* repo.partnerOfJob(providerId, bookingId).pipe(
        Effect.catchTag(
          "SqlError",
          failLogged(
            "provider cancel failed",
            () =>
              new BookingUnavailable({
                safe_next_step:
                  "The database does not answer, so nothing was cancelled. Send the cancel again in a moment."
              })
          )
        )
      )
      if (owner === undefined) return yield* notFound(bookingId)
      const now = new Date(yield* Clock.currentTimeMillis)
      const answer = yield* changes
        .cancelAs(
          bookingId,
          { idempotency_key: claimedKey(providerId, key), reason: request.reason },
          undefined,
          { id: owner, name: "", sandbox: false },
          "provider",
          now
        )
        .pipe(
          Effect.provideService(CurrentSurface, restSurface),
          Effect.catchTags({
            booking_not_found: () => Effect.fail(notFound(bookingId)),
            booking_already_cancelled: (refused) =>
              Effect.fail(
                new BookingAlreadyCancelled({
                  issues: refused.issues,
                  booking_id: refused.booking_id,
                  request_id: refused.request_id,
                  ...(refused.cancellation === undefined ? {} : { cancellation: forProvider(refused.cancellation) }),
                  safe_next_step: `Nothing was changed: this booking was already cancelled${
                    refused.cancellation === undefined
                      ? ""
                      : ` (by ${refused.cancellation.cancelled_by}, at ${refused.cancellation.cancelled_at})`
                  }; its time is free in your calendar. Nothing more to do.`
                })
              ),
            // Never asked for: this cancel sends no expected_version.
            booking_changed: (changed) => Effect.die(changed),
            booking_started: (refused) =>
              Effect.fail(
                new BookingStarted({
                  issues: refused.issues,
                  booking_id: refused.booking_id,
                  request_id: refused.request_id,
                  safe_next_step: `Nothing was cancelled: the booked time has started, so the booking can no longer be cancelled here and it stands. Contact the customer directly (GET /api/provider/bookings has their contact), quoting request_id ${refused.request_id}.`
                })
              ),
            idempotency_key_reused: () =>
              Effect.fail(
                new IdempotencyKeyReused({
                  issues: ["idempotency_key: already holds your cancel of another booking"],
                  safe_next_step:
                    "Nothing was changed: this idempotency_key already holds another cancel of yours. Use a new key for this booking."
                })
              ),
            booking_unavailable: () => Effect.fail(new BookingUnavailable({ safe_next_step: unknownOutcome }))
          })
        )
      if (!answer.cancelled) {
        // cancelAs is never asked for a dry run here; an answer that did not cancel is not told as one.
        return yield* Effect.die(new Error("provider cancel answered without cancelling"))
      }
      const response: ProviderCancelResponse = {
        ok: true,
        spec_version: providerSpecVersion,
        booking_id: answer.booking_id,
        request_id: answer.request_id,
        cancelled: true,
        cancellation: forProvider(answer.cancellation),
        confirmation_delivery: answer.confirmation_delivery,
        idempotent_replay: answer.idempotent_replay,
        safe_next_step: `The booking is cancelled (request_id ${answer.request_id}). The customer is told (confirmation_delivery.customer shows how far that got; it is retried) and pays no cancellation fee; the partner who booked it sees it cancelled by you. Its time is free again, so searches may offer it to other customers: if you cannot work then, block the time (POST /api/provider/blocks).`
      }
      return response
    })

    return { cancel } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide([Changes.Default, BookingsRepo.Default]))
}
