/** Valid bodies of every endpoint, for tests that break them one field at a time. */

export const paths = {
  capabilities: "/api/public/requests/capabilities",
  search: "/api/public/booking-options",
  confirm: "/api/public/bookings",
  status: (bookingId: string) => `/api/public/bookings/${bookingId}`,
  requests: "/api/public/requests"
} as const

export const searchBody = {
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  description: "Byta köksblandaren, den nya finns på plats",
  location: { country_code: "SE" as const, postcode: "111 22" },
  timing: { preferred_time_text: "den här veckan" }
}

/** The same search for another time phrase ("nästa vecka" reaches a whole week of slots), or postcode. */
export const searchBodyFor = (preferred_time_text: string, postcode = searchBody.location.postcode) => ({
  ...searchBody,
  location: { country_code: "SE" as const, postcode },
  timing: { preferred_time_text }
})

export const customer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid.lindqvist@example.se" }

export const confirmBody = (bookingOptionId: string, termsVersion: string, idempotencyKey: string) => ({
  booking_option_id: bookingOptionId,
  customer,
  service_location: { country_code: "SE", address: "Drottninggatan 12, 3 tr", postcode: "111 22" },
  user_consent_confirmed: true,
  user_consent_statement: "Jag godkänner att mina uppgifter skickas till hantverkaren.",
  consent_collected_at: "2026-11-23T08:58:00+01:00",
  consent_source: "chat",
  booking_terms_accepted: true,
  booking_terms_version: termsVersion,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: idempotencyKey
})

/** The customer of the short confirm body below. */
export const shortCustomer = { name: "Astrid Lindqvist", phone: "+46 70 123 45 67", email: "astrid@example.se" }

/**
 * The shortest body confirm takes (no consent wording, the key in the body), for an option as a
 * search answered it.
 */
export const shortConfirmBody = (
  option: { readonly booking_option_id: string; readonly terms: { readonly version: string } },
  idempotencyKey: string,
  customer: object = shortCustomer
) => ({
  booking_option_id: option.booking_option_id,
  customer,
  service_location: { country_code: "SE", address: "Drottninggatan 12", postcode: "111 22" },
  user_consent_confirmed: true,
  booking_terms_accepted: true,
  booking_terms_version: option.terms.version,
  booking_terms_accepted_at: "2026-11-23T08:59:00+01:00",
  idempotency_key: idempotencyKey
})

export const requestBody = {
  vertical_id: "vvs",
  job_type_id: "leak_hidden",
  description: "Fuktfläck i taket under badrummet, misstänker dolt läckage.",
  user_consent_confirmed: true,
  user_consent_statement: "Användaren godkände att uppgifterna skickas till hantverkare.",
  consent_collected_at: "2026-11-23T08:55:00+01:00",
  consent_source: "chat",
  customer: { first_name: "Karin", last_name: "Berg", phone: "+46 70 765 43 21", email: "karin.berg@example.se" },
  location: { address: "Sveavägen 44", postcode: "111 34" },
  timing: { preferred_time_text: "så snart som möjligt" },
  budget_sek: 5000,
  details: { floor: 3, visible_damage: true }
}
