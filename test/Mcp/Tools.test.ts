import { describe, expect, it } from "@effect/vitest"
import { Api } from "../../src/Api.js"
import { bookingTools } from "../../src/Mcp/Tools.js"

/** Every operation the Api declares, as the contract's texts name one. */
const declared = new Set(
  Object.values(Api.groups).flatMap((group) =>
    Object.values(group.endpoints).map((endpoint) => `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
  )
)

describe("the tools take their REST endpoints' path", () => {
  it("every tool but get_booking_option is the MCP form of an endpoint the Api declares", () => {
    const named = Object.entries(bookingTools).flatMap(([name, tool]) =>
      tool.rest === undefined ? [] : [[name, tool.rest]]
    )
    expect(named.map(([name]) => name)).toEqual(
      Object.keys(bookingTools).filter((name) => name !== "get_booking_option")
    )
    for (const [, rest] of named) expect(declared).toContain(rest)
    expect(bookingTools.confirm_booking!.rest).toBe("POST /api/public/bookings")
    expect(bookingTools.cancel_booking!.rest).toBe("POST /api/public/bookings/{booking_id}/cancel")
  })
})
