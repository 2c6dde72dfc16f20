import { createHash } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { catalogData } from "../src/Catalog/CatalogData.js"
import type { SupplyCancellationPolicy } from "../src/Domain/CancellationPolicy.js"
import type { PriceType, PricingModel, Vertical, VerticalId } from "../src/Domain/Catalog.js"
import type { Provider, ProviderService, ServiceScope, SupplyFile, WorkingHours } from "../src/Domain/Supply.js"
import type { DeductionDeclaration } from "../src/Domain/TaxDeduction.js"
import { suggestedDeclaration } from "../src/Domain/TaxDeductionSupply.js"

export const demoSupplyPath = fileURLToPath(new URL("../supply/demo.json", import.meta.url))

/** The terms' date: 2026-12-01 is when their cancellation text began to state the right of withdrawal. */
const termsDate = "2026-12-01"

export interface DemoCity {
  readonly name: string
  readonly suffix: string
  readonly from: string
  readonly to: string
}

/** Nothing north of 800 00 is served; every area of the demo lies inside one of these ranges. */
export const demoCities: ReadonlyArray<DemoCity> = [
  { name: "Stockholm", suffix: "sthlm", from: "100 00", to: "199 99" },
  { name: "Göteborg", suffix: "gbg", from: "400 00", to: "449 99" },
  { name: "Malmö", suffix: "malmo", from: "200 00", to: "249 99" },
  { name: "Uppsala", suffix: "uppsala", from: "750 00", to: "759 99" }
]

export interface DemoOffer {
  readonly service_id: string
  readonly vertical_id: VerticalId
  readonly job_type_id: string
  readonly pricing_model: PricingModel
  readonly price_type: PriceType
}

/** DECISIONS 1: the spec publishes nine fixed-price vvs services while the catalog seeds five. */
export const extraVvsOffers: ReadonlyArray<DemoOffer> = [
  {
    service_id: "vvs_leak_faucet_fixture_repair",
    vertical_id: "vvs",
    job_type_id: "leak_faucet_fixture",
    pricing_model: "flat",
    price_type: "avg_fixed"
  },
  {
    service_id: "vvs_toilet_running_refill_repair",
    vertical_id: "vvs",
    job_type_id: "toilet_running_refill",
    pricing_model: "flat",
    price_type: "avg_fixed"
  },
  {
    service_id: "vvs_clog_toilet_standard",
    vertical_id: "vvs",
    job_type_id: "clog_toilet",
    pricing_model: "flat",
    price_type: "avg_fixed"
  },
  {
    service_id: "vvs_pressure_single_fixture_check",
    vertical_id: "vvs",
    job_type_id: "pressure_single_fixture",
    pricing_model: "flat",
    price_type: "avg_fixed"
  }
]

const verticals: ReadonlyArray<typeof Vertical.Encoded> = catalogData.verticals

const seedOffers: ReadonlyArray<DemoOffer> = verticals.flatMap((v) =>
  v.job_types.flatMap((jt) =>
    jt.fixed_price_seed
      ? [
          {
            service_id: jt.fixed_price_seed.service_id,
            vertical_id: v.vertical_id,
            job_type_id: jt.job_type_id,
            pricing_model: jt.fixed_price_seed.pricing_model,
            price_type: jt.fixed_price_seed.price_type
          }
        ]
      : []
  )
)

const offersOf = (vertical: VerticalId): ReadonlyArray<DemoOffer> =>
  [...seedOffers, ...extraVvsOffers].filter((offer) => offer.vertical_id === vertical)

interface ServiceText {
  readonly label_sv: string
  readonly label_en: string
  readonly duration_minutes: number
  /** Gross SEK incl. moms; amount_sek for flat/starting_price, unit_price_sek otherwise. */
  readonly prices: ReadonlyArray<number>
  readonly unit?: string
  readonly scope: {
    readonly included_sv: ReadonlyArray<string>
    readonly excluded_sv: ReadonlyArray<string>
    readonly customer_requirements_sv: ReadonlyArray<string>
    readonly price_adjustment_triggers_sv: ReadonlyArray<string>
    readonly quote_triggers_sv: ReadonlyArray<string>
  }
}

