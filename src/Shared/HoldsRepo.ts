import { Context, Effect, Layer, Option, Schema } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import { rowsOf } from "../Database/Rows.js"

/** A partner's hold as the booking_holds table keeps it: the option and what its answer shows, never a person. */
export const StoredHold = Schema.Struct({
  id: Schema.String,
  partnerId: Schema.String,
  sandbox: Schema.Boolean,
  status: Schema.Literals(["active", "released", "confirmed"]),
  bookingOptionId: Schema.String,
  providerId: Schema.String,
  serviceId: Schema.String,
  slotStart: Schema.Date,
  slotEnd: Schema.Date,
  slotLabel: Schema.String,
  timeZone: Schema.String,
  priceSek: Schema.Int,
  expiresAt: Schema.Date,
  createdAt: Schema.Date,
  releasedAt: Schema.NullOr(Schema.Date),
  bookingId: Schema.NullOr(Schema.String),
  confirmedAt: Schema.NullOr(Schema.Date)
})
export type StoredHold = typeof StoredHold.Type

const LiveCount = Schema.Struct({ live: Schema.Int })

/** Still holding its time at `at`: not released or confirmed, and not run out on the service's clock. */
export const isLive = (hold: StoredHold, at: Date) => hold.status === "active" && at < hold.expiresAt

/** The slot a hold or an option is for, in one calendar. */
export interface HeldSlot {
  readonly providerId: string
  readonly serviceId: string
  readonly slotStart: Date
  readonly slotEnd: Date
}

/** The slot a signed option is for. */
export const slotOfOption = (option: {
  readonly providerId: string
  readonly serviceId: string
  readonly slotStart: number
  readonly slotEnd: number
}): HeldSlot => ({
  providerId: option.providerId,
  serviceId: option.serviceId,
  slotStart: new Date(option.slotStart),
  slotEnd: new Date(option.slotEnd)
})

const columns = (sql: SqlClient.SqlClient) =>
  sql.literal(`id, partner_id, sandbox, status, booking_option_id, provider_id, service_id, slot_start, slot_end,
    slot_label, time_zone, price_sek, expires_at, created_at, released_at, booking_id, confirmed_at`)

/** The booking_holds table: what a partner holds, until when, and what became of it. */
export class HoldsRepo extends Context.Service<HoldsRepo>()("Booking/HoldsRepo", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // A stored hold that does not decode is a damaged table, not an answer for the client.
    const decoded = <E, R>(rows: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      rows.pipe(
        rowsOf(StoredHold),
        Effect.catchTag("SchemaError", (error) => Effect.die(error))
      )

    const insertion = (hold: StoredHold) => sql`
      INSERT INTO booking_holds (id, partner_id, sandbox, status, booking_option_id, provider_id, service_id,
        slot_start, slot_end, slot_label, time_zone, price_sek, expires_at, created_at)
      VALUES (${hold.id}::uuid, ${hold.partnerId}, ${hold.sandbox}, 'active', ${hold.bookingOptionId},
        ${hold.providerId}, ${hold.serviceId}, ${hold.slotStart}, ${hold.slotEnd}, ${hold.slotLabel},
        ${hold.timeZone}, ${hold.priceSek}, ${hold.expiresAt}, ${hold.createdAt})`

    /**
     * The statement of `find` (a hold id) or `latestOn` (a slot): the partner's latest hold on
     * exactly that slot, in whatever state (a partner has at most one live hold on a slot, and it
     * is always its latest there). A confirm reads it with the offer in one round trip.
     */
    const heldStatement = (partnerId: string, target: string | HeldSlot) =>
      typeof target === "string"
        ? sql`SELECT ${columns(sql)} FROM booking_holds WHERE id = ${target}::uuid AND partner_id = ${partnerId}`
        : sql`SELECT ${columns(sql)} FROM booking_holds
        WHERE partner_id = ${partnerId} AND provider_id = ${target.providerId} AND service_id = ${target.serviceId}
          AND slot_start = ${target.slotStart} AND slot_end = ${target.slotEnd}
        ORDER BY created_at DESC LIMIT 1`

    const find = (partnerId: string, holdId: string) =>
      heldStatement(partnerId, holdId).pipe(
        decoded,
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      )

    /** The partner's latest hold on exactly this slot, in whatever state (see heldStatement). */
    const latestOn = (partnerId: string, slot: HeldSlot) =>
      heldStatement(partnerId, slot).pipe(
        decoded,
        Effect.map((rows) => Option.fromNullishOr(rows[0]))
      )

    /**
     * The partner's live holds, counted after taking the partner's lock: inside a transaction,
     * two holds of one partner are counted one after the other, so the cap holds under a race.
     */
    const lockAndCount = (partnerId: string, at: Date) =>
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`hold:${partnerId}`}, 0))`
        const rows = yield* sql`
          SELECT count(*)::int AS live FROM booking_holds
          WHERE partner_id = ${partnerId} AND status = 'active' AND expires_at > ${at}`.pipe(
          rowsOf(LiveCount),
          Effect.catchTag("SchemaError", (error) => Effect.die(error))
        )
        return rows[0]?.live ?? 0
      })

    /** Marks a live hold released; what it returns says whether this call released it. */
    const release = (partnerId: string, holdId: string, at: Date) =>
      sql`UPDATE booking_holds SET status = 'released', released_at = ${at}
        WHERE id = ${holdId}::uuid AND partner_id = ${partnerId} AND status = 'active' AND expires_at > ${at}
        RETURNING id`.pipe(Effect.map((rows) => rows.length > 0))

    /**
     * The hold becomes the booking, for the confirm's or the move's statement; a hold that has run
     * out by `at` stays as it is (expired), and the booking stands on its own.
     */
    const confirmation = (hold: { readonly holdId: string; readonly partnerId: string }, bookingId: string, at: Date) =>
      sql`UPDATE booking_holds SET status = 'confirmed', booking_id = ${bookingId}::uuid, confirmed_at = ${at}
        WHERE id = ${hold.holdId}::uuid AND partner_id = ${hold.partnerId} AND status = 'active' AND expires_at > ${at}
        RETURNING id`

    return { insertion, heldStatement, find, latestOn, lockAndCount, release, confirmation } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make)
}
