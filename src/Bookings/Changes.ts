import { Context, Effect, Layer } from "effect"
import { WebhookOutbox } from "../Delivery/Outbox.js"
import type { CancelBookingRequest } from "../Domain/BookingChange.js"
import type { Partner } from "../Domain/Partner.js"
import { Notifier } from "../Notifications/Notifier.js"
import { BookingOptions } from "../Shared/BookingOptions.js"
import { Calendar } from "../Shared/Calendar.js"
import { HoldsRepo } from "../Shared/HoldsRepo.js"
import { Idempotency } from "../Shared/Idempotency.js"
import { OptionSigner } from "../Shared/OptionSigner.js"
import { Bookings } from "./Bookings.js"
import { BookingsRepo } from "./BookingsRepo.js"
import { makeCancel } from "./Cancel.js"
import { makeChangeKit } from "./ChangeKit.js"
import { makeReschedule } from "./Reschedule.js"

/** Cancels and moves confirmed bookings, exactly once per key, under the policy they were confirmed with. */
export class Changes extends Context.Service<Changes>()("Booking/Changes", {
  make: Effect.gen(function* () {
    const kit = yield* makeChangeKit
    const cancelAs = makeCancel(kit)
    const reschedule = makeReschedule(kit)

    return {
      /** The partner's cancel: by the customer (default) or the partner itself. */
      cancel: (
        ref: string,
        request: CancelBookingRequest,
        headerKey: string | undefined,
        partner: Partner["Service"],
        now: Date
      ) => cancelAs(ref, request, headerKey, partner, request.cancelled_by ?? "customer", now),
      /** Issue 29's provider side calls this with `provider`. */
      cancelAs,
      reschedule
    } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(
    Layer.provide([
      Bookings.Default,
      Calendar.Default,
      BookingsRepo.Default,
      Idempotency.Default,
      Notifier.Default,
      OptionSigner.Default,
      BookingOptions.Default,
      WebhookOutbox.Default,
      HoldsRepo.Default
    ])
  )
}
