import { Schema } from "effect"
import { kronorEn, kronorSv } from "./Pricing.js"
import { formatInZone, HOUR, zoneFor } from "./Zone.js"

/**
 * A provider's cancellation and change policy for a service, as the supply file states it:
 * cancelling is free until `freeCancellationHours` before the start, after which the provider
 * may charge `lateFeeSek` under its terms (0: never), and the time can be changed until
 * `changeHours` before the start.
 */
export interface CancellationPolicy {
  readonly freeCancellationHours: number
  readonly lateFeeSek: number
  readonly changeHours: number
}

/** The policy as an option and a booking carry it: deadlines of this slot, in the caller's zone, as they stand now. */
export interface PolicyTerms {
  readonly free_until: string
  /** Whether cancelling now is free: exactly when now is before free_until. */
  readonly free_cancellation_available: boolean
  readonly late_fee_sek: number
  readonly change_until: string
  /** Whether the time can be changed now: exactly when now is before change_until. */
  readonly change_available: boolean
  readonly summary_sv: string
  readonly summary_en: string
}

/** The instants the policy puts on a slot; both at or before the start. */
export const deadlinesOf = (policy: CancellationPolicy, slotStart: number) => ({
  // Without a fee, cancelling is free until the start itself.
  freeUntil: policy.lateFeeSek === 0 ? slotStart : slotStart - Math.max(0, policy.freeCancellationHours) * HOUR,
  changeUntil: slotStart - Math.max(0, policy.changeHours) * HOUR
})

/**
 * Which of the policy's promises still hold at `now`. "Until X" means before X: at X itself the
 * free period and the change window are over, so every answer and every check agree on one instant.
 */
const standing = (policy: CancellationPolicy, slotStart: number, now: number) => {
  const { freeUntil, changeUntil } = deadlinesOf(policy, slotStart)
  return { freeUntil, changeUntil, started: !(now < slotStart), free: now < freeUntil, change: now < changeUntil }
}

const dayTimeFormats = new Map<string, { readonly sv: Intl.DateTimeFormat; readonly en: Intl.DateTimeFormat }>()

/** "måndag 30 november kl. 08:00" / "Monday 30 November, 08:00", in the zone, named unless Swedish time. */
const dayTime = (instant: number, timeZone: string) => {
  const zone = zoneFor(timeZone).id
  let formats = dayTimeFormats.get(zone)
  if (formats === undefined) {
    const options = {
      timeZone: zone,
      weekday: "long",
      day: "numeric",
      month: "long",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23"
    } as const
    formats = { sv: new Intl.DateTimeFormat("sv-SE", options), en: new Intl.DateTimeFormat("en-GB", options) }
    if (dayTimeFormats.size >= 100) dayTimeFormats.clear()
    dayTimeFormats.set(zone, formats)
  }
  const named = zone === "Europe/Stockholm" ? "" : ` (${zone})`
  return { sv: `${formats.sv.format(instant)}${named}`, en: `${formats.en.format(instant)}${named}` }
}

/**
 * What the policy means for this slot at `now`, in words that never say more than the provider's
 * terms (a late fee is what the provider "may charge under its terms", never what the customer
 * owes) and never offer a deadline that has passed as one still to come.
 */
export const policyTerms = (
  policy: CancellationPolicy,
  slotStart: number,
  timeZone: string,
  now: number
): PolicyTerms => {
  const state = standing(policy, slotStart, now)
  // Searches keep offering the same slots of the same services: their terms are worded once, not four Intl calls each time.
  const key = `${timeZone} ${slotStart} ${policy.freeCancellationHours} ${policy.lateFeeSek} ${policy.changeHours} ${state.started} ${state.free} ${state.change}`
  const cached = worded.get(key)
  if (cached !== undefined) return cached
  const terms = termsOf(policy, state, timeZone)
  // About half a kilobyte each: the oldest goes first beyond two thousand slots.
  if (worded.size >= 2000) worded.delete(worded.keys().next().value!)
  worded.set(key, terms)
  return terms
}

/** Terms by policy, slot, zone and what still holds (see policyTerms), shared by every answer: never changed in place. */
const worded = new Map<string, PolicyTerms>()

