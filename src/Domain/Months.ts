/** The months' names, January first: the one table every label and message takes them from (imports nothing). */
export const monthNames = [
  { sv: "januari", en: "January" },
  { sv: "februari", en: "February" },
  { sv: "mars", en: "March" },
  { sv: "april", en: "April" },
  { sv: "maj", en: "May" },
  { sv: "juni", en: "June" },
  { sv: "juli", en: "July" },
  { sv: "augusti", en: "August" },
  { sv: "september", en: "September" },
  { sv: "oktober", en: "October" },
  { sv: "november", en: "November" },
  { sv: "december", en: "December" }
] as const
