import { kronorEn } from "../Domain/Pricing.js"
import type { CurrentOffer } from "../Domain/Supply.js"

/** The offer's figures as they are now, for a refusal to name: terms version, price and policy. */
export const newFigures = (offer: CurrentOffer) => {
  const price =
    offer.unitPriceSek !== null && offer.unit !== null
      ? `SEK ${kronorEn(offer.unitPriceSek)} per ${offer.unit}`
      : offer.amountSek !== null
        ? `SEK ${kronorEn(offer.amountSek)}`
        : "no fixed price"
  const policy = offer.cancellationPolicy
  const cancellation =
    policy === null
      ? "no cancellation policy stated"
      : `free cancellation until ${policy.freeCancellationHours} h before the start, late fee SEK ${kronorEn(policy.lateFeeSek)}, changes until ${policy.changeHours} h before`
  return `terms_version ${offer.termsVersion}, price ${price}, ${cancellation}`
}
