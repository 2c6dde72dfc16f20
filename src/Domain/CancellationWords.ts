import { dayTime } from "./CancellationPolicy.js"
import { kronorEn, kronorSv } from "./Pricing.js"
import type { LegalBasis } from "./Withdrawal.js"

export interface CancellationFacts {
  readonly cancelledBy: "customer" | "partner" | "provider"
  readonly feeSek: number
  readonly freeUntil: Date
  readonly withdrawalUntil: Date
  readonly legalBasis: LegalBasis
}

/**
 * Why a cancellation costs what it does, in Swedish and English: free within the withdrawal period
 * whatever the provider's terms say, and a fee otherwise only as the provider's term that must be
 * reasonable (konsumenttjänstlagen 42–43 §§), never as a sum anyone owes. `done`: the cancellation
 * was made; otherwise it is what a cancel now would be.
 */
export const cancellationWords = (facts: CancellationFacts, timeZone: string, done: boolean) => {
  const w = dayTime(facts.withdrawalUntil.getTime() - 60_000, timeZone)
  const free = dayTime(facts.freeUntil.getTime(), timeZone)
  switch (facts.legalBasis) {
    case "provider_cancelled":
      return {
        sv: "Utföraren avbokade, så ingen avbokningsavgift tas ut av dig.",
        en: "The provider cancelled it, so no cancellation fee applies to you."
      }
    case "withdrawal_right":
      return done
        ? {
            sv: `Avbokningen gjordes med ångerrätt, inom ångerfristen (till och med ${w.sv}) och före starttiden: ingen avgift får tas ut, vad utförarens villkor än säger.`,
            en: `It was cancelled under the right of withdrawal, within the withdrawal period (until ${w.en}) and before the start: no fee may be charged, whatever the provider's terms say.`
          }
        : {
            sv: `Att avboka nu är kostnadsfritt: det sker med ångerrätt, inom ångerfristen (till och med ${w.sv}) och före starttiden, vad utförarens villkor än säger.`,
            en: `Cancelling now is free: it is a withdrawal within the withdrawal period (until ${w.en}) and before the start, whatever the provider's terms say.`
          }
    case "provider_terms":
      return facts.feeSek === 0
        ? {
            sv: `${done ? "Avbokningen gjordes" : "En avbokning nu sker"} efter ångerfristen (som gällde till och med ${w.sv}) men inom utförarens kostnadsfria period: enligt villkoren tas ingen avgift ut.`,
            en: `${done ? "It was cancelled" : "Cancelling now is"} after the withdrawal period (which lasted until ${w.en}) but within the provider's free period: under its terms no fee is charged.`
          }
        : {
            sv: `${done ? "Avbokningen gjordes" : "En avbokning nu sker"} efter ångerfristen (till och med ${w.sv}) och efter utförarens kostnadsfria period (till ${free.sv}): enligt sina villkor får utföraren ta ut en avgift på ${kronorSv(facts.feeSek)} kr inkl. moms. Avgiften är utförarens villkor enligt konsumenttjänstlagen och gäller bara om den är skälig.`,
            en: `${done ? "It was cancelled" : "Cancelling now is"} after the withdrawal period (until ${w.en}) and after the provider's free period (until ${free.en}): under its terms the provider may charge a fee of SEK ${kronorEn(facts.feeSek)} incl. VAT. The fee is the provider's term under the Consumer Services Act (konsumenttjänstlagen) and applies only if it is reasonable.`
          }
  }
}
