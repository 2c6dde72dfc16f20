import { Schema } from "effect"
import { kronorEn, kronorSv } from "./Pricing.js"
import { type LegalBasis, legalBases, withdrawalUntil } from "./Withdrawal.js"
import { formatInZone, HOUR, zoneFor } from "./Zone.js"

/**
 * A provider's cancellation and change policy for a service, as the supply file states it:
 * cancelling is free until `freeCancellationHours` before the start, after which the provider
 * may charge `lateFeeSek` under its terms (0: never), and the time can be changed until
 * `changeHours` before the start.
 */
export type CancellationPolicy = typeof CancellationPolicySchema.Type

/** The policy as an option and a booking carry it: deadlines of this slot, in the caller's zone, as they stand now. */
export type PolicyTerms = typeof CancellationPolicyTerms.Type

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
const standing = (policy: CancellationPolicy, slotStart: number, now: number, concludedAt: number) => {
  const { freeUntil, changeUntil } = deadlinesOf(policy, slotStart)
  const withdrawalEnd = withdrawalUntil(concludedAt)
  const withdrawal = now < withdrawalEnd
  const started = !(now < slotStart)
  return {
    slotStart,
    freeUntil,
    changeUntil,
    withdrawalUntil: withdrawalEnd,
    started,
    withdrawal,
    // Within the withdrawal period and before the start no work can have begun: the law makes it free.
    free: now < freeUntil || (withdrawal && !started),
    providerFree: now < freeUntil,
    change: now < changeUntil
  }
}

const dayTimeFormats = new Map<string, { readonly sv: Intl.DateTimeFormat; readonly en: Intl.DateTimeFormat }>()

/** "måndag 30 november kl. 08:00" / "Monday 30 November, 08:00", in the zone, named unless Swedish time. */
export const dayTime = (instant: number, timeZone: string) => {
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
  const key = `${zone} ${instant}`
  const known = dayTimes.get(key)
  if (known !== undefined) return known
  const named = zone === "Europe/Stockholm" ? "" : ` (${zone})`
  const words = Object.freeze({
    sv: `${formats.sv.format(instant)}${named}`,
    en: `${formats.en.format(instant)}${named}`
  })
  if (dayTimes.size >= 1000) dayTimes.delete(dayTimes.keys().next().value!)
  dayTimes.set(key, words)
  return words
}

// A confirm words the same withdrawal end three times: two Intl calls each, a tenth of writing the message.
const dayTimes = new Map<string, { readonly sv: string; readonly en: string }>()

/**
 * What the policy means for this slot at `now`, in words that never say more than the provider's
 * terms (a late fee is what the provider "may charge under its terms", never what the customer
 * owes) and never offer a deadline that has passed as one still to come.
 */
export const policyTerms = (
  policy: CancellationPolicy,
  slotStart: number,
  timeZone: string,
  now: number,
  /** When the booking was concluded: its confirmed_at, or now for an option not yet booked. */
  concludedAt: number = now
): PolicyTerms => {
  const state = standing(policy, slotStart, now, concludedAt)
  // Searches keep offering the same slots of the same services: their terms are worded once, not four Intl calls each time.
  const key = `${timeZone} ${slotStart} ${policy.freeCancellationHours} ${policy.lateFeeSek} ${policy.changeHours} ${state.started} ${state.free} ${state.providerFree} ${state.change} ${state.withdrawalUntil} ${state.withdrawal}`
  const cached = worded.get(key)
  if (cached !== undefined) return cached
  // Frozen: shared by every answer, and an answer's encoder copies a frozen value's bytes once encoded.
  const terms = Object.freeze(termsOf(policy, state, timeZone))
  // About half a kilobyte each: the oldest goes first beyond two thousand slots.
  if (worded.size >= 2000) worded.delete(worded.keys().next().value!)
  worded.set(key, terms)
  return terms
}

/** Terms by policy, slot, zone and what still holds (see policyTerms), shared by every answer: never changed in place. */
const worded = new Map<string, PolicyTerms>()

