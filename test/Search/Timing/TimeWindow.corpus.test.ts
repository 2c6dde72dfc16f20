import { describe, expect, it } from "@effect/vitest"
import { wallClockToInstant } from "../../../src/Domain/Zone.js"
import { parseTimeWindow } from "../../../src/Search/Timing/TimeWindow.js"

/**
 * Phrases as people give them to an assistant, each with the window it means. "general" marks a
 * phrase that must not be read confidently: the search covers the general window from now and
 * the label says what was not understood or cannot be searched.
 */
interface Meant {
  readonly from: string
  readonly to: string
  readonly hours?: readonly [number, number]
  readonly except?: ReadonlyArray<string>
}

type Entry = readonly [text: string, meant: Meant | "general"]

const zone = "Europe/Stockholm"

/** "2026-12-03 13:00" in Stockholm; "now" is the corpus's now. */
const local = (text: string, now: Date): number => {
  if (text === "now") return now.getTime()
  const [date = "", time = "00:00"] = text.split(" ")
  const [year, month, day] = date.split("-").map(Number) as [number, number, number]
  const [hour, minute] = time.split(":").map(Number) as [number, number]
  return wallClockToInstant({ year, month, day, hour, minute }, zone).getTime()
}

const w = (from: string, to: string, extra: Omit<Meant, "from" | "to"> = {}): Meant => ({ from, to, ...extra })

const vardagar = { except: ["2026-11-28", "2026-11-29"] }

// Monday 23 November 2026, 09:00 in Stockholm. The default 14 days end with Sunday 6 December.
const monday = new Date("2026-11-23T09:00:00+01:00")

