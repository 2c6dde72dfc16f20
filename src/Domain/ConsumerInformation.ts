import { Schema } from "effect"
import { withdrawalDays, withdrawalFormPath } from "./Withdrawal.js"

/** Who the consumer contracts with: what 2005:59, 2 kap. 2 § first paragraph 2–3 asks to be told. */
export interface ProviderIdentity {
  readonly name: string
  readonly organisationNumber: string
  readonly email: string
  readonly phone: string
  readonly address: string
}

export const consumerInformationId = "consumer_information"

/** Allmänna reklamationsnämnden, where a consumer can take a dispute (2 kap. 2 § first paragraph 16). */
export const disputesUrl = "https://www.arn.se/"

/**
 * The information every option's terms carry before the commitment (2005:59, 2 kap. 2 and 2 a §§),
 * as one section of `terms.sections`, in Swedish and English. Built at the supply import from the
 * provider's identity; the terms version carries its fingerprint, so a changed text is a new version.
 */
export const ConsumerInformationSection = Schema.Struct({
  id: Schema.Literal(consumerInformationId),
  title_sv: Schema.String,
  title_en: Schema.String,
  provider: Schema.Struct({
    name: Schema.String,
    organisation_number: Schema.String,
    email: Schema.String,
    phone: Schema.String,
    address: Schema.String,
    is_business: Schema.Literal(true)
  }),
  withdrawal_days: Schema.Literal(withdrawalDays),
  withdrawal_form_url: Schema.String,
  disputes_url: Schema.String,
  summary_en: Schema.String,
  text_sv: Schema.String,
  text_en: Schema.String
})
export type ConsumerInformationSection = typeof ConsumerInformationSection.Type

export const withdrawalFormUrl = (publicBaseUrl: string) => `${publicBaseUrl.replace(/\/+$/, "")}${withdrawalFormPath}`

export const consumerInformation = (provider: ProviderIdentity, publicBaseUrl: string): ConsumerInformationSection => {
  const form = withdrawalFormUrl(publicBaseUrl)
  const who = `${provider.name}, org.nr ${provider.organisationNumber}, ${provider.address}, ${provider.phone}, ${provider.email}`
  return {
    id: consumerInformationId,
    title_sv: "Ångerrätt och information om utföraren",
    title_en: "Right of withdrawal and information about the provider",
    provider: {
      name: provider.name,
      organisation_number: provider.organisationNumber,
      email: provider.email,
      phone: provider.phone,
      address: provider.address,
      is_business: true
    },
    withdrawal_days: withdrawalDays,
    withdrawal_form_url: form,
    disputes_url: disputesUrl,
    summary_en: `${withdrawalDays}-day right of withdrawal from the day of booking (free before the start); form: ${form}; provider ${provider.name}, org. no. ${provider.organisationNumber}; disputes: ARN.`,
    text_sv: [
      `Avtalet ingås med utföraren: ${who}. Utföraren är ett företag (näringsidkare); bokningstjänsten förmedlar bokningen för utförarens räkning.`,
      `Ångerrätt: du har ${withdrawalDays} dagars ångerrätt enligt distansavtalslagen, räknat från dagen då bokningen bekräftas. Ångra genom att avboka här före starttiden eller genom att meddela utföraren, till exempel med standardformuläret för ångerrätt: ${form}.`,
      `Ber du att arbetet ska börja inom ångerfristen och ångrar dig efter att det har börjat, betalar du för den del som har utförts; när arbetet är helt utfört upphör ångerrätten. Har du inte bett om det betalar du ingenting om du ångrar dig inom fristen.`,
      "Tvist: kontakta först utföraren; du kan sedan vända dig till Allmänna reklamationsnämnden (ARN), www.arn.se.",
      "Ordning: alternativen visas med tidigaste lediga tid först, vid lika tid efter utförarens id; ingen utförare betalar för sin placering."
    ].join(" "),
    text_en: [
      `The contract is made with the provider: ${who}. The provider is a business (trader); the booking service arranges the booking on the provider's behalf.`,
      `Right of withdrawal: you have ${withdrawalDays} days to withdraw under the Distance Contracts Act, counted from the day the booking is confirmed. Withdraw by cancelling here before the start or by telling the provider, for example with the standard withdrawal form: ${form}.`,
      "If you ask for the work to start within the withdrawal period and withdraw after it has begun, you pay for the part already done; once the work is fully performed the right of withdrawal ends. If you did not ask for that, withdrawing within the period costs nothing.",
      "Disputes: contact the provider first; you can then turn to the National Board for Consumer Disputes (ARN), www.arn.se.",
      "Order: options are listed earliest free time first, ties by provider id; no provider pays for its place."
    ].join(" ")
  }
}

/**
 * The option's terms version: the provider's own, with the fingerprint of the consumer
 * information it carries, so a confirm revalidates that text as it does the provider's terms.
 * The fingerprint reads the form's path, not its host: one text is one version on every server.
 */
export const consumerTermsVersion = (version: string, provider: ProviderIdentity) =>
  `${version}+ki-${fingerprint(JSON.stringify(consumerInformation(provider, "")))}`

/** FNV-1a over the UTF-16 units, as 8 hex digits: a change detector, not a secret, and no crypto in Domain. */
const fingerprint = (text: string) => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(16).padStart(8, "0")
}

/** The version as the supply file states it, without the fingerprint: what a supply problem names. */
export const supplyTermsVersion = (version: string) => version.replace(/\+ki-[0-9a-f]{8}$/, "")

/** What the fingerprint adds to a version: the supply's versions are at most this much shorter than the contract's 240. */
export const consumerTermsSuffixLength = "+ki-".length + 8

/** The consumer information as the customer's confirmation e-mail carries it (2 kap. 4 §). */
export const consumerInformationLines = (section: ConsumerInformationSection) => ({
  sv: [`${section.title_sv}:`, section.text_sv],
  en: [`${section.title_en}:`, section.text_en]
})
