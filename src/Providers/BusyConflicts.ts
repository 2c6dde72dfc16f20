import { createHash } from "node:crypto"
import { Effect } from "effect"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { englishHeading, lines, slotIn } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import { formatInZone, providerTimeZone } from "../Domain/Zone.js"
import { Notifier } from "../Notifications/Notifier.js"
import { logFailureWarning } from "../Shared/FailureSummary.js"
import type { ConflictedBooking } from "./CalendarRows.js"

/** One notice per booking, however many fetches find it: its outbox id follows from the booking's. */
const noticeIdOf = (bookingId: string) => {
  const hex = createHash("sha256").update(`busy_time_conflict:${bookingId}`, "utf8").digest("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** The provider's notice: the booking stands, and only the provider can settle it. No customer data. */
const notice = (booking: ConflictedBooking, providerId: string) => {
  const slot = slotIn(booking.slotStart, booking.slotEnd, providerTimeZone)
  return {
    subject: `Krock i er kalender: ${booking.serviceLabelSv}, ${slot.shortSv} (Calendar conflict)`,
    body: lines(
      "Hej!",
      "",
      "Er egen kalender, som vi läser in, har en upptagen tid som krockar med en bekräftad bokning hos er. Bokningen gäller fortfarande.",
      "",
      `Tjänst: ${booking.serviceLabelSv}`,
      `Tid: ${slot.sv}`,
      `Bokningsreferens: ${booking.requestId}`,
      `Boknings-id: ${booking.id}`,
      "",
      "Kan ni inte utföra jobbet då: avboka det (POST /api/provider/bookings/{booking_id}/cancel), så får kunden veta det och betalar ingen avgift. Annars: flytta den krockande händelsen i er kalender.",
      "",
      englishHeading,
      "",
      "Hello,",
      "",
      "Your own calendar, which we import, has busy time that overlaps a confirmed booking with you. The booking still stands.",
      "",
      `Time: ${slot.en}`,
      `Booking reference: ${booking.requestId}`,
      `Booking id: ${booking.id}`,
      "",
      "If you cannot do the job then, cancel it (POST /api/provider/bookings/{booking_id}/cancel): the customer is told and pays no fee. Otherwise move the clashing event in your calendar."
    ),
    payload: {
      event: "booking.busy_time_conflict",
      booking_id: booking.id,
      request_id: booking.requestId,
      provider_id: providerId,
      slot_start_at: formatInZone(booking.slotStart, providerTimeZone),
      slot_end_at: formatInZone(booking.slotEnd, providerTimeZone),
      time_zone: providerTimeZone
    }
  }
}

/**
 * The provider's confirmed, live bookings that a busy time imported from its own calendar
 * overlaps: each stays booked, is flagged in the provider's list, and its provider is told once.
 */
export const makeBusyConflicts = Effect.gen(function* () {
  const repo = yield* BookingsRepo
  const notifier = yield* Notifier

  const conflictsOf = repo.busyConflicts

  /** How many of the provider's coming bookings an imported busy time overlaps now (a request's read). */
  const countOf = (providerId: string, at: Date) => Effect.map(conflictsOf(providerId, at), (rows) => rows.length)

  /**
   * Run after the busy times are stored (committed), so a booking confirmed before that is seen;
   * one whose confirm was still committing then is found by the next fetch.
   */
  const notify = (providerId: string, at: Date) =>
    Effect.gen(function* () {
      const conflicts = yield* conflictsOf(providerId, at)
      if (conflicts.length === 0) return
      const notifications: Array<Notification> = conflicts.map((booking) => ({
        id: noticeIdOf(booking.id),
        topic: "busy_time_conflict",
        subjectId: booking.id,
        recipientRole: "provider",
        providerId,
        ...notifier.channelFor("provider", { email: booking.notifyEmail, webhookUrl: booking.notifyWebhookUrl }),
        ...notice(booking, providerId)
      }))
      yield* notifier.enqueue(notifications, at)
      yield* notifier.deliverNow(notifications.map((n) => n.id)).pipe(Effect.ignore)
      yield* Effect.logInfo("imported busy time overlaps bookings").pipe(
        Effect.annotateLogs({ provider_id: providerId, bookings: conflicts.length })
      )
    }).pipe(
      // The busy times are stored by now; the next fetch tries the notices again.
      Effect.catchCause((cause) => logFailureWarning("busy-time conflicts could not be notified", cause))
    )

  return { notify, countOf } as const
})
