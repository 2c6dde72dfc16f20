import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Bookings } from "../../src/Bookings/Bookings.js"
import type { BookingConfirmationRequest, ConfirmedBooking } from "../../src/Domain/Booking.js"
import { withinWithdrawal } from "../../src/Domain/Withdrawal.js"
import {
  bookingStates,
  type ChangeOutcome,
  cancel,
  cancelRequest,
  confirm,
  describeChange,
  describeOutcome,
  fc,
  heldRows,
  importSupply,
  offeredTermsOf,
  optionRequest,
  otherPartner,
  overlaps,
  PropLayer,
  type PropRun,
  type ProviderSpec,
  partner,
  propRunner,
  propSettings,
  provider,
  reschedule,
  rescheduleRequest,
  resetBookings,
  type Slot,
  searchedAt,
  serviceId,
  showSlot,
  slotAt,
  takingTimeAt
} from "../support/Props.js"
import { ExpireCommand, HoldCommand, type ModelHold, ReleaseCommand } from "./HoldCommands.js"

const law =
  "confirm, status, cancel, reschedule, hold, release and time passing behave like the in-memory calendar model; no two of a provider's bookings and live holds overlap"
const settings = propSettings(law, { quick: 25, deep: 2000 })

const keyCount = 4

interface ModelBooking {
  readonly key: number
  readonly request: BookingConfirmationRequest
  readonly id: string
  readonly requestId: string
  readonly provider: ProviderSpec
  /** The slot it was confirmed for: what its confirm key's request names. */
  readonly confirmedSlot: Slot
  /** When it was confirmed: the withdrawal period runs from then (2005:59, 2 kap. 12 §). */
  readonly confirmedAt: number
  /** The slot it holds now (moves change it); a cancelled booking holds none. */
  slot: Slot
  version: number
  cancelled: boolean
}

/** What a cancel or reschedule key holds: the change it made and the answer it gave first. */
interface CancelKey {
  readonly booking: ModelBooking
  readonly by: "customer" | "partner"
  readonly answer: unknown
}

interface MoveKey {
  readonly booking: ModelBooking
  readonly providerId: string
  readonly slot: Slot
  readonly version: number
  readonly answer: unknown
}

/**
 * The calendar as the spec describes it: one booking per key, each with a stable id and a version
 * that each change raises by one; no two active bookings of a provider overlap; a cancelled
 * booking holds no time; every change a key made is replayed as first answered.
 */
class CalendarModel {
  readonly byKey = new Map<number, ModelBooking>()
  readonly bookings: Array<ModelBooking> = []
  readonly cancelKeys = new Map<number, CancelKey>()
  readonly moveKeys = new Map<number, MoveKey>()
  readonly holds: Array<ModelHold> = []
  now = searchedAt.getTime()
  changes = 0
  live(hold: ModelHold) {
    return hold.status === "active" && this.now < hold.expiresAt
  }
  /** The live hold `who` has on exactly this slot: its own confirm or move takes it over. */
  ownHold(who: typeof partner, p: ProviderSpec, slot: Slot) {
    return this.holds.find(
      (h) =>
        this.live(h) &&
        h.who === who &&
        h.provider.id === p.id &&
        h.slot.start === slot.start &&
        h.slot.end === slot.end
    )
  }
  clashes(p: ProviderSpec, slot: Slot, except?: ModelBooking, own?: ModelHold) {
    return (
      this.bookings.some((b) => b !== except && !b.cancelled && b.provider.id === p.id && overlaps(b.slot, slot)) ||
      this.holds.some((h) => h !== own && this.live(h) && h.provider.id === p.id && overlaps(h.slot, slot))
    )
  }
  add(booking: ModelBooking) {
    this.byKey.set(booking.key, booking)
    this.bookings.push(booking)
  }
}

const HOUR = 3_600_000

/** The fee a cancel at `now` carries under the provider's policy: free before the deadline, the late fee from it on. */
/** Free under the provider's own terms: no late fee, or before its free-cancellation deadline. */
const freeByTerms = (b: ModelBooking, now: number) => {
  const policy = b.provider.policy
  return policy === undefined || policy.late_fee_sek === 0 || now < b.slot.start - policy.free_cancellation_hours * HOUR
}

