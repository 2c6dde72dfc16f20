import { type CancellationFacts, cancellationWords } from "./CancellationWords.js"
import type { BookingConfirmation, BookingConfirmationInput } from "./Messages.js"
import { englishHeading, lines, slotIn } from "./Messages.js"
import { formatInZone, knownTimeZone } from "./Zone.js"

/** The booking a message about its change names; never the customer's free text. */
export type ChangedBooking = Omit<
  BookingConfirmationInput,
  "providerId" | "price" | "taxDeduction" | "taxDeductionRequested" | "cancellationPolicy"
> & { readonly providerId: string }

export type { CancellationFacts }

const bySv = { customer: "kunden", partner: "bokningstjänsten på kundens uppdrag", provider: "utföraren" } as const
const byEn = {
  customer: "the customer",
  partner: "the booking service on the customer's behalf",
  provider: "the provider"
} as const

/**
 * The customer's and the provider's notice of a cancellation, Swedish with English below. The fee
 * is what the provider "may charge under its terms", never what anyone owes; the reason, free
 * text, is told to no one.
 */
export const bookingCancelled = (booking: ChangedBooking, facts: CancellationFacts): BookingConfirmation => {
  const timeZone = knownTimeZone(booking.timeZone)
  const slot = slotIn(booking.slotStart, booking.slotEnd, timeZone)
  const serviceEn = booking.serviceLabelEn ?? booking.serviceLabelSv
  const byProvider = facts.cancelledBy === "provider"
  const words = cancellationWords(facts, timeZone, true)
  const feeSv = byProvider
    ? `${words.sv} Behöver du fortfarande hjälp kan du boka en ny tid där du bokade den här.`
    : words.sv
  const feeEn = byProvider
    ? `${words.en} If you still need the job done, you can book a new time where you booked this one.`
    : words.en
  const customer = {
    subject: `Din bokning är avbokad: ${booking.serviceLabelSv}, ${slot.shortSv} (Booking cancelled)`,
    body: lines(
      booking.customerName === undefined ? "Hej!" : `Hej ${booking.customerName}!`,
      "",
      `Din bokning hos ${booking.providerName} är avbokad av ${bySv[facts.cancelledBy]}. Ingenting är längre bokat under den.`,
      "",
      `Tjänst: ${booking.serviceLabelSv}`,
      `Tid som var bokad: ${slot.sv}`,
      `Villkor: version ${booking.termsVersion}, ${booking.termsUrl}`,
      `Bokningsreferens: ${booking.requestId}`,
      "",
      feeSv,
      "",
      englishHeading,
      "",
      booking.customerName === undefined ? "Hello," : `Hello ${booking.customerName},`,
      "",
      `Your booking with ${booking.providerName} was cancelled by ${byEn[facts.cancelledBy]}. Nothing is booked under it any more.`,
      "",
      `Service: ${serviceEn}`,
      `Time that was booked: ${slot.en}`,
      `Terms: version ${booking.termsVersion}, ${booking.termsUrl}`,
      `Booking reference: ${booking.requestId}`,
      "",
      feeEn
    )
  }
  const provider = {
    subject: `Avbokad: ${booking.serviceLabelSv}, ${slot.shortSv} (Booking cancelled)`,
    body: lines(
      "Hej!",
      "",
      `En bokning hos er är avbokad av ${bySv[facts.cancelledBy]}. Tiden är frigjord i er kalender.`,
      "",
      `Tjänst: ${booking.serviceLabelSv}`,
      `Tid: ${slot.sv}`,
      `Adress: ${booking.serviceAddress ?? "uppgift saknas"}`,
      `Kund: ${booking.customerName ?? "uppgift saknas"}`,
      `Bokningsreferens: ${booking.requestId}`,
      `Boknings-id: ${booking.bookingId}`,
      byProvider ? "Ni avbokade själva: kunden betalar ingen avbokningsavgift." : words.sv,
      "",
      englishHeading,
      "",
      "Hello,",
      "",
      `A booking with you was cancelled by ${byEn[facts.cancelledBy]}. The time is released in your calendar.`,
      "",
      `Service: ${serviceEn}`,
      `Time: ${slot.en}`,
      `Booking reference: ${booking.requestId}`,
      `Booking id: ${booking.bookingId}`,
      byProvider ? "You cancelled it yourselves: the customer pays no cancellation fee." : words.en
    ),
    // No names, addresses or free text: the webhook says which booking changed and how.
    payload: {
      event: "booking.cancelled",
      booking_id: booking.bookingId,
      request_id: booking.requestId,
      provider_id: booking.providerId,
      slot_start_at: formatInZone(booking.slotStart, timeZone),
      slot_end_at: formatInZone(booking.slotEnd, timeZone),
      time_zone: timeZone,
      cancelled_by: facts.cancelledBy,
      late_fee_sek: facts.feeSek,
      legal_basis: facts.legalBasis,
      withdrawal_until: formatInZone(facts.withdrawalUntil, timeZone),
      terms_version: booking.termsVersion
    }
  }
  return { customer, provider }
}

