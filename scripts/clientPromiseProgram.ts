/**
 * A partner's program on the entry, imported as `entry`: the CI smoke test compiles it against the
 * installed package (TypeScript only, no `effect`) and runs it against a server;
 * test/ClientPromise.test.ts type-checks it against the built declarations.
 */
export const partnerProgram = (
  entry: string
) => `import { type Answer, BookingApiError, type Body, createBookingClient } from "${entry}"

const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }
const serviceLocation = { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" } as const

/** Searches, books the first option and reads the booking back; then a refusal, typed. */
export const bookFirstOption = async (baseUrl: string, search: Body<"search.search">) => {
  const api = createBookingClient({ baseUrl })
  const found: Answer<"search.search"> = await api.search(search)
  const option = found.options[0]
  if (option === undefined) return { options: 0 }
  const terms = { booking_terms_version: option.terms.version, booking_terms_accepted_at: new Date().toISOString() }
  const booked = await api.confirm(
    { booking_option_id: option.booking_option_id, customer, service_location: serviceLocation,
      user_consent_confirmed: true, booking_terms_accepted: true, ...terms },
    { idempotencyKey: "partner-program-confirm" }
  )
  const status = await api.status(booked.request_id)
  const refusal = await api.requestStatus("req_no_such_request").catch((error: unknown) => error)
  return {
    options: found.options.length,
    created: booked.booking_created,
    found: status.found,
    refused: refusal instanceof BookingApiError ? refusal.status + " " + refusal.body.error : String(refusal),
    next: refusal instanceof BookingApiError ? refusal.body.safe_next_step : undefined
  }
}
`
