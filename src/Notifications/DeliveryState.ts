import { Effect, Option, Schema } from "effect"
import { logFailure } from "../Shared/FailureSummary.js"

export const RecipientRole = Schema.Literals(["customer", "provider"])
export type RecipientRole = typeof RecipientRole.Type
export const Channel = Schema.Literals(["email", "webhook", "none", "sandbox"])
export type Channel = typeof Channel.Type
export const DeliveryStatus = Schema.Literals(["pending", "sent", "failed", "skipped"])

/**
 * Whether a row is ever sent: a row without a channel, or a sandbox partner's (kept in the
 * sandbox, sent to no one), is written skipped and never attempted.
 */
export const isDeliverable = (channel: Channel) => channel === "email" || channel === "webhook"
export type DeliveryStatus = typeof DeliveryStatus.Type

export interface DeliveryState {
  readonly id: string
  readonly recipientRole: RecipientRole
  readonly channel: Channel
  readonly status: DeliveryStatus
  readonly attempts: number
  /** Only while pending. */
  readonly nextAttemptAt: Date | null
  readonly lastError: string | null
  readonly sentAt: Date | null
}

export interface SubjectDeliveryState extends DeliveryState {
  readonly subjectId: string
}

export interface Contact {
  readonly email?: string | null | undefined
  readonly webhookUrl?: string | null | undefined
}

export interface ChannelChoice {
  readonly channel: Channel
  readonly address: string | null
}

/**
 * Delivery states, or none when they cannot be read: delivery is reported beside a booking or a
 * request and never decides it, and what could not be read is reported as unknown, not as unsent.
 */
export const statesOrUnknown = <A, E, R>(read: Effect.Effect<ReadonlyArray<A>, E, R>) =>
  read.pipe(
    Effect.map(Option.some),
    Effect.catch((error) => Effect.as(logFailure("notification states could not be read", error), Option.none()))
  )