const serviceTexts: Readonly<Record<string, ServiceText>> = {
  vvs_drain_jetting_single_starting: {
    label_sv: "Rensning av stopp i handfat, dusch eller diskho",
    label_en: "Clearing a blocked basin, shower or sink drain",
    duration_minutes: 90,
    prices: [1995, 2095, 2195, 2295, 2395, 2495],
    scope: {
      included_sv: [
        "Rensning av ett avlopp (handfat, dusch eller diskho) med spiral eller högtrycksspolning",
        "Rengöring av vattenlås och kontroll av att avloppet rinner undan",
        "Framkörning"
      ],
      excluded_sv: ["Stopp i stamledning eller servisledning", "Rörinspektion med kamera"],
      customer_requirements_sv: ["Fri åtkomst till avloppet och vattenlåset"],
      price_adjustment_triggers_sv: [
        "Stoppet sitter längre in än 5 meter från vattenlåset",
        "Vattenlåset är trasigt och måste bytas"
      ],
      quote_triggers_sv: ["Återkommande stopp som kräver rörinspektion eller relining"]
    }
  },
  vvs_install_faucet_standard: {
    label_sv: "Byte av blandare inkl. montering",
    label_en: "Replace mixer tap incl. installation",
    duration_minutes: 120,
    prices: [1890, 1990, 2190, 2290, 2490],
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
    }
  },
  vvs_install_toilet_standard: {
    label_sv: "Byte av toalettstol inkl. montering",
    label_en: "Replace toilet incl. installation",
    duration_minutes: 180,
    prices: [3900, 4190, 4390, 4590, 4900],
    scope: {
      included_sv: [
        "Demontering och bortforsling av befintlig toalettstol",
        "Montering av ny toalettstol mot befintligt avlopp och vatten",
        "Tätning och funktionskontroll"
      ],
      excluded_sv: ["Toalettstol", "Ändring av avloppets placering", "Golvarbeten"],
      customer_requirements_sv: ["Ny toalettstol finns på plats", "Fritt utrymme runt toaletten"],
      price_adjustment_triggers_sv: [
        "Fastrostade eller ingjutna fästen",
        "Anslutningen kräver ny övergång eller förlängning"
      ],
      quote_triggers_sv: ["Flytt av avlopp eller ingrepp i tätskiktet"]
    }
  },
  vvs_install_appliance_hookup_standard: {
    label_sv: "Inkoppling av diskmaskin eller tvättmaskin",
    label_en: "Connecting a dishwasher or washing machine",
    duration_minutes: 90,
    prices: [1490, 1590, 1690, 1790, 1990],
    scope: {
      included_sv: [
        "Inkoppling av diskmaskin eller tvättmaskin till befintligt vatten och avlopp",
        "Montering av maskinventil på förberedd anslutning",
        "Täthetskontroll och provkörning"
      ],
      excluded_sv: ["Elarbeten", "Nydragning av vatten- eller avloppsrör"],
      customer_requirements_sv: [
        "Maskinen finns på plats och är uppackad",
        "Förberedd vatten- och avloppsanslutning finns intill platsen"
      ],
      price_adjustment_triggers_sv: [
        "Läckageskydd eller droppskål saknas och måste monteras",
        "Befintlig anslutning är sliten och måste bytas"
      ],
      quote_triggers_sv: ["Ny vatten- eller avloppsdragning fram till maskinen"]
    }
  },
  vvs_install_outdoor_tap_standard: {
    label_sv: "Montering av frostfri utekran",
    label_en: "Install a frost-proof outdoor tap",
    duration_minutes: 120,
    prices: [2490, 2590, 2690, 2790, 2990],
    scope: {
      included_sv: [
        "Montering av frostfri utekran på yttervägg",
        "Håltagning genom vägg och anslutning till närliggande vattenledning",
        "Täthetskontroll"
      ],
      excluded_sv: ["Utekran", "Fasadarbeten utöver genomföringen"],
      customer_requirements_sv: [
        "Frostfri utekran finns på plats",
        "Vattenledning finns inom 2 meter från önskad placering"
      ],
      price_adjustment_triggers_sv: ["Håltagning i betong eller tegel", "Rördragning längre än 2 meter"],
      quote_triggers_sv: ["Ny rördragning genom flera rum eller under mark"]
    }
  },
  vvs_leak_faucet_fixture_repair: {
    label_sv: "Åtgärd av läckande kran eller blandare",
    label_en: "Repair of a leaking tap or mixer",
    duration_minutes: 60,
    prices: [1290, 1390, 1490, 1590, 1690],
    scope: {
      included_sv: [
        "Felsökning av läckande kran eller blandare",
        "Byte av packning, O-ringar eller insats av standardtyp",
        "Täthetskontroll"
      ],
      excluded_sv: ["Ny blandare", "Läckage i vägg eller golv"],
      customer_requirements_sv: ["Blandarens märke är känt eller fotograferat"],
      price_adjustment_triggers_sv: ["Reservdel av specialtyp måste beställas", "Fastsittande eller korroderade delar"],
      quote_triggers_sv: ["Blandaren behöver bytas helt"]
    }
  },
  vvs_toilet_running_refill_repair: {
    label_sv: "Åtgärd av toalett som rinner",
    label_en: "Repair of a running toilet",
    duration_minutes: 60,
    prices: [1390, 1490, 1590, 1690, 1790],
    scope: {
      included_sv: [
        "Felsökning av toalett som rinner",
        "Byte av flottörventil eller bottenventil av standardtyp",
        "Justering och funktionskontroll"
      ],
      excluded_sv: ["Ny toalettstol", "Byte av cistern"],
      customer_requirements_sv: ["Toalettens märke eller modell är känd eller fotograferad"],
      price_adjustment_triggers_sv: [
        "Reservdel av specialtyp måste beställas",
        "Avstängningsventilen till toaletten är trasig"
      ],
      quote_triggers_sv: ["Toalettstolen behöver bytas"]
    }
  },
  vvs_clog_toilet_standard: {
    label_sv: "Rensning av stopp i toalett",
    label_en: "Clearing a blocked toilet",
    duration_minutes: 90,
    prices: [1890, 1990, 2190, 2290, 2490],
    scope: {
      included_sv: [
        "Rensning av stopp i toalettstolen med spiral eller rensverktyg",
        "Kontroll av att toaletten spolar och rinner undan",
        "Framkörning"
      ],
      excluded_sv: ["Stopp i stamledning", "Demontering av toalettstolen"],
      customer_requirements_sv: ["Fri åtkomst till toaletten"],
      price_adjustment_triggers_sv: [
        "Föremål har fastnat och toalettstolen måste lyftas",
        "Stoppet sitter i avloppsledningen efter toaletten"
      ],
      quote_triggers_sv: ["Avloppsvatten tränger upp i flera avlopp"]
    }
  },
  vvs_pressure_single_fixture_check: {
    label_sv: "Felsökning av lågt tryck i en kran",
    label_en: "Troubleshooting low pressure at one tap",
    duration_minutes: 60,
    prices: [1490, 1590, 1690, 1790, 1890],
    scope: {
      included_sv: [
        "Felsökning av lågt tryck i en kran eller blandare",
        "Rengöring eller byte av sil och strålsamlare",
        "Kontroll av avstängningsventilen till kranen"
      ],
      excluded_sv: ["Tryckproblem i hela bostaden", "Byte av rör"],
      customer_requirements_sv: ["Problemet gäller en enskild kran eller blandare"],
      price_adjustment_triggers_sv: ["Avstängningsventilen måste bytas", "Blandarens insats behöver bytas"],
      quote_triggers_sv: ["Lågt tryck i flera kranar eller i hela bostaden"]
    }
  },
  electrician_install_ev_charger_standard: {
    label_sv: "Installation av laddbox för elbil, standardinstallation",
    label_en: "EV charger installation, standard",
    duration_minutes: 360,
    prices: [11900, 12400, 12900, 13900, 14900],
    scope: {
      included_sv: [
        "Montering av laddbox på vägg vid parkeringsplatsen",
        "Utanpåliggande kabeldragning upp till 15 meter från elcentralen",
        "Ny grupp med jordfelsbrytare i elcentralen",
        "Driftsättning och funktionskontroll"
      ],
      excluded_sv: ["Laddbox", "Grävning och markarbeten", "Byte eller uppgradering av elcentral"],
      customer_requirements_sv: ["Laddboxen finns på plats", "Ledig plats för en ny grupp i elcentralen"],
      price_adjustment_triggers_sv: [
        "Kabeldragning längre än 15 meter",
        "Håltagning i betong eller genom flera väggar"
      ],
      quote_triggers_sv: ["Huvudsäkringen behöver höjas eller elcentralen bytas"]
    }
  },
  electrician_install_spotlights_per_item: {
    label_sv: "Montering av infällda spotlights",
    label_en: "Installation of recessed spotlights",
    duration_minutes: 180,
    prices: [450, 495, 550, 595, 650],
    unit: "st",
    scope: {
      included_sv: [
        "Håltagning och montering av infällda spotlights i befintligt innertak",
        "Kabeldragning mellan spotlights",
        "Inkoppling till befintligt takuttag och strömbrytare"
      ],
      excluded_sv: ["Spotlights och drivdon", "Spackling och målning efter arbetet"],
      customer_requirements_sv: ["Spotlights finns på plats", "Innertaket har utrymme för infällda armaturer"],
      price_adjustment_triggers_sv: [
        "Betongtak eller tak utan bjälklagsutrymme",
        "Ny strömbrytare eller dimmer behövs"
      ],
      quote_triggers_sv: ["Ny elgrupp behövs för belysningen"]
    }
  },
  electrician_install_dimmer_standard: {
    label_sv: "Montering av dimmer",
    label_en: "Install a dimmer",
    duration_minutes: 60,
    prices: [1290, 1390, 1490, 1590, 1690],
    scope: {
      included_sv: [
        "Byte av befintlig strömbrytare till dimmer",
        "Inkoppling och funktionskontroll med befintlig belysning"
      ],
      excluded_sv: ["Dimmer", "Byte av armaturer eller drivdon"],
      customer_requirements_sv: ["En dimmer som passar belysningen finns på plats"],
      price_adjustment_triggers_sv: [
        "Befintlig dosa är för grund för dimmern",
        "Belysningen är inte dimbar och drivdon måste bytas"
      ],
      quote_triggers_sv: ["Dimmern ska sitta på en ny plats och kabel måste dras"]
    }
  },
  electrician_replace_outlet_switch_standard: {
    label_sv: "Byte av eluttag eller strömbrytare",
    label_en: "Replace a socket or switch",
    duration_minutes: 60,
    prices: [890, 990, 1090, 1190, 1290],
    scope: {
      included_sv: [
        "Byte av ett eluttag eller en strömbrytare på befintlig plats",
        "Inkoppling och funktionskontroll",
        "Bortforsling av det gamla uttaget"
      ],
      excluded_sv: ["Nytt uttag på ny plats", "Jordning av ojordade installationer"],
      customer_requirements_sv: ["Nytt uttag eller ny strömbrytare finns på plats"],
      price_adjustment_triggers_sv: [
        "Fler uttag eller strömbrytare vid samma besök",
        "Dosan i väggen är skadad och måste bytas"
      ],
      quote_triggers_sv: ["Ny elgrupp eller nydragning av kabel"]
    }
  },
  electrician_install_ceiling_lamp_standard: {
    label_sv: "Montering av taklampa",
    label_en: "Install a ceiling light",
    duration_minutes: 90,
    prices: [990, 1090, 1190, 1290, 1490],
    scope: {
      included_sv: [
        "Montering av en taklampa i befintligt takuttag",
        "Inkoppling och funktionskontroll",
        "Takhöjd upp till 3 meter"
      ],
      excluded_sv: ["Taklampa", "Kabeldragning till ny placering"],
      customer_requirements_sv: ["Taklampan finns på plats och är uppackad"],
      price_adjustment_triggers_sv: ["Takhöjd över 3 meter", "Tung armatur som kräver förstärkt infästning"],
      quote_triggers_sv: ["Takuttag saknas och ny kabel måste dras"]
    }
  },
  electrician_service_visit_3h: {
    label_sv: "Servicebesök av elektriker, upp till 3 timmar",
    label_en: "Electrician service visit, up to 3 hours",
    duration_minutes: 180,
    prices: [2490, 2590, 2690, 2790, 2990],
    scope: {
      included_sv: ["Upp till 3 timmars arbete av behörig elektriker", "Framkörning", "Mindre förbrukningsmaterial"],
      excluded_sv: ["Akuta fel och jourarbete", "Armaturer, apparater och annat större material"],
      customer_requirements_sv: ["En lista över arbetena som ska göras", "Arbetena är inte akuta"],
      price_adjustment_triggers_sv: ["Arbetet tar längre tid än 3 timmar", "Material utöver förbrukningsmaterial"],
      quote_triggers_sv: ["Arbete i elcentralen eller nya elgrupper"]
    }
  },
  moving_home_starter_3h: {
    label_sv: "Bohagsflytt med två flyttare och flyttbil, 3 timmar",
    label_en: "Home move with two movers and a van, 3 hours",
    duration_minutes: 180,
    prices: [4900, 5400, 5900, 6400, 6900],
    scope: {
      included_sv: [
        "Två flyttare och flyttbil i 3 timmar",
        "Bärning, lastning och lossning",
        "Flyttfiltar och spännband som skyddar bohaget"
      ],
      excluded_sv: ["Packning och uppackning", "Flyttstädning", "Bortforsling av möbler"],
      customer_requirements_sv: ["Bohaget är packat när flyttarna kommer", "Parkering nära entrén vid båda adresserna"],
      price_adjustment_triggers_sv: ["Flytten tar längre tid än 3 timmar", "Trappor utan hiss eller lång bärväg"],
      quote_triggers_sv: ["Bostad större än 3 rum och kök eller flytt längre än 50 km"]
    }
  },
  moving_packing_two_packers_2h: {
    label_sv: "Packhjälp med två packare",
    label_en: "Packing help with two packers",
    duration_minutes: 120,
    prices: [990, 1050, 1090, 1150, 1190],
    unit: "timme",
    scope: {
      included_sv: [
        "Två packare, timpriset gäller för båda tillsammans, minst 2 timmar",
        "Packning av porslin, böcker och kläder i flyttkartonger",
        "Märkning av kartonger per rum"
      ],
      excluded_sv: ["Flyttkartonger och packmaterial", "Transport"],
      customer_requirements_sv: ["Flyttkartonger finns på plats"],
      price_adjustment_triggers_sv: ["Ömtåliga föremål som kräver specialemballage"],
      quote_triggers_sv: ["Packning av hela bostaden under flera dagar"]
    }
  },
  moving_piano_standard_local: {
    label_sv: "Pianoflytt inom orten",
    label_en: "Local piano move",
    duration_minutes: 120,
    prices: [3900, 4190, 4390, 4590, 4900],
    scope: {
      included_sv: [
        "Flytt av ett upprätt piano inom orten",
        "Tre bärare med pianokärra och skydd",
        "Placering på anvisad plats"
      ],
      excluded_sv: ["Flygel", "Stämning av pianot"],
      customer_requirements_sv: ["Fri väg från pianot till entrén", "Parkering nära entrén vid båda adresserna"],
      price_adjustment_triggers_sv: ["Mer än ett halvplan trappor utan hiss", "Mer än 30 km mellan adresserna"],
      quote_triggers_sv: ["Flygel eller lyft med kran"]
    }
  },
  moving_heavy_lift_2h: {
    label_sv: "Tunga lyft med två bärare",
    label_en: "Heavy lifting with two movers",
    duration_minutes: 120,
    prices: [1190, 1250, 1290, 1390, 1490],
    unit: "timme",
    scope: {
      included_sv: [
        "Två bärare med bärhjälpmedel, minst 2 timmar",
        "Bärning av tunga föremål som kassaskåp, vitvaror eller träningsredskap",
        "Skydd av golv och dörrkarmar"
      ],
      excluded_sv: ["Frånkoppling av el och vatten", "Transport mellan adresser"],
      customer_requirements_sv: ["Föremålets vikt och mått är kända"],
      price_adjustment_triggers_sv: ["Föremål tyngre än 250 kg", "Trappor utan hiss"],
      quote_triggers_sv: ["Lyft med kran eller genom fönster"]
    }
  },
  cleaning_move_out_per_sqm: {
    label_sv: "Flyttstädning enligt checklista",
    label_en: "Move-out cleaning to a checklist",
    duration_minutes: 240,
    prices: [45, 49, 52, 55, 59, 65],
    unit: "kvm",
    scope: {
      included_sv: [
        "Flyttstädning av alla rum enligt checklista",
        "Kök inklusive ugn, spis, kyl och frys",
        "Badrum och toalett inklusive avkalkning",
        "Fönsterputs in- och utsida"
      ],
      excluded_sv: ["Balkong och förråd", "Tömning av bostaden och bortforsling"],
      customer_requirements_sv: ["Bostaden är tömd på möbler och saker", "El och varmvatten finns i bostaden"],
      price_adjustment_triggers_sv: ["Kraftigt nedsmutsad bostad", "Inglasad balkong eller extra förråd"],
      quote_triggers_sv: ["Bostad större än 200 kvm eller sanering efter skada"]
    }
  },
  cleaning_window_per_window: {
    label_sv: "Fönsterputs",
    label_en: "Window cleaning",
    duration_minutes: 120,
    prices: [65, 69, 75, 79, 85, 95],
    unit: "fönster",
    scope: {
      included_sv: [
        "Puts av fönstrets in- och utsida",
        "Mellanglas i kopplade fönster",
        "Avtorkning av fönsterbräda och fönsterbleck"
      ],
      excluded_sv: ["Fönsterkarmar och persienner", "Fönster som kräver skylift"],
      customer_requirements_sv: ["Fönsterbrädorna är tömda och det är fritt fram till fönstren"],
      price_adjustment_triggers_sv: ["Spröjsade fönster", "Fönster högre än 3 meter som kräver stege"],
      quote_triggers_sv: ["Glaspartier eller fasadfönster som kräver lift"]
    }
  },
  cleaning_home_deep_per_sqm: {
    label_sv: "Storstädning av bostad",
    label_en: "Deep cleaning of a home",
    duration_minutes: 240,
    prices: [40, 42, 45, 49, 52, 55],
    unit: "kvm",
    scope: {
      included_sv: [
        "Grundlig städning av alla rum",
        "Avtorkning av lister, dörrar och strömbrytare",
        "Kök och badrum inklusive kakel och vitvarornas utsida",
        "Dammsugning och våttorkning av golv"
      ],
      excluded_sv: ["Fönsterputs", "Ugn och kyl invändigt"],
      customer_requirements_sv: ["Lösa föremål är undanplockade", "El och varmvatten finns i bostaden"],
      price_adjustment_triggers_sv: ["Kraftigt nedsmutsad bostad", "Ugn eller kyl ska rengöras invändigt"],
      quote_triggers_sv: ["Sanering av mögel eller skadedjur"]
    }
  },
  cleaning_office_recurring_hourly: {
    label_sv: "Regelbunden kontorsstädning",
    label_en: "Recurring office cleaning",
    duration_minutes: 120,
    prices: [450, 475, 495, 525, 550],
    unit: "timme",
    scope: {
      included_sv: [
        "Städning enligt överenskommen städplan",
        "Tömning av papperskorgar",
        "Pentry och toaletter",
        "Dammsugning och våttorkning av golv"
      ],
      excluded_sv: ["Fönsterputs", "Golvvård som polering och vaxning"],
      customer_requirements_sv: ["Tillgång till lokalen under överenskommen tid", "Plats för städmaterial i lokalen"],
      price_adjustment_triggers_sv: ["Städning på kvällar eller helger"],
      quote_triggers_sv: ["Lokaler större än 500 kvm eller daglig städning"]
    }
  },
  cleaning_stairwell_property_recurring_hourly: {
    label_sv: "Regelbunden trappstädning",
    label_en: "Recurring stairwell cleaning",
    duration_minutes: 120,
    prices: [450, 470, 490, 520, 550],
    unit: "timme",
    scope: {
      included_sv: [
        "Sopning och våttorkning av trappor och entréplan",
        "Avtorkning av ledstänger, dörrar och hissar",
        "Rengöring av entréglas och entrémattor"
      ],
      excluded_sv: ["Fönsterputs i trapphus", "Snöröjning och sandning"],
      customer_requirements_sv: ["Nyckel eller tagg till fastigheten"],
      price_adjustment_triggers_sv: ["Fler än tre trapphus", "Kraftigt nedsmutsade trappor efter renovering"],
      quote_triggers_sv: ["Fastighetsskötsel utöver städning"]
    }
  },
  cleaning_post_construction_per_sqm: {
    label_sv: "Byggstädning efter renovering",
    label_en: "Post-construction cleaning after renovation",
    duration_minutes: 240,
    prices: [55, 59, 62, 65, 69, 75],
    unit: "kvm",
    scope: {
      included_sv: [
        "Grovstädning och finstädning efter renovering",
        "Dammsugning av väggar och tak",
        "Golv, fönsterbrädor och snickerier"
      ],
      excluded_sv: ["Bortforsling av byggavfall", "Fönsterputs"],
      customer_requirements_sv: [
        "Hantverkarna är klara och byggmaterialet är bortforslat",
        "El och vatten finns på plats"
      ],
      price_adjustment_triggers_sv: ["Mycket byggdamm eller färgstänk", "Rengöring av ventilationsdon"],
      quote_triggers_sv: ["Byggplats större än 200 kvm eller städning i flera etapper"]
    }
  },
  cleaning_textile_carpet_small_job: {
    label_sv: "Matt- eller möbeltvätt, mindre jobb",
    label_en: "Carpet or upholstery cleaning, small job",
    duration_minutes: 120,
    prices: [1290, 1390, 1490, 1590, 1690],
    scope: {
      included_sv: [
        "Djuprengöring på plats av en matta upp till 6 kvm eller en soffa med upp till tre sittplatser",
        "Förbehandling av fläckar",
        "Framkörning"
      ],
      excluded_sv: ["Handknutna mattor och siden", "Hämtning och lämning av mattor"],
      customer_requirements_sv: ["El och vatten finns på plats", "Möblerna runt mattan är flyttade"],
      price_adjustment_triggers_sv: ["Svåra fläckar som kräver specialbehandling", "Lukt eller urin från husdjur"],
      quote_triggers_sv: ["Heltäckningsmatta eller fler än två möbler"]
    }
  },
  cleaning_home_recurring_hourly: {
    label_sv: "Regelbunden hemstädning",
    label_en: "Recurring home cleaning",
    duration_minutes: 120,
    prices: [400, 420, 440, 460, 480],
    unit: "timme",
    scope: {
      included_sv: [
        "Städning varje eller varannan vecka enligt checklista",
        "Dammsugning och våttorkning av golv",
        "Kök och badrum",
        "Samma städare i möjligaste mån"
      ],
      excluded_sv: ["Fönsterputs", "Tvätt och strykning"],
      customer_requirements_sv: ["Dammsugare och städmaterial finns i hemmet"],
      price_adjustment_triggers_sv: ["Extra arbeten som ugn eller kyl invändigt"],
      quote_triggers_sv: ["Bostad större än 150 kvm eller städning flera gånger i veckan"]
    }
  },
  cleaning_home_one_off_hourly: {
    label_sv: "Enstaka hemstädning",
    label_en: "One-off home cleaning",
    duration_minutes: 120,
    prices: [450, 475, 495, 525, 550],
    unit: "timme",
    scope: {
      included_sv: [
        "Städning enligt checklista under bokad tid",
        "Dammsugning och våttorkning av golv",
        "Kök och badrum"
      ],
      excluded_sv: ["Fönsterputs", "Ugn och kyl invändigt"],
      customer_requirements_sv: ["Dammsugare och städmaterial finns i hemmet"],
      price_adjustment_triggers_sv: ["Kraftigt nedsmutsad bostad som kräver längre tid"],
      quote_triggers_sv: ["Flyttstädning eller storstädning av hela bostaden"]
    }
  }
}