/** A cancel before the start within the withdrawal period is free (2 kap. 10 and 15 §§); after it, the provider's policy. */
const feeAt = (b: ModelBooking, now: number) => {
  if (freeByTerms(b, now)) return 0
  if (now < b.slot.start && withinWithdrawal(b.confirmedAt, now)) return 0
  return b.provider.policy?.late_fee_sek ?? 0
}

const changeableAt = (b: ModelBooking, now: number) =>
  now < b.slot.start && now < b.slot.start - (b.provider.policy?.change_hours ?? 0) * HOUR

/** A version to send as expected_version: none, the one the model holds, or one off either way. */
const expectedVersionOf = (b: ModelBooking | undefined, offset: number | undefined) =>
  b === undefined || offset === undefined ? undefined : Math.max(1, b.version + offset)

interface Real {
  readonly run: PropRun
  readonly providers: ReadonlyArray<ProviderSpec>
  readonly slots: ReadonlyArray<Slot>
}

type BookingCommand = fc.AsyncCommand<CalendarModel, Real>

const keyOf = (index: number) => `model-key-${index}`

const expectSameBooking = (
  actual: { readonly request_id?: string; readonly requestId?: string; readonly booking: ConfirmedBooking },
  expected: ModelBooking,
  label: string
) => {
  expect(actual.requestId ?? actual.request_id, label).toBe(expected.requestId)
  expect(actual.booking, label).toMatchObject({
    id: expected.id,
    status: "confirmed",
    provider_id: expected.provider.id,
    service_id: serviceId,
    price_sek: expected.provider.amountSek,
    currency: "SEK",
    terms_version: offeredTermsOf(expected.provider)
  })
  expect(actual.booking.version, label).toBe(expected.version)
  expect(Date.parse(actual.booking.slot_start_at), label).toBe(expected.slot.start)
  expect(Date.parse(actual.booking.slot_end_at), label).toBe(expected.slot.end)
}

const bookingOf = (model: CalendarModel, ref: number) => model.bookings[ref % (model.bookings.length + 1)]

/** The id a command names: a model booking's id or request id, or one that never existed. */
const refOf = (expected: ModelBooking | undefined, byRequestId: boolean) =>
  expected === undefined
    ? byRequestId
      ? `bkg_${randomUUID().slice(0, 20)}`
      : randomUUID()
    : byRequestId
      ? expected.requestId
      : expected.id

const expectRejected = (outcome: ChangeOutcome<unknown>, code: string, label: string) =>
  expect(outcome, label).toMatchObject({ _tag: "Rejected", code })

/** A new option for a provider's slot, under a key that is fresh, used with this body, or used with another. */
class ConfirmCommand implements BookingCommand {
  constructor(
    readonly providerIndex: number,
    readonly slotIndex: number,
    readonly keyIndex: number,
    readonly sameBody: boolean
  ) {}
  check() {
    return true
  }
  async run(model: CalendarModel, real: Real) {
    const p = real.providers[this.providerIndex % real.providers.length]!
    const slot = real.slots[this.slotIndex % real.slots.length]!
    const used = model.byKey.get(this.keyIndex)
    const request =
      used !== undefined && this.sameBody
        ? used.request
        : await real.run(optionRequest(p, slot, keyOf(this.keyIndex), this.keyIndex, new Date(model.now)))
    const own = model.ownHold(partner, p, slot)
    const outcome = await real.run(confirm(request, new Date(model.now)))
    const label = `${this.toString()}: ${describeOutcome(outcome)}`
    if (used !== undefined) {
      // A fresh option for the same provider and slot, for the key's customer, is the same request.
      const sameRequest =
        this.sameBody ||
        (used.provider.id === p.id && used.confirmedSlot.start === slot.start && used.confirmedSlot.end === slot.end)
      if (sameRequest && used.cancelled) {
        // The key's booking is cancelled: a replay never says it is confirmed.
        expect(outcome, label).toMatchObject({
          _tag: "Rejected",
          code: "booking_already_cancelled",
          bookingId: used.id
        })
      } else if (sameRequest) {
        // The booking as it stands now: after a move, at its new time and version.
        expect(outcome, label).toMatchObject({ _tag: "Confirmed", replay: true })
        if (outcome._tag === "Confirmed") expectSameBooking(outcome, used, label)
      } else {
        expect(outcome, label).toMatchObject({
          _tag: "Rejected",
          code: "idempotency_key_reused",
          refresh: undefined,
          bookingId: used.id
        })
      }
    } else if (model.clashes(p, slot, undefined, own)) {
      expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
    } else {
      expect(outcome, label).toMatchObject({ _tag: "Confirmed", replay: false })
      if (outcome._tag !== "Confirmed") return
      if (own !== undefined) own.status = "confirmed"
      const booking: ModelBooking = {
        key: this.keyIndex,
        request,
        id: outcome.booking.id,
        requestId: outcome.requestId,
        provider: p,
        confirmedSlot: slot,
        confirmedAt: model.now,
        slot,
        version: 1,
        cancelled: false
      }
      expectSameBooking(outcome, booking, label)
      model.add(booking)
    }
  }
  toString() {
    return `Confirm(provider ${this.providerIndex}, slot ${this.slotIndex}, key ${this.keyIndex}, ${this.sameBody ? "same body" : "new body"})`
  }
}

