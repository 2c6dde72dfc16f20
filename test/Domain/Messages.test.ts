import { describe, expect, it } from "@effect/vitest"
import { bookingConfirmation, requestForProvider } from "../../src/Domain/Messages.js"

const booking = {
  bookingId: "0b6c3d4e-1f2a-4b5c-8d9e-0a1b2c3d4e5f",
  requestId: "REQ-7F3K9Q",
  providerId: "rormokarna-sthlm",
  providerName: "Rörmokarna i Stockholm AB",
  serviceLabelSv: "Byte av blandare",
  serviceLabelEn: "Tap replacement",
  // Monday 23 November 2026, winter time (UTC+1).
  slotStart: new Date("2026-11-23T07:00:00Z"),
  slotEnd: new Date("2026-11-23T09:00:00Z"),
  timeZone: "Europe/Stockholm",
  price: { amountSek: 1990, pricingModel: "flat", priceType: "avg_fixed" },
  termsVersion: "2026-01-15-standard",
  termsUrl: "https://example.se/villkor/2026-01-15-standard",
  serviceAddress: "Storgatan 1, 111 22 Stockholm",
  customerName: "Anna Andersson"
}

const englishPart = (body: string) => body.slice(body.indexOf("In English"))

describe("bookingConfirmation", () => {
  it("tells the customer in Swedish, then English: provider, service, local slot, price, terms and reference", () => {
    const { customer } = bookingConfirmation(booking)
    expect(customer.subject).toContain("Din bokning är bekräftad")
    expect(customer.body).toContain("Din bokning hos Rörmokarna i Stockholm AB är bekräftad.")
    expect(customer.body).toContain("Byte av blandare")
    expect(customer.body).toContain("måndag 23 november 2026 kl. 08:00–10:00")
    expect(customer.body).toContain("1 990 kr inkl. moms")
    expect(customer.body).toContain("version 2026-01-15-standard, https://example.se/villkor/2026-01-15-standard")
    expect(customer.body).toContain("Bokningsreferens: REQ-7F3K9Q")
    expect(customer.body).toContain("Adress: Storgatan 1, 111 22 Stockholm")
    const english = englishPart(customer.body)
    expect(english).toContain("Your booking with Rörmokarna i Stockholm AB is confirmed.")
    expect(english).toContain("Service: Tap replacement")
    expect(english).toContain("Monday, 23 November 2026, 08:00–10:00")
    expect(english).toContain("SEK 1,990 incl. VAT")
    expect(english).toContain("Booking reference: REQ-7F3K9Q")
    expect(customer.body.indexOf("Din bokning")).toBeLessThan(customer.body.indexOf("Your booking"))
  })

  it("gives the provider the job: service, slot, price, terms, address and customer, and a webhook payload", () => {
    const { provider } = bookingConfirmation(booking)
    expect(provider.subject).toContain("Ny bekräftad bokning")
    for (const text of [
      "Byte av blandare",
      "måndag 23 november 2026 kl. 08:00–10:00",
      "1 990 kr inkl. moms",
      "2026-01-15-standard",
      "Adress: Storgatan 1, 111 22 Stockholm",
      "Kund: Anna Andersson",
      "You have a new confirmed booking."
    ]) {
      expect(provider.body).toContain(text)
    }
    expect(provider.payload).toEqual({
      event: "booking.confirmed",
      booking_id: booking.bookingId,
      request_id: "REQ-7F3K9Q",
      provider_id: "rormokarna-sthlm",
      service_label_sv: "Byte av blandare",
      slot_start_at: "2026-11-23T08:00:00+01:00",
      slot_end_at: "2026-11-23T10:00:00+01:00",
      time_zone: "Europe/Stockholm",
      price_sek: 1990,
      currency: "SEK",
      pricing_model: "flat",
      price_type: "avg_fixed",
      terms_version: "2026-01-15-standard",
      terms_url: "https://example.se/villkor/2026-01-15-standard",
      service_address: "Storgatan 1, 111 22 Stockholm",
      customer_name: "Anna Andersson"
    })
  })

  it("shows summer time in local hours and a +02:00 offset", () => {
    const summer = bookingConfirmation({
      ...booking,
      slotStart: new Date("2026-07-06T06:00:00Z"),
      slotEnd: new Date("2026-07-06T07:30:00Z")
    })
    expect(summer.customer.body).toContain("måndag 6 juli 2026 kl. 08:00–09:30")
    expect(summer.provider.payload.slot_start_at).toBe("2026-07-06T08:00:00+02:00")
    expect(summer.provider.payload.slot_end_at).toBe("2026-07-06T09:30:00+02:00")
  })

  it("names another zone, spells a slot across midnight in full, and leaves out what it was not given", () => {
    const { customer, provider } = bookingConfirmation({
      bookingId: booking.bookingId,
      requestId: booking.requestId,
      providerName: booking.providerName,
      serviceLabelSv: booking.serviceLabelSv,
      slotStart: new Date("2026-11-23T21:00:00Z"),
      slotEnd: new Date("2026-11-24T01:00:00Z"),
      timeZone: "Europe/Helsinki",
      price: { amountSek: 12500, pricingModel: "flat", priceType: "avg_fixed" },
      termsVersion: booking.termsVersion,
      termsUrl: booking.termsUrl
    })
    expect(customer.body).toContain(
      "måndag 23 november 2026 kl. 23:00 – tisdag 24 november 2026 kl. 03:00 (Europe/Helsinki)"
    )
    expect(customer.body).toContain("12 500 kr inkl. moms")
    expect(customer.body).toContain("Service: Byte av blandare")
    expect(customer.body).not.toContain("Adress:")
    expect(customer.body.startsWith("Hej!")).toBe(true)
    expect(provider.payload).toMatchObject({ service_address: null, customer_name: null, time_zone: "Europe/Helsinki" })
    expect(provider.payload).not.toHaveProperty("provider_id")
    expect(provider.payload.slot_start_at).toBe("2026-11-23T23:00:00+02:00")
  })
})

