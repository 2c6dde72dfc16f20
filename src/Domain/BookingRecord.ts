import { Schema, Struct } from "effect"
import { BookingId, ProviderId, ServiceId } from "./Ids.js"
import type { PriceFacts } from "./Pricing.js"
import { TaxDeductionAnswer } from "./TaxDeductionSchema.js"

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
  taxDeductionRequested: Schema.Boolean
})
export type NewBooking = typeof NewBooking.Type

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
    "taxDeductionRequested"
  ])
)
export type StoredBooking = typeof StoredBooking.Type

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
