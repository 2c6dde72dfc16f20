import { policyTerms } from "../Domain/CancellationPolicy.js"
import { consumerInformation } from "../Domain/ConsumerInformation.js"
import type { BookingSearchResponse } from "../Domain/Search.js"
import { restSurface } from "../Domain/Surface.js"
import { taxDeduction } from "../Domain/TaxDeduction.js"
import { deductionAnswer } from "../Domain/TaxDeductionSchema.js"
import type { OperationExample } from "../Http/OperationDocs.js"
import { optionsStep } from "./Steps.js"

/**
 * Example bodies of the OpenAPI document: the README's "Try it" flow, as the server answered it
 * (test/Client.test.ts runs the same flow; long lists are cut to their first entries).
 */
/** The README flow's option's ROT deduction (the demo's 90 % labour share), as search and confirm state it. */
export const taxDeductionExample = deductionAnswer(
  taxDeduction(
    { amountSek: 2190, pricingModel: "flat", priceType: "avg_fixed" },
    { kind: "rot", labour: { share: 0.9 } },
    "2026-11-30T08:00:00+01:00"
  )
)

/** The README flow's provider's consumer information, on the demo's default address. */
export const consumerInformationExample = consumerInformation(
  {
    name: "Norrmalms Rör & Värme AB",
    organisationNumber: "559978-8089",
    email: "kundservice@norrmalmsror.example",
    phone: "08-490 720",
    address: "Odengatan 52, 100 00 Stockholm"
  },
  "http://127.0.0.1:8080"
)

/** The README flow's option's policy: free until 12 hours before, SEK 495 after, changes until 6 hours before. */
export const policyExample = policyTerms(
  { freeCancellationHours: 12, lateFeeSek: 495, changeHours: 6 },
  Date.parse("2026-11-30T08:00:00+01:00"),
  "Europe/Stockholm",
  Date.parse("2026-11-23T09:00:00+01:00")
)