const termsOf = (policy: CancellationPolicy, state: ReturnType<typeof standing>, timeZone: string): PolicyTerms => {
  const words = state.started ? startedWords(state, timeZone) : openWords(policy, state, timeZone)
  return {
    free_until: formatInZone(state.freeUntil, timeZone),
    withdrawal_until: formatInZone(state.withdrawalUntil, timeZone),
    free_cancellation_available: state.free,
    late_fee_sek: policy.lateFeeSek,
    change_until: formatInZone(state.changeUntil, timeZone),
    change_available: state.change,
    summary_sv: words.sv,
    summary_en: words.en
  }
}

/** The last minute of the withdrawal period, as a day and time the reader can act by. */
const lastWithdrawalMinute = (state: ReturnType<typeof standing>, timeZone: string) =>
  dayTime(state.withdrawalUntil - 60_000, timeZone)

const startedWords = (state: ReturnType<typeof standing>, timeZone: string) => {
  const w = lastWithdrawalMinute(state, timeZone)
  return state.withdrawal
    ? {
        sv: `Den bokade tiden har börjat, så bokningen kan inte längre avbokas eller ändras här. Ångerrätten gäller till och med ${w.sv}: meddela utföraren direkt, till exempel med standardformuläret för ångerrätt. Har du begärt att arbetet skulle börja under ångerfristen betalar du för den del som har utförts.`,
        en: `The booked time has started, so the booking can no longer be cancelled or changed here. The right of withdrawal lasts until ${w.en}: tell the provider directly, for example with the standard withdrawal form. If you asked for the work to start within the withdrawal period, you pay for the part already done.`
      }
    : {
        sv: "Den bokade tiden har börjat, så bokningen kan inte längre avbokas eller ändras här. Kontakta utföraren direkt.",
        en: "The booked time has started, so the booking can no longer be cancelled or changed here. Contact the provider directly."
      }
}

const openWords = (policy: CancellationPolicy, state: ReturnType<typeof standing>, timeZone: string) => {
  const free = dayTime(state.freeUntil, timeZone)
  const change = dayTime(state.changeUntil, timeZone)
  const w = lastWithdrawalMinute(state, timeZone)
  const fee = { sv: `${kronorSv(policy.lateFeeSek)} kr inkl. moms`, en: `SEK ${kronorEn(policy.lateFeeSek)} incl. VAT` }
  const reasonable = {
    sv: "en avgift som är utförarens villkor enligt konsumenttjänstlagen och bara gäller om den är skälig",
    en: "a fee that is the provider's term under the Consumer Services Act and applies only if it is reasonable"
  }
  const changeWords = state.change
    ? { sv: `Tiden kan ändras fram till ${change.sv}.`, en: `The time can be changed until ${change.en}.` }
    : {
        sv: `Tiden kan inte längre ändras: tiden för ändring gick ut ${change.sv}.`,
        en: `The time can no longer be changed: the deadline (${change.en}) has passed.`
      }
  const lateFee = (after: { sv: string; en: string }) =>
    policy.lateFeeSek === 0
      ? {
          sv: `${after.sv} är avbokning kostnadsfri fram till starttiden enligt utförarens villkor.`,
          en: `${after.en} cancelling is free until the start under the provider's terms.`
        }
      : state.providerFree
        ? {
            sv: `${after.sv} är avbokning kostnadsfri enligt utförarens villkor fram till ${free.sv}; vid senare avbokning får utföraren ta ut ${fee.sv}, ${reasonable.sv}.`,
            en: `${after.en} cancelling is free under the provider's terms until ${free.en}; after that the provider may charge SEK ${kronorEn(policy.lateFeeSek)} incl. VAT, ${reasonable.en}.`
          }
        : {
            sv: `${after.sv} får utföraren vid avbokning ta ut ${fee.sv}, ${reasonable.sv}.`,
            en: `${after.en} the provider may charge ${fee.en} if the booking is cancelled, ${reasonable.en}.`
          }
  const cancelling = state.withdrawal
    ? coversStart(state)
      ? {
          sv: `Ångerrätt gäller till och med ${w.sv}, så avbokning före starttiden är kostnadsfri.`,
          en: `The right of withdrawal lasts until ${w.en}, so cancelling before the start is free.`
        }
      : ((rest) => ({
          sv: `Ångerrätt gäller till och med ${w.sv}: fram till dess är avbokning kostnadsfri. ${rest.sv}`,
          en: `The right of withdrawal lasts until ${w.en}: until then cancelling is free. ${rest.en}`
        }))(lateFee({ sv: "Därefter", en: "After that" }))
    : ((rest) => ({
        sv: `Ångerfristen gällde till och med ${w.sv}. ${rest.sv}`,
        en: `The withdrawal period lasted until ${w.en}. ${rest.en}`
      }))(lateFee({ sv: "Nu", en: "Now" }))
  return { sv: `${cancelling.sv} ${changeWords.sv}`, en: `${cancelling.en} ${changeWords.en}` }
}