/** The stored request of a used key again, a day later when its option has long expired. */
class ReplayCommand implements BookingCommand {
  constructor(readonly keyIndex: number) {}
  check(model: Readonly<CalendarModel>) {
    return model.byKey.has(this.keyIndex)
  }
  async run(model: CalendarModel, real: Real) {
    const used = model.byKey.get(this.keyIndex)!
    const later = new Date(model.now + 24 * 3_600_000)
    const outcome = await real.run(confirm(used.request, later))
    const label = `${this.toString()}: ${describeOutcome(outcome)}`
    if (used.cancelled) {
      expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "booking_already_cancelled", bookingId: used.id })
      return
    }
    expect(outcome, label).toMatchObject({ _tag: "Confirmed", replay: true })
    if (outcome._tag === "Confirmed") expectSameBooking(outcome, used, label)
  }
  toString() {
    return `Replay(key ${this.keyIndex})`
  }
}

/** A booking of the model (or one that never existed) by id or request id, for its partner or another. */
class StatusCommand implements BookingCommand {
  constructor(
    readonly bookingRef: number,
    readonly byRequestId: boolean,
    readonly asOtherPartner: boolean
  ) {}
  check() {
    return true
  }
  async run(model: CalendarModel, real: Real) {
    const expected = bookingOf(model, this.bookingRef)
    const id = refOf(expected, this.byRequestId)
    const who = this.asOtherPartner ? otherPartner : partner
    const answer = await real.run(Effect.flatMap(Bookings, (bookings) => bookings.status(id, who)))
    const label = `${this.toString()} for ${expected ? `${expected.provider.id} ${showSlot(expected.slot)}` : "none"}`
    if (expected === undefined || this.asOtherPartner) {
      expect(answer, label).toMatchObject({ ok: true, found: false, booking_id: id })
      expect(answer, label).not.toHaveProperty("cancellation")
    } else if (expected.cancelled) {
      // A cancelled booking is never returned as found; the answer says it was cancelled.
      expect(answer, label).toMatchObject({ ok: true, found: false, booking_id: id, cancellation: {} })
      expect(answer, label).not.toHaveProperty("booking")
    } else {
      expect(answer, label).toMatchObject({ ok: true, found: true })
      if (answer.found) expectSameBooking(answer, expected, label)
    }
  }
  toString() {
    return `Status(booking ${this.bookingRef}, ${this.byRequestId ? "by request id" : "by id"}${this.asOtherPartner ? ", other partner" : ""})`
  }
}

