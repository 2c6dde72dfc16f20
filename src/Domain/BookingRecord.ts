import { Schema, Struct } from "effect"
import { BookingId, ProviderId, ServiceId } from "./Ids.js"
import type { PriceFacts } from "./Pricing.js"
import { TaxDeductionAnswer } from "./TaxDeductionSchema.js"
import { legalBases } from "./Withdrawal.js"

/** A confirmed booking as it is written: the offer, the customer's details and the consent record. */
export const NewBooking = Schema.Struct({
  id: BookingId,
  requestId: Schema.String,
  partnerId: Schema.String,
  providerId: ProviderId,
  providerName: Schema.String,
  serviceId: ServiceId,
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  serviceLabelSv: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  slotLabel: Schema.String,
  timeZone: Schema.String,
  priceSek: Schema.Finite,
  pricingModel: Schema.String,
  priceType: Schema.String,
  unitPriceSek: Schema.NullOr(Schema.Finite),
  unit: Schema.NullOr(Schema.String),
  quantity: Schema.NullOr(Schema.Finite),
  termsVersion: Schema.String,
  termsUrl: Schema.String,
  scope: Schema.Unknown,
  customer: Schema.Unknown,
  serviceLocation: Schema.Unknown,
  destinationLocation: Schema.Unknown,
  consent: Schema.Unknown,
  source: Schema.String,
  externalReference: Schema.NullOr(Schema.String),
  confirmedAt: Schema.Date,
  sandbox: Schema.Boolean,
  /** Null for a booking confirmed before deductions were stated. */
  taxDeduction: Schema.NullOr(TaxDeductionAnswer),
  taxDeductionRequested: Schema.Boolean,
  /** Whether the customer asked for the work to start within the withdrawal period; null: not asked at confirm. */
  earlyStartRequested: Schema.NullOr(Schema.Boolean),
  earlyStartStatement: Schema.NullOr(Schema.String),
  /** The cancellation policy it was confirmed (or last moved) under: the service's at that time. */
  freeCancellationHours: Schema.Int,
  lateFeeSek: Schema.Int,
  changeHours: Schema.Int
})
export type NewBooking = typeof NewBooking.Type

/** What a booking's life after confirm adds to it: its version, its current messages, its cancellation. */
const lifeFields = {
  status: Schema.Literals(["confirmed", "cancelled"]),
  version: Schema.Int,
  /** The outbox subject of its current confirmation: the booking's id, or the id of its latest move. */
  noticeSubjectId: Schema.String,
  cancelledAt: Schema.NullOr(Schema.Date),
  cancelledBy: Schema.NullOr(Schema.Literals(["customer", "partner", "provider"])),
  cancelReason: Schema.NullOr(Schema.String),
  cancelFeeSek: Schema.NullOr(Schema.Int),
  cancelWithinFreePeriod: Schema.NullOr(Schema.Boolean),
  cancelFreeUntil: Schema.NullOr(Schema.Date),
  cancelLegalBasis: Schema.NullOr(Schema.Literals(legalBases))
}

/** The policy a booking carries. */
export const policyOfBooking = (booking: Pick<NewBooking, "freeCancellationHours" | "lateFeeSek" | "changeHours">) => ({
  freeCancellationHours: booking.freeCancellationHours,
  lateFeeSek: booking.lateFeeSek,
  changeHours: booking.changeHours
})

/** A booking as it is read back for its partner: what the response tells, never the customer's details. */
export const StoredBooking = NewBooking.mapFields(
  Struct.pick([
    "id",
    "requestId",
    "providerId",
    "providerName",
    "serviceId",
    "slotStart",
    "slotEnd",
    "slotLabel",
    "timeZone",
    "priceSek",
    "pricingModel",
    "priceType",
    "unitPriceSek",
    "unit",
    "quantity",
    "termsVersion",
    "confirmedAt",
    "sandbox",
    "taxDeduction",
    "taxDeductionRequested",
    "earlyStartRequested",
    "earlyStartStatement",
    "freeCancellationHours",
    "lateFeeSek",
    "changeHours"
  ])
).mapFields(Struct.assign(lifeFields))
export type StoredBooking = typeof StoredBooking.Type

/** A booked price as every answer naming a booking states it: amount, currency, model, type and its unit terms. */
export const bookedPrice = (
  booking: Pick<StoredBooking, "priceSek" | "pricingModel" | "priceType" | "unitPriceSek" | "unit" | "quantity">
) => ({
  price_sek: booking.priceSek,
  currency: "SEK" as const,
  pricing_model: booking.pricingModel,
  price_type: booking.priceType,
  ...(booking.unitPriceSek === null ? {} : { unit_price_sek: booking.unitPriceSek }),
  ...(booking.unit === null ? {} : { unit: booking.unit }),
  ...(booking.quantity === null ? {} : { quantity: booking.quantity })
})

/** A booking's price as the pricing rules read it, for its wording in the response and the messages. */
export const priceFactsOf = (
  booking: Pick<StoredBooking, "priceSek" | "pricingModel" | "priceType" | "unitPriceSek" | "quantity">
): PriceFacts => ({
  amountSek: booking.priceSek,
  pricingModel: booking.pricingModel,
  priceType: booking.priceType,
  unitPriceSek: booking.unitPriceSek ?? undefined,
  quantity: booking.quantity ?? undefined
})
