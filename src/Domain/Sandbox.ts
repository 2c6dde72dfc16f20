import type { Delivery } from "./Booking.js"

/**
 * What an answer may say of a sandbox partner's booking or request, in one place: every message
 * is kept in the sandbox and sent to no one, so each delivery is `skipped` (reason `sandbox`) and
 * every step says nobody was told. Answers for live and sandbox partners are built from the same
 * facts; only these words and the delivery differ.
 */
export const sandboxDelivery: Delivery = {
  status: "skipped",
  channel: "sandbox",
  attempts: 0,
  will_retry: false,
  reason: "sandbox"
}

/** The first words of every sandbox step, refusals included. */
export const sandboxPrefix = "Sandbox: "

export const sandboxBookingNote = `${sandboxPrefix}this booking is a test. No provider or customer was told: every message was kept in the sandbox and skipped (confirmation_delivery says skipped, reason sandbox), and no provider's real calendar was touched. `

export const sandboxChangeNote = `${sandboxPrefix}this is a test booking; no provider or customer was told: every message was kept in the sandbox and skipped. `

/** A sandbox request's step goes on with its hand-off, which says that no provider was contacted. */
export const sandboxRequestNote = `${sandboxPrefix}this request is a test. `

/** The words of a sandbox request's hand-off: nobody received it, and nobody will contact the user. */
export const sandboxHandoffWords =
  "No provider was contacted: the request was made with a sandbox token, so the hand-off was kept in the sandbox and sent to no one, and nobody will contact the user about it. With a live token it would be handed to the providers in provider_candidates that can receive requests."