/** A cancel (or its dry run) of a model booking or an unknown one, under one of a few keys. */
class CancelCommand implements BookingCommand {
  constructor(
    readonly bookingRef: number,
    readonly byRequestId: boolean,
    readonly keyIndex: number,
    readonly dryRun: boolean,
    readonly asPartner: boolean,
    readonly versionOffset: number | undefined
  ) {}
  check() {
    return true
  }
  async run(model: CalendarModel, real: Real) {
    const target = bookingOf(model, this.bookingRef)
    const by = this.asPartner ? "partner" : "customer"
    const expectedVersion = expectedVersionOf(target, this.versionOffset)
    const request = cancelRequest({
      key: `cancel-key-${this.keyIndex}`,
      by,
      dryRun: this.dryRun,
      ...(expectedVersion === undefined ? {} : { expectedVersion })
    })
    const outcome = await real.run(cancel(refOf(target, this.byRequestId), request, new Date(model.now)))
    const label = `${this.toString()} of ${target ? `${target.id} v${target.version}${target.cancelled ? " cancelled" : ""}` : "none"}: ${describeChange(outcome)}`
    expect(outcome._tag === "Defect" ? outcome.cause : "no defect", label).toBe("no defect")
    if (target === undefined) return expectRejected(outcome, "booking_not_found", label)
    const used = this.dryRun ? undefined : model.cancelKeys.get(this.keyIndex)
    if (used !== undefined) {
      if (used.booking !== target || used.by !== by) return expectRejected(outcome, "idempotency_key_reused", label)
      // The same cancel again: the first answer, marked as a replay.
      expect(outcome, label).toMatchObject({ _tag: "Done" })
      if (outcome._tag === "Done")
        expect(outcome.body, label).toEqual({ ...(used.answer as object), idempotent_replay: true })
      return
    }
    if (target.cancelled) return expectRejected(outcome, "booking_already_cancelled", label)
    if (expectedVersion !== undefined && expectedVersion !== target.version)
      return expectRejected(outcome, "booking_changed", label)
    expect(outcome, label).toMatchObject({ _tag: "Done" })
    if (outcome._tag !== "Done") return
    const fee = feeAt(target, model.now)
    expect(outcome.body, label).toMatchObject({
      ok: true,
      booking_id: target.id,
      request_id: target.requestId,
      cancelled: !this.dryRun,
      booking_active: this.dryRun,
      idempotent_replay: false,
      cancellation: { cancelled_by: by, fee_sek: fee, within_free_period: freeByTerms(target, model.now) }
    })
    if (this.dryRun) return
    target.cancelled = true
    target.version += 1
    model.changes += 1
    model.cancelKeys.set(this.keyIndex, { booking: target, by, answer: outcome.body })
  }
  toString() {
    return `Cancel(booking ${this.bookingRef}${this.byRequestId ? " by request id" : ""}, key ${this.keyIndex}${this.dryRun ? ", dry run" : ""}${this.asPartner ? ", by partner" : ""}${this.versionOffset === undefined ? "" : `, version ${this.versionOffset >= 0 ? "+" : ""}${this.versionOffset}`})`
  }
}

