/**
 * Holds as a model reads them: the hold id, until when the time is held, the slot and the price,
 * that nothing is booked, and the tool to call next with the ids it takes.
 */
import type { Hold, HoldReleaseResponse, HoldResponse } from "../Domain/Hold.js"
import { sandboxPrefix } from "../Domain/Sandbox.js"
import { mcpSurface } from "../Domain/Surface.js"
import type { Presented } from "./Present.js"

/** "14:05": expires_at is written in the search's zone, so its wall-clock time is the one to say. */
const heldUntil = (hold: Hold) => hold.expires_at.slice(11, 16)

/** The sandbox sentence the service's step opens with, kept when the step is worded here. */
const sandboxSentence = (step: string) => {
  if (!step.startsWith(sandboxPrefix)) return ""
  const end = step.indexOf(". ")
  return end < 0 ? "" : step.slice(0, end + 2)
}

/** A live hold's step, with the ids confirm_booking and release_hold take written out. */
const activeStep = (hold: Hold, serviceStep: string) => {
  const until = heldUntil(hold)
  return `${sandboxSentence(serviceStep)}Held until ${until}; nothing is booked yet. Now ask the user for name, phone, e-mail and address and their consent, then confirm_booking with hold_id "${hold.hold_id}", its booking_option_id, booking_terms_version = its terms_version and a new idempotency_key before ${until}. Not wanted: release_hold with hold_id "${hold.hold_id}".`
}

const holdOf = (hold: Hold) => ({
  hold_id: hold.hold_id,
  status: hold.status,
  booking_option_id: hold.booking_option_id,
  expires_at: hold.expires_at,
  slot: hold.slot,
  price_sek: hold.price_sek,
  ...(hold.booking_id === undefined ? {} : { booking_id: hold.booking_id })
})

const holdLine = (hold: Hold) =>
  `hold_id ${hold.hold_id}, status ${hold.status}${hold.booking_id === undefined ? "" : `, booking_id ${hold.booking_id}`}; ${hold.slot.label}; SEK ${hold.price_sek} as searched; ${hold.status === "active" ? "held until" : "expires_at"} ${heldUntil(hold)} (${hold.expires_at}).`

export const presentHold = (body: HoldResponse): Presented => {
  const step = body.hold.status === "active" ? activeStep(body.hold, body.safe_next_step) : body.safe_next_step
  return {
    structured: {
      ok: body.ok,
      booking_created: body.booking_created,
      idempotent_replay: body.idempotent_replay,
      hold: holdOf(body.hold),
      safe_next_step: step
    },
    text: [
      `booking_created false${body.idempotent_replay ? " (a retry: the same hold)" : ""}; ${holdLine(body.hold)}`,
      `Next: ${step}`
    ].join("\n")
  }
}

export const presentRelease = (body: HoldReleaseResponse): Presented => {
  const step = body.released ? `${body.safe_next_step} For another time: ${mcpSurface.search}.` : body.safe_next_step
  return {
    structured: { ok: body.ok, released: body.released, hold: holdOf(body.hold), safe_next_step: step },
    text: [
      `released ${body.released}${body.released ? ": the time is free for others again" : ""}; nothing is booked by a hold.`,
      holdLine(body.hold),
      `Next: ${step}`
    ].join("\n")
  }
}
