import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Bookings } from "../../src/Bookings/Bookings.js"
import type { BookingConfirmationRequest, ConfirmedBooking } from "../../src/Domain/Booking.js"
import { fc, propSettings } from "../support/FastCheck.js"
import {
  calendarRows,
  confirm,
  describeOutcome,
  importSupply,
  optionRequest,
  otherPartner,
  overlaps,
  PropLayer,
  type PropRun,
  type ProviderSpec,
  partner,
  propRunner,
  provider,
  resetBookings,
  type Slot,
  searchedAt,
  serviceId,
  showSlot,
  slotAt
} from "../support/PropHarness.js"

const law = "confirm and status behave like the in-memory calendar model"
const settings = propSettings(law, { quick: 25, deep: 2000 })

const keyCount = 4

interface ModelBooking {
  readonly key: number
  readonly request: BookingConfirmationRequest
  readonly id: string
  readonly requestId: string
  readonly provider: ProviderSpec
  readonly slot: Slot
}

/** The calendar as the spec describes it: one booking per key, no two overlapping per provider. */
class CalendarModel {
  readonly byKey = new Map<number, ModelBooking>()
  readonly bookings: Array<ModelBooking> = []
  clashes(p: ProviderSpec, slot: Slot) {
    return this.bookings.some((b) => b.provider.id === p.id && overlaps(b.slot, slot))
  }
  add(booking: ModelBooking) {
    this.byKey.set(booking.key, booking)
    this.bookings.push(booking)
  }
}

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
    terms_version: expected.provider.termsVersion
  })
  expect(Date.parse(actual.booking.slot_start_at), label).toBe(expected.slot.start)
  expect(Date.parse(actual.booking.slot_end_at), label).toBe(expected.slot.end)
}

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
        : await real.run(optionRequest(p, slot, keyOf(this.keyIndex), this.keyIndex))
    const outcome = await real.run(confirm(request))
    const label = `${this.toString()}: ${describeOutcome(outcome)}`
    if (used !== undefined) {
      // A fresh option for the same provider and slot, for the key's customer, is the same request.
      const sameRequest =
        this.sameBody || (used.provider.id === p.id && used.slot.start === slot.start && used.slot.end === slot.end)
      if (sameRequest) {
        expect(outcome, label).toMatchObject({ _tag: "Confirmed", status: 200, replay: true })
        if (outcome._tag === "Confirmed") expectSameBooking(outcome, used, label)
      } else {
        expect(outcome, label).toMatchObject({
          _tag: "Rejected",
          code: "idempotency_key_reused",
          refresh: undefined,
          bookingId: used.id
        })
      }
    } else if (model.clashes(p, slot)) {
      expect(outcome, label).toMatchObject({ _tag: "Rejected", code: "slot_taken", refresh: true })
    } else {
      expect(outcome, label).toMatchObject({ _tag: "Confirmed", status: 201, replay: false })
      if (outcome._tag !== "Confirmed") return
      const booking = {
        key: this.keyIndex,
        request,
        id: outcome.booking.id,
        requestId: outcome.requestId,
        provider: p,
        slot
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
    const later = new Date(searchedAt.getTime() + 24 * 3_600_000)
    const outcome = await real.run(confirm(used.request, later))
    const label = `${this.toString()}: ${describeOutcome(outcome)}`
    expect(outcome, label).toMatchObject({ _tag: "Confirmed", status: 200, replay: true })
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
    const expected = model.bookings[this.bookingRef % (model.bookings.length + 1)]
    const id =
      expected === undefined
        ? this.byRequestId
          ? `bkg_${randomUUID().slice(0, 20)}`
          : randomUUID()
        : this.byRequestId
          ? expected.requestId
          : expected.id
    const who = this.asOtherPartner ? otherPartner : partner
    const answer = await real.run(Effect.flatMap(Bookings, (bookings) => bookings.status(id, who)))
    const label = `${this.toString()} for ${expected ? `${expected.provider.id} ${showSlot(expected.slot)}` : "none"}`
    if (expected === undefined || this.asOtherPartner) {
      expect(answer, label).toMatchObject({ ok: true, found: false, booking_id: id })
    } else {
      expect(answer, label).toMatchObject({ ok: true, found: true })
      if (answer.found) expectSameBooking(answer, expected, label)
    }
  }
  toString() {
    return `Status(booking ${this.bookingRef}, ${this.byRequestId ? "by request id" : "by id"}${this.asOtherPartner ? ", other partner" : ""})`
  }
}

const anyCommands = fc.commands(
  [
    fc
      .tuple(fc.nat({ max: 2 }), fc.nat({ max: 5 }), fc.nat({ max: keyCount - 1 }), fc.boolean())
      .map(([p, s, k, same]) => new ConfirmCommand(p, s, k, same)),
    fc.nat({ max: keyCount - 1 }).map((k) => new ReplayCommand(k)),
    fc.tuple(fc.nat({ max: 5 }), fc.boolean(), fc.boolean()).map(([b, r, o]) => new StatusCommand(b, r, o))
  ],
  { maxCommands: 25 }
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
                const providers = prices.map((amountSek, index) => provider(`model-p${index}`, amountSek))
                await run(Effect.andThen(resetBookings, importSupply(providers)))
                const model = new CalendarModel()
                await fc.asyncModelRun(() => ({ model, real: { run, providers, slots } }), commands)
                const rows = await run(calendarRows)
                const byId = <A extends { readonly id: string }>(xs: ReadonlyArray<A>) =>
                  [...xs].sort((a, b) => a.id.localeCompare(b.id))
                expect(byId(rows)).toEqual(
                  byId(model.bookings.map((b) => ({ id: b.id, providerId: b.provider.id, ...b.slot })))
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
