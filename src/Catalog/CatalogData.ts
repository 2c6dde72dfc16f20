/**
 * Declared data: the catalog (verticals, job types, fixed-price seeds) as spec section 2.2 lists
 * it, and the synonyms used only for suggestions. No logic lives here; the Catalog service
 * (./Catalog.ts) decodes it once at start with the CatalogData schema.
 */

import type { CatalogData } from "../Domain/Catalog.js"

type JobType = (typeof CatalogData.Encoded)["verticals"][number]["job_types"][number]
type Seed = NonNullable<JobType["fixed_price_seed"]>

/** A job type as a row: id, labels, routing, fit, signals, and its seed (service, pricing, mode, fit) if any. */
type JobRow = readonly [
  JobType["job_type_id"],
  JobType["label_sv"],
  JobType["label_en"],
  JobType["routing_mode"],
  JobType["fixed_price_fit"],
  JobType["required_signals"],
  (readonly [
    Seed["service_id"],
    Seed["pricing_model"],
    Seed["price_type"],
    Seed["booking_mode_when_qualified"],
    Seed["direct_booking_fit"]
  ])?
]

/** Every seed is priced in SEK and confirmed by the provider. */
const jobTypes = (rows: readonly [JobRow, ...Array<JobRow>]) =>
  rows.map(([job_type_id, label_sv, label_en, routing_mode, fixed_price_fit, required_signals, seed]) => ({
    job_type_id,
    label_sv,
    label_en,
    routing_mode,
    fixed_price_fit,
    required_signals,
    ...(seed === undefined
      ? {}
      : {
          fixed_price_seed: {
            service_id: seed[0],
            pricing_model: seed[1],
            price_type: seed[2],
            currency: "SEK" as const,
            booking_mode_when_qualified: seed[3],
            direct_booking_fit: seed[4],
            provider_confirmation_required: true as const
          }
        })
  })) as unknown as readonly [JobType, ...Array<JobType>]

