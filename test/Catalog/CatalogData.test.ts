import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { catalogData } from "../../src/Catalog/CatalogData.js"
import { CatalogData, type JobType } from "../../src/Domain/Catalog.js"

// Transcribed by hand from spec section 2.2, in table order.
const specJobTypeIds = {
  vvs: [
    "leak_visible",
    "leak_hidden",
    "leak_faucet_fixture",
    "leak_appliance",
    "clog_fixture",
    "clog_toilet",
    "clog_main_backup",
    "toilet_running_refill",
    "toilet_weak_flush",
    "hotwater_no_hot",
    "hotwater_leak_or_safety",
    "pressure_single_fixture",
    "pressure_whole_home",
    "install_faucet",
    "install_toilet",
    "install_appliance_hookup",
    "install_other_fixture"
  ],
  electrician: [
    "electrical_emergency",
    "electrical_hidden_fault",
    "electrical_panel_work",
    "electrical_power_outage",
    "electrical_install_ev_charger",
    "electrical_solar_pv",
    "electrical_install_spotlights",
    "electrical_install_dimmer",
    "electrical_replace_outlet_switch",
    "electrical_appliance_hookup",
    "electrical_heating_ventilation",
    "electrical_install_ceiling_lamp",
    "electrical_new_circuit",
    "electrical_inspection_safety",
    "electrical_service_visit"
  ],
  moving: [
    "moving_home",
    "moving_office",
    "moving_packing",
    "moving_piano",
    "moving_storage",
    "moving_heavy_lift",
    "moving_disposal"
  ],
  cleaning: [
    "cleaning_move_out",
    "cleaning_window",
    "cleaning_home_deep",
    "cleaning_office_recurring",
    "cleaning_commercial_site",
    "cleaning_stairwell_property",
    "cleaning_post_construction",
    "cleaning_floor_care",
    "cleaning_textile_carpet",
    "cleaning_death_estate",
    "cleaning_mold_graffiti",
    "cleaning_sanitation",
    "cleaning_exterior_surface",
    "cleaning_specialist_inspection",
    "cleaning_home_recurring",
    "cleaning_home_one_off"
  ]
} as const

const specSeedServiceIds = {
  vvs: [
    "vvs_drain_jetting_single_starting",
    "vvs_install_faucet_standard",
    "vvs_install_toilet_standard",
    "vvs_install_appliance_hookup_standard",
    "vvs_install_outdoor_tap_standard"
  ],
  electrician: [
    "electrician_install_ev_charger_standard",
    "electrician_install_spotlights_per_item",
    "electrician_install_dimmer_standard",
    "electrician_replace_outlet_switch_standard",
    "electrician_install_ceiling_lamp_standard",
    "electrician_service_visit_3h"
  ],
  moving: [
    "moving_home_starter_3h",
    "moving_packing_two_packers_2h",
    "moving_piano_standard_local",
    "moving_heavy_lift_2h"
  ],
  cleaning: [
    "cleaning_move_out_per_sqm",
    "cleaning_window_per_window",
    "cleaning_home_deep_per_sqm",
    "cleaning_office_recurring_hourly",
    "cleaning_stairwell_property_recurring_hourly",
    "cleaning_post_construction_per_sqm",
    "cleaning_textile_carpet_small_job",
    "cleaning_home_recurring_hourly",
    "cleaning_home_one_off_hourly"
  ]
} as const

const catalog = Schema.decodeUnknownSync(CatalogData)(catalogData)
const allJobTypes = catalog.verticals.flatMap((v) => v.job_types)

const jobType = (id: string): JobType => {
  const found = allJobTypes.find((jt) => jt.job_type_id === id)
  if (found === undefined) throw new Error(`job type ${id} missing`)
  return found
}

const verticalOf = (id: keyof typeof specJobTypeIds) => {
  const found = catalog.verticals.find((v) => v.vertical_id === id)
  if (found === undefined) throw new Error(`vertical ${id} missing`)
  return found
}