interface ProviderDef {
  readonly key: string
  readonly name: string
  readonly vertical: VerticalId
  /** Omitted: the whole city range. */
  readonly areas?: ReadonlyArray<readonly [string, string]>
  /** Omitted: every service of the vertical but a rotating few (see servicesOfWholeCityProvider). */
  readonly services?: ReadonlyArray<string>
}

const providerDefs: Readonly<Record<string, ReadonlyArray<ProviderDef>>> = {
  sthlm: [
    { key: "soderlunds-vvs", name: "Söderlunds VVS AB", vertical: "vvs" },
    { key: "ekstrom-ror", name: "Rörmokare Ekström & Son AB", vertical: "vvs" },
    { key: "norrmalms-ror", name: "Norrmalms Rör & Värme AB", vertical: "vvs" },
    {
      key: "hammarby-vvs",
      name: "Hammarby VVS-Service",
      vertical: "vvs",
      areas: [["116 00", "139 99"]],
      services: [
        "vvs_install_faucet_standard",
        "vvs_install_toilet_standard",
        "vvs_leak_faucet_fixture_repair",
        "vvs_toilet_running_refill_repair",
        "vvs_clog_toilet_standard"
      ]
    },
    { key: "kvarnbergs-el", name: "Kvarnbergs El & Service", vertical: "electrician" },
    { key: "elfirman-vallin", name: "Elfirman Vallin AB", vertical: "electrician" },
    { key: "ljusgardens-el", name: "Ljusgårdens El AB", vertical: "electrician" },
    {
      key: "bromma-el-holm",
      name: "Brommaelektriker Holm AB",
      vertical: "electrician",
      areas: [["161 00", "175 99"]],
      services: [
        "electrician_install_spotlights_per_item",
        "electrician_install_dimmer_standard",
        "electrician_replace_outlet_switch_standard",
        "electrician_install_ceiling_lamp_standard"
      ]
    },
    { key: "flyttfirman-lindqvist", name: "Flyttfirman Lindqvist", vertical: "moving" },
    { key: "malardalens-flytt", name: "Mälardalens Flyttservice AB", vertical: "moving" },
    { key: "barkraft-flytt", name: "Bärkraft Flytt & Bärhjälp AB", vertical: "moving" },
    {
      key: "pianoflytt-akesson",
      name: "Pianoflytt Åkesson",
      vertical: "moving",
      areas: [
        ["111 00", "118 99"],
        ["169 00", "187 99"]
      ],
      services: ["moving_piano_standard_local", "moving_heavy_lift_2h"]
    },
    { key: "ljusa-hem", name: "Städbolaget Ljusa Hem", vertical: "cleaning" },
    { key: "renbacks-stad", name: "Renbäcks Städ & Fastighetsservice AB", vertical: "cleaning" },
    { key: "glans-fonster", name: "Glans Fönsterputs & Städ AB", vertical: "cleaning" },
    {
      key: "vasastadens-stad",
      name: "Vasastadens Städservice AB",
      vertical: "cleaning",
      areas: [["111 00", "118 99"]],
      services: [
        "cleaning_move_out_per_sqm",
        "cleaning_window_per_window",
        "cleaning_home_deep_per_sqm",
        "cleaning_home_recurring_hourly",
        "cleaning_home_one_off_hourly"
      ]
    }
  ],
  gbg: [
    { key: "gota-vvs", name: "Göta VVS & Värme AB", vertical: "vvs" },
    { key: "majornas-ror", name: "Majornas Rörservice AB", vertical: "vvs" },
    { key: "bergkvists-vvs", name: "Bergkvists VVS i Göteborg AB", vertical: "vvs" },
    {
      key: "hisingens-ror",
      name: "Hisingens Rör AB",
      vertical: "vvs",
      areas: [
        ["417 00", "418 99"],
        ["422 00", "425 99"]
      ],
      services: [
        "vvs_drain_jetting_single_starting",
        "vvs_install_faucet_standard",
        "vvs_install_appliance_hookup_standard",
        "vvs_clog_toilet_standard",
        "vvs_pressure_single_fixture_check"
      ]
    },
    { key: "lindholmens-el", name: "Lindholmens El AB", vertical: "electrician" },
    { key: "elservice-vastkust", name: "Elservice Västkust AB", vertical: "electrician" },
    { key: "kvibergs-elektriska", name: "Kvibergs Elektriska AB", vertical: "electrician" },
    {
      key: "molndals-el",
      name: "Mölndals Elinstallationer AB",
      vertical: "electrician",
      areas: [
        ["412 00", "415 99"],
        ["421 00", "431 99"]
      ],
      services: [
        "electrician_install_ev_charger_standard",
        "electrician_replace_outlet_switch_standard",
        "electrician_service_visit_3h"
      ]
    },
    { key: "flyttfirman-gustavsson", name: "Flyttfirman Gustavsson & Co", vertical: "moving" },
    { key: "vastkustens-flytt", name: "Västkustens Flyttbolag AB", vertical: "moving" },
    { key: "lyft-bar-gbg", name: "Lyft & Bär Göteborg AB", vertical: "moving" },
    {
      key: "kungsbacka-flytt",
      name: "Kungsbacka Flyttservice",
      vertical: "moving",
      areas: [["434 00", "439 99"]],
      services: ["moving_home_starter_3h", "moving_packing_two_packers_2h"]
    },
    { key: "stad-kanalen", name: "Städbolaget Kanalen AB", vertical: "cleaning" },
    { key: "rena-rum-vast", name: "Rena Rum Väst AB", vertical: "cleaning" },
    { key: "hemstad-orgryte", name: "Hemstäd Örgryte AB", vertical: "cleaning" },
    {
      key: "fonsterputs-sjoberg",
      name: "Fönsterputs Sjöberg",
      vertical: "cleaning",
      areas: [["411 00", "416 99"]],
      services: ["cleaning_window_per_window"]
    }
  ],
  malmo: [
    { key: "skansk-vvs-partner", name: "Skånsk VVS-Partner AB", vertical: "vvs" },
    { key: "oresunds-vvs", name: "Öresunds VVS AB", vertical: "vvs" },
    {
      key: "limhamns-ror",
      name: "Limhamns Rör AB",
      vertical: "vvs",
      areas: [["211 00", "218 99"]],
      services: [
        "vvs_drain_jetting_single_starting",
        "vvs_install_faucet_standard",
        "vvs_install_toilet_standard",
        "vvs_install_outdoor_tap_standard",
        "vvs_leak_faucet_fixture_repair",
        "vvs_toilet_running_refill_repair"
      ]
    },
    { key: "sundets-el", name: "Sundets El AB", vertical: "electrician" },
    { key: "elmontage-persson", name: "Elmontage Persson i Malmö AB", vertical: "electrician" },
    {
      key: "lunds-elservice",
      name: "Lunds Elservice AB",
      vertical: "electrician",
      areas: [["220 00", "227 99"]],
      services: [
        "electrician_install_ev_charger_standard",
        "electrician_install_spotlights_per_item",
        "electrician_install_dimmer_standard",
        "electrician_install_ceiling_lamp_standard"
      ]
    },
    { key: "flyttfirman-nilsson", name: "Flyttfirman Nilsson & Döttrar", vertical: "moving" },
    { key: "skane-flytt", name: "Skåne Flytt & Transport AB", vertical: "moving" },
    {
      key: "mollans-barhjalp",
      name: "Möllans Bärhjälp AB",
      vertical: "moving",
      areas: [["211 00", "218 99"]],
      services: ["moving_home_starter_3h", "moving_packing_two_packers_2h", "moving_heavy_lift_2h"]
    },
    { key: "ljusgarden-syd", name: "Städbolaget Ljusgården Syd", vertical: "cleaning" },
    { key: "ribersborgs-stad", name: "Ribersborgs Städ AB", vertical: "cleaning" },
    { key: "klara-hem-malmo", name: "Klara Hem Malmö AB", vertical: "cleaning" },
    {
      key: "lunds-fonsterputs",
      name: "Lunds Fönsterputs & Städ",
      vertical: "cleaning",
      areas: [["220 00", "227 99"]],
      services: [
        "cleaning_move_out_per_sqm",
        "cleaning_window_per_window",
        "cleaning_home_recurring_hourly",
        "cleaning_home_one_off_hourly"
      ]
    }
  ],
  uppsala: [
    { key: "fyrisans-vvs", name: "Fyrisåns VVS AB", vertical: "vvs" },
    { key: "upplands-rorteknik", name: "Upplands Rörteknik AB", vertical: "vvs" },
    {
      key: "savja-ror",
      name: "Sävja Rör & Service",
      vertical: "vvs",
      areas: [["752 00", "757 99"]],
      services: [
        "vvs_install_faucet_standard",
        "vvs_install_appliance_hookup_standard",
        "vvs_leak_faucet_fixture_repair",
        "vvs_toilet_running_refill_repair",
        "vvs_pressure_single_fixture_check"
      ]
    },
    { key: "uppsala-elteam", name: "Uppsala Elteam AB", vertical: "electrician" },
    { key: "granby-el", name: "Gränby El & Data AB", vertical: "electrician" },
    {
      key: "luthagens-elektriska",
      name: "Luthagens Elektriska",
      vertical: "electrician",
      areas: [["752 00", "754 99"]],
      services: [
        "electrician_install_dimmer_standard",
        "electrician_replace_outlet_switch_standard",
        "electrician_install_ceiling_lamp_standard",
        "electrician_service_visit_3h"
      ]
    },
    { key: "upplandsflytt-eriksson", name: "Upplandsflytt Eriksson AB", vertical: "moving" },
    { key: "flyttfirman-fyris", name: "Flyttfirman Fyris Bär AB", vertical: "moving" },
    {
      key: "gamla-uppsala-flytthjalp",
      name: "Gamla Uppsala Flytthjälp",
      vertical: "moving",
      areas: [["753 00", "755 99"]],
      services: ["moving_home_starter_3h", "moving_packing_two_packers_2h"]
    },
    { key: "fyris-rent", name: "Städfirman Fyris Rent AB", vertical: "cleaning" },
    { key: "svanbergs-stad", name: "Svanbergs Städ & Fönster", vertical: "cleaning" },
    {
      key: "kungsgardets-hemservice",
      name: "Kungsgärdets Hemservice",
      vertical: "cleaning",
      areas: [["752 00", "754 99"]],
      services: [
        "cleaning_window_per_window",
        "cleaning_home_deep_per_sqm",
        "cleaning_home_recurring_hourly",
        "cleaning_home_one_off_hourly",
        "cleaning_textile_carpet_small_job"
      ]
    }
  ]
}