/** A move (or its dry run) of a model booking to a fresh option of some provider's slot. */
class RescheduleCommand implements BookingCommand {
  constructor(
    readonly bookingRef: number,
    readonly providerIndex: number,
    readonly slotIndex: number,
    readonly keyIndex: number,
    readonly dryRun: boolean,
    readonly versionOffset: number | undefined
  ) {}
  check() {
    return true
  }
  async run(model: CalendarModel, real: Real) {
    const target = bookingOf(model, this.bookingRef)
    const p = real.providers[this.providerIndex % real.providers.length]!
    const slot = real.slots[this.slotIndex % real.slots.length]!
    const expectedVersion = expectedVersionOf(target, this.versionOffset)
    const request = await real.run(
      rescheduleRequest(
        p,
        slot,
        {
          key: `move-key-${this.keyIndex}`,
          dryRun: this.dryRun,
          ...(expectedVersion === undefined ? {} : { expectedVersion })
        },
        new Date(model.now)
      )
    )
    const own = model.ownHold(partner, p, slot)
    const outcome = await real.run(reschedule(refOf(target, false), request, new Date(model.now)))
    const label = `${this.toString()} of ${target ? `${target.id} ${target.provider.id} ${showSlot(target.slot)} v${target.version}${target.cancelled ? " cancelled" : ""}` : "none"} to ${p.id} ${showSlot(slot)}: ${describeChange(outcome)}`
    expect(outcome._tag === "Defect" ? outcome.cause : "no defect", label).toBe("no defect")
    if (target === undefined) return expectRejected(outcome, "booking_not_found", label)
    const used = this.dryRun ? undefined : model.moveKeys.get(this.keyIndex)
    if (used !== undefined) {
      const same =
        used.booking === target &&
        used.providerId === p.id &&
        used.slot.start === slot.start &&
        used.slot.end === slot.end
      if (!same) return expectRejected(outcome, "idempotency_key_reused", label)
      if (target.cancelled) return expectRejected(outcome, "booking_already_cancelled", label)
      if (target.version !== used.version) return expectRejected(outcome, "booking_changed", label)
      expect(outcome, label).toMatchObject({ _tag: "Done" })
      if (outcome._tag === "Done")
        expect(outcome.body, label).toEqual({ ...(used.answer as object), idempotent_replay: true })
      return
    }
    if (target.cancelled) return expectRejected(outcome, "booking_already_cancelled", label)
    if (expectedVersion !== undefined && expectedVersion !== target.version)
      return expectRejected(outcome, "booking_changed", label)
    if (!changeableAt(target, model.now)) return expectRejected(outcome, "outside_change_window", label)
    if (p.id !== target.provider.id) return expectRejected(outcome, "option_not_for_this_booking", label)
    if (model.clashes(p, slot, target, own)) {
      // The booking at its old time still stands: later commands and the final check hold the model to it.
      expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
      if (outcome._tag === "Rejected") expect(outcome.step, label).toContain("still stands")
      return
    }
    expect(outcome, label).toMatchObject({ _tag: "Done" })
    if (outcome._tag !== "Done") return
    const body = outcome.body
    if (this.dryRun) {
      expect(body, label).toMatchObject({
        dry_run: true,
        rescheduled: false,
        booking_id: target.id,
        request_id: target.requestId,
        booking_version: target.version
      })
      if ("current_slot" in body) {
        expect(Date.parse(body.current_slot.start_at), label).toBe(target.slot.start)
        expect(Date.parse(body.new_slot.start_at), label).toBe(slot.start)
      }
      return
    }
    expect(body, label).not.toHaveProperty("dry_run")
    if (!("booking" in body)) return
    if (own !== undefined) own.status = "confirmed"
    const previous = target.slot
    target.slot = slot
    target.version += 1
    model.changes += 1
    expect(body.idempotent_replay, label).toBe(false)
    expectSameBooking(body, target, label)
    expect(Date.parse(body.previous_slot.start_at), label).toBe(previous.start)
    expect(Date.parse(body.previous_slot.end_at), label).toBe(previous.end)
    model.moveKeys.set(this.keyIndex, {
      booking: target,
      providerId: p.id,
      slot,
      version: target.version,
      answer: body
    })
  }
  toString() {
    return `Reschedule(booking ${this.bookingRef} to provider ${this.providerIndex} slot ${this.slotIndex}, key ${this.keyIndex}${this.dryRun ? ", dry run" : ""}${this.versionOffset === undefined ? "" : `, version ${this.versionOffset >= 0 ? "+" : ""}${this.versionOffset}`})`
  }
}

const changeKeyCount = 3
const anyVersionOffset = fc.option(fc.integer({ min: -1, max: 1 }), { nil: undefined, freq: 2 })

