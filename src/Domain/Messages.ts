import type { EarlyStart } from "./Booking.js"
import { type ConsumerInformationSection, consumerInformationLines } from "./ConsumerInformation.js"
import { kronorEn, kronorSv, type PriceFacts, priceKind, priceWording } from "./Pricing.js"
import type { TaxDeductionAnswer } from "./TaxDeductionSchema.js"
import { formatInZone, knownTimeZone, providerTimeZone } from "./Zone.js"

export interface BookingConfirmationInput {
  readonly bookingId: string
  readonly requestId: string
  readonly providerId?: string
  readonly providerName: string
  readonly serviceLabelSv: string
  readonly serviceLabelEn?: string
  readonly slotStart: Date
  readonly slotEnd: Date
  readonly timeZone: string
  readonly price: PriceFacts
  readonly termsVersion: string
  readonly termsUrl: string
  readonly serviceAddress?: string
  readonly customerName?: string
  /** Null for a booking confirmed before deductions were stated: the messages then say nothing of one. */
  readonly taxDeduction?: TaxDeductionAnswer | null
  readonly taxDeductionRequested?: boolean
  /** The booking's cancellation policy in words, so the customer holds the terms. */
  readonly cancellationPolicy?: { readonly summary_sv: string; readonly summary_en: string }
  /** The early-start record, so both sides hold what a withdrawal would cost (2005:59, 2 kap. 4 and 15 §§). */
  readonly earlyStart?: typeof EarlyStart.Type
  /** The consumer information the option's terms carried; null for a service imported before it was stated. */
  readonly consumerInformation?: ConsumerInformationSection | null
}

export interface Message {
  readonly subject: string
  readonly body: string
}

export interface ProviderMessage extends Message {
  readonly payload: Record<string, unknown>
}

export interface BookingConfirmation {
  readonly customer: Message
  readonly provider: ProviderMessage
}

export interface RequestForProviderInput {
  readonly requestId: string
  readonly verticalLabelSv: string
  readonly jobTypeLabelSv: string
  readonly description: string
  readonly postcode?: string
  readonly preferredTime?: string
  readonly customerName: string
  readonly customerPhone: string
  readonly customerEmail: string
}

export const separator = "----------------------------------------"
export const englishHeading = `${separator}\nIn English\n${separator}`

export const lines = (...parts: ReadonlyArray<string | undefined>) =>
  parts.filter((part) => part !== undefined).join("\n")

interface Slot {
  readonly sv: string
  readonly en: string
  readonly shortSv: string
}

/** A message's day and time formatters, built once per zone: building them costs more than formatting. */
const formatters = new Map<
  string,
  { readonly daySv: Intl.DateTimeFormat; readonly dayEn: Intl.DateTimeFormat; readonly time: Intl.DateTimeFormat }
>()

