import { randomUUID } from "node:crypto"
import { type BookingConfirmationRequest, customerNameOf } from "../Domain/Booking.js"
import type { SignedOption } from "../Domain/BookingOption.js"
import { type NewBooking, policyOfBooking, priceFactsOf, type StoredBooking } from "../Domain/BookingRecord.js"
import { noStatedPolicy, policyTerms } from "../Domain/CancellationPolicy.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import { BookingId } from "../Domain/Ids.js"
import { slotLabel } from "../Domain/Labels.js"
import { bookingConfirmation } from "../Domain/Messages.js"
import type { Notification } from "../Domain/Outbox.js"
import type { Partner } from "../Domain/Partner.js"
import type { CurrentOffer } from "../Domain/Supply.js"
import type { TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { knownTimeZone } from "../Domain/Zone.js"
import type { ChannelChoice } from "../Notifications/DeliveryState.js"
import { randomReference } from "../Shared/References.js"

/** The booking's id, stored with the idempotency key, and the reference the customer is given. */
export interface BookingIds {
  readonly bookingId: BookingId
  readonly requestId: string
}

export const newBookingIds = (): BookingIds => ({
  bookingId: BookingId.make(randomUUID()),
  requestId: randomReference("bkg")
})

/** The price and terms a booking holds, as the option it was booked (or moved) with states them. */
export const pricedAs = (option: SignedOption) => ({
  priceSek: option.amountSek,
  pricingModel: option.pricingModel,
  priceType: option.priceType,
  unitPriceSek: option.unitPriceSek ?? null,
  unit: option.unit ?? null,
  quantity: option.quantity ?? null,
  termsVersion: option.termsVersion
})

/** Everything a confirmed booking is made of, once the offer is revalidated. */
export interface Confirmation {
  readonly ids: BookingIds
  readonly request: BookingConfirmationRequest
  readonly partner: Partner["Service"]
  readonly option: SignedOption
  readonly offer: CurrentOffer
  /** The deduction the option's price allows, under the offer's declaration as it is now. */
  readonly deduction: TaxDeductionAnswer
  readonly now: Date
}

/** The `bookings` row: the offer as confirmed, the customer's details and the consent record. */
export const bookingRecord = ({ ids, request, partner, option, offer, deduction, now }: Confirmation): NewBooking => {
  const timeZone = knownTimeZone(option.timeZone)
  return {
    id: ids.bookingId,
    requestId: ids.requestId,
    partnerId: partner.id,
    providerId: option.providerId,
    providerName: offer.providerName,
    serviceId: option.serviceId,
    verticalId: option.verticalId,
    jobTypeId: option.jobTypeId,
    serviceLabelSv: offer.labelSv ?? option.serviceId,
    slotStart: new Date(option.slotStart),
    slotEnd: new Date(option.slotEnd),
    slotLabel: slotLabel({ start: option.slotStart, end: option.slotEnd }, timeZone),
    timeZone,
    ...pricedAs(option),
    termsUrl: offer.termsUrl ?? "",
    scope: offer.scope ?? {},
    customer: request.customer,
    serviceLocation: request.service_location,
    destinationLocation: request.destination_location ?? null,
    consent: {
      user_consent_confirmed: true,
      statement: request.user_consent_statement ?? null,
      collected_at: request.consent_collected_at ?? null,
      source: request.consent_source ?? null,
      booking_terms_accepted: true,
      booking_terms_version: request.booking_terms_version,
      booking_terms_accepted_at: request.booking_terms_accepted_at,
      recorded_at: now.toISOString()
    },
    source: request.source,
    externalReference: request.external_reference ?? null,
    confirmedAt: now,
    sandbox: partner.sandbox,
    taxDeduction: deduction,
    taxDeductionRequested: request.tax_deduction_requested === true,
    earlyStartRequested: request.early_start_requested ?? null,
    earlyStartStatement: request.early_start_statement ?? null,
    ...(offer.cancellationPolicy ?? noStatedPolicy)
  }
}

/** A booking just written, as it reads back: confirmed, version 1, its messages its own. */
export const freshlyStored = (record: NewBooking): StoredBooking => ({
  ...record,
  status: "confirmed",
  version: 1,
  noticeSubjectId: record.id,
  cancelledAt: null,
  cancelledBy: null,
  cancelReason: null,
  cancelFeeSek: null,
  cancelWithinFreePeriod: null,
  cancelFreeUntil: null,
  cancelLegalBasis: null
})

/** The customer's and the provider's confirmation of a booking record, each on the channel chosen for it. */
export const confirmationOutbox = (
  { request, offer, now }: Confirmation,
  record: NewBooking,
  channels: { readonly customer: ChannelChoice; readonly provider: ChannelChoice }
): ReadonlyArray<Notification> => {
  const messages = bookingConfirmation({
    bookingId: record.id,
    requestId: record.requestId,
    providerName: record.providerName,
    serviceLabelSv: record.serviceLabelSv,
    ...(offer.labelEn ? { serviceLabelEn: offer.labelEn } : {}),
    slotStart: record.slotStart,
    slotEnd: record.slotEnd,
    timeZone: record.timeZone,
    price: priceFactsOf(record),
    termsVersion: record.termsVersion,
    termsUrl: record.termsUrl,
    serviceAddress: `${request.service_location.address}, ${request.service_location.postcode}`,
    customerName: customerNameOf(request.customer),
    taxDeduction: record.taxDeduction,
    taxDeductionRequested: record.taxDeductionRequested,
    cancellationPolicy: policyTerms(
      policyOfBooking(record),
      record.slotStart.getTime(),
      record.timeZone,
      now.getTime()
    ),
    earlyStart: earlyStartOf(record),
    consumerInformation: offer.consumerInformation
  })
  return [
    {
      id: randomUUID(),
      topic: "booking_confirmed",
      subjectId: record.id,
      recipientRole: "customer",
      providerId: null,
      ...channels.customer,
      ...messages.customer,
      payload: {}
    },
    {
      id: randomUUID(),
      topic: "booking_confirmed",
      subjectId: record.id,
      recipientRole: "provider",
      providerId: record.providerId,
      ...channels.provider,
      ...messages.provider
    }
  ]
}