/** A stable number per label, so every "random" choice survives a rerun. */
const hashOf = (label: string): number => createHash("sha256").update(label).digest().readUInt32BE(0)

const pick = <A>(choices: ReadonlyArray<A>, label: string): A => choices[hashOf(label) % choices.length]!

/**
 * With three or more whole-city providers, provider j skips the services whose rotated index is j
 * modulo n + 1, so each service is skipped by at most one of them and stays offered by n - 1 >= 2.
 */
const servicesOfWholeCityProvider = (
  offers: ReadonlyArray<DemoOffer>,
  position: number,
  wholeCityProviders: number,
  cityIndex: number
): ReadonlyArray<string> =>
  offers
    .filter((_, k) => wholeCityProviders < 3 || (k + cityIndex) % (wholeCityProviders + 1) !== position)
    .map((offer) => offer.service_id)

const workingHoursOf = (id: string, vertical: VerticalId): Array<typeof WorkingHours.Encoded> => {
  const crafts = vertical === "vvs" || vertical === "electrician"
  const [opens, closes] = pick<readonly [string, string]>(
    crafts
      ? [
          ["07:00", "16:00"],
          ["08:00", "17:00"],
          ["07:30", "16:30"]
        ]
      : [
          ["07:00", "17:00"],
          ["08:00", "17:00"],
          ["07:00", "16:00"]
        ],
    `${id}/weekdays`
  )
  const saturday = hashOf(`${id}/saturday`) % 4 < (crafts ? 1 : 3)
  const days: Array<typeof WorkingHours.Encoded> = [1, 2, 3, 4, 5].map((iso_weekday) => ({
    iso_weekday,
    opens,
    closes
  }))
  if (saturday) {
    const [satOpens, satCloses] =
      vertical === "moving"
        ? pick<readonly [string, string]>(
            [
              ["08:00", "15:00"],
              ["09:00", "14:00"]
            ],
            `${id}/sat`
          )
        : ["09:00", "14:00"]
    days.push({ iso_weekday: 6, opens: satOpens, closes: satCloses })
  }
  return days
}

