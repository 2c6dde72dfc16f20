import { Schema } from "effect"

/** A notification as written to the outbox: camelCase here, the table's snake_case when encoded. */
export const OutboxRow = Schema.Struct({
  id: Schema.String.check(Schema.isUUID()),
  topic: Schema.Literals([
    "booking_confirmed",
    "request_created",
    "booking_cancelled",
    "booking_rescheduled",
    "busy_time_conflict",
    "request_withdrawn",
    "personal_data_erased"
  ]),
  subjectId: Schema.String.check(Schema.isUUID()),
  recipientRole: Schema.Literals(["customer", "provider"]),
  providerId: Schema.NullOr(Schema.String),
  channel: Schema.Literals(["email", "webhook", "none", "sandbox"]),
  address: Schema.NullOr(Schema.String),
  subject: Schema.String,
  body: Schema.String,
  payload: Schema.Record(Schema.String, Schema.Unknown),
  status: Schema.Literals(["pending", "skipped"]),
  giveUpAt: Schema.DateFromString
}).pipe(
  Schema.encodeKeys({
    subjectId: "subject_id",
    recipientRole: "recipient_role",
    providerId: "provider_id",
    giveUpAt: "give_up_at"
  })
)
export type OutboxRow = typeof OutboxRow.Type

/** What a caller hands the outbox; its status and give-up time are the Notifier's to derive. */
export type Notification = Omit<OutboxRow, "status" | "giveUpAt">
