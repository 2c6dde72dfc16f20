import { randomUUID } from "node:crypto"
import { Clock, Context, Effect, Layer } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { bookingPolicy } from "../Bookings/Answers.js"
import { BookingsRepo } from "../Bookings/BookingsRepo.js"
import { cancellationOf } from "../Bookings/Cancellations.js"
import { lostSlotRace } from "../Bookings/Refusals.js"
import { decodedAs } from "../Database/Rows.js"
import { customerNameOf } from "../Domain/Booking.js"
import { bookedPrice } from "../Domain/BookingRecord.js"
import { earlyStartOf } from "../Domain/EarlyStart.js"
import { type DatabaseUnavailable, InvalidRequest } from "../Domain/Errors.js"
import { isUuid } from "../Domain/Ids.js"
import {
  type Block,
  BlockNotFound,
  BlockOverlapsBlock,
  BlockOverlapsBooking,
  BlockOverlapsHold,
  type BlockRequest,
  bookingHorizonDays,
  defaultBookingsWindowDays,
  maxBookingsWindowDays,
  type ProviderBooking,
  providerSpecVersion,
  type WorkingHoursRequest
} from "../Domain/Provider.js"
import { DAY, formatInZone, providerTimeZone } from "../Domain/Zone.js"
import { changeUnavailable, readUnavailable } from "../Shared/Unavailable.js"
import { providerHours } from "../Supply/SupplyEdits.js"
import { BlockRow, type BookingRow, type Location } from "./CalendarRows.js"

const location = (stored: Location) => ({
  address: stored.address ?? null,
  postcode: stored.postcode,
  country_code: stored.country_code
})

const providerBooking = (row: BookingRow, now: Date): ProviderBooking => ({
  id: row.id,
  request_id: row.requestId,
  status: row.status,
  version: row.version,
  service_id: row.serviceId,
  service_label_sv: row.serviceLabelSv,
  vertical_id: row.verticalId,
  job_type_id: row.jobTypeId,
  slot_start_at: formatInZone(row.slotStart, providerTimeZone),
  slot_end_at: formatInZone(row.slotEnd, providerTimeZone),
  slot_label: row.slotLabel,
  ...bookedPrice(row),
  terms_version: row.termsVersion,
  terms_url: row.termsUrl,
  scope: row.scope,
  customer:
    row.customer === null
      ? null
      : { name: customerNameOf(row.customer), phone: row.customer.phone, email: row.customer.email },
  service_location: location(row.serviceLocation),
  ...(row.destinationLocation === null ? {} : { destination_location: location(row.destinationLocation) }),
  confirmed_at: formatInZone(row.confirmedAt, providerTimeZone),
  ...(row.personalDataErasedAt === null
    ? {}
    : { personal_data_erased_at: formatInZone(row.personalDataErasedAt, providerTimeZone) }),
  cancellation_policy: bookingPolicy(row, providerTimeZone, now),
  early_start: earlyStartOf({ ...row, timeZone: providerTimeZone }),
  conflicts_with_busy_time: row.conflictsWithBusyTime,
  // Never the caller's free-text reason: that is the partner's.
  ...(row.status === "cancelled" && row.cancelledAt !== null
    ? { cancellation: cancellationOf(row, providerTimeZone) }
    : {})
})

const blockOf = (row: BlockRow): Block => ({
  id: row.id,
  start_at: formatInZone(row.startAt, providerTimeZone),
  end_at: formatInZone(row.endAt, providerTimeZone),
  ...(row.note === null ? {} : { note: row.note }),
  created_at: formatInZone(row.createdAt, providerTimeZone)
})

/** The envelope of every provider answer. */
export const providerAnswer = <A extends object>(body: A) => ({
  ok: true as const,
  spec_version: providerSpecVersion,
  ...body
})

export const deletedAnswer = (step: string) => providerAnswer({ deleted: true as const, safe_next_step: step })

const unread = (what: string) =>
  `The database does not answer, so your ${what} could not be read; nothing was changed. Try again in a moment.`

