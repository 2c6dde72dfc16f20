import { policyTerms } from "../Domain/CancellationPolicy.js"
import type { VerticalId } from "../Domain/Catalog.js"
import { slotLabel } from "../Domain/Labels.js"
import type { BookingOption } from "../Domain/Search.js"
import { taxDeduction } from "../Domain/TaxDeduction.js"
import { deductionAnswer } from "../Domain/TaxDeductionSchema.js"
import { formatInZone } from "../Domain/Zone.js"
import type { Found } from "./Choice.js"

/** The deduction under the rule in force on the slot's date, for the price as quoted. */
const deductionOf = ({ candidate, slot, quote }: Found) =>
  deductionAnswer(
    taxDeduction(
      {
        amountSek: quote.amountSek,
        pricingModel: candidate.pricingModel,
        priceType: candidate.priceType,
        unitPriceSek: quote.unitPriceSek,
        quantity: quote.quantity
      },
      candidate.taxDeduction ?? undefined,
      slot.start
    )
  )

/** What an option is said for: the job searched and the zone its times are written in. */
export interface OptionContext {
  readonly jobTypeId: string
  readonly timeZone: string
  readonly verticalId: VerticalId
}

/**
 * A priced, free slot as the booking option a search answers; also how an option's full detail
 * is given again for its id (the MCP get_booking_option tool), so both say it in the same words.
 */
export const optionBody = (
  context: OptionContext,
  found: Found,
  signed: { readonly token: string; readonly expiresAt: Date },
  now: Date
): BookingOption => {
  const { candidate, slot } = found
  return {
    booking_option_id: signed.token,
    expires_at: formatInZone(signed.expiresAt, context.timeZone),
    provider: {
      id: candidate.providerId,
      name: candidate.providerName,
      city: candidate.city,
      ...(candidate.ratingLabel === null ? {} : { rating_label: candidate.ratingLabel })
    },
    service: {
      service_id: candidate.serviceId,
      vertical_id: context.verticalId,
      job_type_id: context.jobTypeId,
      label_sv: candidate.labelSv,
      ...(candidate.labelEn === null ? {} : { label_en: candidate.labelEn })
    },
    slot: {
      start_at: formatInZone(slot.start, context.timeZone),
      end_at: formatInZone(slot.end, context.timeZone),
      label: slotLabel(slot, context.timeZone)
    },
    price: {
      amount_sek: found.quote.amountSek,
      currency: "SEK",
      pricing_model: candidate.pricingModel,
      price_type: candidate.priceType,
      ...(found.quote.unitPriceSek === undefined ? {} : { unit_price_sek: found.quote.unitPriceSek }),
      ...(found.quote.unit === undefined ? {} : { unit: found.quote.unit }),
      ...(found.quote.quantity === undefined ? {} : { quantity: found.quote.quantity }),
      tax_deduction: deductionOf(found)
    },
    scope: candidate.scope,
    terms: {
      version: candidate.termsVersion,
      url: candidate.termsUrl,
      sections: candidate.termsSections,
      source_urls: candidate.termsSourceUrls
    },
    cancellation_policy: policyTerms(candidate.cancellationPolicy, slot.start, context.timeZone, now.getTime())
  }
}
