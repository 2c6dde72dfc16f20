import { describe, expect, it } from "vitest"
import { newBookingIds } from "../../src/Bookings/Confirmation.js"

describe("newBookingIds", () => {
  it("gives every booking its own reference, also across the blocks its random bytes are drawn in", () => {
    // 1,000 references span several 4 KiB blocks of 15 bytes each.
    const references = Array.from({ length: 1000 }, () => newBookingIds().requestId)
    for (const reference of references) expect(reference).toMatch(/^bkg_[A-Za-z0-9_-]{20}$/)
    expect(new Set(references).size).toBe(references.length)
  })
})
