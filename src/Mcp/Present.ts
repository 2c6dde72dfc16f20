/**
 * Tool results as a model reads them, each thing said once: the text block is what the model
 * says and passes on (one line per option or booking: provider, service, slot label, one price
 * line, one policy line, the terms version, the ids), and structuredContent what a program acts
 * on (flags, ids, times, amounts, terms version and URL, the step). The full REST bodies stay
 * REST's; an option's full terms, scope and wording in both languages come from get_booking_option.
 */
import type { BookingConfirmationResponse, BookingStatusResponse, ConfirmedBooking } from "../Domain/Booking.js"
import type { CancelBookingResponse, RescheduleBookingResponse, ReschedulePreview } from "../Domain/BookingChange.js"
import type { PolicyTerms } from "../Domain/CancellationPolicy.js"
import { consumerInformationId } from "../Domain/ConsumerInformation.js"
import { priceWording } from "../Domain/Pricing.js"
import type { BookingOption, BookingSearchResponse } from "../Domain/Search.js"
import { mcpSurface } from "../Domain/Surface.js"
import type { TaxDeductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { timeNotSearchedNote } from "../Search/Steps.js"

/** What a tool answers: the structured result and its rendering for the model. */
export interface Presented {
  readonly structured: Record<string, unknown>
  readonly text: string
  /** The REST body kept whole in structuredContent, its step included (follow-up requests, errors). */
  readonly whole?: boolean
}

interface PriceOf {
  readonly amount_sek: number
  readonly pricing_model: string
  readonly price_type: string
  readonly unit_price_sek?: number | undefined
  readonly quantity?: number | undefined
}

/** The deduction's figures as its conditions_en words them, without the price they follow. */
const deductionClause = (deduction: TaxDeductionAnswer) => {
  const [first = deduction.conditions_en] = deduction.conditions_en.split(/(?<=\.) /)
  const or = first.indexOf(", or ")
  return (or < 0 ? first : first.slice(or + ", or ".length)).replace(/\.$/, "")
}

/**
 * One line for the price: its kind (exact, "from", per unit with its quantity), and the deduction
 * as an if with both figures, or that there is none.
 */
export const priceLine = (price: PriceOf, deduction: TaxDeductionAnswer | undefined) => {
  const base = priceWording({
    amountSek: price.amount_sek,
    pricingModel: price.pricing_model,
    priceType: price.price_type,
    unitPriceSek: price.unit_price_sek,
    quantity: price.quantity
  }).en
  if (deduction === undefined) return base
  return deduction.kind === "none" ? `${base}; no RUT/ROT deduction` : `${base}, or ${deductionClause(deduction)}`
}

/** Each side's message state, without the channel detail REST gives. */
const deliveryOf = ({ customer, provider }: Record<"customer" | "provider", { readonly status: string }>) => ({
  customer: customer.status,
  provider: provider.status
})

/** One line for the cancellation policy as it stands now (free until / the fee), in the service's words. */
export const policyLine = (policy: PolicyTerms) => policy.summary_en.split(" The time can")[0]!

/** The option's withdrawal right in one clause and the form's URL, from its consumer_information terms section. */
export const withdrawalOf = (option: BookingOption) => {
  const section = option.terms.sections.find((each) => each.id === consumerInformationId)
  const summary = section?.summary_en
  const form = section?.withdrawal_form_url
  if (typeof summary !== "string" || typeof form !== "string") return undefined
  return { line: summary.split("; form: ")[0]!, formUrl: form }
}

/** The form's URL when every option names the same one: said once for the search, not per option. */
const sharedFormUrl = (options: ReadonlyArray<BookingOption>) => {
  const urls = new Set(options.map((option) => withdrawalOf(option)?.formUrl))
  const [only] = urls
  return urls.size === 1 ? only : undefined
}

const optionOf = (formSaidOnce: boolean) => (option: BookingOption) => ({
  booking_option_id: option.booking_option_id,
  expires_at: option.expires_at,
  provider: option.provider.name,
  slot: { start_at: option.slot.start_at, end_at: option.slot.end_at },
  price_sek: option.price.amount_sek,
  terms_version: option.terms.version,
  terms_url: option.terms.url,
  ...(formSaidOnce ? {} : { withdrawal_form_url: withdrawalOf(option)?.formUrl })
})

const withdrawalText = (option: BookingOption, formSaidOnce: boolean) => {
  const withdrawal = withdrawalOf(option)
  if (withdrawal === undefined) return ""
  return ` ${withdrawal.line}${formSaidOnce ? "" : `; form ${withdrawal.formUrl}`}.`
}

const optionText = (formSaidOnce: boolean) => (option: BookingOption, index: number) =>
  `${index + 1}. ${option.provider.name}: ${option.service.label_en ?? option.service.label_sv}; ${option.slot.label}; ${priceLine(option.price, option.price.tax_deduction)}. ${policyLine(option.cancellation_policy)}${withdrawalText(option, formSaidOnce)} Terms ${option.terms.version}. booking_option_id: ${option.booking_option_id}`

const flags = (body: {
  readonly booking_created: boolean
  readonly availability_checked: boolean
  readonly provider_selected: boolean
}) =>
  `booking_created ${body.booking_created}, availability_checked ${body.availability_checked}, provider_selected ${body.provider_selected}`

const lines = (...parts: ReadonlyArray<string | undefined>) => parts.filter((part) => part !== undefined).join("\n")

/** What to do with options: the one next tool and the arguments it takes from them. */
const optionsStep = (alternatives: boolean) =>
  `${
    alternatives
      ? "Nothing is free at the requested time and nothing is booked: these are the nearest free times outside it; say so. If none suits, offer create_follow_up_request."
      : "Nothing is booked yet."
  } Offer each option's provider, time, price, policy and withdrawal right as worded. When the user picks one: hold_booking_option with its booking_option_id and a new idempotency_key (books nothing; keeps the time from others), then ask for name, phone, e-mail, address and consent, then confirm_booking with its booking_option_id, the hold_id, booking_terms_version = its terms_version and a new idempotency_key. Full terms: get_booking_option.`

export const presentSearch = (body: BookingSearchResponse): Presented => {
  const alternatives = body.options.length === 0 && body.alternative_options !== undefined
  const offered = alternatives ? (body.alternative_options ?? []) : body.options
  const step =
    offered.length === 0
      ? body.safe_next_step
      : body.safe_next_step.startsWith(timeNotSearchedNote)
        ? timeNotSearchedNote + optionsStep(alternatives)
        : optionsStep(alternatives)
  const formUrl = sharedFormUrl(offered)
  const structured = {
    ok: body.ok,
    availability_checked: body.availability_checked,
    provider_selected: body.provider_selected,
    booking_created: body.booking_created,
    direct_booking_available: body.direct_booking_available,
    options: body.options.map(optionOf(formUrl !== undefined)),
    ...(alternatives ? { alternative_options: offered.map(optionOf(formUrl !== undefined)) } : {}),
    ...(body.fallback === undefined ? {} : { fallback: body.fallback }),
    ...(formUrl === undefined ? {} : { withdrawal_form_url: formUrl }),
    safe_next_step: step
  }
  const heading = `direct_booking_available ${body.direct_booking_available}; ${offered.length} ${alternatives ? "alternative_options" : "options"}${body.requested_time_window === undefined ? "" : ` for ${body.requested_time_window.label}`}.`
  const form = formUrl === undefined ? undefined : `Withdrawal form (every option): ${formUrl}`
  return {
    structured,
    text: lines(heading, ...offered.map(optionText(formUrl !== undefined)), form, `Next: ${step}`)
  }
}

/** Where a booking's later questions go: the tools and the id to pass. */
const bookingNext = (requestId: string) =>
  `Later: get_booking_status with booking_id "${requestId}"; to cancel, cancel_booking with booking_id "${requestId}" (dry_run true first); to move it, search_booking_options, then reschedule_booking with booking_id "${requestId}".`

type BookingFacts = BookingConfirmationResponse | Extract<BookingStatusResponse, { found: true }>

/** How to say a booking's deduction: as the if it is, and who collects what. */
const deductionNote = (body: BookingFacts) => {
  const deduction = body.tax_deduction
  if (deduction.kind === "none") return " No RUT/ROT deduction is stated: promise none."
  const name = deduction.kind.toUpperCase()
  return ` Say the ${name} deduction only as the if it is. ${
    body.tax_deduction_requested
      ? "The user asked for it: the provider collects the identity details it needs; do not ask for them."
      : "The user did not ask for it; if they want it, they tell the provider, who collects what it needs."
  }`
}

/**
 * The booking's step, worded for this result's fields: what to tell the user, that messages do
 * not decide it, and the tools for what comes next.
 */
const bookingStep = (body: BookingFacts, replay: boolean) =>
  `${body.booking.sandbox === true ? "Sandbox: this booking is a test; nobody was told and no real calendar was touched. " : ""}The booking is confirmed${replay ? " (this retry returned the same booking; nothing was booked twice)" : ""}: tell the user the provider, time, price and policy as worded.${deductionNote(body)} Messages (delivery) do not change it. ${bookingNext(body.request_id)}`

const bookingLine = (booking: ConfirmedBooking, deduction: TaxDeductionAnswer, policy: PolicyTerms) =>
  `${booking.provider_name}; ${booking.slot_label ?? `${booking.slot_start_at}–${booking.slot_end_at}`}; ${priceLine(
    {
      amount_sek: booking.price_sek,
      pricing_model: booking.pricing_model ?? "flat",
      price_type: booking.price_type ?? "avg_fixed",
      unit_price_sek: booking.unit_price_sek,
      quantity: booking.quantity
    },
    deduction
  )}. ${policyLine(policy)}`

const presentBookingFacts = (body: BookingFacts, extra: Record<string, unknown>, replay: boolean): Presented => {
  const step = bookingStep(body, replay)
  const booking = body.booking
  const structured = {
    ok: body.ok,
    ...extra,
    booking_created: body.booking_created,
    availability_checked: body.availability_checked,
    provider_selected: body.provider_selected,
    request_id: body.request_id,
    booking: {
      id: booking.id,
      status: booking.status,
      version: booking.version,
      provider: booking.provider_name,
      slot: { start_at: booking.slot_start_at, end_at: booking.slot_end_at },
      price_sek: booking.price_sek,
      terms_version: booking.terms_version,
      ...(booking.sandbox === undefined ? {} : { sandbox: booking.sandbox })
    },
    tax_deduction_requested: body.tax_deduction_requested,
    delivery: deliveryOf(body.confirmation_delivery),
    safe_next_step: step
  }
  return {
    structured,
    text: lines(
      `${flags(body)}; booking.status ${booking.status}; request_id ${body.request_id}.`,
      bookingLine(booking, body.tax_deduction, body.cancellation_policy),
      `Next: ${step}`
    )
  }
}

export const presentConfirmation = (body: BookingConfirmationResponse): Presented =>
  presentBookingFacts(body, { idempotent_replay: body.idempotent_replay }, body.idempotent_replay)

export const presentStatus = (body: BookingStatusResponse): Presented => {
  if (body.found) return presentBookingFacts(body, { found: true }, false)
  const step = `${body.safe_next_step} To book: ${mcpSurface.search}.`
  const { spec_version: _, ...rest } = body
  return {
    structured: { ...rest, safe_next_step: step },
    text: lines(`found false: no booking is held under ${body.booking_id}.`, `Next: ${step}`)
  }
}

export const presentCancel = (body: CancelBookingResponse): Presented => {
  const step = body.cancelled ? `${body.safe_next_step} To book anew: ${mcpSurface.search}.` : body.safe_next_step
  const { cancellation, booking_active, booking_id, cancelled, idempotent_replay, ok, request_id, sandbox } = body
  const structured = {
    ok,
    booking_id,
    request_id,
    cancelled,
    booking_active,
    ...("dry_run" in body ? { dry_run: body.dry_run } : {}),
    cancellation,
    idempotent_replay,
    ...(sandbox === undefined ? {} : { sandbox }),
    delivery: deliveryOf(body.confirmation_delivery),
    safe_next_step: step
  }
  return {
    structured,
    text: lines(
      `cancelled ${cancelled}, booking_active ${booking_active}${"dry_run" in body ? ", dry_run true: nothing changed" : ""}; fee SEK ${cancellation.fee_sek}.`,
      "cancellation_policy" in body ? policyLine(body.cancellation_policy) : undefined,
      `Next: ${step}`
    )
  }
}

export const presentReschedule = (body: RescheduleBookingResponse | ReschedulePreview): Presented => {
  if ("booking" in body) {
    const presented = presentBookingFacts(body, { idempotent_replay: body.idempotent_replay }, body.idempotent_replay)
    return {
      structured: { ...presented.structured, previous_slot: body.previous_slot },
      text: lines(`Moved; the earlier time ${body.previous_slot.start_at} is released.`, presented.text)
    }
  }
  const { new_price, new_cancellation_policy, spec_version: _, new_slot, ...rest } = body
  return {
    structured: {
      ...rest,
      new_slot: { start_at: new_slot.start_at, end_at: new_slot.end_at },
      new_price_sek: new_price.amount_sek
    },
    text: lines(
      `dry_run true, rescheduled false: nothing changed. New time ${new_slot.label}; ${priceLine(new_price, new_price.tax_deduction)} (difference SEK ${body.price_difference_sek}). ${policyLine(new_cancellation_policy)}`,
      `Next: ${body.safe_next_step}`
    )
  }
}

/** A body kept as REST gives it (a follow-up request, an error): its step rendered, the JSON once. */
export const presentAsIs = (body: Record<string, unknown>): Presented => {
  const step = typeof body.safe_next_step === "string" ? body.safe_next_step : undefined
  const headline = Object.entries(body)
    .filter(([key, value]) => key !== "safe_next_step" && key !== "spec_version" && typeof value !== "object")
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(", ")
  const issues = Array.isArray(body.issues) ? `Issues: ${body.issues.join("; ")}` : undefined
  return {
    structured: body,
    text: lines(`${headline}.`, issues, step === undefined ? undefined : `Next: ${step}`),
    whole: true
  }
}

const listed = (label: string, items: ReadonlyArray<string> | undefined) =>
  items === undefined || items.length === 0 ? undefined : `${label}: ${items.join("; ")}.`

const withdrawalSummary = (option: BookingOption) => {
  const section = option.terms.sections.find((each) => each.id === consumerInformationId)
  return typeof section?.summary_en === "string" ? `Withdrawal: ${section.summary_en}` : undefined
}

/** An option's full detail: the REST option as the search gave it, its terms and scope rendered as text. */
export const presentOption = (option: BookingOption): Presented => {
  const sections = option.terms.sections.map((section) => {
    const title = typeof section.title_sv === "string" ? section.title_sv : String(section.id ?? "")
    return `${title}: ${typeof section.text_sv === "string" ? section.text_sv : ""}`
  })
  const deduction = option.price.tax_deduction
  const step = `To book it: hold_booking_option with this booking_option_id, then after the user's consent confirm_booking with it, the hold_id and booking_terms_version "${option.terms.version}" (without a hold: before ${option.expires_at}).`
  return {
    structured: { ...option, safe_next_step: step },
    text: lines(
      `${option.provider.name}: ${option.service.label_sv}${option.service.label_en === undefined ? "" : ` (${option.service.label_en})`}; ${option.slot.label}.`,
      `Price: ${priceLine(option.price, undefined)}. ${deduction.conditions_en}`,
      `Policy: ${option.cancellation_policy.summary_en}`,
      withdrawalSummary(option),
      listed("Included", option.scope.included_sv),
      listed("Not included", option.scope.excluded_sv),
      listed("The customer provides", option.scope.customer_requirements_sv),
      listed("The price may change if", option.scope.price_adjustment_triggers_sv),
      listed("Needs a quote", option.scope.quote_triggers_sv),
      `Terms ${option.terms.version} (${option.terms.url}), in Swedish:`,
      ...sections,
      `Next: ${step}`
    )
  }
}