const ratingLabelOf = (id: string): string => {
  const tenths = 41 + (hashOf(`${id}/rating`) % 9)
  const reviews = 14 + (hashOf(`${id}/reviews`) % 460)
  return `${Math.floor(tenths / 10)},${tenths % 10} av 5 (${reviews} omdömen)`
}

/**
 * Each vertical's cancellation policies, one picked per provider: a plumber's or an electrician's
 * visit is cancelled late for the call-out charge, while a move or a cleaning booked for hours
 * costs half its price when cancelled late and is changed earlier (issue 27). `lateFee` is SEK,
 * or "half" for half the service's price.
 */
interface DemoPolicy {
  readonly freeHours: number
  readonly lateFee: number | "half"
  readonly changeHours: number
}

const demoPolicies: Readonly<Record<VerticalId, ReadonlyArray<DemoPolicy>>> = {
  vvs: [
    { freeHours: 24, lateFee: 395, changeHours: 24 },
    { freeHours: 12, lateFee: 495, changeHours: 6 }
  ],
  electrician: [
    { freeHours: 24, lateFee: 450, changeHours: 24 },
    { freeHours: 48, lateFee: 495, changeHours: 24 }
  ],
  moving: [
    { freeHours: 72, lateFee: "half", changeHours: 72 },
    { freeHours: 168, lateFee: "half", changeHours: 120 }
  ],
  cleaning: [
    { freeHours: 48, lateFee: "half", changeHours: 48 },
    { freeHours: 24, lateFee: "half", changeHours: 24 }
  ]
}

