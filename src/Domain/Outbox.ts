import { Schema } from "effect"

const column = <S extends Schema.Schema.Any>(schema: S, key: string) =>
  Schema.propertySignature(schema).pipe(Schema.fromKey(key))

/** A notification as written to the outbox: camelCase here, the table's snake_case when encoded. */
export const OutboxRow = Schema.Struct({
  id: Schema.UUID,
  topic: Schema.Literal("booking_confirmed", "request_created"),
  subjectId: column(Schema.UUID, "subject_id"),
  recipientRole: column(Schema.Literal("customer", "provider"), "recipient_role"),
  providerId: column(Schema.NullOr(Schema.String), "provider_id"),
  channel: Schema.Literal("email", "webhook", "none", "sandbox"),
  address: Schema.NullOr(Schema.String),
  subject: Schema.String,
  body: Schema.String,
  payload: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  status: Schema.Literal("pending", "skipped"),
  giveUpAt: column(Schema.Date, "give_up_at")
})
export type OutboxRow = typeof OutboxRow.Type

/** What a caller hands the outbox; its status and give-up time are the Notifier's to derive. */
export type Notification = Omit<OutboxRow, "status" | "giveUpAt">