const termsOf = (policy: CancellationPolicy, state: ReturnType<typeof standing>, timeZone: string): PolicyTerms => {
  const free = dayTime(state.freeUntil, timeZone)
  const change = dayTime(state.changeUntil, timeZone)
  const fee = { sv: `${kronorSv(policy.lateFeeSek)} kr inkl. moms`, en: `SEK ${kronorEn(policy.lateFeeSek)} incl. VAT` }
  const words = state.started
    ? {
        sv: "Den bokade tiden har börjat, så bokningen kan inte längre avbokas eller ändras här. Kontakta utföraren direkt.",
        en: "The booked time has started, so the booking can no longer be cancelled or changed here. Contact the provider directly."
      }
    : {
        sv: `${
          state.free
            ? policy.lateFeeSek === 0
              ? `Avbokning är kostnadsfri fram till starttiden, ${free.sv}.`
              : `Kostnadsfri avbokning fram till ${free.sv}. Vid senare avbokning får utföraren enligt sina villkor ta ut en avgift på ${fee.sv}.`
            : `Ingen kostnadsfri avbokning: tiden för den gick ut ${free.sv}. Vid avbokning får utföraren enligt sina villkor ta ut en avgift på ${fee.sv}.`
        } ${
          state.change
            ? `Tiden kan ändras fram till ${change.sv}.`
            : `Tiden kan inte längre ändras: tiden för ändring gick ut ${change.sv}.`
        }`,
        en: `${
          state.free
            ? policy.lateFeeSek === 0
              ? `Cancelling is free until the start, ${free.en}.`
              : `Free cancellation until ${free.en}. After that the provider may charge a fee of ${fee.en} under its terms.`
            : `No free cancellation: the deadline (${free.en}) has passed; the provider may charge a fee of ${fee.en} under its terms if the booking is cancelled.`
        } ${
          state.change
            ? `The time can be changed until ${change.en}.`
            : `The time can no longer be changed: the deadline (${change.en}) has passed.`
        }`
      }
  return {
    free_until: formatInZone(state.freeUntil, timeZone),
    free_cancellation_available: state.free,
    late_fee_sek: policy.lateFeeSek,
    change_until: formatInZone(state.changeUntil, timeZone),
    change_available: state.change,
    summary_sv: words.sv,
    summary_en: words.en
  }
}

/** What cancelling now would cost under the policy; a booking whose slot has started cannot be cancelled. */
export const cancellationAt = (policy: CancellationPolicy, slotStart: number, now: number) => {
  const state = standing(policy, slotStart, now)
  if (state.started) return { _tag: "Started" } as const
  return {
    _tag: "Open",
    withinFreePeriod: state.free,
    feeSek: state.free ? 0 : policy.lateFeeSek,
    freeUntil: state.freeUntil
  } as const
}

/** Whether the time can still be changed now (before the change deadline, and before the start). */
export const changeableAt = (policy: CancellationPolicy, slotStart: number, now: number) => {
  const state = standing(policy, slotStart, now)
  return !state.started && state.change
}

/** A service without a stated policy: no fee, and cancelling and changing are open until the start. */
export const noStatedPolicy: CancellationPolicy = { freeCancellationHours: 0, lateFeeSek: 0, changeHours: 0 }

const Hours = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 8760 }))

/** The policy as the supply file states it, per service or per provider (a service's own wins). */
export const SupplyCancellationPolicy = Schema.Struct({
  free_cancellation_hours: Hours,
  late_fee_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  change_hours: Hours
})
export type SupplyCancellationPolicy = typeof SupplyCancellationPolicy.Type

/** The policy as the database and the services read it. */
export const CancellationPolicySchema = Schema.Struct({
  freeCancellationHours: Schema.Int,
  lateFeeSek: Schema.Int,
  changeHours: Schema.Int
})

export const policyOfSupply = (policy: SupplyCancellationPolicy | undefined): CancellationPolicy =>
  policy === undefined
    ? noStatedPolicy
    : {
        freeCancellationHours: policy.free_cancellation_hours,
        lateFeeSek: policy.late_fee_sek,
        changeHours: policy.change_hours
      }

export const samePolicy = (a: CancellationPolicy, b: CancellationPolicy) =>
  a.freeCancellationHours === b.freeCancellationHours &&
  a.lateFeeSek === b.lateFeeSek &&
  a.changeHours === b.changeHours

const DateTime = Schema.String.annotate({ format: "date-time" })

/** `cancellation_policy` on an option, a confirmed booking and a status: this slot's deadlines, in words too. */
export const CancellationPolicyTerms = Schema.Struct({
  free_until: DateTime,
  free_cancellation_available: Schema.Boolean.annotate({
    description: "Whether cancelling now is free: true exactly while now is before free_until."
  }),
  late_fee_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  change_until: DateTime,
  change_available: Schema.Boolean.annotate({
    description: "Whether the time can be changed now: true exactly while now is before change_until."
  }),
  summary_sv: Schema.String,
  summary_en: Schema.String
}).annotate({
  identifier: "CancellationPolicy",
  description:
    "The provider's cancellation policy for this slot: free cancellation until free_until; after it the provider may charge late_fee_sek (incl. VAT) under its terms (0: never); the time can be changed until change_until. Both deadlines are at or before the slot's start. The summaries and the two flags say how it stands at the time of the answer: a deadline that has passed is stated as passed."
})

/** How a cancelled booking was cancelled: `cancellation` in a cancel's answer, a status and a refusal. */
export const Cancellation = Schema.Struct({
  cancelled_at: DateTime,
  cancelled_by: Schema.Literals(["customer", "partner", "provider"]),
  reason: Schema.optional(Schema.String),
  fee_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  within_free_period: Schema.Boolean,
  free_until: DateTime
}).annotate({
  identifier: "Cancellation",
  description:
    "When and by whom the booking was (or, in a dry run, would be) cancelled. fee_sek is what the provider may charge under its terms for this cancellation (0 within the free period), never a sum this service collects."
})
export type Cancellation = typeof Cancellation.Type
