/**
 * Declared data: the catalog (verticals, job types, fixed-price seeds) as spec section 2.2 lists
 * it, and the synonyms used only for suggestions. No logic lives here; the Catalog service
 * (./Catalog.ts) decodes it once at start with the CatalogData schema.
 */

import type { CatalogData } from "../Domain/Catalog.js"

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
      job_types: [
        {
          job_type_id: "leak_visible",
          label_sv: "Synligt vattenläckage",
          label_en: "Visible water leak",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["leak_source_known", "leak_activity_known", "shutoff_status_known"]
        },
        {
          job_type_id: "leak_hidden",
          label_sv: "Dolt läckage eller misstänkt fuktskada",
          label_en: "Hidden leak or suspected water damage",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["hidden_damage_context_known"]
        },
        {
          job_type_id: "leak_faucet_fixture",
          label_sv: "Läckande kran eller blandare",
          label_en: "Leaking tap or mixer",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: ["fixture_known", "leak_pattern_known"]
        },
        {
          job_type_id: "leak_appliance",
          label_sv: "Läckage från disk- eller tvättmaskin",
          label_en: "Leaking dishwasher or washing machine",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["fixture_known", "leak_pattern_known", "shutoff_status_known"]
        },
        {
          job_type_id: "clog_fixture",
          label_sv: "Stopp i handfat, dusch eller diskho",
          label_en: "Blocked basin, shower or sink drain",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: ["fixture_known", "blockage_severity_known"],
          fixed_price_seed: {
            service_id: "vvs_drain_jetting_single_starting",
            pricing_model: "starting_price",
            price_type: "starting_price",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "clog_toilet",
          label_sv: "Stopp i toaletten",
          label_en: "Blocked toilet",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["overflow_status_known", "backup_scope_known"]
        },
        {
          job_type_id: "clog_main_backup",
          label_sv: "Stopp i stamledningen eller avloppsvatten som tränger upp",
          label_en: "Main drain blockage or sewage backup",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["backup_scope_known", "sewage_present_known"]
        },
        {
          job_type_id: "toilet_running_refill",
          label_sv: "Toaletten rinner hela tiden",
          label_en: "Toilet keeps running",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: ["running_pattern_known"]
        },
        {
          job_type_id: "toilet_weak_flush",
          label_sv: "Toaletten spolar dåligt",
          label_en: "Weak toilet flush",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["flush_scope_known"]
        },
        {
          job_type_id: "hotwater_no_hot",
          label_sv: "Inget varmvatten",
          label_en: "No hot water",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: ["hot_water_scope_known"]
        },
        {
          job_type_id: "hotwater_leak_or_safety",
          label_sv: "Varmvattenberedaren läcker eller verkar osäker",
          label_en: "Water heater leaking or unsafe",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["heater_symptom_known"]
        },
        {
          job_type_id: "pressure_single_fixture",
          label_sv: "Lågt vattentryck i en kran",
          label_en: "Low water pressure at one tap",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["pressure_scope_known", "pressure_timeline_known"]
        },
        {
          job_type_id: "pressure_whole_home",
          label_sv: "Lågt vattentryck i hela bostaden",
          label_en: "Low water pressure throughout the home",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["pressure_scope_known", "pressure_timeline_known"]
        },
        {
          job_type_id: "install_faucet",
          label_sv: "Byte eller montering av blandare",
          label_en: "Install or replace a tap",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: ["install_target_known", "install_type_known", "product_on_site_known"],
          fixed_price_seed: {
            service_id: "vvs_install_faucet_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "install_toilet",
          label_sv: "Byte eller montering av toalettstol",
          label_en: "Install or replace a toilet",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["install_type_known", "product_on_site_known"],
          fixed_price_seed: {
            service_id: "vvs_install_toilet_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "install_appliance_hookup",
          label_sv: "Inkoppling av disk- eller tvättmaskin",
          label_en: "Connect a dishwasher or washing machine",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: ["install_target_known", "product_on_site_known", "connection_readiness_known"],
          fixed_price_seed: {
            service_id: "vvs_install_appliance_hookup_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "install_other_fixture",
          label_sv: "Montering av annan VVS-armatur (t.ex. utekran)",
          label_en: "Install another plumbing fixture (e.g. outdoor tap)",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["install_target_known", "install_type_known", "product_on_site_known"],
          fixed_price_seed: {
            service_id: "vvs_install_outdoor_tap_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        }
      ]
    },
    {
      vertical_id: "electrician",
      label_sv: "Elektriker",
      label_en: "Electrician",
      agent_summary:
        "Electrical work in Swedish homes by authorised electricians: faults, fuse boxes, sockets and switches, lighting, EV chargers, appliances and inspections. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request, and never give DIY electrical instructions.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request. For burning smells, sparks or other immediate danger, tell the user to contact emergency services instead.",
      job_types: [
        {
          job_type_id: "electrical_emergency",
          label_sv: "Akut elfel",
          label_en: "Electrical emergency",
          routing_mode: "emergency",
          fixed_price_fit: "low",
          required_signals: [
            "safety_risk_known",
            "power_scope_known",
            "breaker_rcd_status_known",
            "urgency_known",
            "room_type_known"
          ]
        },
        {
          job_type_id: "electrical_hidden_fault",
          label_sv: "Felsökning av dolt elfel",
          label_en: "Troubleshoot a hidden electrical fault",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: [
            "symptom_known",
            "power_scope_known",
            "breaker_rcd_status_known",
            "safety_risk_known",
            "urgency_known"
          ]
        },
        {
          job_type_id: "electrical_panel_work",
          label_sv: "Arbete i elcentralen",
          label_en: "Fuse box work",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: [
            "panel_work_type_known",
            "electrical_panel_known",
            "main_fuse_or_capacity_known",
            "safety_risk_known",
            "drawings_or_photos_known"
          ]
        },
        {
          job_type_id: "electrical_power_outage",
          label_sv: "Strömavbrott i bostaden",
          label_en: "Power outage in the home",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: [
            "power_scope_known",
            "breaker_rcd_status_known",
            "safety_risk_known",
            "urgency_known",
            "issue_scope_known"
          ]
        },
        {
          job_type_id: "electrical_install_ev_charger",
          label_sv: "Installation av laddbox för elbil",
          label_en: "EV charger installation",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "charger_model_known",
            "charger_location_known",
            "electrical_panel_known",
            "load_balancing_known",
            "cable_route_known"
          ],
          fixed_price_seed: {
            service_id: "electrician_install_ev_charger_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "electrical_solar_pv",
          label_sv: "Installation av solceller",
          label_en: "Solar panel installation",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: [
            "renovation_scope_known",
            "electrical_panel_known",
            "cable_route_known",
            "drawings_or_photos_known",
            "access_known"
          ]
        },
        {
          job_type_id: "electrical_install_spotlights",
          label_sv: "Installation av spotlights",
          label_en: "Install spotlights",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "spot_count_known",
            "ceiling_type_known",
            "existing_wiring_known",
            "dimmer_product_known",
            "room_type_known"
          ],
          fixed_price_seed: {
            service_id: "electrician_install_spotlights_per_item",
            pricing_model: "per_item",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "electrical_install_dimmer",
          label_sv: "Installation av dimmer",
          label_en: "Install a dimmer",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: [
            "fixture_type_known",
            "existing_point_known",
            "dimmer_product_known",
            "indoor_outdoor_wetroom_known"
          ],
          fixed_price_seed: {
            service_id: "electrician_install_dimmer_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "electrical_replace_outlet_switch",
          label_sv: "Byte av eluttag eller strömbrytare",
          label_en: "Replace socket or switch",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: [
            "fixture_type_known",
            "quantity_known",
            "existing_point_known",
            "indoor_outdoor_wetroom_known"
          ],
          fixed_price_seed: {
            service_id: "electrician_replace_outlet_switch_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "electrical_appliance_hookup",
          label_sv: "Elinkoppling av spis, häll eller annan vitvara",
          label_en: "Wire in a cooker, hob or other appliance",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "appliance_type_known",
            "phase_or_power_known",
            "connection_readiness_known",
            "product_on_site_known",
            "indoor_outdoor_wetroom_known"
          ]
        },
        {
          job_type_id: "electrical_heating_ventilation",
          label_sv: "Installation av elvärme eller fläkt",
          label_en: "Install electric heating or a fan",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "heating_or_fan_type_known",
            "room_type_known",
            "existing_point_known",
            "product_on_site_known",
            "indoor_outdoor_wetroom_known"
          ]
        },
        {
          job_type_id: "electrical_install_ceiling_lamp",
          label_sv: "Montering av taklampa",
          label_en: "Install a ceiling light",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: [
            "lamp_count_known",
            "existing_point_known",
            "ceiling_height_known",
            "product_on_site_known",
            "indoor_outdoor_wetroom_known"
          ],
          fixed_price_seed: {
            service_id: "electrician_install_ceiling_lamp_standard",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "electrical_new_circuit",
          label_sv: "Ny elgrupp eller nydragning av el",
          label_en: "New circuit or new wiring",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: [
            "fixture_type_known",
            "indoor_outdoor_wetroom_known",
            "cable_route_known",
            "electrical_panel_known",
            "drawings_or_photos_known"
          ]
        },
        {
          job_type_id: "electrical_inspection_safety",
          label_sv: "Elbesiktning eller säkerhetskontroll",
          label_en: "Electrical inspection or safety check",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: [
            "inspection_reason_known",
            "renovation_scope_known",
            "drawings_or_photos_known",
            "access_known"
          ]
        },
        {
          job_type_id: "electrical_service_visit",
          label_sv: "Servicebesök av elektriker",
          label_en: "Electrician service visit",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["service_window_known", "non_emergency_known", "issue_scope_known"],
          fixed_price_seed: {
            service_id: "electrician_service_visit_3h",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        }
      ]
    },
    {
      vertical_id: "moving",
      label_sv: "Flytt",
      label_en: "Moving",
      agent_summary:
        "Moving services within Sweden: home and office moves, packing help, piano moves, heavy lifting, storage and disposal. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request.",
      job_types: [
        {
          job_type_id: "moving_home",
          label_sv: "Bohagsflytt",
          label_en: "Home move",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: ["move_size_known", "from_to_known", "access_known", "inventory_known", "date_known"],
          fixed_price_seed: {
            service_id: "moving_home_starter_3h",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "moving_office",
          label_sv: "Kontorsflytt",
          label_en: "Office move",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["move_size_known", "from_to_known", "access_known", "inventory_known", "date_known"]
        },
        {
          job_type_id: "moving_packing",
          label_sv: "Packhjälp",
          label_en: "Packing help",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: ["packing_scope_known", "inventory_known", "date_known"],
          fixed_price_seed: {
            service_id: "moving_packing_two_packers_2h",
            pricing_model: "per_hour",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "moving_piano",
          label_sv: "Pianoflytt",
          label_en: "Piano move",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: ["item_details_known", "from_to_known", "access_known", "date_known"],
          fixed_price_seed: {
            service_id: "moving_piano_standard_local",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "moving_storage",
          label_sv: "Magasinering",
          label_en: "Storage",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["move_size_known", "storage_duration_known", "from_to_known", "date_known"]
        },
        {
          job_type_id: "moving_heavy_lift",
          label_sv: "Tunga lyft",
          label_en: "Heavy lifting",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: ["item_details_known", "from_to_known", "access_known", "date_known"],
          fixed_price_seed: {
            service_id: "moving_heavy_lift_2h",
            pricing_model: "per_hour",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "moving_disposal",
          label_sv: "Bortforsling och återvinning",
          label_en: "Removal and disposal",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: ["disposal_scope_known", "access_known", "date_known"]
        }
      ]
    },
    {
      vertical_id: "cleaning",
      label_sv: "Städning",
      label_en: "Cleaning",
      agent_summary:
        "Cleaning services in Sweden: move-out, window, deep and recurring home cleaning, office and commercial cleaning, and specialist cleaning such as post-construction, sanitation and mould. Direct booking is possible only for job types with a fixed-price offer and only after a search proves availability; otherwise offer a follow-up request.",
      safe_next_step:
        "Call POST /api/public/booking-options with the job type and postcode; if no option is returned, offer a follow-up request.",
      job_types: [
        {
          job_type_id: "cleaning_move_out",
          label_sv: "Flyttstädning",
          label_en: "Move-out cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: [
            "property_size_known",
            "move_state_known",
            "inspection_deadline_known",
            "add_ons_known",
            "access_known",
            "guarantee_expectation_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_move_out_per_sqm",
            pricing_model: "per_sqm",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_window",
          label_sv: "Fönsterputs",
          label_en: "Window cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: [
            "window_count_known",
            "window_sides_known",
            "height_access_known",
            "inside_outside_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_window_per_window",
            pricing_model: "per_window",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_home_deep",
          label_sv: "Storstädning",
          label_en: "Deep cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: [
            "property_size_known",
            "scope_depth_known",
            "heavy_soil_known",
            "add_ons_known",
            "access_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_home_deep_per_sqm",
            pricing_model: "per_sqm",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "direct_job_candidate",
            direct_booking_fit: "high",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_office_recurring",
          label_sv: "Regelbunden kontorsstädning",
          label_en: "Recurring office cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: [
            "commercial_premise_known",
            "area_size_known",
            "frequency_known",
            "after_hours_access_known",
            "invoice_details_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_office_recurring_hourly",
            pricing_model: "per_hour",
            price_type: "avg_recurring",
            currency: "SEK",
            booking_mode_when_qualified: "recurring_service_start",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_commercial_site",
          label_sv: "Städning av lokaler",
          label_en: "Commercial premises cleaning",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: [
            "commercial_premise_known",
            "area_size_known",
            "operating_constraints_known",
            "hygiene_level_known",
            "after_hours_access_known",
            "schedule_known"
          ]
        },
        {
          job_type_id: "cleaning_stairwell_property",
          label_sv: "Trapp- och fastighetsstädning",
          label_en: "Stairwell and property cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: [
            "building_common_areas_known",
            "floors_or_stairwells_known",
            "frequency_known",
            "access_known",
            "property_owner_or_board_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_stairwell_property_recurring_hourly",
            pricing_model: "per_hour",
            price_type: "avg_recurring",
            currency: "SEK",
            booking_mode_when_qualified: "recurring_service_start",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_post_construction",
          label_sv: "Byggstädning",
          label_en: "Post-construction cleaning",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "site_stage_known",
            "area_size_known",
            "dust_debris_level_known",
            "waste_removal_known",
            "water_electricity_known",
            "access_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_post_construction_per_sqm",
            pricing_model: "per_sqm",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_floor_care",
          label_sv: "Golvvård",
          label_en: "Floor care",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "surface_material_known",
            "area_size_known",
            "treatment_type_known",
            "furniture_moving_known",
            "drying_access_known",
            "schedule_known"
          ]
        },
        {
          job_type_id: "cleaning_textile_carpet",
          label_sv: "Matt- och textiltvätt",
          label_en: "Carpet and upholstery cleaning",
          routing_mode: "needs_clarification",
          fixed_price_fit: "medium",
          required_signals: [
            "textile_type_known",
            "area_or_item_count_known",
            "stain_type_known",
            "on_site_or_pickup_known",
            "drying_access_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_textile_carpet_small_job",
            pricing_model: "flat",
            price_type: "avg_fixed",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_death_estate",
          label_sv: "Dödsbostädning",
          label_en: "Estate cleaning after a death",
          routing_mode: "needs_clarification",
          fixed_price_fit: "low",
          required_signals: [
            "property_size_known",
            "estate_state_known",
            "waste_removal_known",
            "sensitive_material_known",
            "access_known",
            "deadline_known"
          ]
        },
        {
          job_type_id: "cleaning_mold_graffiti",
          label_sv: "Mögel- eller klottersanering",
          label_en: "Mould or graffiti removal",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: [
            "contamination_type_known",
            "surface_material_known",
            "affected_area_known",
            "cause_or_source_known",
            "photo_or_inspection_known",
            "access_known"
          ]
        },
        {
          job_type_id: "cleaning_sanitation",
          label_sv: "Saneringsstädning",
          label_en: "Sanitation cleaning",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: [
            "contamination_type_known",
            "affected_area_known",
            "severity_known",
            "safety_risk_known",
            "photo_or_inspection_known",
            "access_known"
          ]
        },
        {
          job_type_id: "cleaning_exterior_surface",
          label_sv: "Tvätt av fasad, tak eller markytor",
          label_en: "Facade, roof or paving cleaning",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: [
            "surface_type_known",
            "surface_area_known",
            "height_access_known",
            "water_access_known",
            "soil_growth_known",
            "photo_or_inspection_known"
          ]
        },
        {
          job_type_id: "cleaning_specialist_inspection",
          label_sv: "Specialstädning med platsbesök",
          label_en: "Specialist cleaning with site inspection",
          routing_mode: "specialist",
          fixed_price_fit: "low",
          required_signals: [
            "specialist_context_known",
            "site_requirements_known",
            "safety_risk_known",
            "access_known",
            "photo_or_inspection_known",
            "schedule_known"
          ]
        },
        {
          job_type_id: "cleaning_home_recurring",
          label_sv: "Regelbunden hemstädning",
          label_en: "Recurring home cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "high",
          required_signals: [
            "property_size_known",
            "frequency_known",
            "rooms_and_bathrooms_known",
            "access_known",
            "supplies_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_home_recurring_hourly",
            pricing_model: "per_hour",
            price_type: "avg_recurring",
            currency: "SEK",
            booking_mode_when_qualified: "recurring_service_start",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        },
        {
          job_type_id: "cleaning_home_one_off",
          label_sv: "Enstaka hemstädning",
          label_en: "One-off home cleaning",
          routing_mode: "standardized",
          fixed_price_fit: "medium",
          required_signals: [
            "property_size_known",
            "scope_depth_known",
            "rooms_and_bathrooms_known",
            "access_known",
            "supplies_known",
            "schedule_known"
          ],
          fixed_price_seed: {
            service_id: "cleaning_home_one_off_hourly",
            pricing_model: "per_hour",
            price_type: "avg_unit",
            currency: "SEK",
            booking_mode_when_qualified: "quote_or_visit",
            direct_booking_fit: "medium",
            provider_confirmation_required: true
          }
        }
      ]
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
export const catalogSynonyms: {
  readonly verticals: Readonly<Record<string, ReadonlyArray<string>>>
  readonly jobTypes: Readonly<Record<string, ReadonlyArray<string>>>
} = {
  verticals: {
    vvs: ["plumbing", "plumber", "plumbers", "rörmokare", "rörmokeri", "rörarbete", "rör", "vvs-montör", "avlopp"],
    electrician: [
      "electrical",
      "electric",
      "electricity",
      "electrician",
      "electricians",
      "el",
      "elektriker",
      "elektrisk",
      "elinstallation",
      "elarbete",
      "elfirma",
      "wiring"
    ],
    moving: [
      "move",
      "moving",
      "mover",
      "movers",
      "removal",
      "removals",
      "relocation",
      "flytt",
      "flytta",
      "flyttning",
      "flyttfirma",
      "flytthjälp",
      "bärhjälp"
    ],
    cleaning: [
      "clean",
      "cleaning",
      "cleaner",
      "cleaners",
      "städ",
      "städa",
      "städning",
      "städfirma",
      "städhjälp",
      "rengöring",
      "housekeeping"
    ],
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