const november: ReadonlyArray<Entry> = [
  // Dates in words and numbers, with times.
  ["den 3 december", w("2026-12-03", "2026-12-04")],
  ["3 december", w("2026-12-03", "2026-12-04")],
  ["3 dec", w("2026-12-03", "2026-12-04")],
  ["3:e december", w("2026-12-03", "2026-12-04")],
  ["den 3:e", w("2026-12-03", "2026-12-04")],
  ["den 3e", w("2026-12-03", "2026-12-04")],
  ["den tredje december", w("2026-12-03", "2026-12-04")],
  ["torsdag den 3 december", w("2026-12-03", "2026-12-04")],
  ["Torsdagen den 3 december", w("2026-12-03", "2026-12-04")],
  ["tors 3/12", w("2026-12-03", "2026-12-04")],
  ["3/12", w("2026-12-03", "2026-12-04")],
  ["3.12", w("2026-12-03", "2026-12-04")],
  ["3/12/2026", w("2026-12-03", "2026-12-04")],
  ["2/12 kl 10", w("2026-12-02 10:00", "2026-12-02 14:00")],
  ["torsdag den 3 december kl 13", w("2026-12-03 13:00", "2026-12-03 17:00")],
  ["Kan ni komma torsdag den 3 december kl 13?", w("2026-12-03 13:00", "2026-12-03 17:00")],
  ["3/12 kl. 13.30", w("2026-12-03 13:30", "2026-12-03 17:30")],
  ["den 3 december klockan 13", w("2026-12-03 13:00", "2026-12-03 17:00")],
  ["3 december 08-10", w("2026-12-03 08:00", "2026-12-03 10:00")],
  ["2026-12-03 10:00-12:00", w("2026-12-03 10:00", "2026-12-03 12:00")],
  ["2026-12-03", w("2026-12-03", "2026-12-04")],
  ["2026-12-03T10:00", w("2026-12-03 10:00", "2026-12-03 14:00")],
  ["ons 2/12 efter 14", w("2026-12-02 14:00", "2026-12-02 21:00")],
  ["1 december på förmiddagen", w("2026-12-01 08:00", "2026-12-01 12:00")],
  ["den 1:a december", w("2026-12-01", "2026-12-02")],
  ["4/12 08–10", w("2026-12-04 08:00", "2026-12-04 10:00")],
  ["fredag 4/12 kl 8", w("2026-12-04 08:00", "2026-12-04 12:00")],
  ["måndagen den 30 november", w("2026-11-30", "2026-12-01")],
  ["10/1", w("2027-01-10", "2027-01-11")],
  ["den 15 januari", w("2027-01-15", "2027-01-16")],
  ["helst den 3:e på förmiddagen", w("2026-12-03 08:00", "2026-12-03 12:00")],
  ["den 3 eller 4 december kl 10", w("2026-12-03 10:00", "2026-12-04 14:00", { hours: [10, 14] })],
  [
    "3, 5 eller 9 december",
    w("2026-12-03", "2026-12-10", { except: ["2026-12-04", "2026-12-06", "2026-12-07", "2026-12-08"] })
  ],

  // Spans and bounds.
  ["från 28 november till 1 december", w("2026-11-28", "2026-12-02")],
  ["28/11–1/12", w("2026-11-28", "2026-12-02")],
  ["28 nov - 1 dec", w("2026-11-28", "2026-12-02")],
  ["3-5 december", w("2026-12-03", "2026-12-06")],
  ["mellan 3 och 5 december", w("2026-12-03", "2026-12-06")],
  ["från 3 till 5 december", w("2026-12-03", "2026-12-06")],
  ["före fredag", w("now", "2026-11-27")],
  ["innan fredag", w("now", "2026-11-27")],
  ["senast fredag", w("now", "2026-11-28")],
  ["fredag senast", w("now", "2026-11-28")],
  ["senast på fredag", w("now", "2026-11-28")],
  ["före jul", w("now", "2026-12-24")],
  ["innan jul", w("now", "2026-12-24")],
  ["gärna innan jul", w("now", "2026-12-24")],
  ["innan nyår", w("now", "2026-12-31")],
  ["före den 10 december", w("now", "2026-12-10")],
  ["senast 10/12", w("now", "2026-12-11")],
  ["efter den 5 december", w("2026-12-06", "2026-12-20")],
  ["efter jul", w("2026-12-27", "2027-01-10")],
  ["efter nyår", w("2027-01-02", "2027-01-16")],
  ["från onsdag", w("2026-11-25", "2026-12-09")],
  ["tidigast onsdag", w("2026-11-25", "2026-12-09")],
  ["från och med 1 december", w("2026-12-01", "2026-12-15")],
  ["fr.o.m. 1/12", w("2026-12-01", "2026-12-15")],
  ["till fredag", w("now", "2026-11-28")],
  ["t.o.m. 4 december", w("now", "2026-12-05")],
  ["i december, inte före den 10:e", w("2026-12-10", "2027-01-01")],
  ["inom 3 dagar", w("now", "2026-11-26 09:00")],
  ["inom en vecka", w("now", "2026-11-30 09:00")],
  ["inom två veckor", w("now", "2026-12-07 09:00")],
  ["inom 10 dagar", w("now", "2026-12-03 09:00")],
  ["de närmaste dagarna", w("now", "2026-11-28 09:00")],
  ["början av december", w("2026-12-01", "2026-12-11")],
  ["i början av december", w("2026-12-01", "2026-12-11")],
  ["helst i början av december", w("2026-12-01", "2026-12-11")],
  ["mitten av december", w("2026-12-11", "2026-12-21")],
  ["slutet av december", w("2026-12-21", "2027-01-01")],
  ["i december", w("2026-12-01", "2027-01-01")],
  ["december", w("2026-12-01", "2027-01-01")],
  ["någon gång i december", w("2026-12-01", "2027-01-01")],
  ["nästa månad", w("2026-12-01", "2027-01-01")],
  ["slutet av månaden", w("now", "2026-12-01")],
  ["början av nästa vecka", w("2026-11-30", "2026-12-03")],
  ["mitten av nästa vecka", w("2026-12-01", "2026-12-04")],
  ["slutet av nästa vecka", w("2026-12-03", "2026-12-07")],
  ["i slutet av veckan", w("2026-11-26", "2026-11-30")],
  ["tidigt nästa vecka", w("2026-11-30", "2026-12-03")],
  ["senare i veckan", w("2026-11-24", "2026-11-30")],
  ["nästa vecka", w("2026-11-30", "2026-12-07")],
  ["Helst nästa vecka", w("2026-11-30", "2026-12-07")],
  ["någon dag nästa vecka", w("2026-11-30", "2026-12-07")],
  ["till veckan", w("2026-11-30", "2026-12-07")],
  ["denna vecka", w("now", "2026-11-30")],
  ["i veckan", w("now", "2026-11-30")],
  ["den här veckan", w("now", "2026-11-30")],
  ["vecka 49", w("2026-11-30", "2026-12-07")],
  ["v. 50", w("2026-12-07", "2026-12-14")],
  ["v49", w("2026-11-30", "2026-12-07")],
  ["om två veckor", w("2026-12-07", "2026-12-14")],
  ["veckan efter nästa", w("2026-12-07", "2026-12-14")],
  ["i helgen", w("2026-11-28", "2026-11-30")],
  ["över helgen", w("2026-11-28", "2026-11-30")],
  ["nästa helg", w("2026-12-05", "2026-12-07")],
  ["helgen nästa vecka", w("2026-12-05", "2026-12-07")],
  ["denna eller nästa vecka", w("now", "2026-12-07")],
  ["den här eller nästa vecka", w("now", "2026-12-07")],
  ["första veckan i december", w("2026-12-01", "2026-12-08")],
  ["sista veckan i december", w("2026-12-25", "2027-01-01")],
  ["the first week of January", w("2027-01-01", "2027-01-08")],
  ["mellandagarna", w("2026-12-27", "2026-12-31")],
  ["mellan jul och nyår", w("2026-12-27", "2026-12-31")],

  // Holidays and the days around them.
  ["julafton", w("2026-12-24", "2026-12-25")],
  ["på julafton", w("2026-12-24", "2026-12-25")],
  ["juldagen", w("2026-12-25", "2026-12-26")],
  ["annandag jul", w("2026-12-26", "2026-12-27")],
  ["nyårsafton", w("2026-12-31", "2027-01-01")],
  ["nyårsdagen", w("2027-01-01", "2027-01-02")],
  ["trettondagen", w("2027-01-06", "2027-01-07")],
  ["trettondagsafton", w("2027-01-05", "2027-01-06")],
  ["lucia", w("2026-12-13", "2026-12-14")],
  ["i jul", w("2026-12-24", "2026-12-27")],
  ["Christmas Eve", w("2026-12-24", "2026-12-25")],
  ["before Christmas", w("now", "2026-12-24")],
  ["between Christmas and New Year", w("2026-12-27", "2026-12-31")],

  // Parts of the day over several days.
  ["förmiddagar", w("now", "2026-12-06 12:00", { hours: [8, 12] })],
  ["helst förmiddag", w("now", "2026-12-06 12:00", { hours: [8, 12] })],
  ["på förmiddagen", w("now", "2026-12-06 12:00", { hours: [8, 12] })],
  ["mornings", w("now", "2026-12-06 12:00", { hours: [8, 12] })],
  ["vardagar efter 17", w("2026-11-23 17:00", "2026-12-04 21:00", { hours: [17, 21], ...vardagar })],
  ["vardagskvällar", w("2026-11-23 17:00", "2026-12-04 21:00", { hours: [17, 21], ...vardagar })],
  ["weekday evenings", w("2026-11-23 17:00", "2026-12-04 21:00", { hours: [17, 21], ...vardagar })],
  ["weekdays after 5pm", w("2026-11-23 17:00", "2026-12-04 21:00", { hours: [17, 21], ...vardagar })],
  ["kvällar nästa vecka", w("2026-11-30 17:00", "2026-12-06 21:00", { hours: [17, 21] })],
  ["mornings next week", w("2026-11-30 08:00", "2026-12-06 12:00", { hours: [8, 12] })],
  ["Helst nästa vecka, förmiddag", w("2026-11-30 08:00", "2026-12-06 12:00", { hours: [8, 12] })],
  ["imorgon bitti", w("2026-11-24 07:00", "2026-11-24 10:00")],
  ["bitti", w("now", "2026-12-06 10:00", { hours: [7, 10] })],
  ["efter lunch", w("2026-11-23 13:00", "2026-12-06 17:00", { hours: [13, 17] })],
  ["vardagar", w("now", "2026-12-05", vardagar)],
  ["valfri vardag", w("now", "2026-12-05", vardagar)],
  [
    "helger",
    w("2026-11-28", "2026-12-07", { except: ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04"] })
  ],
  ["vardagar mellan 8 och 12", w("now", "2026-12-04 12:00", { hours: [8, 12], ...vardagar })],
  [
    "tisdagar",
    w("2026-11-24", "2026-12-02", {
      except: ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]
    })
  ],
  ["kvällstid", w("2026-11-23 17:00", "2026-12-06 21:00", { hours: [17, 21] })],
  ["efter jobbet", w("2026-11-23 17:00", "2026-12-06 21:00", { hours: [17, 21] })],
  ["dagtid", w("now", "2026-12-06 17:00", { hours: [8, 17] })],
  ["lunchtid", w("2026-11-23 11:00", "2026-12-06 13:00", { hours: [11, 13] })],
  ["tidig förmiddag", w("now", "2026-12-06 10:00", { hours: [8, 10] })],
  ["sen eftermiddag", w("2026-11-23 14:30", "2026-12-06 17:00", { hours: [14.5, 17] })],
  ["inom en vecka, på kvällen", w("2026-11-23 17:00", "2026-11-29 21:00", { hours: [17, 21] })],

  // Alternatives and exclusions.
  ["tisdag eller onsdag", w("2026-11-24", "2026-11-26")],
  ["tis/ons", w("2026-11-24", "2026-11-26")],
  ["tisdag eller onsdag förmiddag", w("2026-11-24 08:00", "2026-11-25 12:00", { hours: [8, 12] })],
  ["tisdag eller torsdag nästa vecka", w("2026-12-01", "2026-12-04", { except: ["2026-12-02"] })],
  ["idag eller imorgon", w("now", "2026-11-25")],
  ["inte måndag", w("2026-11-24", "2026-12-07", { except: ["2026-11-30"] })],
  [
    "helst förmiddag men inte måndag",
    w("2026-11-24 08:00", "2026-12-06 12:00", { hours: [8, 12], except: ["2026-11-30"] })
  ],
  ["nästa vecka men inte på fredag", w("2026-11-30", "2026-12-07", { except: ["2026-12-04"] })],
  ["vardagar men inte fredag", w("now", "2026-12-04", { except: ["2026-11-27", "2026-11-28", "2026-11-29"] })],
  [
    "december men inte mellandagarna",
    w("2026-12-01", "2027-01-01", { except: ["2026-12-27", "2026-12-28", "2026-12-29", "2026-12-30"] })
  ],
  ["not Monday", w("2026-11-24", "2026-12-07", { except: ["2026-11-30"] })],
  ["any day except Friday", w("now", "2026-12-07", { except: ["2026-11-27", "2026-12-04"] })],
  ["fredag, annars nästa vecka", w("2026-11-27", "2026-12-07", { except: ["2026-11-28", "2026-11-29"] })],
  ["mån-fre", w("now", "2026-12-05", vardagar)],
  ["måndag till onsdag", w("now", "2026-11-26")],
  ["från fredag till måndag", w("2026-11-27", "2026-12-01")],
  ["fredag den 3 december", w("2026-12-03", "2026-12-05")],

  // As soon as possible, any time.
  ["snarast", w("now", "2026-11-26 09:00")],
  ["så snart som möjligt", w("now", "2026-11-26 09:00")],
  ["asap", w("now", "2026-11-26 09:00")],
  ["akut", w("now", "2026-11-26 09:00")],
  ["första lediga tid", w("now", "2026-11-26 09:00")],
  ["så snart ni kan", w("now", "2026-11-26 09:00")],
  ["akut läcka, så fort som möjligt", w("now", "2026-11-26 09:00")],
  ["när som helst", w("now", "2026-12-07")],
  ["ingen brådska", w("now", "2026-12-07")],
  ["inte akut", w("now", "2026-12-07")],
  ["whenever", w("now", "2026-12-07")],
  ["vilken dag som helst", w("now", "2026-12-07")],

  // Days and times relative to today.
  ["idag", w("now", "2026-11-24")],
  ["imorgon", w("2026-11-24", "2026-11-25")],
  ["i morgon", w("2026-11-24", "2026-11-25")],
  ["i övermorgon", w("2026-11-25", "2026-11-26")],
  ["om 3 dagar", w("2026-11-26", "2026-11-27")],
  ["ikväll", w("2026-11-23 17:00", "2026-11-23 21:00")],
  ["i eftermiddag", w("2026-11-23 12:00", "2026-11-23 17:00")],
  ["imorgon förmiddag", w("2026-11-24 08:00", "2026-11-24 12:00")],
  ["imorgon kl 10", w("2026-11-24 10:00", "2026-11-24 14:00")],
  ["halv tre imorgon", w("2026-11-24 14:30", "2026-11-24 18:30")],
  ["på fredag", w("2026-11-27", "2026-11-28")],
  ["nu på fredag", w("2026-11-27", "2026-11-28")],
  ["nästa fredag", w("2026-12-04", "2026-12-05")],
  ["fredag nästa vecka", w("2026-12-04", "2026-12-05")],
  ["söndag 13:30", w("2026-11-29 13:30", "2026-11-29 17:30")],
  ["torsdag 08-10", w("2026-11-26 08:00", "2026-11-26 10:00")],
  ["lördag förmiddag", w("2026-11-28 08:00", "2026-11-28 12:00")],
  ["fredag efter 15", w("2026-11-27 15:00", "2026-11-27 21:00")],
  ["onsdag mellan 9 och 11", w("2026-11-25 09:00", "2026-11-25 11:00")],
  ["tisdag em", w("2026-11-24 12:00", "2026-11-24 17:00")],
  ["torsdag fm", w("2026-11-26 08:00", "2026-11-26 12:00")],
  ["vid 14-tiden på torsdag", w("2026-11-26 14:00", "2026-11-26 18:00")],
  ["torsdag klockan tio", w("2026-11-26 10:00", "2026-11-26 14:00")],
  ["KL. 10 PÅ TORSDAG", w("2026-11-26 10:00", "2026-11-26 14:00")],
  ["tisdag vecka 49", w("2026-12-01", "2026-12-02")],
  ["26/11 9:00", w("2026-11-26 09:00", "2026-11-26 13:00")],
  ["Thu 26 Nov", w("2026-11-26", "2026-11-27")],
  ["i övermorgon kväll", w("2026-11-25 17:00", "2026-11-25 21:00")],

  // English.
  ["tomorrow morning", w("2026-11-24 08:00", "2026-11-24 12:00")],
  ["next Friday", w("2026-12-04", "2026-12-05")],
  ["Friday", w("2026-11-27", "2026-11-28")],
  ["the 3rd of December", w("2026-12-03", "2026-12-04")],
  ["December 3rd", w("2026-12-03", "2026-12-04")],
  ["Dec 3 at 10am", w("2026-12-03 10:00", "2026-12-03 14:00")],
  ["on the 3rd at 3pm", w("2026-12-03 15:00", "2026-12-03 19:00")],
  ["3pm tomorrow", w("2026-11-24 15:00", "2026-11-24 19:00")],
  ["Tuesday or Wednesday", w("2026-11-24", "2026-11-26")],
  ["next week, not Wednesday", w("2026-11-30", "2026-12-07", { except: ["2026-12-02"] })],
  ["before Friday", w("now", "2026-11-27")],
  ["by Friday", w("now", "2026-11-28")],
  ["early next week", w("2026-11-30", "2026-12-03")],
  ["end of next week", w("2026-12-03", "2026-12-07")],
  ["this weekend", w("2026-11-28", "2026-11-30")],
  ["within 2 weeks", w("now", "2026-12-07 09:00")],
  ["as soon as possible", w("now", "2026-11-26 09:00")],
  ["no rush", w("now", "2026-12-07")],

  // Whole sentences, as an assistant relays them.
  [
    "Jobbar dagtid, så helst efter 17 på vardagar",
    w("2026-11-23 17:00", "2026-12-04 21:00", { hours: [17, 21], ...vardagar })
  ],
  ["Användaren är ledig fredag efter 14", w("2026-11-27 14:00", "2026-11-27 21:00")],
  [
    "Kan ta emot hantverkare tisdag–torsdag mellan 8 och 16",
    w("2026-11-24 08:00", "2026-11-26 16:00", { hours: [8, 16] })
  ],
  ["Någon eftermiddag i veckan", w("2026-11-23 12:00", "2026-11-29 17:00", { hours: [12, 17] })],
  ["tidigast den 1 december, senast den 10 december", w("2026-12-01", "2026-12-11")],
  ["vecka 51 eller 52", w("2026-12-14", "2026-12-28")],
  ["veckorna 50-51", w("2026-12-07", "2026-12-21")],
  ["kan inte måndag", w("2026-11-24", "2026-12-07", { except: ["2026-11-30"] })],
  ["är bortrest nästa vecka", w("now", "2026-11-30")],
  ["vi jobbar hemifrån på fredag", w("2026-11-27", "2026-11-28")],
  ["busy on Friday", w("now", "2026-12-07", { except: ["2026-11-27", "2026-12-04"] })],
  [
    "Any weekday morning next week except Wednesday",
    w("2026-11-30 08:00", "2026-12-04 12:00", { hours: [8, 12], except: ["2026-12-02"] })
  ],
  ["Sometime between Dec 1 and Dec 10", w("2026-12-01", "2026-12-11")],
  [
    "User is available Mon/Wed/Fri after 4pm",
    w("2026-11-23 16:00", "2026-11-27 21:00", { hours: [16, 21], except: ["2026-11-24", "2026-11-26"] })
  ],

  // Never confidently wrong.
  ["torsdag 13", "general"],
  ["sportlovet", "general"],
  ["under höstlovet", "general"],
  ["fredag eller sportlovet", "general"],
  ["nästa vecka, inte under sportlovet", "general"],
  ["2026-02-30", "general"],
  ["31/11", "general"],
  ["kl 25", "general"],
  ["20 november", "general"],
  ["12/3", "general"],
  ["15/12-10/12", "general"],
  ["under semestern", "general"],
  ["efter skolan", "general"],
  ["nästa", "general"],
  ["någon gång i vår", "general"],
  ["i natt", "general"]
]

// Monday 22 March 2027: the clocks go forward in the night to Sunday 28 March, Easter Sunday.
const spring = new Date("2027-03-22T09:00:00+01:00")

const springForward: ReadonlyArray<Entry> = [
  ["i helgen", w("2027-03-27", "2027-03-29")],
  ["söndag förmiddag", w("2027-03-28 08:00", "2027-03-28 12:00")],
  ["påsk", w("2027-03-26", "2027-03-30")],
  ["i påsk", w("2027-03-26", "2027-03-30")],
  ["påskafton", w("2027-03-27", "2027-03-28")],
  ["långfredagen", w("2027-03-26", "2027-03-27")],
  ["annandag påsk", w("2027-03-29", "2027-03-30")],
  ["påskdagen kl 10", w("2027-03-28 10:00", "2027-03-28 14:00")],
  ["skärtorsdagen", w("2027-03-25", "2027-03-26")],
  ["före påsk", w("now", "2027-03-26")],
  ["lördag till måndag", w("2027-03-27", "2027-03-30")],
  ["förmiddagar den här veckan", w("now", "2027-03-28 12:00", { hours: [8, 12] })],
  ["28/3 kl 8-10", w("2027-03-28 08:00", "2027-03-28 10:00")],
  ["Easter Monday", w("2027-03-29", "2027-03-30")]
]

// Monday 19 October 2026: the clocks go back in the night to Sunday 25 October.
const autumn = new Date("2026-10-19T09:00:00+02:00")

const fallBack: ReadonlyArray<Entry> = [
  ["i helgen", w("2026-10-24", "2026-10-26")],
  ["söndag", w("2026-10-25", "2026-10-26")],
  ["söndag kl 10", w("2026-10-25 10:00", "2026-10-25 14:00")],
  ["helgen efter 17", w("2026-10-24 17:00", "2026-10-25 21:00", { hours: [17, 21] })],
  ["25/10 förmiddag", w("2026-10-25 08:00", "2026-10-25 12:00")],
  ["vecka 43", w("now", "2026-10-26")],
  ["alla helgons dag", w("2026-10-31", "2026-11-01")],
  ["allhelgonaafton", w("2026-10-30", "2026-10-31")],
  ["fars dag", w("2026-11-08", "2026-11-09")],
  ["kvällar den här veckan", w("2026-10-19 17:00", "2026-10-25 21:00", { hours: [17, 21] })]
]

const check = (now: Date) => (text: string, meant: Meant | "general") => {
  const window = parseTimeWindow({ preferredTimeText: text, timeZone: zone, now })
  if (meant === "general") {
    expect(window.understood, window.label).toBe(false)
    expect(window.start.getTime()).toBe(now.getTime())
    expect(window.label).toMatch(/^Tiden (kunde inte tolkas|kunde bara delvis tolkas|går inte att söka)/)
    return
  }
  expect(window.understood, window.label).toBe(true)
  expect(
    {
      start: window.start.toISOString(),
      end: window.end.toISOString(),
      dailyHours: window.dailyHours,
      excludedDates: window.excludedDates
    },
    window.label
  ).toEqual({
    start: new Date(local(meant.from, now)).toISOString(),
    end: new Date(local(meant.to, now)).toISOString(),
    dailyHours: meant.hours === undefined ? undefined : { fromHour: meant.hours[0], toHour: meant.hours[1] },
    excludedDates: meant.except
  })
}

describe("the corpus of real-sounding phrases", () => {
  it("has at least 150 phrases", () => {
    expect(november.length + springForward.length + fallBack.length).toBeGreaterThanOrEqual(150)
  })

  describe("seen from Monday 23 November 2026, 09:00", () => {
    it.each(november)("%s", check(monday))
  })

  describe("seen from Monday 22 March 2027, the week of the spring-forward Easter Sunday", () => {
    it.each(springForward)("%s", check(spring))
  })

  describe("seen from Monday 19 October 2026, the week of the fall-back Sunday", () => {
    it.each(fallBack)("%s", check(autumn))
  })
})