// biome-ignore format: a table, one job type a row
const plumbingJobs = jobTypes([
  ["leak_visible", "Synligt vattenläckage", "Visible water leak", "standardized", "medium", ["leak_source_known", "leak_activity_known", "shutoff_status_known"]],
  ["leak_hidden", "Dolt läckage eller misstänkt fuktskada", "Hidden leak or suspected water damage", "needs_clarification", "low", ["hidden_damage_context_known"]],
  ["leak_faucet_fixture", "Läckande kran eller blandare", "Leaking tap or mixer", "standardized", "high", ["fixture_known", "leak_pattern_known"]],
  ["leak_appliance", "Läckage från disk- eller tvättmaskin", "Leaking dishwasher or washing machine", "standardized", "medium", ["fixture_known", "leak_pattern_known", "shutoff_status_known"]],
  ["clog_fixture", "Stopp i handfat, dusch eller diskho", "Blocked basin, shower or sink drain", "standardized", "high", ["fixture_known", "blockage_severity_known"], ["vvs_drain_jetting_single_starting", "starting_price", "starting_price", "quote_or_visit", "medium"]],
  ["clog_toilet", "Stopp i toaletten", "Blocked toilet", "standardized", "medium", ["overflow_status_known", "backup_scope_known"]],
  ["clog_main_backup", "Stopp i stamledningen eller avloppsvatten som tränger upp", "Main drain blockage or sewage backup", "needs_clarification", "low", ["backup_scope_known", "sewage_present_known"]],
  ["toilet_running_refill", "Toaletten rinner hela tiden", "Toilet keeps running", "standardized", "high", ["running_pattern_known"]],
  ["toilet_weak_flush", "Toaletten spolar dåligt", "Weak toilet flush", "standardized", "medium", ["flush_scope_known"]],
  ["hotwater_no_hot", "Inget varmvatten", "No hot water", "needs_clarification", "medium", ["hot_water_scope_known"]],
  ["hotwater_leak_or_safety", "Varmvattenberedaren läcker eller verkar osäker", "Water heater leaking or unsafe", "needs_clarification", "low", ["heater_symptom_known"]],
  ["pressure_single_fixture", "Lågt vattentryck i en kran", "Low water pressure at one tap", "standardized", "medium", ["pressure_scope_known", "pressure_timeline_known"]],
  ["pressure_whole_home", "Lågt vattentryck i hela bostaden", "Low water pressure throughout the home", "needs_clarification", "low", ["pressure_scope_known", "pressure_timeline_known"]],
  ["install_faucet", "Byte eller montering av blandare", "Install or replace a tap", "standardized", "high", ["install_target_known", "install_type_known", "product_on_site_known"], ["vvs_install_faucet_standard", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["install_toilet", "Byte eller montering av toalettstol", "Install or replace a toilet", "standardized", "medium", ["install_type_known", "product_on_site_known"], ["vvs_install_toilet_standard", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["install_appliance_hookup", "Inkoppling av disk- eller tvättmaskin", "Connect a dishwasher or washing machine", "standardized", "high", ["install_target_known", "product_on_site_known", "connection_readiness_known"], ["vvs_install_appliance_hookup_standard", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["install_other_fixture", "Montering av annan VVS-armatur (t.ex. utekran)", "Install another plumbing fixture (e.g. outdoor tap)", "needs_clarification", "low", ["install_target_known", "install_type_known", "product_on_site_known"], ["vvs_install_outdoor_tap_standard", "flat", "avg_fixed", "quote_or_visit", "medium"]]
])

// biome-ignore format: a table, one job type a row
const electricianJobs = jobTypes([
  ["electrical_emergency", "Akut elfel", "Electrical emergency", "emergency", "low", ["safety_risk_known", "power_scope_known", "breaker_rcd_status_known", "urgency_known", "room_type_known"]],
  ["electrical_hidden_fault", "Felsökning av dolt elfel", "Troubleshoot a hidden electrical fault", "needs_clarification", "low", ["symptom_known", "power_scope_known", "breaker_rcd_status_known", "safety_risk_known", "urgency_known"]],
  ["electrical_panel_work", "Arbete i elcentralen", "Fuse box work", "needs_clarification", "low", ["panel_work_type_known", "electrical_panel_known", "main_fuse_or_capacity_known", "safety_risk_known", "drawings_or_photos_known"]],
  ["electrical_power_outage", "Strömavbrott i bostaden", "Power outage in the home", "needs_clarification", "low", ["power_scope_known", "breaker_rcd_status_known", "safety_risk_known", "urgency_known", "issue_scope_known"]],
  ["electrical_install_ev_charger", "Installation av laddbox för elbil", "EV charger installation", "needs_clarification", "medium", ["charger_model_known", "charger_location_known", "electrical_panel_known", "load_balancing_known", "cable_route_known"], ["electrician_install_ev_charger_standard", "flat", "avg_fixed", "quote_or_visit", "medium"]],
  ["electrical_solar_pv", "Installation av solceller", "Solar panel installation", "specialist", "low", ["renovation_scope_known", "electrical_panel_known", "cable_route_known", "drawings_or_photos_known", "access_known"]],
  ["electrical_install_spotlights", "Installation av spotlights", "Install spotlights", "needs_clarification", "medium", ["spot_count_known", "ceiling_type_known", "existing_wiring_known", "dimmer_product_known", "room_type_known"], ["electrician_install_spotlights_per_item", "per_item", "avg_unit", "quote_or_visit", "medium"]],
  ["electrical_install_dimmer", "Installation av dimmer", "Install a dimmer", "standardized", "high", ["fixture_type_known", "existing_point_known", "dimmer_product_known", "indoor_outdoor_wetroom_known"], ["electrician_install_dimmer_standard", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["electrical_replace_outlet_switch", "Byte av eluttag eller strömbrytare", "Replace socket or switch", "standardized", "high", ["fixture_type_known", "quantity_known", "existing_point_known", "indoor_outdoor_wetroom_known"], ["electrician_replace_outlet_switch_standard", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["electrical_appliance_hookup", "Elinkoppling av spis, häll eller annan vitvara", "Wire in a cooker, hob or other appliance", "needs_clarification", "medium", ["appliance_type_known", "phase_or_power_known", "connection_readiness_known", "product_on_site_known", "indoor_outdoor_wetroom_known"]],
  ["electrical_heating_ventilation", "Installation av elvärme eller fläkt", "Install electric heating or a fan", "needs_clarification", "medium", ["heating_or_fan_type_known", "room_type_known", "existing_point_known", "product_on_site_known", "indoor_outdoor_wetroom_known"]],
  ["electrical_install_ceiling_lamp", "Montering av taklampa", "Install a ceiling light", "standardized", "high", ["lamp_count_known", "existing_point_known", "ceiling_height_known", "product_on_site_known", "indoor_outdoor_wetroom_known"], ["electrician_install_ceiling_lamp_standard", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["electrical_new_circuit", "Ny elgrupp eller nydragning av el", "New circuit or new wiring", "needs_clarification", "low", ["fixture_type_known", "indoor_outdoor_wetroom_known", "cable_route_known", "electrical_panel_known", "drawings_or_photos_known"]],
  ["electrical_inspection_safety", "Elbesiktning eller säkerhetskontroll", "Electrical inspection or safety check", "specialist", "low", ["inspection_reason_known", "renovation_scope_known", "drawings_or_photos_known", "access_known"]],
  ["electrical_service_visit", "Servicebesök av elektriker", "Electrician service visit", "standardized", "medium", ["service_window_known", "non_emergency_known", "issue_scope_known"], ["electrician_service_visit_3h", "flat", "avg_fixed", "quote_or_visit", "medium"]]
])

// biome-ignore format: a table, one job type a row
const movingJobs = jobTypes([
  ["moving_home", "Bohagsflytt", "Home move", "standardized", "high", ["move_size_known", "from_to_known", "access_known", "inventory_known", "date_known"], ["moving_home_starter_3h", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["moving_office", "Kontorsflytt", "Office move", "needs_clarification", "low", ["move_size_known", "from_to_known", "access_known", "inventory_known", "date_known"]],
  ["moving_packing", "Packhjälp", "Packing help", "standardized", "medium", ["packing_scope_known", "inventory_known", "date_known"], ["moving_packing_two_packers_2h", "per_hour", "avg_unit", "quote_or_visit", "medium"]],
  ["moving_piano", "Pianoflytt", "Piano move", "specialist", "low", ["item_details_known", "from_to_known", "access_known", "date_known"], ["moving_piano_standard_local", "flat", "avg_fixed", "direct_job_candidate", "high"]],
  ["moving_storage", "Magasinering", "Storage", "needs_clarification", "low", ["move_size_known", "storage_duration_known", "from_to_known", "date_known"]],
  ["moving_heavy_lift", "Tunga lyft", "Heavy lifting", "specialist", "low", ["item_details_known", "from_to_known", "access_known", "date_known"], ["moving_heavy_lift_2h", "per_hour", "avg_unit", "quote_or_visit", "medium"]],
  ["moving_disposal", "Bortforsling och återvinning", "Removal and disposal", "needs_clarification", "low", ["disposal_scope_known", "access_known", "date_known"]]
])

// biome-ignore format: a table, one job type a row
const cleaningJobs = jobTypes([
  ["cleaning_move_out", "Flyttstädning", "Move-out cleaning", "standardized", "high", ["property_size_known", "move_state_known", "inspection_deadline_known", "add_ons_known", "access_known", "guarantee_expectation_known"], ["cleaning_move_out_per_sqm", "per_sqm", "avg_unit", "direct_job_candidate", "high"]],
  ["cleaning_window", "Fönsterputs", "Window cleaning", "standardized", "high", ["window_count_known", "window_sides_known", "height_access_known", "inside_outside_known", "schedule_known"], ["cleaning_window_per_window", "per_window", "avg_unit", "direct_job_candidate", "high"]],
  ["cleaning_home_deep", "Storstädning", "Deep cleaning", "standardized", "medium", ["property_size_known", "scope_depth_known", "heavy_soil_known", "add_ons_known", "access_known", "schedule_known"], ["cleaning_home_deep_per_sqm", "per_sqm", "avg_unit", "direct_job_candidate", "high"]],
  ["cleaning_office_recurring", "Regelbunden kontorsstädning", "Recurring office cleaning", "standardized", "medium", ["commercial_premise_known", "area_size_known", "frequency_known", "after_hours_access_known", "invoice_details_known", "schedule_known"], ["cleaning_office_recurring_hourly", "per_hour", "avg_recurring", "recurring_service_start", "medium"]],
  ["cleaning_commercial_site", "Städning av lokaler", "Commercial premises cleaning", "needs_clarification", "low", ["commercial_premise_known", "area_size_known", "operating_constraints_known", "hygiene_level_known", "after_hours_access_known", "schedule_known"]],
  ["cleaning_stairwell_property", "Trapp- och fastighetsstädning", "Stairwell and property cleaning", "standardized", "medium", ["building_common_areas_known", "floors_or_stairwells_known", "frequency_known", "access_known", "property_owner_or_board_known", "schedule_known"], ["cleaning_stairwell_property_recurring_hourly", "per_hour", "avg_recurring", "recurring_service_start", "medium"]],
  ["cleaning_post_construction", "Byggstädning", "Post-construction cleaning", "needs_clarification", "medium", ["site_stage_known", "area_size_known", "dust_debris_level_known", "waste_removal_known", "water_electricity_known", "access_known"], ["cleaning_post_construction_per_sqm", "per_sqm", "avg_unit", "quote_or_visit", "medium"]],
  ["cleaning_floor_care", "Golvvård", "Floor care", "needs_clarification", "medium", ["surface_material_known", "area_size_known", "treatment_type_known", "furniture_moving_known", "drying_access_known", "schedule_known"]],
  ["cleaning_textile_carpet", "Matt- och textiltvätt", "Carpet and upholstery cleaning", "needs_clarification", "medium", ["textile_type_known", "area_or_item_count_known", "stain_type_known", "on_site_or_pickup_known", "drying_access_known", "schedule_known"], ["cleaning_textile_carpet_small_job", "flat", "avg_fixed", "quote_or_visit", "medium"]],
  ["cleaning_death_estate", "Dödsbostädning", "Estate cleaning after a death", "needs_clarification", "low", ["property_size_known", "estate_state_known", "waste_removal_known", "sensitive_material_known", "access_known", "deadline_known"]],
  ["cleaning_mold_graffiti", "Mögel- eller klottersanering", "Mould or graffiti removal", "specialist", "low", ["contamination_type_known", "surface_material_known", "affected_area_known", "cause_or_source_known", "photo_or_inspection_known", "access_known"]],
  ["cleaning_sanitation", "Saneringsstädning", "Sanitation cleaning", "specialist", "low", ["contamination_type_known", "affected_area_known", "severity_known", "safety_risk_known", "photo_or_inspection_known", "access_known"]],
  ["cleaning_exterior_surface", "Tvätt av fasad, tak eller markytor", "Facade, roof or paving cleaning", "specialist", "low", ["surface_type_known", "surface_area_known", "height_access_known", "water_access_known", "soil_growth_known", "photo_or_inspection_known"]],
  ["cleaning_specialist_inspection", "Specialstädning med platsbesök", "Specialist cleaning with site inspection", "specialist", "low", ["specialist_context_known", "site_requirements_known", "safety_risk_known", "access_known", "photo_or_inspection_known", "schedule_known"]],
  ["cleaning_home_recurring", "Regelbunden hemstädning", "Recurring home cleaning", "standardized", "high", ["property_size_known", "frequency_known", "rooms_and_bathrooms_known", "access_known", "supplies_known", "schedule_known"], ["cleaning_home_recurring_hourly", "per_hour", "avg_recurring", "recurring_service_start", "medium"]],
  ["cleaning_home_one_off", "Enstaka hemstädning", "One-off home cleaning", "standardized", "medium", ["property_size_known", "scope_depth_known", "rooms_and_bathrooms_known", "access_known", "supplies_known", "schedule_known"], ["cleaning_home_one_off_hourly", "per_hour", "avg_unit", "quote_or_visit", "medium"]]
])

export const catalogData = {
  verticals: [
    {
      vertical_id: "vvs",
      label_sv: "VVS",
      label_en: "Plumbing",
      agent_summary:
        "Plumbing in Swedish homes: leaks, blocked drains, toilets, hot water, water pressure and installation of taps, toilets and appliance connections. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request.",
      job_types: plumbingJobs
    },
    {
      vertical_id: "electrician",
      label_sv: "Elektriker",
      label_en: "Electrician",
      agent_summary:
        "Electrical work in Swedish homes by authorised electricians: faults, fuse boxes, sockets and switches, lighting, EV chargers, appliances and inspections. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request, and never give DIY electrical instructions.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request. For burning smells, sparks or other immediate danger, tell the user to contact emergency services instead.",
      job_types: electricianJobs
    },
    {
      vertical_id: "moving",
      label_sv: "Flytt",
      label_en: "Moving",
      agent_summary:
        "Moving services within Sweden: home and office moves, packing help, piano moves, heavy lifting, storage and disposal. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request.",
      job_types: movingJobs
    },
    {
      vertical_id: "cleaning",
      label_sv: "Städning",
      label_en: "Cleaning",
      agent_summary:
        "Cleaning services in Sweden: move-out, window, deep and recurring home cleaning, office and commercial cleaning, and specialist cleaning such as post-construction, sanitation and mould. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request.",
      job_types: cleaningJobs
    }
  ],
  unavailable_verticals: [
    {
      vertical_id: "painting",
      label_sv: "Målning",
      label_en: "Painting",
      safe_next_step:
        "Painting is not bookable yet through this service: do not search for it and do not submit it to request creation. Suggest that the user contacts a painter directly."
    },
    {
      vertical_id: "carpentry",
      label_sv: "Snickeri",
      label_en: "Carpentry",
      safe_next_step:
        "Carpentry is not bookable yet through this service: do not search for it and do not submit it to request creation. Suggest that the user contacts a carpenter directly."
    },
    {
      vertical_id: "gardening",
      label_sv: "Trädgård",
      label_en: "Gardening",
      safe_next_step:
        "Gardening is not bookable yet through this service: do not search for it and do not submit it to request creation. Suggest that the user contacts a gardener directly."
    }
  ]
} satisfies typeof CatalogData.Encoded

/**
 * Words people use for a vertical or a job type beside the catalog's labels, in Swedish and
 * English: only to suggest the closest supported id when a caller names one we do not have.
 */
// biome-ignore format: a table, one id a row
export const catalogSynonyms: {
  readonly verticals: Readonly<Record<string, ReadonlyArray<string>>>
  readonly jobTypes: Readonly<Record<string, ReadonlyArray<string>>>
} = {
  verticals: {
    vvs: ["plumbing", "plumber", "plumbers", "rörmokare", "rörmokeri", "rörarbete", "rör", "vvs-montör", "avlopp"],
    electrician: ["electrical", "electric", "electricity", "electrician", "electricians", "el", "elektriker", "elektrisk", "elinstallation", "elarbete", "elfirma", "wiring"],
    moving: ["move", "moving", "mover", "movers", "removal", "removals", "relocation", "flytt", "flytta", "flyttning", "flyttfirma", "flytthjälp", "bärhjälp"],
    cleaning: ["clean", "cleaning", "cleaner", "cleaners", "städ", "städa", "städning", "städfirma", "städhjälp", "rengöring", "housekeeping"],
    painting: ["paint", "painter", "painters", "målning", "måla", "målare", "måleri", "tapetsering"],
    carpentry: ["carpenter", "carpenters", "joinery", "joiner", "snickare", "snickeri", "snickra"],
    gardening: ["garden", "gardener", "landscaping", "lawn", "trädgård", "trädgårdsarbete", "gräsklippning"]
  },
  jobTypes: {
    install_faucet: ["blandare", "kran", "faucet", "tap", "mixer"],
    install_toilet: ["toalett", "toalettstol", "toilet"],
    electrical_install_ev_charger: ["laddbox", "elbilsladdare", "wallbox", "ev charger"],
    moving_piano: ["piano", "pianoflytt"],
    cleaning_move_out: ["flyttstädning", "flyttstäd", "move out cleaning"],
    cleaning_window: ["fönsterputs", "fönstertvätt", "window cleaning"],
    cleaning_home_deep: ["storstädning", "storstäd", "deep cleaning"]
  }
}