/** The withdrawal period lasts at least until the start: cancelling here is free for as long as it is possible. */
const coversStart = (state: ReturnType<typeof standing>) => !(state.withdrawalUntil < state.slotStart)

/**
 * What cancelling now would cost a booking concluded at `concludedAt`; a booking whose slot has
 * started cannot be cancelled here. Within the withdrawal period (before the start) the law makes
 * it free whatever the policy says (2005:59, 2 kap. 10 and 15 §§, 1 kap. 4 §); after it the
 * provider's late fee applies only after its free period.
 */
export const cancellationAt = (policy: CancellationPolicy, slotStart: number, now: number, concludedAt: number) => {
  const state = standing(policy, slotStart, now, concludedAt)
  if (state.started) return { _tag: "Started", withdrawalUntil: state.withdrawalUntil } as const
  const legalBasis: LegalBasis = state.withdrawal ? "withdrawal_right" : "provider_terms"
  return {
    _tag: "Open",
    withinFreePeriod: state.providerFree,
    feeSek: state.free ? 0 : policy.lateFeeSek,
    freeUntil: state.freeUntil,
    withdrawalUntil: state.withdrawalUntil,
    legalBasis
  } as const
}

/** Whether the time can still be changed now (before the change deadline, and before the start). */
export const changeableAt = (policy: CancellationPolicy, slotStart: number, now: number) => {
  const state = standing(policy, slotStart, now, now)
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
  withdrawal_until: DateTime.annotate({
    description:
      "The end of the consumer's statutory 14-day withdrawal period (lag (2005:59) 2 kap. 10 and 12 §§): for an option, if it is booked now; for a booking, counted from confirmed_at. Until then, and before the start, cancelling is free whatever late_fee_sek says."
  }),
  free_cancellation_available: Schema.Boolean.annotate({
    description:
      "Whether cancelling now is free: true while now is before free_until, or within the withdrawal period and before the start."
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
    "The cancellation rules for this slot: free within the statutory withdrawal period (until withdrawal_until, before the start), and free under the provider's terms until free_until; otherwise the provider may charge late_fee_sek (incl. VAT) under its terms (0: never), a term of konsumenttjänstlagen 42-43 §§ that holds only if reasonable. The time can be changed until change_until. free_until and change_until are at or before the slot's start. The summaries and the two flags say how it stands at the time of the answer: a deadline that has passed is stated as passed."
})

/** How a cancelled booking was cancelled: `cancellation` in a cancel's answer, a status and a refusal. */
export const Cancellation = Schema.Struct({
  cancelled_at: DateTime,
  cancelled_by: Schema.Literals(["customer", "partner", "provider"]),
  reason: Schema.optional(Schema.String),
  fee_sek: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  within_free_period: Schema.Boolean.annotate({
    description: "Whether it was cancelled before free_until, the end of the provider's own free period."
  }),
  free_until: DateTime,
  legal_basis: Schema.Literals(legalBases).annotate({
    description:
      "On what the fee rests: withdrawal_right (within the statutory withdrawal period, before the start: fee_sek is 0 whatever the provider's terms say), provider_terms (the provider's cancellation term under konsumenttjänstlagen, which holds only if reasonable), provider_cancelled (the provider cancelled: the customer owes nothing)."
  }),
  withdrawal_until: DateTime.annotate({ description: "The end of the booking's statutory withdrawal period." })
}).annotate({
  identifier: "Cancellation",
  description:
    "When and by whom the booking was (or, in a dry run, would be) cancelled. fee_sek is what the provider may charge for this cancellation (0 within the withdrawal period or the provider's free period), never a sum this service collects."
})
export type Cancellation = typeof Cancellation.Type
