import { Effect, Option } from "effect"
import type { WebhookOutbox } from "../Delivery/Outbox.js"
import { bookingConfirmed } from "../Domain/WebhookEvents.js"
import { isDeliverable } from "../Notifications/DeliveryState.js"
import type { Notifier } from "../Notifications/Notifier.js"
import { type Calendar, calendarOf } from "../Shared/Calendar.js"
import type { HoldsRepo } from "../Shared/HoldsRepo.js"
import { skippedState } from "./Answers.js"
import type { BookingsRepo } from "./BookingsRepo.js"
import { bookingRecord, type Confirmation, confirmationOutbox, freshlyStored } from "./Confirmation.js"
import type { HeldOption } from "./HeldOption.js"

/** Announce, hold the slot, record: the statements a confirm writes with the claim of its key. */
export const confirmWrites =
  (deps: {
    readonly calendar: Calendar["Service"]
    readonly notifier: Notifier["Service"]
    readonly webhookOutbox: WebhookOutbox["Service"]
    readonly bookings: BookingsRepo["Service"]
    readonly holds: HoldsRepo["Service"]
  }) =>
  (confirming: Confirmation, held: HeldOption) =>
    Effect.sync(() => {
      const { calendar, notifier, webhookOutbox, bookings, holds } = deps
      const { ids, request, partner, option, offer, now } = confirming
      const record = bookingRecord(confirming)
      const outbox = confirmationOutbox(confirming, record, {
        customer: notifier.channelFor("customer", { email: request.customer.email }, partner.sandbox),
        provider: notifier.channelFor(
          "provider",
          { email: offer.notifyEmail, webhookUrl: offer.notifyWebhookUrl },
          partner.sandbox
        )
      })
      // One statement: a slot the calendar's exclusion constraint refuses (23P01) rolls the
      // outbox rows, the partner's booking.confirmed and the booking back with it.
      const statements = [
        ...notifier.outboxInsert(outbox, now),
        webhookOutbox.insertion(
          { partnerId: partner.id, sandbox: partner.sandbox },
          bookingConfirmed(record, now),
          now
        ),
        calendar.booking({
          id: ids.bookingId,
          providerId: option.providerId,
          serviceId: option.serviceId,
          slotStart: record.slotStart,
          slotEnd: record.slotEnd,
          calendar: calendarOf(partner),
          at: now,
          ...(held.live && Option.isSome(held.hold) ? { replaces: held.hold.value.id } : {})
        }),
        bookings.insertion(record),
        ...(held.live && Option.isSome(held.hold)
          ? [holds.confirmation({ holdId: held.hold.value.id, partnerId: partner.id }, ids.bookingId, now)]
          : [])
      ]
      return {
        statements,
        result: {
          stored: freshlyStored(record),
          outbox: outbox.filter((row) => isDeliverable(row.channel)).map((row) => row.id),
          skipped: outbox.filter((row) => !isDeliverable(row.channel)).map(skippedState)
        }
      }
    })