const outageSteps = {
  block: {
    notChanged: "The database does not answer, so nothing was blocked. Block the time again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether the time was blocked. Once the service answers, list your blocks (GET /api/provider/blocks) before blocking it again: a second block over the same time is refused (409 block_overlaps_block, naming the first)."
  },
  deleteBlock: (id: string) => ({
    notChanged:
      "The database does not answer, so nothing was deleted. Delete the block again once the service answers.",
    unknown: `The database did not answer in time, so it is not known whether block ${id} was deleted. Once the service answers, delete it again: a block already deleted answers 404 block_not_found, and GET /api/provider/blocks lists what remains.`
  }),
  hours: {
    notChanged:
      "The database does not answer, so your working hours were not changed. Send the same PUT again once the service answers.",
    unknown:
      "The database did not answer in time, so it is not known whether your new working hours were saved. Send the same PUT again once the service answers: it replaces the hours whole, so sending it twice is safe."
  }
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

/**
 * A provider's own side of the calendar: its jobs, its blocks (in the same no-overlap calendar as
 * bookings), its working hours and dates off (the feed its calendar app subscribes to is CalendarFeeds).
 */
export class ProviderCalendar extends Context.Service<ProviderCalendar>()("Booking/ProviderCalendar", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* BookingsRepo
    const ownHours = providerHours(sql)
    const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

    const bookings = Effect.fn("ProviderCalendar.bookings")(function* (
      providerId: string,
      window: { readonly from?: string | undefined; readonly to?: string | undefined }
    ) {
      const at = yield* now
      const from = window.from === undefined ? at.getTime() : Date.parse(window.from)
      const to = window.to === undefined ? from + defaultBookingsWindowDays * DAY : Date.parse(window.to)
      if (!(from < to)) return yield* new InvalidRequest({ issues: ["to: must be after from"] })
      if (to - from > maxBookingsWindowDays * DAY) {
        return yield* new InvalidRequest({ issues: [`to: the window may span at most ${maxBookingsWindowDays} days`] })
      }
      const rows = yield* repo
        .providerJobs(providerId, new Date(from), new Date(to))
        .pipe(readUnavailable("provider bookings", `${unread("bookings")} Bookings already confirmed stand.`))
      return providerAnswer({
        provider_id: providerId,
        from: formatInZone(from, providerTimeZone),
        to: formatInZone(to, providerTimeZone),
        bookings: rows.map((row) => providerBooking(row, at))
      })
    })

    /** What holds the time a block was refused for: a booking (named), another block or a partner's hold. */
    const conflictOf = (providerId: string, start: Date, end: Date, at: Date) =>
      Effect.gen(function* () {
        const rows = yield* repo.slotHolder(providerId, start, end, at)
        const row = rows[0]
        if (row === undefined) return undefined
        if (row.kind === "hold") {
          const until = formatInZone(row.expiresAt ?? row.slotEnd, providerTimeZone)
          return new BlockOverlapsHold({
            issues: [
              `start_at: overlaps hold ${row.id} (${formatInZone(row.slotStart, providerTimeZone)} to ${formatInZone(row.slotEnd, providerTimeZone)}), held for a customer until ${until}`
            ],
            safe_next_step: `Nothing was blocked. A partner holds part of this time for a customer who is deciding, until ${until}; it may become a booking. Block only the time around it, or block again after ${until}.`
          })
        }
        if (row.kind === "block") {
          return new BlockOverlapsBlock({
            issues: [
              `start_at: overlaps your block ${row.id} (${formatInZone(row.slotStart, providerTimeZone)} to ${formatInZone(row.slotEnd, providerTimeZone)})`
            ],
            safe_next_step: "Nothing was blocked. The time is already blocked; change or delete that block instead."
          })
        }
        return new BlockOverlapsBooking({
          issues: [`start_at: overlaps the active booking ${row.id} (${row.slotLabel ?? ""})`],
          booking_id: row.id,
          request_id: row.requestId ?? row.id,
          existing_booking: {
            id: row.id,
            request_id: row.requestId ?? row.id,
            status: "confirmed",
            provider_id: providerId,
            provider_name: row.providerName ?? "",
            service_id: row.serviceId ?? "",
            slot_start_at: formatInZone(row.slotStart, providerTimeZone),
            slot_end_at: formatInZone(row.slotEnd, providerTimeZone),
            slot_label: row.slotLabel ?? ""
          },
          safe_next_step:
            "Nothing was blocked: the booking named here holds part of this time and stands. Block only the time around it, or cancel the booking first if you cannot do the job."
        })
      })

    const createBlock = Effect.fn("ProviderCalendar.createBlock")(function* (
      providerId: string,
      request: BlockRequest
    ) {
      const at = yield* now
      const start = new Date(request.start_at)
      const end = new Date(request.end_at)
      const issues: Array<string> = []
      if (!(start < end)) issues.push("end_at: must be after start_at")
      if (end <= at) issues.push("end_at: lies in the past; a block only keeps future time free")
      if (end.getTime() > at.getTime() + bookingHorizonDays * DAY) {
        issues.push(`end_at: must lie within ${bookingHorizonDays} days`)
      }
      if (issues.length > 0) return yield* new InvalidRequest({ issues })
      const id = randomUUID()
      // One statement, so a block is written whole or not at all, and its outcome follows from how it failed.
      const insert = sql`
        WITH held AS (
          INSERT INTO calendar_bookings (id, provider_id, service_id, during, sandbox, calendar, kind, claimed_at)
          VALUES (${id}::uuid, ${providerId}, NULL, tstzrange(${start}, ${end}, '[)'), false, 'live', 'block', ${at})
          RETURNING id)
        INSERT INTO provider_blocks (id, provider_id, note, created_at)
        SELECT held.id, ${providerId}, ${request.note ?? null}, ${at} FROM held`
      const blocked = changeUnavailable("provider block", outageSteps.block)
      // A refusal names what holds the time; if that is gone again by the time it is read, one more try.
      // What holds it is read after PostgreSQL refused the block: nothing was blocked, whatever that read meets.
      const holder = conflictOf(providerId, start, end, at).pipe(
        readUnavailable("provider block", outageSteps.block.notChanged)
      )
      type Refusal = DatabaseUnavailable | BlockOverlapsBooking | BlockOverlapsBlock | BlockOverlapsHold
      const attempt = (tries: number): Effect.Effect<void, Refusal> =>
        blocked(
          Effect.catch(
            Effect.asVoid(insert),
            (error): Effect.Effect<void, SqlError | Refusal> =>
              !lostSlotRace(error)
                ? Effect.fail(error)
                : Effect.flatMap(
                    holder,
                    (conflict): Effect.Effect<void, SqlError | Refusal> =>
                      conflict !== undefined
                        ? Effect.fail(conflict)
                        : tries > 0
                          ? attempt(tries - 1)
                          : Effect.fail(error)
                  )
          )
        )
      yield* attempt(1)
      const block = blockOf({ id, startAt: start, endAt: end, note: request.note ?? null, createdAt: at })
      return providerAnswer({
        block,
        safe_next_step: `The time from ${block.start_at} to ${block.end_at} is blocked: searches no longer offer it and no booking can take it. Delete the block to free it.`
      })
    })

    const blocks = Effect.fn("ProviderCalendar.blocks")(function* (providerId: string) {
      const at = yield* now
      const rows = yield* sql`
        SELECT c.id, lower(c.during) AS start_at, upper(c.during) AS end_at, k.note, k.created_at
        FROM provider_blocks k JOIN calendar_bookings c ON c.id = k.id
        WHERE k.provider_id = ${providerId} AND upper(c.during) > ${at}
        ORDER BY lower(c.during), c.id`.pipe(decodedAs(BlockRow), readUnavailable("provider blocks", unread("blocks")))
      return providerAnswer({ blocks: rows.map(blockOf) })
    })

    const deleteBlock = Effect.fn("ProviderCalendar.deleteBlock")(function* (providerId: string, blockId: string) {
      const notFound = new BlockNotFound({
        issues: [`block_id: you have no block ${blockId}`],
        safe_next_step: "Nothing was deleted. List your blocks (GET /api/provider/blocks) for their ids."
      })
      if (!isUuid(blockId)) return yield* notFound
      const rows = yield* sql`
        DELETE FROM calendar_bookings
        WHERE id = ${blockId}::uuid AND provider_id = ${providerId} AND kind = 'block' RETURNING id`.pipe(
        changeUnavailable("provider block deletion", outageSteps.deleteBlock(blockId))
      )
      if (rows.length === 0) return yield* notFound
      return deletedAnswer("The block is deleted: its time is free again within your working hours.")
    })

    const readHours = (providerId: string) =>
      Effect.gen(function* () {
        const { hours, off } = yield* ownHours.read(providerId)
        return providerAnswer({
          time_zone: "Europe/Stockholm" as const,
          weekly_hours: hours.map((h) => ({ iso_weekday: h.isoWeekday, opens: h.opens, closes: h.closes })),
          dates_off: off.map((d) => d.date)
        })
      })

    const workingHours = Effect.fn("ProviderCalendar.workingHours")(function* (providerId: string) {
      const current = yield* readHours(providerId).pipe(
        readUnavailable("provider working hours", unread("working hours"))
      )
      return {
        ...current,
        safe_next_step:
          "These are the hours searches offer you in (Europe/Stockholm wall-clock time); no slot is offered on a date off."
      }
    })

    const setWorkingHours = Effect.fn("ProviderCalendar.setWorkingHours")(function* (
      providerId: string,
      request: WorkingHoursRequest
    ) {
      const issues: Array<string> = []
      request.weekly_hours.forEach((h, i) => {
        const clash = request.weekly_hours.findIndex(
          (other, j) =>
            j < i &&
            other.iso_weekday === h.iso_weekday &&
            minutesOf(h.opens) < minutesOf(other.closes) &&
            minutesOf(other.opens) < minutesOf(h.closes)
        )
        if (clash >= 0) issues.push(`weekly_hours.${i}: overlaps weekly_hours.${clash} on the same day`)
      })
      if (issues.length > 0) return yield* new InvalidRequest({ issues })
      const at = yield* now
      yield* ownHours
        .set(providerId, request.weekly_hours, [...new Set(request.dates_off)], at)
        .pipe(changeUnavailable("provider working hours", outageSteps.hours))
      const current = yield* readHours(providerId).pipe(
        readUnavailable(
          "provider working hours",
          "Your working hours are saved, but the database did not answer when they were read back. GET /api/provider/working-hours shows them once the service answers."
        )
      )
      return {
        ...current,
        safe_next_step:
          "Saved: searches and confirms use these hours and dates off from now on. Bookings already made stand; a later supply import no longer changes your hours."
      }
    })

    return { bookings, createBlock, blocks, deleteBlock, workingHours, setWorkingHours } as const
  })
}) {
  static readonly Default = Layer.effect(this, this.make).pipe(Layer.provide(BookingsRepo.Default))
}