describe("CatalogData", () => {
  it("decodes with the CatalogData schema", () => {
    expect(() => Schema.decodeUnknownSync(CatalogData)(catalogData)).not.toThrow()
  })

  it("has exactly the four supported verticals in spec order", () => {
    expect(catalog.verticals.map((v) => v.vertical_id)).toEqual(["vvs", "electrician", "moving", "cleaning"])
  })

  it("has the spec's job type counts per vertical", () => {
    expect(Object.fromEntries(catalog.verticals.map((v) => [v.vertical_id, v.job_types.length]))).toEqual({
      vvs: 17,
      electrician: 15,
      moving: 7,
      cleaning: 16
    })
  })

  it.each(Object.keys(specJobTypeIds) as Array<keyof typeof specJobTypeIds>)(
    "lists the spec's %s job types in table order",
    (id) => {
      expect(verticalOf(id).job_types.map((jt) => jt.job_type_id)).toEqual(specJobTypeIds[id])
    }
  )

  it.each(Object.keys(specSeedServiceIds) as Array<keyof typeof specSeedServiceIds>)(
    "has exactly the spec's %s fixed-price seeds",
    (id) => {
      const seeds = verticalOf(id).job_types.flatMap((jt) =>
        jt.fixed_price_seed ? [jt.fixed_price_seed.service_id] : []
      )
      expect(seeds).toEqual(specSeedServiceIds[id])
    }
  )

  it("has 5/6/4/9 seeds for vvs/electrician/moving/cleaning", () => {
    expect(catalog.verticals.map((v) => v.job_types.filter((jt) => jt.fixed_price_seed !== undefined).length)).toEqual([
      5, 6, 4, 9
    ])
  })

  it("prices every seed in SEK and requires provider confirmation", () => {
    for (const jt of allJobTypes) {
      if (jt.fixed_price_seed) {
        expect(jt.fixed_price_seed.currency).toBe("SEK")
        expect(jt.fixed_price_seed.provider_confirmation_required).toBe(true)
      }
    }
  })

  describe("spot checks against spec rows", () => {
    it("vvs leak_visible: standardized, medium, no seed", () => {
      const jt = jobType("leak_visible")
      expect(jt.routing_mode).toBe("standardized")
      expect(jt.fixed_price_fit).toBe("medium")
      expect(jt.required_signals).toEqual(["leak_source_known", "leak_activity_known", "shutoff_status_known"])
      expect(jt.fixed_price_seed).toBeUndefined()
    })

    it("vvs clog_fixture: starting-price seed for a quote or visit", () => {
      const jt = jobType("clog_fixture")
      expect(jt.required_signals).toEqual(["fixture_known", "blockage_severity_known"])
      expect(jt.fixed_price_seed).toEqual({
        service_id: "vvs_drain_jetting_single_starting",
        pricing_model: "starting_price",
        price_type: "starting_price",
        currency: "SEK",
        booking_mode_when_qualified: "quote_or_visit",
        direct_booking_fit: "medium",
        provider_confirmation_required: true
      })
    })

    it("vvs install_other_fixture: low fit yet seeded with the outdoor tap service", () => {
      const jt = jobType("install_other_fixture")
      expect(jt.routing_mode).toBe("needs_clarification")
      expect(jt.fixed_price_fit).toBe("low")
      expect(jt.fixed_price_seed?.service_id).toBe("vvs_install_outdoor_tap_standard")
      expect(jt.fixed_price_seed?.booking_mode_when_qualified).toBe("quote_or_visit")
    })

    it("electrician electrical_emergency: emergency routing, no seed", () => {
      const jt = jobType("electrical_emergency")
      expect(jt.routing_mode).toBe("emergency")
      expect(jt.fixed_price_fit).toBe("low")
      expect(jt.required_signals).toEqual([
        "safety_risk_known",
        "power_scope_known",
        "breaker_rcd_status_known",
        "urgency_known",
        "room_type_known"
      ])
      expect(jt.fixed_price_seed).toBeUndefined()
    })

    it("electrician electrical_install_spotlights: per_item / avg_unit", () => {
      const jt = jobType("electrical_install_spotlights")
      expect(jt.routing_mode).toBe("needs_clarification")
      expect(jt.fixed_price_fit).toBe("medium")
      expect(jt.required_signals).toEqual([
        "spot_count_known",
        "ceiling_type_known",
        "existing_wiring_known",
        "dimmer_product_known",
        "room_type_known"
      ])
      expect(jt.fixed_price_seed).toEqual({
        service_id: "electrician_install_spotlights_per_item",
        pricing_model: "per_item",
        price_type: "avg_unit",
        currency: "SEK",
        booking_mode_when_qualified: "quote_or_visit",
        direct_booking_fit: "medium",
        provider_confirmation_required: true
      })
    })

    it("electrician electrical_replace_outlet_switch: direct job candidate", () => {
      const jt = jobType("electrical_replace_outlet_switch")
      expect(jt.routing_mode).toBe("standardized")
      expect(jt.fixed_price_fit).toBe("high")
      expect(jt.fixed_price_seed?.pricing_model).toBe("flat")
      expect(jt.fixed_price_seed?.price_type).toBe("avg_fixed")
      expect(jt.fixed_price_seed?.booking_mode_when_qualified).toBe("direct_job_candidate")
      expect(jt.fixed_price_seed?.direct_booking_fit).toBe("high")
    })

    it("moving moving_home: flat starter seed, direct job candidate", () => {
      const jt = jobType("moving_home")
      expect(jt.routing_mode).toBe("standardized")
      expect(jt.fixed_price_fit).toBe("high")
      expect(jt.required_signals).toEqual([
        "move_size_known",
        "from_to_known",
        "access_known",
        "inventory_known",
        "date_known"
      ])
      expect(jt.fixed_price_seed?.service_id).toBe("moving_home_starter_3h")
      expect(jt.fixed_price_seed?.booking_mode_when_qualified).toBe("direct_job_candidate")
    })

    it("moving moving_heavy_lift: specialist with an hourly seed", () => {
      const jt = jobType("moving_heavy_lift")
      expect(jt.routing_mode).toBe("specialist")
      expect(jt.fixed_price_fit).toBe("low")
      expect(jt.fixed_price_seed?.pricing_model).toBe("per_hour")
      expect(jt.fixed_price_seed?.price_type).toBe("avg_unit")
      expect(jt.fixed_price_seed?.direct_booking_fit).toBe("medium")
    })

    it("moving moving_office: needs clarification, no seed", () => {
      const jt = jobType("moving_office")
      expect(jt.routing_mode).toBe("needs_clarification")
      expect(jt.fixed_price_fit).toBe("low")
      expect(jt.fixed_price_seed).toBeUndefined()
    })

    it("cleaning cleaning_office_recurring: per_hour / avg_recurring / recurring_service_start", () => {
      const jt = jobType("cleaning_office_recurring")
      expect(jt.routing_mode).toBe("standardized")
      expect(jt.fixed_price_fit).toBe("medium")
      expect(jt.required_signals).toEqual([
        "commercial_premise_known",
        "area_size_known",
        "frequency_known",
        "after_hours_access_known",
        "invoice_details_known",
        "schedule_known"
      ])
      expect(jt.fixed_price_seed).toEqual({
        service_id: "cleaning_office_recurring_hourly",
        pricing_model: "per_hour",
        price_type: "avg_recurring",
        currency: "SEK",
        booking_mode_when_qualified: "recurring_service_start",
        direct_booking_fit: "medium",
        provider_confirmation_required: true
      })
    })

    it("cleaning cleaning_window: per_window / avg_unit", () => {
      const jt = jobType("cleaning_window")
      expect(jt.fixed_price_fit).toBe("high")
      expect(jt.fixed_price_seed?.pricing_model).toBe("per_window")
      expect(jt.fixed_price_seed?.price_type).toBe("avg_unit")
      expect(jt.fixed_price_seed?.direct_booking_fit).toBe("high")
    })

    it("cleaning cleaning_home_one_off: hourly but avg_unit, quote or visit", () => {
      const jt = jobType("cleaning_home_one_off")
      expect(jt.fixed_price_seed?.pricing_model).toBe("per_hour")
      expect(jt.fixed_price_seed?.price_type).toBe("avg_unit")
      expect(jt.fixed_price_seed?.booking_mode_when_qualified).toBe("quote_or_visit")
    })

    it("cleaning cleaning_sanitation: specialist, no seed", () => {
      const jt = jobType("cleaning_sanitation")
      expect(jt.routing_mode).toBe("specialist")
      expect(jt.fixed_price_fit).toBe("low")
      expect(jt.fixed_price_seed).toBeUndefined()
    })
  })

  it("labels every vertical and job type in Swedish and English", () => {
    for (const v of catalog.verticals) {
      expect(v.label_sv.trim()).not.toBe("")
      expect(v.label_en.trim()).not.toBe("")
      expect(v.agent_summary.trim()).not.toBe("")
      expect(v.safe_next_step.trim()).not.toBe("")
    }
    for (const jt of allJobTypes) {
      expect(jt.label_sv.trim()).not.toBe("")
      expect(jt.label_en.trim()).not.toBe("")
    }
    const translated = allJobTypes.filter((jt) => jt.label_sv !== jt.label_en).length
    expect(translated / allJobTypes.length).toBeGreaterThanOrEqual(0.8)
  })

  it("lists painting, carpentry and gardening as unavailable", () => {
    expect(catalog.unavailable_verticals.map((v) => v.vertical_id)).toEqual(["painting", "carpentry", "gardening"])
    for (const v of catalog.unavailable_verticals) {
      expect(v.label_sv.trim()).not.toBe("")
      expect(v.label_en.trim()).not.toBe("")
      expect(v.safe_next_step).toMatch(/not bookable yet/)
    }
  })
})
