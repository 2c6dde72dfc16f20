import type { OperationExample } from "../Http/OperationDocs.js"

/** Example bodies of the provider's offer operations in the OpenAPI document: the README's provider flow. */

const service = {
  service_id: "vvs_install_faucet_standard",
  vertical_id: "vvs",
  job_type_id: "install_faucet",
  label_sv: "Byte av blandare inkl. montering",
  label_en: "Replace mixer tap incl. installation",
  pricing_model: "flat",
  price_type: "avg_fixed",
  amount_sek: 2190,
  duration_minutes: 120,
  scope: {
    included_sv: ["Demontering av befintlig blandare", "Montering och inkoppling av ny blandare"],
    excluded_sv: ["Blandare"]
  },
  terms: {
    version: "soderlunds-vvs-sthlm/vvs_install_faucet_standard/2026-12-01.v1-rot90pct+p-3f9c2a71d0+ki-5b1e09aa",
    url: "https://villkor.soderlunds-vvs-sthlm.example/vvs_install_faucet_standard/2026-12-01",
    sections: [{ id: "payment", title_sv: "Betalning", text_sv: "Betalning mot faktura, 15 dagar." }],
    source_urls: []
  },
  tax_deduction: { kind: "rot", labour: { share: 0.9 } },
  cancellation_policy: { free_cancellation_hours: 24, late_fee_sek: 495, change_hours: 24 },
  active: true,
  edited_by_provider_at: "2026-11-23T09:05:00+01:00"
}

const { service_id: _id, terms, edited_by_provider_at: _at, ...editable } = service
const editRequest = { ...editable, terms: { url: terms.url, sections: terms.sections, source_urls: terms.source_urls } }
const before = "soderlunds-vvs-sthlm/vvs_install_faucet_standard/2026-12-01.v1-rot90pct+ki-5b1e09aa"

export const servicesExample: OperationExample = {
  response: { ok: true, spec_version: "provider_api_v1", provider_id: "soderlunds-vvs-sthlm", services: [service] }
}

export const editServiceExample: OperationExample = {
  request: editRequest,
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    dry_run: false,
    changes: [
      { field: "amount_sek", before: 1990, after: 2190 },
      { field: "terms.version", before, after: service.terms.version }
    ],
    terms_version_before: before,
    terms_version_after: service.terms.version,
    preview: {
      offered_in_searches: true,
      reason: null,
      service,
      areas: [{ from: "100 00", to: "199 99" }]
    },
    safe_next_step:
      "The change stands: every search on every instance answers with it from now on. Options searched before it are refused at confirm (409, option_refresh_required) with the new figures; bookings already made keep what they were booked at, and a partner's live hold keeps its price until it ends. GET /api/provider/changes lists it."
  }
}

export const setAreasExample: OperationExample = {
  request: { areas: [{ from: "111 00", to: "118 99" }, "120 30"] },
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    dry_run: false,
    areas: [
      { from: "111 00", to: "118 99" },
      { from: "120 30", to: "120 30" }
    ],
    changes: [
      {
        field: "areas",
        before: [{ from: "100 00", to: "199 99" }],
        after: [
          { from: "111 00", to: "118 99" },
          { from: "120 30", to: "120 30" }
        ]
      }
    ],
    offered_services: ["vvs_install_faucet_standard"],
    safe_next_step:
      "The change stands: every search on every instance offers your active services at exactly these postcodes from now on, and a confirm of an option at a postcode you no longer serve is refused (409 provider_unavailable). Bookings already made stand."
  }
}

export const setPolicyExample: OperationExample = {
  request: {
    cancellation_policy: { free_cancellation_hours: 48, late_fee_sek: 495, change_hours: 24 },
    service_id: "vvs_install_faucet_standard"
  },
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    dry_run: false,
    services: [
      {
        service_id: "vvs_install_faucet_standard",
        terms_version_before: before,
        terms_version_after: service.terms.version,
        changes: [
          { field: "terms.version", before, after: service.terms.version },
          { field: "cancellation_policy.free_cancellation_hours", before: 24, after: 48 }
        ],
        cancellation_policy: { free_cancellation_hours: 48, late_fee_sek: 495, change_hours: 24 }
      }
    ],
    safe_next_step:
      "The change stands: every search on every instance answers with it from now on. Options searched before it are refused at confirm (409, option_refresh_required) with the new figures; bookings already made keep what they were booked at, and a partner's live hold keeps its price until it ends. GET /api/provider/changes lists it."
  }
}

export const changesExample: OperationExample = {
  response: {
    ok: true,
    spec_version: "provider_api_v1",
    changes: [
      {
        id: "0b8f3c1e-2d4a-4f6b-9c7e-1a2b3c4d5e6f",
        changed_at: "2026-11-23T09:05:00+01:00",
        changed_by: "hsp_Q2x9LmT4aB7c",
        subject: "service",
        service_id: "vvs_install_faucet_standard",
        changes: [{ field: "amount_sek", before: 1990, after: 2190 }],
        terms_version_before: before,
        terms_version_after: service.terms.version
      }
    ],
    next_cursor: null
  }
}