const formattersIn = (timeZone: string) => {
  const known = formatters.get(timeZone)
  if (known !== undefined) return known
  const day = (locale: string) =>
    new Intl.DateTimeFormat(locale, { timeZone, weekday: "long", day: "numeric", month: "long", year: "numeric" })
  const built = {
    daySv: day("sv-SE"),
    dayEn: day("en-GB"),
    time: new Intl.DateTimeFormat("sv-SE", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
  }
  // Zones are validated names, but a flood of spellings must not grow this without bound.
  if (formatters.size >= 1000) formatters.clear()
  formatters.set(timeZone, built)
  return built
}

/** "måndag 23 november 2026 kl. 08:00–10:00" in the zone's local time; the zone is named unless it is Swedish time. */
export const slotIn = (start: Date, end: Date, timeZone: string): Slot => {
  const { daySv, dayEn, time } = formattersIn(timeZone)
  const zoneNote =
    timeZone === providerTimeZone ? { sv: "", en: " (Swedish time)" } : { sv: ` (${timeZone})`, en: ` (${timeZone})` }
  const sameDay = daySv.format(start) === daySv.format(end)
  const sv = sameDay
    ? `${daySv.format(start)} kl. ${time.format(start)}–${time.format(end)}`
    : `${daySv.format(start)} kl. ${time.format(start)} – ${daySv.format(end)} kl. ${time.format(end)}`
  const en = sameDay
    ? `${dayEn.format(start)}, ${time.format(start)}–${time.format(end)}`
    : `${dayEn.format(start)}, ${time.format(start)} – ${dayEn.format(end)}, ${time.format(end)}`
  return { sv: sv + zoneNote.sv, en: en + zoneNote.en, shortSv: `${daySv.format(start)} kl. ${time.format(start)}` }
}

const deductionNames = { rut: "RUT", rot: "ROT" } as const

/** The customer's lines on the deduction: its conditions, and what the customer asked for at confirm. */
const customerDeduction = (d: TaxDeductionAnswer | null | undefined, requested: boolean) => {
  if (d === undefined || d === null) return { sv: [], en: [] }
  if (d.kind === "none") return { sv: [`Skatteavdrag: ${d.conditions_sv}`], en: [`Tax deduction: ${d.conditions_en}`] }
  const name = deductionNames[d.kind]
  return {
    sv: [
      `Skatteavdrag: ${d.conditions_sv}`,
      requested
        ? `Du har bett att ${name}-avdraget görs på fakturan. Utföraren kontaktar dig för de uppgifter som behövs för ansökan hos Skatteverket; vi frågar inte efter dem och sparar dem inte.`
        : `Du har inte bett om ${name}-avdrag i bokningen. Vill du ha det, säg det till utföraren innan arbetet faktureras.`
    ],
    en: [
      `Tax deduction: ${d.conditions_en}`,
      requested
        ? `You have asked for the ${name} deduction to be made on the invoice. The provider will ask you for the details Skatteverket needs; we neither ask for nor keep them.`
        : `You have not asked for the ${name} deduction in the booking. If you want it, tell the provider before the work is invoiced.`
    ]
  }
}

/** The provider's lines on the deduction: whether the customer wants it, and that the provider collects the details. */
const providerDeduction = (d: TaxDeductionAnswer | null | undefined, requested: boolean) => {
  if (d === undefined || d === null) return { sv: [], en: [] }
  if (d.kind === "none")
    return {
      sv: [`Skatteavdrag: inget (${d.conditions_sv})`],
      en: [`Tax deduction: none (${d.conditions_en})`]
    }
  const name = deductionNames[d.kind]
  const figuresSv = `${Math.round(d.rate * 100)} % av arbetskostnaden ${kronorSv(d.labour_sek)} kr, högst ${kronorSv(d.max_deduction_sek)} kr enligt bokningen`
  const figuresEn = `${Math.round(d.rate * 100)}% of the labour cost SEK ${kronorEn(d.labour_sek)}, at most SEK ${kronorEn(d.max_deduction_sek)} as booked`
  return requested
    ? {
        sv: [
          `Skatteavdrag: kunden vill att ${name}-avdraget görs på fakturan (${figuresSv}). Ta in de identitetsuppgifter som behövs för ansökan hos Skatteverket direkt från kunden; bokningstjänsten frågar inte efter dem och sparar dem inte. Priset ovan är före avdrag.`
        ],
        en: [
          `Tax deduction: the customer wants the ${name} deduction made on the invoice (${figuresEn}). Collect the identity details the claim to Skatteverket needs from the customer directly; the booking service neither asks for nor keeps them. The price above is before the deduction.`
        ]
      }
    : {
        sv: [
          `Skatteavdrag: kunden har inte begärt ${name}-avdrag i bokningen (${figuresSv} om kunden begär det). Priset ovan är före avdrag.`
        ],
        en: [
          `Tax deduction: the customer has not asked for the ${name} deduction in the booking (${figuresEn} if the customer asks). The price above is before the deduction.`
        ]
      }
}

/** The customer's confirmation and the provider's order, each in Swedish with English below. */
export const bookingConfirmation = (input: BookingConfirmationInput): BookingConfirmation => {
  const timeZone = knownTimeZone(input.timeZone)
  const slot = slotIn(input.slotStart, input.slotEnd, timeZone)
  const serviceEn = input.serviceLabelEn ?? input.serviceLabelSv
  const price = priceWording(input.price)
  const starting = priceKind(input.price) === "starting"
  const requested = input.taxDeductionRequested === true
  const customerTax = customerDeduction(input.taxDeduction, requested)
  const providerTax = providerDeduction(input.taxDeduction, requested)
  const early = input.earlyStart
  const statement = early?.statement === undefined ? undefined : `"${early.statement}"`
  const information =
    input.consumerInformation === undefined || input.consumerInformation === null
      ? { sv: [], en: [] }
      : consumerInformationLines(input.consumerInformation)

  const customer: Message = {
    subject: `Din bokning är bekräftad: ${input.serviceLabelSv}, ${slot.shortSv} (Booking confirmed)`,
    body: lines(
      input.customerName === undefined ? "Hej!" : `Hej ${input.customerName}!`,
      "",
      `Din bokning hos ${input.providerName} är bekräftad.`,
      "",
      `Utförare: ${input.providerName}`,
      `Tjänst: ${input.serviceLabelSv}`,
      `Tid: ${slot.sv}`,
      input.serviceAddress === undefined ? undefined : `Adress: ${input.serviceAddress}`,
      `Pris: ${price.sv}`,
      `Villkor: version ${input.termsVersion}, ${input.termsUrl}`,
      input.cancellationPolicy === undefined
        ? undefined
        : `Avbokning och ändring: ${input.cancellationPolicy.summary_sv}`,
      early === undefined ? undefined : `Start under ångerfristen: ${early.summary_sv}`,
      statement === undefined ? undefined : `Begäran med dina ord: ${statement}`,
      `Bokningsreferens: ${input.requestId}`,
      ...information.sv.flatMap((line, i) => (i === 0 ? ["", line] : [line])),
      ...customerTax.sv.flatMap((line) => ["", line]),
      "",
      starting
        ? "Priset är ett startpris: utföraren bestämmer slutpriset på plats, enligt villkoren ovan. Ange bokningsreferensen om du kontaktar oss eller utföraren."
        : "Priset gäller för det arbete som beskrivs i villkoren ovan. Ange bokningsreferensen om du kontaktar oss eller utföraren.",
      "",
      englishHeading,
      "",
      input.customerName === undefined ? "Hello," : `Hello ${input.customerName},`,
      "",
      `Your booking with ${input.providerName} is confirmed.`,
      "",
      `Provider: ${input.providerName}`,
      `Service: ${serviceEn}`,
      `Time: ${slot.en}`,
      input.serviceAddress === undefined ? undefined : `Address: ${input.serviceAddress}`,
      `Price: ${price.en}`,
      `Terms: version ${input.termsVersion}, ${input.termsUrl}`,
      input.cancellationPolicy === undefined
        ? undefined
        : `Cancelling and changing: ${input.cancellationPolicy.summary_en}`,
      early === undefined ? undefined : `Start within the withdrawal period: ${early.summary_en}`,
      statement === undefined ? undefined : `The request in your words: ${statement}`,
      `Booking reference: ${input.requestId}`,
      ...information.en.flatMap((line, i) => (i === 0 ? ["", line] : [line])),
      ...customerTax.en.flatMap((line) => ["", line]),
      "",
      starting
        ? "The price is a starting price: the provider sets the final price on site, under the terms above. Quote the booking reference if you contact us or the provider."
        : "The price covers the work described in the terms above. Quote the booking reference if you contact us or the provider."
    )
  }

  const provider: ProviderMessage = {
    subject: `Ny bekräftad bokning: ${input.serviceLabelSv}, ${slot.shortSv} (New confirmed booking)`,
    body: lines(
      "Hej!",
      "",
      "Du har fått en ny bekräftad bokning. Tiden är reserverad i din kalender.",
      "",
      `Tjänst: ${input.serviceLabelSv}`,
      `Tid: ${slot.sv}`,
      `Adress: ${input.serviceAddress ?? "uppgift saknas"}`,
      `Kund: ${input.customerName ?? "uppgift saknas"}`,
      `Pris: ${price.sv}`,
      `Villkor: version ${input.termsVersion}, ${input.termsUrl}`,
      `Bokningsreferens: ${input.requestId}`,
      `Boknings-id: ${input.bookingId}`,
      early === undefined ? undefined : `Start under ångerfristen: ${early.summary_sv}`,
      ...providerTax.sv.flatMap((line) => ["", line]),
      "",
      starting
        ? "Kunden har godkänt startpriset och villkoren ovan; slutpriset bestäms på plats. Arbetet utförs enligt den villkorsversionen."
        : "Kunden har godkänt priset och villkoren ovan. Arbetet utförs enligt den villkorsversionen.",
      "",
      englishHeading,
      "",
      "Hello,",
      "",
      "You have a new confirmed booking. The time is reserved in your calendar.",
      "",
      `Service: ${serviceEn}`,
      `Time: ${slot.en}`,
      `Address: ${input.serviceAddress ?? "not given"}`,
      `Customer: ${input.customerName ?? "not given"}`,
      `Price: ${price.en}`,
      `Terms: version ${input.termsVersion}, ${input.termsUrl}`,
      `Booking reference: ${input.requestId}`,
      `Booking id: ${input.bookingId}`,
      early === undefined ? undefined : `Start within the withdrawal period: ${early.summary_en}`,
      ...providerTax.en.flatMap((line) => ["", line]),
      "",
      starting
        ? "The customer has accepted the starting price and the terms above; the final price is set on site. The work is done under that terms version."
        : "The customer has accepted the price and the terms above. The work is done under that terms version."
    ),
    payload: {
      event: "booking.confirmed",
      booking_id: input.bookingId,
      request_id: input.requestId,
      ...(input.providerId === undefined ? {} : { provider_id: input.providerId }),
      service_label_sv: input.serviceLabelSv,
      slot_start_at: formatInZone(input.slotStart, timeZone),
      slot_end_at: formatInZone(input.slotEnd, timeZone),
      time_zone: timeZone,
      price_sek: input.price.amountSek,
      currency: "SEK",
      pricing_model: input.price.pricingModel,
      price_type: input.price.priceType,
      terms_version: input.termsVersion,
      terms_url: input.termsUrl,
      service_address: input.serviceAddress ?? null,
      customer_name: input.customerName ?? null,
      ...(input.taxDeduction === undefined || input.taxDeduction === null
        ? {}
        : { tax_deduction: input.taxDeduction, tax_deduction_requested: requested }),
      ...(early === undefined
        ? {}
        : {
            early_start_requested: early.requested,
            slot_within_withdrawal_period: early.slot_within_withdrawal_period
          })
    }
  }

  return { customer, provider }
}

/** A follow-up request handed to a provider: nothing is reserved and no price is agreed. */
export const requestForProvider = (input: RequestForProviderInput): ProviderMessage => ({
  subject: `Ny förfrågan (ingen bokning): ${input.jobTypeLabelSv}, ${input.verticalLabelSv} (New request, not a booking)`,
  body: lines(
    "Hej!",
    "",
    "En kund vill ha hjälp och har bett att bli kontaktad.",
    "Detta är en förfrågan, ingen bokning: ingen tid är reserverad och inget pris är avtalat.",
    "Kontakta kunden om du kan ta uppdraget.",
    "",
    `Kategori: ${input.verticalLabelSv}`,
    `Typ av jobb: ${input.jobTypeLabelSv}`,
    input.postcode === undefined ? undefined : `Postnummer: ${input.postcode}`,
    input.preferredTime === undefined ? undefined : `Önskad tid: ${input.preferredTime}`,
    `Kund: ${input.customerName}`,
    `Telefon: ${input.customerPhone}`,
    `E-post: ${input.customerEmail}`,
    `Referens: ${input.requestId}`,
    "",
    "Kundens beskrivning:",
    input.description,
    "",
    englishHeading,
    "",
    "Hello,",
    "",
    "A customer wants help and has asked to be contacted.",
    "This is a request, not a booking: no time is reserved and no price is agreed.",
    "Contact the customer if you can take the job.",
    "",
    `Category: ${input.verticalLabelSv}`,
    `Job type: ${input.jobTypeLabelSv}`,
    input.postcode === undefined ? undefined : `Postcode: ${input.postcode}`,
    input.preferredTime === undefined ? undefined : `Preferred time: ${input.preferredTime}`,
    `Customer: ${input.customerName}`,
    `Phone: ${input.customerPhone}`,
    `E-mail: ${input.customerEmail}`,
    `Reference: ${input.requestId}`,
    "",
    "The customer's description is quoted above in the customer's own words."
  ),
  payload: {
    event: "request.created",
    request_id: input.requestId,
    is_booking: false,
    vertical_label_sv: input.verticalLabelSv,
    job_type_label_sv: input.jobTypeLabelSv,
    description: input.description,
    postcode: input.postcode ?? null,
    preferred_time: input.preferredTime ?? null,
    customer_name: input.customerName,
    customer_phone: input.customerPhone,
    customer_email: input.customerEmail
  }
})

/**
 * A follow-up request withdrawn, to a provider who had it: by its reference only, so the notice
 * carries no customer details and the partner's reason stays with the partner.
 */
export const requestWithdrawnForProvider = (input: {
  readonly requestId: string
  readonly jobTypeLabelSv: string
}): ProviderMessage => ({
  subject: `Förfrågan återkallad: ${input.jobTypeLabelSv}, ${input.requestId} (Request withdrawn)`,
  body: lines(
    "Hej!",
    "",
    `Kunden har återkallat förfrågan ${input.requestId} (${input.jobTypeLabelSv}).`,
    "Kontakta inte kunden om den. Har du redan kommit överens med kunden, gör upp direkt med kunden.",
    "Fick du aldrig förfrågan kan du bortse från detta meddelande.",
    "",
    englishHeading,
    "",
    "Hello,",
    "",
    `The customer has withdrawn request ${input.requestId} (${input.jobTypeLabelSv}).`,
    "Do not contact the customer about it. If you have already agreed on something with the customer, settle it with them directly.",
    "If you never received the request, ignore this message."
  ),
  payload: { event: "request.withdrawn", request_id: input.requestId, is_booking: false }
})