/** A unit price is no booking's whole price, so half of it is no fee: a fixed one instead. */
const unitPricedLateFee: Readonly<Record<VerticalId, number>> = {
  vvs: 495,
  electrician: 495,
  moving: 1495,
  cleaning: 595
}

/** A provider's policy for a service, as the supply file states it; the fee rounded to whole kronor. */
const policyOf = (id: string, vertical: VerticalId, price: number, unitPriced: boolean): SupplyCancellationPolicy => {
  const policy = pick(demoPolicies[vertical], `${id}/cancellation`)
  return {
    free_cancellation_hours: policy.freeHours,
    late_fee_sek:
      policy.lateFee !== "half" ? policy.lateFee : unitPriced ? unitPricedLateFee[vertical] : Math.round(price / 2),
    change_hours: policy.changeHours
  }
}

const hoursSv = (hours: number) => (hours % 24 === 0 && hours >= 72 ? `${hours / 24} dagar` : `${hours} timmar`)

/** The terms' own words for the policy: the same figures the booking API states and enforces. */
const cancellationText = (policy: SupplyCancellationPolicy) =>
  `Inom 14 dagars ångerfrist är avbokning före starttiden alltid kostnadsfri. Därefter är avbokning kostnadsfri senast ${hoursSv(policy.free_cancellation_hours)} före starttid; vid senare avbokning får vi ta ut en avgift på ${policy.late_fee_sek} kr inkl. moms. Tiden kan ändras senast ${hoursSv(policy.change_hours)} före starttid.`