const anyCommands = fc.commands(
  [
    fc
      .tuple(fc.nat({ max: 2 }), fc.nat({ max: 5 }), fc.nat({ max: keyCount - 1 }), fc.boolean())
      .map(([p, s, k, same]) => new ConfirmCommand(p, s, k, same)),
    fc.nat({ max: keyCount - 1 }).map((k) => new ReplayCommand(k)),
    fc.tuple(fc.nat({ max: 5 }), fc.boolean(), fc.boolean()).map(([b, r, o]) => new StatusCommand(b, r, o)),
    fc
      .tuple(
        fc.nat({ max: 5 }),
        fc.boolean(),
        fc.nat({ max: changeKeyCount - 1 }),
        fc.boolean(),
        fc.boolean(),
        anyVersionOffset
      )
      .map(([b, r, k, dry, by, v]) => new CancelCommand(b, r, k, dry, by, v)),
    fc
      .tuple(
        fc.nat({ max: 5 }),
        fc.nat({ max: 2 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: changeKeyCount - 1 }),
        fc.boolean(),
        anyVersionOffset
      )
      .map(([b, p, s, k, dry, v]) => new RescheduleCommand(b, p, s, k, dry, v)),
    fc
      .tuple(fc.nat({ max: 2 }), fc.nat({ max: 5 }), fc.boolean(), fc.constantFrom(60, 90, 300, 600))
      .map(([p, s, other, seconds]) => new HoldCommand(p, s, other, seconds)),
    fc.tuple(fc.nat({ max: 5 }), fc.boolean()).map(([h, other]) => new ReleaseCommand(h, other)),
    fc.integer({ min: 1, max: 6 }).map((minutes) => new ExpireCommand(minutes))
  ],
  { maxCommands: 30 }
)

/** Six slots on a tight grid, so commands often hit the same, overlapping or touching time. */
const anySlots = fc.array(
  fc
    .record({
      day: fc.integer({ min: 0, max: 1 }),
      startStep: fc.integer({ min: 16, max: 24 }),
      durationSteps: fc.integer({ min: 1, max: 6 })
    })
    .map(({ day, startStep, durationSteps }) => slotAt(day, startStep, durationSteps)),
  { minLength: 6, maxLength: 6 }
)

layer(PropLayer(), { excludeTestServices: true })("Bookings as a state machine", (it) => {
  it.effect(
    law,
    () =>
      Effect.gen(function* () {
        const run = yield* propRunner
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 3 }),
              anySlots,
              anyCommands,
              async (prices, slots, commands) => {
                // The second provider states a policy: on the grid's first day its slots are past the
                // change deadline and partly past the free cancellation; on the second, neither.
                const providers = prices.map((amountSek, index) =>
                  index === 1
                    ? {
                        ...provider(`model-p${index}`, amountSek),
                        policy: { free_cancellation_hours: 24, late_fee_sek: 350, change_hours: 36 }
                      }
                    : provider(`model-p${index}`, amountSek)
                )
                await run(Effect.andThen(resetBookings, importSupply(providers)))
                const model = new CalendarModel()
                await fc.asyncModelRun(() => ({ model, real: { run, providers, slots } }), commands)
                const byId = <A extends { readonly id: string }>(xs: ReadonlyArray<A>) =>
                  [...xs].sort((a, b) => a.id.localeCompare(b.id))
                // The held slots are exactly the active bookings' current ones (so none overlap);
                // every change released one slot, kept as history; versions count the changes.
                expect(byId(await run(heldRows))).toEqual(
                  byId(
                    model.bookings
                      .filter((b) => !b.cancelled)
                      .map((b) => ({ id: b.id, providerId: b.provider.id, start: b.slot.start, end: b.slot.end }))
                  )
                )
                // No two of what takes a provider's time now overlap: bookings and the holds that still live.
                const taking = await run(takingTimeAt(model.now))
                for (const [i, a] of taking.entries()) {
                  for (const b of taking.slice(i + 1)) {
                    if (a.providerId === b.providerId && a.calendar === b.calendar) {
                      expect(overlaps(a, b), `${a.kind} ${showSlot(a)} and ${b.kind} ${showSlot(b)}`).toBe(false)
                    }
                  }
                }
                expect(
                  taking
                    .filter((row) => row.kind === "hold")
                    .map((row) => row.id)
                    .sort()
                ).toEqual(
                  model.holds
                    .filter((h) => model.live(h))
                    .map((h) => h.id)
                    .sort()
                )
                const states = await run(bookingStates)
                expect(states).toEqual(
                  byId(model.bookings).map((b) => ({
                    id: b.id,
                    status: b.cancelled ? "cancelled" : "confirmed",
                    version: b.version,
                    released: b.version - 1
                  }))
                )
              }
            ),
            settings.parameters
          )
        )
      }),
    settings.timeout
  )
})
