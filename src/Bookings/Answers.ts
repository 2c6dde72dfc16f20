import { Option } from "effect"
import type { ConfirmedBooking, Delivery } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import { bookedPrice, policyOfBooking, priceFactsOf, type StoredBooking } from "../Domain/BookingRecord.js"
import { policyTerms } from "../Domain/CancellationPolicy.js"
import { bookingsSpecVersion } from "../Domain/Capabilities.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import type { Notification } from "../Domain/Outbox.js"
import { priceWording } from "../Domain/Pricing.js"
import { sandboxBookingNote, sandboxDelivery } from "../Domain/Sandbox.js"
import type { OptionPrice } from "../Domain/Search.js"
import type { CurrentOffer } from "../Domain/Supply.js"
import { taxDeduction } from "../Domain/TaxDeduction.js"
import { deductionAnswer, type TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { formatInZone, formatStamp } from "../Domain/Zone.js"
import type { DeliveryState } from "../Notifications/DeliveryState.js"

/** What confirm, status and the changes say of a stored booking: its facts, deliveries, price and deduction words. */

/** Delivery states could not be read: say so rather than guess. */
export const unknownDelivery: Delivery = { status: "unknown", channel: "unknown" }

/** A message of a channel-less row: skipped at once, never tried. */
export const skipped: Delivery = { status: "skipped", channel: "none", attempts: 0, will_retry: false }

/** A dry run's messages: nothing was done, so nobody was told. */
export const skippedInDryRun: Delivery = { ...skipped, reason: "dry_run" }

/** A sandbox row is reported skipped whatever status it holds: no sandbox message is ever sent. */
export const delivery = (state: DeliveryState | undefined): Delivery =>
  state === undefined
    ? skipped
    : state.channel === "sandbox"
      ? sandboxDelivery
      : {
          status: state.status === "pending" && state.attempts > 0 ? "failed" : state.status,
          channel: state.channel,
          attempts: state.attempts,
          will_retry: state.status === "pending",
          ...(state.status === "pending" && state.nextAttemptAt
            ? { next_attempt_at: formatStamp(state.nextAttemptAt) }
            : {})
        }

/** Both sides' deliveries, or "unknown" for both when the states could not be read. */
export const deliveries = (read: Option.Option<ReadonlyArray<DeliveryState>>) =>
  Option.match(read, {
    onNone: () => ({ customer: unknownDelivery, provider: unknownDelivery }),
    onSome: (states) => ({
      customer: delivery(states.find((s) => s.recipientRole === "customer")),
      provider: delivery(states.find((s) => s.recipientRole === "provider"))
    })
  })

/** A row written skipped (no channel, or the sandbox): never tried, and never changed after. */
export const skippedState = (row: Notification): DeliveryState => ({
  id: row.id,
  recipientRole: row.recipientRole,
  channel: row.channel,
  status: "skipped",
  attempts: 0,
  nextAttemptAt: null,
  lastError: null,
  sentAt: null
})

/** Pending-and-never-tried and unknown are not outcomes, so the optional status is left out. */
export const reported = (d: Delivery) => (d.status === "pending" || d.status === "unknown" ? undefined : d.status)

export const priceOf = (stored: StoredBooking) => priceWording(priceFactsOf(stored))

export const priceFactsOfOption = (option: SignedOption) => ({
  amountSek: option.amountSek,
  pricingModel: option.pricingModel,
  priceType: option.priceType,
  unitPriceSek: option.unitPriceSek,
  quantity: option.quantity
})

/** The deduction an option's price allows under the offer's declaration, under the rule of the slot's date. */
export const deductionOfOption = (option: SignedOption, offer: CurrentOffer): TaxDeductionAnswer =>
  deductionAnswer(taxDeduction(priceFactsOfOption(option), offer.taxDeduction ?? undefined, option.slotStart))

/** An option's price as a search states it, with its deduction. */
export const optionPrice = (option: SignedOption, deduction: TaxDeductionAnswer): OptionPrice => ({
  amount_sek: option.amountSek,
  currency: "SEK",
  pricing_model: option.pricingModel,
  price_type: option.priceType,
  ...(option.unitPriceSek === undefined ? {} : { unit_price_sek: option.unitPriceSek }),
  ...(option.unit === undefined ? {} : { unit: option.unit }),
  ...(option.quantity === undefined ? {} : { quantity: option.quantity }),
  tax_deduction: deduction
})

/** What the confirmation stated; a booking from before deductions were stated says it was not declared. */
export const deductionOf = (stored: StoredBooking): TaxDeductionAnswer =>
  stored.taxDeduction ?? deductionAnswer(taxDeduction(priceFactsOf(stored), undefined, stored.slotStart))

/** The booking's deduction as an assistant may say it: both figures and the condition, never a promise. */
export const deductionStep = (stored: StoredBooking) => {
  const d = deductionOf(stored)
  if (d.kind === "none")
    return ` The price has no RUT or ROT deduction stated (tax_deduction.reason ${d.reason}): promise none.`
  const name = d.kind.toUpperCase()
  const asked = stored.taxDeductionRequested
    ? `The user asked for it: the provider will collect the identity details it needs; do not ask for them.`
    : `The user did not ask for it in the booking; if they want it, they tell the provider, who collects the identity details it needs.`
  return ` price_sek is the price before any deduction. Say the ${name} deduction as tax_deduction.conditions_en words it ("X SEK, or Y SEK after ${name} if you are eligible and have room under this year's cap; the provider deducts it on the invoice"), never the lower figure alone or as certain. ${asked}`
}

/** What an assistant may say when the database does not answer, by what is known. */
export const outageSteps = {
  beforeWriting:
    "The booking could not be checked or made because the database does not answer. This attempt booked nothing; if an earlier attempt with the same idempotency_key succeeded, that booking stands. Do not tell the user anything is booked. Retry the same request (same idempotency_key) in a moment: it is safe and returns the booking if one exists.",
  notWritten:
    "Nothing was booked by this attempt: the database failed before the booking was saved. Retry the same request (same idempotency_key) in a moment.",
  replayUnreadable:
    "A booking was already made with this idempotency_key, but it cannot be read right now because the database does not answer. Do not book again. Retry the same request in a moment to get the booking.",
  statusUnreadable:
    "The booking's status cannot be read right now because the database does not answer. This says nothing about whether the booking exists: do not tell the user it is booked or that it is not, and do not book again. Retry this lookup in a moment."
} as const

type PolicyFacts = Parameters<typeof policyOfBooking>[0] & { readonly slotStart: Date; readonly confirmedAt: Date }

/** A booking's policy as it stands at `now`, its withdrawal period running from its confirmation. */
export const bookingPolicy = (booking: PolicyFacts, timeZone: string, now: Date) =>
  policyTerms(
    policyOfBooking(booking),
    booking.slotStart.getTime(),
    timeZone,
    now.getTime(),
    booking.confirmedAt.getTime()
  )

/** Who does the booked job and when, as every answer naming a booking says it. */
export const bookedSlot = (stored: StoredBooking) => ({
  provider_id: stored.providerId,
  provider_name: stored.providerName,
  service_id: stored.serviceId,
  slot_start_at: formatInZone(stored.slotStart, stored.timeZone),
  slot_end_at: formatInZone(stored.slotEnd, stored.timeZone),
  slot_label: stored.slotLabel
})

export const present = (stored: StoredBooking, read: Option.Option<ReadonlyArray<DeliveryState>>, now: Date) => {
  const { customer, provider } = deliveries(read)
  const customerStatus = reported(customer)
  const providerStatus = reported(provider)
  const booking: ConfirmedBooking = {
    id: stored.id,
    status: "confirmed",
    ...bookedSlot(stored),
    ...bookedPrice(stored),
    confirmed_at: formatInZone(stored.confirmedAt, stored.timeZone),
    terms_version: stored.termsVersion,
    version: stored.version,
    ...(customerStatus ? { customer_confirmation_status: customerStatus } : {}),
    ...(providerStatus ? { provider_confirmation_status: providerStatus } : {}),
    ...(stored.sandbox ? { sandbox: true as const } : {})
  }
  return {
    booking,
    confirmation_delivery: { customer, provider },
    tax_deduction: deductionOf(stored),
    tax_deduction_requested: stored.taxDeductionRequested,
    cancellation_policy: bookingPolicy(stored, stored.timeZone, now),
    early_start: earlyStartOf(stored)
  }
}

/** What confirm, the status lookup and a move all say of a booking that stands. */
export const confirmedFacts = (
  stored: StoredBooking,
  read: Option.Option<ReadonlyArray<DeliveryState>>,
  now: Date
) => ({
  ok: true as const,
  spec_version: bookingsSpecVersion,
  request_id: stored.requestId,
  ...present(stored, read, now),
  provider_selected: true as const,
  availability_checked: true as const,
  booking_created: true as const
})

/** The withdrawal right as an assistant may say it of this booking: the period, and what the early-start record means. */
export const withdrawalStep = (stored: StoredBooking) => {
  const early = earlyStartOf(stored)
  return ` Withdrawal: ${early.summary_en} The user withdraws by cancelling here before the start, or by telling the provider (the standard withdrawal form is linked in the terms).`
}

export const confirmedStep = (stored: StoredBooking) =>
  `${stored.sandbox ? sandboxBookingNote : ""}The booking is confirmed: ${stored.providerName}, ${stored.slotLabel}, ${priceOf(stored).en} (terms ${stored.termsVersion}). Tell the user exactly this.${deductionStep(stored)}${withdrawalStep(stored)} Confirmation messages are reported separately and do not change the booking.`
