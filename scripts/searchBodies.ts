/** The search bodies both benchmarks send: five common jobs, each with a time phrase of its own. */
export const searchBodies = (): ReadonlyArray<string> =>
  [
    ["vvs", "install_faucet", "111 22", "nästa vecka"],
    ["electrician", "electrical_replace_outlet_switch", "411 05", "imorgon"],
    ["cleaning", "cleaning_window", "211 20", "i helgen", { window_count: 14 }],
    ["vvs", "install_toilet", "753 20", "snarast"],
    ["vvs", "install_faucet", "981 38", "nästa vecka"]
  ].map(([vertical_id, job_type_id, postcode, preferred_time_text, details]) =>
    JSON.stringify({
      vertical_id,
      job_type_id,
      description: "Benchmark: ett vanligt jobb med fast pris",
      location: { country_code: "SE", postcode },
      timing: { preferred_time_text },
      ...(details ? { details } : {})
    })
  )
