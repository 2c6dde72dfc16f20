import { describe, expect, it } from "@effect/vitest"
import {
  type BookingFacts,
  bookingCancelled,
  bookingConfirmationFailed,
  bookingConfirmed,
  bookingRescheduled,
  eventBody,
  isWebhookEventType,
  requestCreated,
  requestHandoffChanged,
  requestWithdrawn,
  type WebhookEvent,
  type WebhookEventType,
  webhookEventTypes,
  webhookTest
} from "../../src/Domain/WebhookEvents.js"
import { fc, propSettings } from "../support/Props.js"
import { expectSwedishStamps } from "../support/Time.js"

const at = new Date("2025-03-04T08:00:00.000Z")

const booking: BookingFacts = {
  id: "bkg_1",
  requestId: "req_1",
  providerId: "prv_1",
  serviceId: "svc_1",
  slotStart: new Date("2025-03-10T07:00:00.000Z"),
  slotEnd: new Date("2025-03-10T09:00:00.000Z"),
  priceSek: 1450,
  sandbox: false,
  timeZone: "Europe/Stockholm"
}

const bookingData = {
  booking_id: "bkg_1",
  request_id: "req_1",
  provider_id: "prv_1",
  service_id: "svc_1",
  slot: { start_at: "2025-03-10T08:00:00+01:00", end_at: "2025-03-10T10:00:00+01:00" },
  price_sek: 1450,
  currency: "SEK",
  sandbox: false
}

describe("event types", () => {
  it("are the eight a subscription can name, and nothing else passes", async () => {
    expect([...webhookEventTypes].sort()).toEqual([
      "booking.cancelled",
      "booking.confirmation_failed",
      "booking.confirmed",
      "booking.rescheduled",
      "request.created",
      "request.handoff_changed",
      "request.withdrawn",
      "webhook.test"
    ])
    for (const type of webhookEventTypes) expect(isWebhookEventType(type)).toBe(true)
    for (const other of ["booking.*", "Booking.Confirmed", "booking.confirmed ", "", "booking"])
      expect(isWebhookEventType(other)).toBe(false)
  })
})

/** One event of each type, built by its own builder: a new type fails to compile until it is here. */
const oneOfEach = (at: Date, facts: BookingFacts): { readonly [K in WebhookEventType]: WebhookEvent<K> } => {
  const request = { id: "req_2", verticalId: "cleaning", jobTypeId: "window_cleaning", sandbox: false }
  const handoff = { status: "sent", providers_reached: 1, providers_pending: 0 } as const
  return {
    "booking.confirmed": bookingConfirmed(facts, at),
    "booking.cancelled": bookingCancelled(facts, "partner", at),
    "booking.rescheduled": bookingRescheduled(facts, { slotStart: at, slotEnd: facts.slotEnd }, at),
    "booking.confirmation_failed": bookingConfirmationFailed(facts, "provider", at),
    "request.created": requestCreated(request, handoff, at),
    "request.handoff_changed": requestHandoffChanged(request, handoff, "queued", at),
    "request.withdrawn": requestWithdrawn(request, 1, at),
    "webhook.test": webhookTest({ id: "ep_1", sandbox: false }, at)
  }
}

describe("event times", () => {
  it("every type tells its times in Swedish time to the second, in winter and in summer", async () => {
    const summer: BookingFacts = {
      ...booking,
      slotStart: new Date("2025-06-10T07:00:00.123Z"),
      slotEnd: new Date("2025-06-10T09:00:00.000Z")
    }
    for (const [at, facts] of [
      [new Date("2025-03-04T08:00:00.456Z"), booking],
      [new Date("2025-06-04T08:00:00.789Z"), summer]
    ] as const) {
      const events = oneOfEach(at, facts)
      expect(Object.keys(events).sort()).toEqual([...webhookEventTypes].sort())
      for (const event of Object.values(events)) {
        const body = JSON.parse(eventBody(event))
        expect(expectSwedishStamps(body), event.type).toBeGreaterThan(0)
      }
    }
    expect(oneOfEach(new Date("2025-06-04T08:00:00.789Z"), summer)["booking.rescheduled"]).toMatchObject({
      timestamp: "2025-06-04T10:00:00+02:00",
      data: {
        slot: { start_at: "2025-06-10T09:00:00+02:00", end_at: "2025-06-10T11:00:00+02:00" },
        previous_slot: { start_at: "2025-06-04T10:00:00+02:00" }
      }
    })
  })

  it("a booking told in another zone keeps it in its events, as its answers do", async () => {
    const london = bookingConfirmed({ ...booking, timeZone: "Europe/London" }, at)
    expect(london.data.slot).toEqual({ start_at: "2025-03-10T07:00:00+00:00", end_at: "2025-03-10T09:00:00+00:00" })
    expect(london.timestamp).toBe("2025-03-04T09:00:00+01:00")
  })
})