describe("bookingConfirmation prices, by kind (truth rule 4)", () => {
  const messagesFor = (price: Parameters<typeof bookingConfirmation>[0]["price"]) =>
    bookingConfirmation({ ...booking, price })

  it("a starting price is a from-price whose final amount is set on site, never the exact price", () => {
    const { customer, provider } = messagesFor({
      amountSek: 2495,
      pricingModel: "starting_price",
      priceType: "starting_price"
    })
    expect(customer.body).toContain(
      "Pris: från 2 495 kr inkl. moms (startpris: slutpriset bestäms på plats av utföraren)"
    )
    expect(customer.body).toContain(
      "Price: from SEK 2,495 incl. VAT (a starting price: the provider sets the final price on site)"
    )
    expect(customer.body).not.toContain("The price covers the work")
    expect(provider.body).toContain("startpriset")
    expect(provider.payload).toMatchObject({ price_sek: 2495, price_type: "starting_price" })
  })

  it("a fixed price is the exact price", () => {
    const { customer } = messagesFor({ amountSek: 1990, pricingModel: "flat", priceType: "avg_fixed" })
    expect(customer.body).toContain("Pris: fast pris 1 990 kr inkl. moms")
    expect(customer.body).toContain("Price: a fixed price of SEK 1,990 incl. VAT")
  })

  it("a unit price names its quantity and unit price", () => {
    const { customer } = messagesFor({
      amountSek: 4940,
      pricingModel: "per_sqm",
      priceType: "avg_unit",
      unitPriceSek: 65,
      quantity: 76
    })
    expect(customer.body).toContain("Pris: 4 940 kr inkl. moms för 76 kvm à 65 kr")
    expect(customer.body).toContain("Price: SEK 4,940 incl. VAT for 76 m² at SEK 65 each")
  })
})

describe("requestForProvider", () => {
  const request = requestForProvider({
    requestId: "REQ-2M8P4T",
    verticalLabelSv: "VVS",
    jobTypeLabelSv: "Stopp i avlopp",
    description: "Det är stopp i köksavloppet sedan i går.",
    postcode: "111 22",
    preferredTime: "vardagar efter 16",
    customerName: "Erik Svensson",
    customerPhone: "+46701234567",
    customerEmail: "erik@example.se"
  })

  it("says plainly, in both languages, that it is a request and not a booking", () => {
    expect(request.subject).toContain("ingen bokning")
    expect(request.body).toContain("Detta är en förfrågan, ingen bokning")
    expect(englishPart(request.body)).toContain("This is a request, not a booking")
    expect(request.payload).toMatchObject({ event: "request.created", request_id: "REQ-2M8P4T", is_booking: false })
  })

  it("hands over the job and how to reach the customer", () => {
    for (const text of [
      "Stopp i avlopp",
      "Det är stopp i köksavloppet sedan i går.",
      "Postnummer: 111 22",
      "Önskad tid: vardagar efter 16",
      "Erik Svensson",
      "+46701234567",
      "erik@example.se"
    ]) {
      expect(request.body).toContain(text)
    }
    expect(request.payload).toMatchObject({
      customer_name: "Erik Svensson",
      customer_phone: "+46701234567",
      customer_email: "erik@example.se",
      postcode: "111 22",
      description: "Det är stopp i köksavloppet sedan i går."
    })
  })
})
