import { Schema } from "effect"
import { Customer } from "../Domain/Booking.js"
import { legalBases } from "../Domain/Withdrawal.js"

/** The rows the provider's calendar reads, each decoded with `decodedAs` (Database/Rows.ts). */
const Location = Schema.Struct({
  address: Schema.optional(Schema.String),
  postcode: Schema.String,
  country_code: Schema.String
})
export type Location = typeof Location.Type

export const BookingRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  serviceId: Schema.String,
  serviceLabelSv: Schema.String,
  verticalId: Schema.String,
  jobTypeId: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  slotLabel: Schema.String,
  priceSek: Schema.Number,
  pricingModel: Schema.String,
  priceType: Schema.String,
  unitPriceSek: Schema.NullOr(Schema.Number),
  unit: Schema.NullOr(Schema.String),
  quantity: Schema.NullOr(Schema.Number),
  termsVersion: Schema.String,
  termsUrl: Schema.String,
  scope: Schema.Unknown,
  /** Null once the customer's personal data is erased. */
  customer: Schema.NullOr(Customer),
  serviceLocation: Location,
  destinationLocation: Schema.NullOr(Location),
  confirmedAt: Schema.Date,
  status: Schema.Literals(["confirmed", "cancelled"]),
  version: Schema.Int,
  freeCancellationHours: Schema.Number,
  lateFeeSek: Schema.Number,
  changeHours: Schema.Number,
  cancelledAt: Schema.NullOr(Schema.Date),
  cancelledBy: Schema.NullOr(Schema.Literals(["customer", "partner", "provider"])),
  cancelFeeSek: Schema.NullOr(Schema.Number),
  cancelWithinFreePeriod: Schema.NullOr(Schema.Boolean),
  cancelFreeUntil: Schema.NullOr(Schema.Date),
  cancelLegalBasis: Schema.NullOr(Schema.Literals(legalBases)),
  earlyStartRequested: Schema.NullOr(Schema.Boolean),
  earlyStartStatement: Schema.NullOr(Schema.String),
  conflictsWithBusyTime: Schema.Boolean,
  personalDataErasedAt: Schema.NullOr(Schema.Date)
})
export type BookingRow = typeof BookingRow.Type

/** What holds the time a block was refused for: a booking (with its facts) or another block. */
export const ConflictRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.String,
  requestId: Schema.NullOr(Schema.String),
  providerName: Schema.NullOr(Schema.String),
  serviceId: Schema.NullOr(Schema.String),
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  slotLabel: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.Date)
})

export const BlockRow = Schema.Struct({
  id: Schema.String,
  startAt: Schema.Date,
  endAt: Schema.Date,
  note: Schema.NullOr(Schema.String),
  createdAt: Schema.Date
})
export type BlockRow = typeof BlockRow.Type

export const FeedRow = Schema.Struct({
  id: Schema.String,
  tokenSha256: Schema.Uint8Array,
  createdAt: Schema.Date,
  lastFetchedAt: Schema.NullOr(Schema.Date)
})
export type FeedRow = typeof FeedRow.Type

export const FeedOwnerRow = Schema.Struct({ providerId: Schema.String, providerName: Schema.String })

export const FeedJobRow = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  serviceLabelSv: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  postcode: Schema.String,
  status: Schema.Literals(["confirmed", "cancelled"]),
  version: Schema.Int,
  changedAt: Schema.Date
})

/** A coming booking an imported busy time overlaps, with whom its provider's notice goes to. */
export const ConflictedBooking = Schema.Struct({
  id: Schema.String,
  requestId: Schema.String,
  serviceLabelSv: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  notifyEmail: Schema.NullOr(Schema.String),
  notifyWebhookUrl: Schema.NullOr(Schema.String)
})
export type ConflictedBooking = typeof ConflictedBooking.Type