const paymentTexts: ReadonlyArray<string> = [
  "Betalning mot faktura med 10 dagars betalningsvillkor efter utfört arbete.",
  "Betalning mot faktura med 15 dagars betalningsvillkor efter utfört arbete.",
  "Betalning med faktura eller Swish efter utfört arbete."
]

const priceText = (model: PricingModel, unit: string | undefined): string => {
  switch (model) {
    case "flat":
      return "Fast pris inklusive moms för arbetet som beskrivs i omfattningen. Tilläggsarbete och material som inte ingår debiteras bara efter ditt godkännande."
    case "starting_price":
      return "Från-pris inklusive moms. Om arbetet kräver mer än det som ingår får du ett nytt pris att godkänna innan vi fortsätter."
    case "per_hour":
      return "Pris per timme inklusive moms, debiteras per påbörjad halvtimme med minst 2 timmar. Tilläggsarbete utförs bara efter ditt godkännande."
    default:
      return `Pris per ${unit ?? "enhet"} inklusive moms. Antalet stäms av på plats innan arbetet börjar och tillägg debiteras bara efter ditt godkännande.`
  }
}

const warrantyText: Readonly<Record<VerticalId, string>> = {
  vvs: "Två års garanti på utfört arbete. Reklamation enligt konsumenttjänstlagen.",
  electrician:
    "Två års garanti på utfört arbete. Arbetet utförs av behörig elinstallatör och reklamation sker enligt konsumenttjänstlagen.",
  moving: "Ansvar för skador på bohaget enligt Bohag 2010. Anmäl skador så snart som möjligt, senast inom 7 dagar.",
  cleaning: "Städgaranti: brister som anmäls inom 5 dagar åtgärdas kostnadsfritt."
}

/**
 * The declaration in words for the terms version, so the version changes whenever the deduction
 * does: confirm revalidates an option by its terms version.
 */
export const deductionTag = (declaration: DeductionDeclaration): string =>
  declaration.kind === "none"
    ? "no-deduction"
    : "share" in declaration.labour
      ? `${declaration.kind}${Number((declaration.labour.share * 100).toFixed(4))}pct`
      : `${declaration.kind}${declaration.labour.amount_sek}kr`

const declarationOf = (offer: DemoOffer): DeductionDeclaration => {
  const declaration = suggestedDeclaration(offer.job_type_id)
  if (declaration === undefined) throw new Error(`no demo tax deduction for job type ${offer.job_type_id}`)
  return declaration
}