/** The customer's new confirmation and the provider's notice of a move, with the time it had. */
export const bookingRescheduled = (
  booking: ChangedBooking,
  previous: { readonly slotStart: Date; readonly slotEnd: Date },
  policy: { readonly summary_sv: string; readonly summary_en: string },
  version: number
): BookingConfirmation => {
  const timeZone = knownTimeZone(booking.timeZone)
  const slot = slotIn(booking.slotStart, booking.slotEnd, timeZone)
  const before = slotIn(previous.slotStart, previous.slotEnd, timeZone)
  const serviceEn = booking.serviceLabelEn ?? booking.serviceLabelSv
  const customer = {
    subject: `Din bokning är flyttad: ${booking.serviceLabelSv}, ${slot.shortSv} (Booking moved)`,
    body: lines(
      booking.customerName === undefined ? "Hej!" : `Hej ${booking.customerName}!`,
      "",
      `Din bokning hos ${booking.providerName} är flyttad till en ny tid och bekräftad. Den tidigare tiden gäller inte längre.`,
      "",
      `Utförare: ${booking.providerName}`,
      `Tjänst: ${booking.serviceLabelSv}`,
      `Ny tid: ${slot.sv}`,
      `Tidigare tid: ${before.sv}`,
      `Villkor: version ${booking.termsVersion}, ${booking.termsUrl}`,
      `Avbokning och ändring: ${policy.summary_sv}`,
      `Bokningsreferens: ${booking.requestId}`,
      "",
      englishHeading,
      "",
      booking.customerName === undefined ? "Hello," : `Hello ${booking.customerName},`,
      "",
      `Your booking with ${booking.providerName} has been moved to a new time and is confirmed. The earlier time no longer applies.`,
      "",
      `Provider: ${booking.providerName}`,
      `Service: ${serviceEn}`,
      `New time: ${slot.en}`,
      `Earlier time: ${before.en}`,
      `Terms: version ${booking.termsVersion}, ${booking.termsUrl}`,
      `Cancelling and changing: ${policy.summary_en}`,
      `Booking reference: ${booking.requestId}`
    )
  }
  const provider = {
    subject: `Flyttad bokning: ${booking.serviceLabelSv}, ${slot.shortSv} (Booking moved)`,
    body: lines(
      "Hej!",
      "",
      "En bokning hos er är flyttad. Den nya tiden är reserverad i er kalender och den tidigare är frigjord.",
      "",
      `Tjänst: ${booking.serviceLabelSv}`,
      `Ny tid: ${slot.sv}`,
      `Tidigare tid: ${before.sv}`,
      `Adress: ${booking.serviceAddress ?? "uppgift saknas"}`,
      `Kund: ${booking.customerName ?? "uppgift saknas"}`,
      `Villkor: version ${booking.termsVersion}, ${booking.termsUrl}`,
      `Bokningsreferens: ${booking.requestId}`,
      `Boknings-id: ${booking.bookingId}`,
      "",
      englishHeading,
      "",
      "Hello,",
      "",
      "A booking with you has been moved. The new time is reserved in your calendar and the earlier one released.",
      "",
      `Service: ${serviceEn}`,
      `New time: ${slot.en}`,
      `Earlier time: ${before.en}`,
      `Terms: version ${booking.termsVersion}, ${booking.termsUrl}`,
      `Booking reference: ${booking.requestId}`,
      `Booking id: ${booking.bookingId}`
    ),
    payload: {
      event: "booking.rescheduled",
      booking_id: booking.bookingId,
      request_id: booking.requestId,
      provider_id: booking.providerId,
      version,
      slot_start_at: formatInZone(booking.slotStart, timeZone),
      slot_end_at: formatInZone(booking.slotEnd, timeZone),
      previous_slot_start_at: formatInZone(previous.slotStart, timeZone),
      previous_slot_end_at: formatInZone(previous.slotEnd, timeZone),
      time_zone: timeZone,
      terms_version: booking.termsVersion
    }
  }
  return { customer, provider }
}