describe("event builders", () => {
  it("booking.confirmed", async () => {
    expect(bookingConfirmed(booking, at)).toEqual({
      type: "booking.confirmed",
      timestamp: "2025-03-04T09:00:00+01:00",
      data: { ...bookingData, status: "confirmed" }
    })
  })

  it("booking.cancelled names who cancelled", async () => {
    expect(bookingCancelled(booking, "provider", at).data).toEqual({
      ...bookingData,
      status: "cancelled",
      cancelled_by: "provider"
    })
  })

  it("booking.cancelled says what the customer owes and why (2005:59, 2 kap. 10 and 15 §§: free by withdrawal)", async () => {
    expect(bookingCancelled(booking, "customer", at, { feeSek: 0, legalBasis: "withdrawal_right" }).data).toEqual({
      ...bookingData,
      status: "cancelled",
      cancelled_by: "customer",
      fee_sek: 0,
      legal_basis: "withdrawal_right"
    })
  })

  it("booking.rescheduled carries the old slot and the new", async () => {
    const previous = { slotStart: new Date("2025-03-09T07:00:00Z"), slotEnd: new Date("2025-03-09T09:00:00Z") }
    expect(bookingRescheduled(booking, previous, at).data).toEqual({
      ...bookingData,
      status: "confirmed",
      previous_slot: { start_at: "2025-03-09T08:00:00+01:00", end_at: "2025-03-09T10:00:00+01:00" }
    })
  })

  it("booking.confirmation_failed names the recipient who was not told", async () => {
    expect(bookingConfirmationFailed({ ...booking, sandbox: true }, "customer", at).data).toEqual({
      ...bookingData,
      sandbox: true,
      status: "confirmed",
      recipient: "customer"
    })
  })

  it("request.created and request.handoff_changed", async () => {
    const request = { id: "req_2", verticalId: "cleaning", jobTypeId: "window_cleaning", sandbox: false }
    expect(
      requestCreated(
        request,
        { status: "not_sent", providers_reached: 0, providers_pending: 0, reason: "no_candidates" },
        at
      )
    ).toEqual({
      type: "request.created",
      timestamp: "2025-03-04T09:00:00+01:00",
      data: {
        request_id: "req_2",
        status: "ready_to_send",
        vertical_id: "cleaning",
        job_type_id: "window_cleaning",
        handoff: { status: "not_sent", providers_reached: 0, providers_pending: 0, reason: "no_candidates" },
        sandbox: false
      }
    })
    expect(
      requestHandoffChanged(request, { status: "sent", providers_reached: 2, providers_pending: 1 }, "queued", at).data
    ).toEqual({
      request_id: "req_2",
      handoff: { status: "sent", providers_reached: 2, providers_pending: 1 },
      previous_handoff_status: "queued",
      sandbox: false
    })
  })

  it("request.withdrawn names how many providers are told, and never the reason", async () => {
    const request = { id: "req_3", verticalId: "vvs", jobTypeId: "leak_hidden", sandbox: true, reason: "private" }
    expect(requestWithdrawn(request, 0, at)).toEqual({
      type: "request.withdrawn",
      timestamp: "2025-03-04T09:00:00+01:00",
      data: {
        request_id: "req_3",
        status: "withdrawn",
        vertical_id: "vvs",
        job_type_id: "leak_hidden",
        providers_to_tell: 0,
        sandbox: true
      }
    })
  })

  it("webhook.test", async () => {
    expect(JSON.parse(eventBody(webhookTest({ id: "ep_1", sandbox: true }, at)))).toEqual({
      type: "webhook.test",
      timestamp: "2025-03-04T09:00:00+01:00",
      data: { endpoint_id: "ep_1", sandbox: true }
    })
  })

  it("no personal data reaches a payload, whatever else the booking or request passed in carries", async () => {
    const { parameters } = propSettings("payloads carry no personal data", { quick: 100, deep: 2000 })
    // Markers no id, status or time can contain, so finding one in a body can only mean a leak.
    const personal = fc.record({
      customer: fc.record({
        name: fc.string().map((s) => `NAME§${s}`),
        email: fc.emailAddress().map((s) => `EMAIL§${s}`),
        phone: fc.string().map((s) => `PHONE§${s}`)
      }),
      serviceLocation: fc.record({
        address: fc.string().map((s) => `ADDRESS§${s}`),
        postcode: fc.constant("POSTCODE§")
      }),
      consent: fc.constant({ statement: "CONSENT§" })
    })
    const facts = fc.record({
      id: fc.uuid(),
      requestId: fc.uuid(),
      providerId: fc.string({ maxLength: 20 }).map((s) => s.replaceAll("§", "")),
      serviceId: fc.string({ maxLength: 20 }).map((s) => s.replaceAll("§", "")),
      slotStart: fc.date({ noInvalidDate: true, min: new Date("2000-01-01"), max: new Date("2100-01-01") }),
      slotEnd: fc.date({ noInvalidDate: true, min: new Date("2000-01-01"), max: new Date("2100-01-01") }),
      timeZone: fc.constant("Europe/Stockholm"),
      priceSek: fc.nat(),
      sandbox: fc.boolean(),
      verticalId: fc.constantFrom("cleaning", "moving"),
      jobTypeId: fc.constantFrom("window_cleaning", "home_move")
    })
    const handoff = { status: "queued", providers_reached: 0, providers_pending: 1 } as const
    fc.assert(
      fc.property(facts, personal, (fact, extra) => {
        const carrier = { ...fact, ...extra }
        const events = [
          bookingConfirmed(carrier, at),
          bookingCancelled(carrier, "customer", at),
          bookingRescheduled(carrier, carrier, at),
          bookingConfirmationFailed(carrier, "provider", at),
          requestCreated(carrier, { ...handoff, ...extra } as typeof handoff, at),
          requestHandoffChanged(carrier, handoff, "unknown", at),
          webhookTest({ ...carrier, id: "ep_1" }, at)
        ]
        for (const event of events) expect(eventBody(event)).not.toContain("§")
      }),
      parameters
    )
  })
})