export const searchExample: OperationExample = {
  request: {
    vertical_id: "vvs",
    job_type_id: "install_faucet",
    description: "Byta köksblandaren, den nya finns på plats",
    location: {
      country_code: "SE",
      postcode: "111 22"
    },
    timing: {
      preferred_time_text: "nästa vecka förmiddag"
    }
  },
  response: {
    ok: true,
    spec_version: "public_bookings_api_v1",
    availability_checked: true,
    provider_selected: false,
    booking_created: false,
    direct_booking_available: true,
    option_count: 1,
    options: [
      {
        booking_option_id:
          "o1.test-1.eyJwcm92aWRlcklkIjoibm9ycm1hbG1zLXJvci1zdGhsbSIsInNlcnZpY2VJZCI6InZ2c19pbnN0YWxsX2ZhdWNldF9zdGFuZGFyZCIsInZlcnRpY2FsSWQiOiJ2dnMiLCJqb2JUeXBlSWQiOiJpbnN0YWxsX2ZhdWNldCIsImFtb3VudFNlayI6MjE5MCwicHJpY2luZ01vZGVsIjoiZmxhdCIsInByaWNlVHlwZSI6ImF2Z19maXhlZCIsInNsb3RTdGFydCI6MTc5NjAyMjAwMDAwMCwic2xvdEVuZCI6MTc5NjAyOTIwMDAwMCwidGVybXNWZXJzaW9uIjoibm9ycm1hbG1zLXJvci1zdGhsbS92dnNfaW5zdGFsbF9mYXVjZXRfc3RhbmRhcmQvMjAyNi0xMC0wMS52MyIsIm9yaWdpblBvc3Rjb2RlIjoxMTEyMiwidGltZVpvbmUiOiJFdXJvcGUvU3RvY2tob2xtIiwiZXhwaXJlc0F0IjoxNzk1NDIxNzAwMDAwLCJub25jZSI6IlE2bWhSVHY1bUtJNDA5YlUifQ.84BFzHYGCs7aWzpvzSigxUwSMc16LernCjk3dx4Zyoo",
        expires_at: "2026-11-23T09:15:00+01:00",
        provider: {
          id: "norrmalms-ror-sthlm",
          name: "Norrmalms Rör & Värme AB",
          city: "Stockholm",
          rating_label: "4,9 av 5 (168 omdömen)"
        },
        service: {
          service_id: "vvs_install_faucet_standard",
          vertical_id: "vvs",
          job_type_id: "install_faucet",
          label_sv: "Byte av blandare inkl. montering",
          label_en: "Replace mixer tap incl. installation"
        },
        slot: {
          start_at: "2026-11-30T08:00:00+01:00",
          end_at: "2026-11-30T10:00:00+01:00",
          label: "måndag 30 november 08:00–10:00 (Monday 30 November 08:00–10:00), Europe/Stockholm"
        },
        price: {
          amount_sek: 2190,
          currency: "SEK",
          pricing_model: "flat",
          price_type: "avg_fixed",
          tax_deduction: taxDeductionExample
        },
        scope: {
          included_sv: [
            "Demontering av befintlig blandare",
            "Montering och inkoppling av ny blandare",
            "Täthetskontroll och provkörning",
            "Bortforsling av den gamla blandaren"
          ],
          excluded_sv: ["Blandare", "Byte av avstängningsventiler"],
          customer_requirements_sv: [
            "Ny blandare finns på plats",
            "Fri åtkomst till anslutningarna under diskhon eller handfatet"
          ],
          price_adjustment_triggers_sv: [
            "Rostiga eller fastsittande anslutningar",
            "Avstängningsventilerna fungerar inte och behöver bytas"
          ],
          quote_triggers_sv: ["Byte av rör i vägg"]
        },
        terms: {
          version: "norrmalms-ror-sthlm/vvs_install_faucet_standard/2026-12-01.v3-rot90pct+ki-c6cde0ce",
          url: "https://villkor.norrmalms-ror-sthlm.example/vvs_install_faucet_standard/2026-12-01",
          sections: [
            {
              id: "cancellation",
              text_sv:
                "Inom 14 dagars ångerfrist är avbokning före starttiden alltid kostnadsfri. Därefter är avbokning kostnadsfri senast 12 timmar före starttid; vid senare avbokning får vi ta ut en avgift på 495 kr inkl. moms. Tiden kan ändras senast 6 timmar före starttid.",
              title_sv: "Avbokning"
            },
            {
              id: "payment",
              text_sv: "Betalning med faktura eller Swish efter utfört arbete.",
              title_sv: "Betalning"
            },
            {
              id: "price",
              text_sv:
                "Fast pris inklusive moms för arbetet som beskrivs i omfattningen. Tilläggsarbete och material som inte ingår debiteras bara efter ditt godkännande.",
              title_sv: "Pris och tillägg"
            },
            {
              id: "warranty",
              text_sv: "Två års garanti på utfört arbete. Reklamation enligt konsumenttjänstlagen.",
              title_sv: "Garanti"
            },
            consumerInformationExample
          ],
          source_urls: [
            "https://villkor.norrmalms-ror-sthlm.example/vvs_install_faucet_standard/2026-12-01",
            "https://www.konsumentverket.se/"
          ]
        },
        cancellation_policy: policyExample
      }
    ],
    requested_time_window: {
      start_at: "2026-11-30T08:00:00+01:00",
      end_at: "2026-12-06T12:00:00+01:00",
      label: "nästa vecka förmiddag (next week morning)"
    },
    safe_next_step:
      "Show the user each option's provider, price, time and terms. Prices: a price_type avg_fixed amount is the exact price of the described work; amount_sek is the price before any tax deduction. Where price.tax_deduction has kind rut or rot, say both figures and the condition, as its conditions_en words them: \"X SEK, or Y SEK after ROT if you are eligible and have room under this year's cap; the provider deducts it on the invoice\". Never give the after-deduction figure alone or as certain, keep \"from\" on a starting price's figures, and do not ask for or pass on any identity number: the provider collects the details it needs. When the user picks one, hold its time first with POST /api/public/holds (nothing is booked; other partners cannot take it while the hold lives), then ask for their contact details and consent, and only then confirm it with POST /api/public/bookings before the hold's expires_at (without a hold, before the option's expires_at). Nothing is booked until that confirmation succeeds."
  }
}

const [readmeOption] = (searchExample.response as BookingSearchResponse).options

/**
 * The same search for Sunday, when no provider at 111 22 works: no option in the window, and the
 * nearest free time (the README's option, Monday 08:00) as an alternative.
 */
export const alternativesExample: BookingSearchResponse = {
  ok: true,
  spec_version: "public_bookings_api_v1",
  availability_checked: true,
  provider_selected: false,
  booking_created: false,
  direct_booking_available: false,
  option_count: 0,
  options: [],
  alternative_options: readmeOption === undefined ? [] : [readmeOption],
  requested_time_window: {
    start_at: "2026-11-29T00:00:00+01:00",
    end_at: "2026-11-30T00:00:00+01:00",
    label: "söndag 2026-11-29 (Sunday 2026-11-29)"
  },
  fallback: {
    type: "provider_follow_up_request",
    endpoint: "http://127.0.0.1:8080/api/public/requests",
    reason:
      "No provider offering a fixed price here has a free slot in the requested time (söndag 2026-11-29 (Sunday 2026-11-29))."
  },
  safe_next_step: optionsStep(restSurface, new Set(["fixed"]), [taxDeductionExample], "alternative_options")
}
