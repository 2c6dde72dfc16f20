import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as SqlClient from "effect/sql/SqlClient"
import {
  claimsFor,
  confirm,
  describeOutcome,
  holdAt,
  holdRequest,
  importSupply,
  optionRequest,
  PropLayer,
  partner,
  provider,
  resetBookings,
  rowCounts,
  searchedAt,
  sign,
  slotAt
} from "../support/Props.js"

/**
 * A confirm of an offer this instance read before is checked against the offer as it was read
 * and written in one statement on the condition that the offer is still that text and the
 * partner holds nothing on the slot: these are the cases where the offer or the hold changed in
 * between, each answered as a confirm that reads first answers it.
 */
layer(PropLayer(), { excludeTestServices: true })("a confirm of an offer read before", (it) => {
  const base = provider("asread", 1990)

  /** The offer read once: a first confirm of the provider's service at the default postcode. */
  const readOnce = Effect.gen(function* () {
    yield* resetBookings
    yield* importSupply([base])
    const first = yield* confirm(yield* optionRequest(base, slotAt(0, 16, 2), "asread-first"))
    expect(first, describeOutcome(first)).toMatchObject({ _tag: "Confirmed", replay: false })
  })

  it.effect("a price raised since the read: the option's old price is price_changed, and nothing is written", () =>
    Effect.gen(function* () {
      yield* readOnce
      const oldPrice = yield* optionRequest(base, slotAt(0, 20, 2), "asread-old-price")
      const raised = { ...base, amountSek: 2490 }
      yield* importSupply([raised])
      const before = yield* rowCounts
      const refused = yield* confirm(oldPrice)
      expect(refused, describeOutcome(refused)).toMatchObject({
        _tag: "Rejected",
        code: "price_changed",
        refresh: true
      })
      expect(yield* rowCounts).toEqual(before)
      // An option at the new price confirms at it, though the price read before was the old one.
      const newPrice = yield* confirm(yield* optionRequest(raised, slotAt(0, 24, 2), "asread-new-price"))
      expect(newPrice, describeOutcome(newPrice)).toMatchObject({ _tag: "Confirmed", replay: false })
      if (newPrice._tag === "Confirmed") expect(newPrice.booking.price_sek).toBe(2490)
    })
  )

  it.effect("a provider deactivated since the read: provider_unavailable, and nothing is written", () =>
    Effect.gen(function* () {
      yield* readOnce
      const request = yield* optionRequest(base, slotAt(0, 20, 2), "asread-deactivated")
      yield* importSupply([{ ...base, active: false }])
      const before = yield* rowCounts
      const refused = yield* confirm(request)
      expect(refused, describeOutcome(refused)).toMatchObject({ _tag: "Rejected", code: "provider_unavailable" })
      expect(yield* rowCounts).toEqual(before)
    })
  )

  it.effect("the partner's own hold on the slot, confirmed without hold_id: the booking takes the held time", () =>
    Effect.gen(function* () {
      yield* readOnce
      const slot = slotAt(0, 20, 2)
      const { token } = yield* sign(claimsFor(base, slot))
      const held = yield* holdAt(holdRequest(token, "asread-hold"), partner, searchedAt.getTime())
      expect(held._tag, JSON.stringify(held)).toBe("Done")
      const confirmed = yield* confirm(yield* optionRequest(base, slot, "asread-held"))
      expect(confirmed, describeOutcome(confirmed)).toMatchObject({ _tag: "Confirmed", replay: false })
      const sql = yield* SqlClient.SqlClient
      const holds = yield* sql<{ status: string; bookingId: string | null }>`
        SELECT status, booking_id::text FROM booking_holds WHERE partner_id = ${partner.id}`
      expect(holds).toEqual([
        { status: "confirmed", bookingId: confirmed._tag === "Confirmed" ? confirmed.booking.id : "none" }
      ])
    })
  )
})