const termsOf = (
  id: string,
  vertical: VerticalId,
  offer: DemoOffer,
  unit: string | undefined,
  policy: SupplyCancellationPolicy
): (typeof ProviderService.Encoded)["terms"] => {
  const url = `https://villkor.${id}.example/${offer.service_id}/${termsDate}`
  const withPayment = hashOf(`${id}/payment`) % 3 !== 0
  const sections: Array<{ id: string; title_sv: string; text_sv: string }> = [
    { id: "cancellation", title_sv: "Avbokning", text_sv: cancellationText(policy) },
    ...(withPayment
      ? [{ id: "payment", title_sv: "Betalning", text_sv: pick(paymentTexts, `${id}/payment-text`) }]
      : []),
    { id: "price", title_sv: "Pris och tillägg", text_sv: priceText(offer.pricing_model, unit) },
    {
      id: "warranty",
      title_sv: vertical === "moving" ? "Ansvar och skador" : "Garanti",
      text_sv: warrantyText[vertical]
    }
  ]
  return {
    version: `${id}/${offer.service_id}/${termsDate}.v${1 + (hashOf(`${id}/${offer.service_id}/version`) % 4)}-${deductionTag(declarationOf(offer))}`,
    url,
    sections,
    source_urls: hashOf(`${id}/sources`) % 2 === 0 ? [url, "https://www.konsumentverket.se/"] : [url]
  }
}

const serviceOf = (id: string, offer: DemoOffer, price: number): typeof ProviderService.Encoded => {
  const text = serviceTexts[offer.service_id]
  if (text === undefined) throw new Error(`no demo text for service ${offer.service_id}`)
  const scope: typeof ServiceScope.Encoded = text.scope
  const policy = policyOf(id, offer.vertical_id, price, text.unit !== undefined)
  return {
    service_id: offer.service_id,
    vertical_id: offer.vertical_id,
    job_type_id: offer.job_type_id,
    label_sv: text.label_sv,
    label_en: text.label_en,
    pricing_model: offer.pricing_model,
    price_type: offer.price_type,
    ...(text.unit === undefined ? { amount_sek: price } : { unit_price_sek: price, unit: text.unit }),
    duration_minutes: text.duration_minutes,
    scope,
    terms: termsOf(id, offer.vertical_id, offer, text.unit, policy),
    tax_deduction: declarationOf(offer),
    cancellation_policy: policy
  }
}

/** Each city's telephone area code and a few of its streets, for the providers' contact details. */
const cityContact: Readonly<Record<string, { readonly areaCode: string; readonly streets: ReadonlyArray<string> }>> = {
  sthlm: { areaCode: "08", streets: ["Sveavägen", "Hornsgatan", "Götgatan", "Odengatan", "Fleminggatan"] },
  gbg: { areaCode: "031", streets: ["Linnégatan", "Första Långgatan", "Övre Husargatan", "Sankt Sigfridsgatan"] },
  malmo: { areaCode: "040", streets: ["Amiralsgatan", "Föreningsgatan", "Regementsgatan", "Stora Nygatan"] },
  uppsala: { areaCode: "018", streets: ["Kungsgatan", "Svartbäcksgatan", "Väderkvarnsgatan", "Luthagsesplanaden"] }
}

/** A demo organisation number of a limited company (559...), its last digit the Luhn check of the rest. */
export const demoOrganisationNumber = (id: string): string => {
  const body = `559${String(hashOf(`${id}/orgnr`) % 1_000_000).padStart(6, "0")}`
  const sum = [...body].reduce((acc, digit, i) => {
    const d = Number(digit) * (i % 2 === 0 ? 2 : 1)
    return acc + (d > 9 ? d - 9 : d)
  }, 0)
  const digits = `${body}${(10 - (sum % 10)) % 10}`
  return `${digits.slice(0, 6)}-${digits.slice(6)}`
}

const contactOf = (id: string, city: DemoCity, domain: string, postcode: string) => {
  const local = cityContact[city.suffix] ?? { areaCode: "08", streets: ["Storgatan"] }
  const number = String(hashOf(`${id}/phone`) % 1_000_000).padStart(6, "0")
  return {
    email: `kundservice@${domain}.example`,
    phone: `${local.areaCode}-${number.slice(0, 3)} ${number.slice(3)}`,
    address: `${pick(local.streets, `${id}/street`)} ${1 + (hashOf(`${id}/street-number`) % 80)}, ${postcode} ${city.name}`
  }
}

const buildCity = (city: DemoCity, cityIndex: number): Array<typeof Provider.Encoded> => {
  const defs = providerDefs[city.suffix] ?? []
  const planned = defs.map((def) => {
    const offers = offersOf(def.vertical)
    const sameVertical = defs.filter((d) => d.vertical === def.vertical)
    const wholeCity = sameVertical.filter((d) => d.areas === undefined)
    const serviceIds =
      def.services ?? servicesOfWholeCityProvider(offers, wholeCity.indexOf(def), wholeCity.length, cityIndex)
    return { def, id: `${def.key}-${city.suffix}`, offers: offers.filter((o) => serviceIds.includes(o.service_id)) }
  })
  // Offerers of one service in one city take consecutive rungs of its price ladder, so no two charge the same.
  const priceOf = (id: string, offer: DemoOffer): number => {
    const ladder = serviceTexts[offer.service_id]?.prices ?? []
    const rank = planned
      .filter((p) => p.offers.some((o) => o.service_id === offer.service_id))
      .findIndex((p) => p.id === id)
    const price = ladder[(hashOf(`${city.suffix}/${offer.service_id}/price`) + rank) % ladder.length]
    if (price === undefined) throw new Error(`no demo price for service ${offer.service_id}`)
    return price
  }
  return planned.map(({ def, id, offers }) => {
    const domain = def.key.replaceAll("-", "")
    const areas = (def.areas ?? [[city.from, city.to]]).map(([from, to]) => ({ from, to }))
    const [firstArea, ...otherAreas] = areas
    if (firstArea === undefined) throw new Error(`provider ${id} serves no area`)
    return {
      id,
      name: def.name,
      organisation_number: demoOrganisationNumber(id),
      contact: contactOf(id, city, domain, firstArea.from),
      city: city.name,
      rating_label: ratingLabelOf(id),
      active: true,
      // No webhooks: a development server must never call out to hosts of its demo data.
      notify: { email: `${pick(["bokning", "bokning", "order", "info"], `${id}/email`)}@${domain}.example` },
      areas: [firstArea, ...otherAreas],
      working_hours: workingHoursOf(id, def.vertical),
      services: offers.map((offer) => serviceOf(id, offer, priceOf(id, offer)))
    }
  })
}

export const buildDemoSupply = (): typeof SupplyFile.Encoded => {
  const providers: Array<typeof Provider.Encoded> = []
  demoCities.forEach((city, cityIndex) => {
    providers.push(...buildCity(city, cityIndex))
  })
  return { providers }
}

const runDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href

if (runDirectly) {
  mkdirSync(dirname(demoSupplyPath), { recursive: true })
  writeFileSync(demoSupplyPath, `${JSON.stringify(buildDemoSupply(), null, 2)}\n`)
  console.log(`wrote ${demoSupplyPath}`)
}
