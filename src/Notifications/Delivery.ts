import { Data, Effect } from "effect"

/** Why an attempt did not reach its recipient, worded for the outbox row's last_error (no personal data). */
export class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{ readonly reason: string }> {}

export const fail = (reason: string) => Effect.fail(new DeliveryFailed({ reason }))

/** The value, trimmed, or null when nothing is left. */
export const present = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? ""
  return trimmed === "" ? null : trimmed
}

/** An error code as Node and nodemailer spell them (`ECONNREFUSED`), or undefined for anything else. */
export const errorCode = (value: unknown) =>
  typeof value === "string" && /^[A-Z][A-Z0-9_]*$/.test(value) ? value : undefined
